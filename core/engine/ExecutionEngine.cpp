#include "engine/ExecutionEngine.h"

#include "backend/ContainerBackend.h"
#include "engine/EngineRun.h"
#include "engine/LibraryInstall.h"
#include "engine/OrphanReaper.h"
#include "engine/RunSampler.h"
#include "engine/SessionRun.h"
#include "folders/FolderSnapshot.h"
#include "lang/LanguageRegistry.h"
#include "runnerclient/RunnerClient.h"

#include <QElapsedTimer>
#include <QUuid>

Q_LOGGING_CATEGORY(lcEngine, "sandbox.engine")

namespace sandbox {

namespace {

using namespace std::chrono_literals;

QString newId()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(16);
}

/// The policy named by the settings with the user's rules; fromEnvironment() validated both,
/// a bad name in code falls back to the safe default.
CodePolicy policyNamed(const QString &name, const QList<PolicyRule> &userRules)
{
    auto preset = CodePolicy::preset(name);
    CodePolicy policy = preset ? *preset : *CodePolicy::preset(QStringLiteral("default"));
    for (const PolicyRule &rule : userRules) {
        if (auto added = policy.addRule(rule); !added) {
            qCWarning(lcEngine).noquote() << "code policy rule ignored:" << added.error().message;
        }
    }
    return policy;
}

} // namespace

ExecutionEngine::ExecutionEngine(std::shared_ptr<ContainerBackend> backend, SandboxSettings settings)
    : m_backend(std::move(backend)), m_settings(std::move(settings)),
      m_catalog(ImageCatalog::defaultRunnerPath(), m_settings.imageOverrides, m_settings.baseImage),
      m_policy(policyNamed(m_settings.policy, m_settings.policyRules)),
      m_starter(*m_backend, m_catalog, ContainerSpecFactory(m_settings, ownerIdentity())),
      m_runSlots(m_settings.maxRuns), m_pool({m_settings.poolSize, m_settings.poolIdleTimeout, m_settings.poolMaxUses,
                                              std::min(m_settings.poolIdleTimeout, std::chrono::seconds(30))}),
      m_sessions(m_settings.sessionIdleTimeout, m_settings.maxSessions, m_settings.maxSessionFileBytes)
{
    // Every sandbox mounts the shared folders' copies; each run brings them up to date (ExecutionEngine::Run).
    for (const SharedFolder &folder : m_settings.sharedFolders) {
        FolderSnapshot::makeView(folder);
    }
}

ExecutionEngine::~ExecutionEngine()
{
    // Containers left while the engine was away, if it answers again by now (those it does not are the orphans of an
    // ended process that the next llm-sandbox process removes).
    m_starter.removals().retry(*m_backend);
    // Every run has ended and stopped its sampler; a sample may still be in flight to the engine. Its answer comes
    // within the client's timeout: wait for it rather than let the thread outlive the program's exit.
    if (!RunSampler::waitForThreads(m_backend.get(), std::chrono::seconds(15))) {
        qCWarning(lcEngine) << "a container sample was still unanswered after 15 s";
    }
}

Error ExecutionEngine::noteFailure(Error error)
{
    if (error.code == ErrorCode::EngineUnreachable) {
        // The pool's containers died with the engine, or their streams did: none is handed to a run again.
        m_pool.clear();
    }
    return error;
}

QString ExecutionEngine::ownerIdentity()
{
    return OrphanReaper::ownIdentity();
}

int ExecutionEngine::removeOrphanedContainers()
{
    return OrphanReaper(*m_backend, ownerLabel()).removeOrphans();
}

Subscription ExecutionEngine::subscribe(RunObserver *observer)
{
    return m_observers.subscribe(observer);
}

Result<std::pair<Language, QString>> ExecutionEngine::languageAndImage(const QString &languageName) const
{
    auto language = LanguageRegistry::instance().find(languageName);
    if (!language) {
        return language.error();
    }
    auto image = m_catalog.runImage(*language);
    if (!image) {
        return image.error();
    }
    return std::pair{*language, *image};
}

int ExecutionEngine::warmContainers(const QString &languageName) const
{
    auto found = languageAndImage(languageName);
    return found ? m_pool.idleCount(found->second) : 0;
}

int ExecutionEngine::warmContainersWithLibraries(const QString &languageName) const
{
    auto found = languageAndImage(languageName);
    if (!found) {
        return 0;
    }
    return m_pool.idleCount(
        [&](const QString &key) { return key.startsWith(found->second) && key.contains(Run::kWithLibraries); });
}

void ExecutionEngine::drainPool()
{
    m_pool.drain();
}

void ExecutionEngine::prewarm(const QString &languageName)
{
    auto found = languageAndImage(languageName);
    if (!found) {
        return;
    }
    if (!foldersTravel()) { // the folders' versions are known to a run, which warms the next sandbox
        prewarmImage(found->first, found->second, found->second);
    }
}

bool ExecutionEngine::foldersTravel() const
{
    return !m_settings.sharedFolders.isEmpty() && !m_backend->mountsHostFolders();
}

void ExecutionEngine::prewarmImage(const Language &language, const QString &image, const QString &key)
{
    // The factory runs later on the pool's thread: it holds copies, never a run's references.
    m_pool.prewarm(key, [this, language, image, key] {
        auto container = m_starter.start(language, image, {}, ContainerOptions{.poolKey = key});
        if (container && !language.preloaded.isEmpty()) {
            startPreloaded(**container, language);
        }
        return container;
    });
}

void ExecutionEngine::prewarmLibraries(const Language &language, const QString &image, const QStringList &libraries,
                                       const LibraryInstallPlan &plan, const ContainerOptions &options)
{
    m_pool.prewarm(options.poolKey, [this, language, image, libraries, plan, options] {
        // A run of the engine's own that no observer sees: its progress goes nowhere, nothing stops it but the pool.
        Run warming(*this, QStringLiteral("warm-") + newId(), false, nullptr, {});
        return LibraryInstall(warming, false).startFromCache(language, image, libraries, plan, options);
    });
}

void ExecutionEngine::startPreloaded(SandboxContainer &container, const Language &language)
{
    // A run of `true` naming each preloaded interpreter: the runner starts them after it, as after any run that names
    // one, so the container's first real run can be a fork already.
    RunnerRunRequest warm;
    warm.id = QStringLiteral("preload-") + newId();
    warm.workdir = SandboxContainer::workdir();
    const QList<QStringList> interpreters = Run::preloadedInterpreters(language);
    for (const QStringList &interpreter : interpreters) {
        if (interpreter == interpreters.first() || preloadWasNamed(interpreter)) {
            warm.steps.append(RunnerStep{QStringLiteral("preload"), {QStringLiteral("true")}, interpreter});
        }
    }
    warm.env = Run::runEnvironment(language);
    warm.outputDir = SandboxContainer::outputDir();
    if (!container.runner().send(warm)) {
        return;
    }
    const auto giveUpAt = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < giveUpAt) {
        auto event = container.runner().next(Run::kPollInterval);
        if (!event) {
            return;
        }
        if (*event && std::holds_alternative<RunnerDoneEvent>(**event)) {
            return;
        }
    }
}

void ExecutionEngine::notePreloadNamed(const QStringList &interpreter)
{
    if (!interpreter.isEmpty()) {
        std::lock_guard lock(m_preloadsMutex);
        m_preloadsNamed.insert(interpreter);
    }
}

bool ExecutionEngine::preloadWasNamed(const QStringList &interpreter) const
{
    std::lock_guard lock(m_preloadsMutex);
    return m_preloadsNamed.contains(interpreter);
}

Result<RunResult> ExecutionEngine::run(const RunRequest &original, std::stop_token stop, RunObserver *observer)
{
    // A session run without its own language or timeout takes the session's; observers see the values used.
    RunRequest request = original;
    if (!request.sessionId.isEmpty()) {
        if (auto session = m_sessions.registry().find(request.sessionId, request.sessionOwner)) {
            if (request.language.isEmpty()) {
                request.language = (*session)->info.language;
            }
            if (request.timeout.count() <= 0) {
                request.timeout = (*session)->info.timeout;
            }
        }
    }
    const QString id = newId();
    // Stopped by its caller, or by a person at the desktop (userStops()).
    const std::unique_ptr<UserStops::Entry> stops = m_userStops->add(id, std::move(stop));
    Run run(*this, id, true, observer, stops->token());
    run.notify([&](RunObserver &each) { each.runStarted(id, request); });
    QElapsedTimer timer;
    timer.start();
    auto result = run.execute(request);
    if (stops->stoppedByUser()) {
        result = UserStops::endedByUser(std::move(result), timer.elapsed());
    }
    if (result) {
        result->runId = id;
        result->durationMs = timer.elapsed();
        qCDebug(lcEngine) << "run" << id << "finished:" << toString(result->reason) << result->exitCode << "in"
                          << result->durationMs << "ms";
    } else {
        qCDebug(lcEngine).noquote() << "run" << id << "failed:" << result.error().message;
    }
    run.notify([&](RunObserver &each) {
        each.runFinished(id, result ? *result : RunResult{},
                         result ? std::nullopt : std::optional<Error>(result.error()));
    });
    return result;
}

Result<SessionInfo> ExecutionEngine::createSession(const SessionRequest &request, std::stop_token stop,
                                                   RunObserver *observer)
{
    // Only the caller sees the progress: opening a session is not a run of the journal.
    Run run(*this, newId(), false, observer, std::move(stop));
    return m_sessions.create(request, [&](const Language &language, const QString &sessionId) {
        return SessionRun(run).prepare(language, request.libraries, request.network, sessionId);
    });
}

Result<void> ExecutionEngine::closeSession(const QString &id, const QString &owner)
{
    return m_sessions.close(id, owner);
}

QList<SessionInfo> ExecutionEngine::sessions(const QString &owner) const
{
    return m_sessions.list(owner);
}

Result<qint64> ExecutionEngine::writeSessionFile(const QString &sessionId, const QString &path, const QByteArray &data,
                                                 const QString &owner)
{
    return m_sessions.writeFile(sessionId, owner, path, data);
}

Result<QByteArray> ExecutionEngine::readSessionFile(const QString &sessionId, const QString &path, const QString &owner)
{
    return m_sessions.readFile(sessionId, owner, path);
}

} // namespace sandbox
