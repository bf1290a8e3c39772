#include "AppContext.h"

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"
#include "lang/LanguageRegistry.h"
#include "secrets/KeychainSecretStore.h"
#include "secrets/NetworkSecretSource.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QtConcurrent>

Q_LOGGING_CATEGORY(lcContext, "sandbox.app")

namespace sandbox {

namespace {

constexpr std::chrono::minutes kRetentionInterval{10};

} // namespace

/// An engine with what was attached to it; the cleanup finishes before the engine goes.
struct AppContext::EngineSlot
{
    // The recorder outlives the engine: runs still finishing are recorded to the end.
    std::unique_ptr<JournalRecorder> recorder;
    std::unique_ptr<ExecutionEngine> engine;
    Subscription journalSubscription;
    QFuture<void> cleanup;
    QFuture<void> drain; ///< once retired: its warm containers being removed

    ~EngineSlot()
    {
        cleanup.waitForFinished();
        drain.waitForFinished();
        journalSubscription.reset();
        engine.reset();
    }
};

Result<std::unique_ptr<AppContext>> AppContext::create(const Options &options)
{
    auto userSettings = std::make_unique<UserSettings>();
    SandboxSettings defaults;
    defaults.defaultTimeout = userSettings->defaultTimeout();
    defaults.runtime = userSettings->runtime();
    if (options.desktopSettings) {
        defaults.sharedFolders = userSettings->usableSharedFolders(); // LLM_SANDBOX_SHARE wins
        defaults.networkAllow = userSettings->networkAllow();         // LLM_SANDBOX_NETWORK_ALLOW wins
    }
    auto settings = SandboxSettings::fromEnvironment(defaults);
    if (!settings) {
        return settings.error().withCode(ErrorCode::BadRequest);
    }
    if (!options.policy.isEmpty()) {
        settings->policy = options.policy;
    }
    // The secrets the user bound to hosts (`llm-sandbox secrets`), from the system keychain, which answers on the
    // main thread.
    settings->networkSecrets =
        std::make_shared<StoredNetworkSecrets>(std::make_shared<KeychainSecretStore>(), QCoreApplication::instance());
    return std::unique_ptr<AppContext>(new AppContext(options, std::move(*settings), std::move(userSettings)));
}

AppContext::AppContext(Options options, SandboxSettings settings, std::unique_ptr<UserSettings> userSettings)
    : m_options(std::move(options)), m_settings(std::move(settings)), m_userSettings(std::move(userSettings))
{
    m_defaultBackend = m_options.backendName.trimmed().toLower();
    if (m_defaultBackend.isEmpty()) {
        m_defaultBackend = m_userSettings->effectiveBackend();
    }
    openJournal();
}

void AppContext::openJournal()
{
    const std::optional<QString> path = RunJournal::configuredPath();
    if (!path) {
        return; // LLM_SANDBOX_JOURNAL=off
    }
    // Runs must not fail because the journal cannot be written (a full disk, a file locked or damaged by another
    // program): the recorder says so once, keeps what it could not write and writes it when the journal takes it.
    m_journalPath = *path;
    auto journal = RunJournal::open(*path);
    if (!journal) {
        qCDebug(lcContext).noquote() << "the run journal does not open:" << journal.error().message;
        return;
    }
    m_journal = std::move(*journal);
    if (m_options.applyRetention) {
        applyRetention();
        // Not only at start: a process that runs for days must not let its runs' files fill the disk.
        m_retentionTimer = std::make_unique<QTimer>();
        m_retentionTimer->setInterval(kRetentionInterval);
        QObject::connect(m_retentionTimer.get(), &QTimer::timeout, m_retentionTimer.get(), [this] {
            if (m_retention.isFinished()) {
                applyRetention();
            }
        });
        m_retentionTimer->start();
    }
}

void AppContext::applyRetention()
{
    const RunJournal::Retention retention{.maxAge = std::chrono::days(m_userSettings->journalMaxAgeDays()),
                                          .maxTotalBytes = qint64(m_userSettings->journalMaxSizeMiB()) * 1024 * 1024};
    RunJournal *journalPointer = m_journal.get();
    m_retention = QtConcurrent::run([journalPointer, retention] {
        if (auto removed = journalPointer->applyRetention(retention); !removed) {
            qCWarning(lcContext).noquote()
                << QCoreApplication::translate("AppContext", "journal retention: %1").arg(removed.error().message);
        }
    });
}

AppContext::~AppContext()
{
    m_retentionTimer.reset();
    m_engines.clear();
    m_retired.clear();
    m_retention.waitForFinished();
}

SandboxSettings AppContext::settings() const
{
    std::lock_guard lock(m_mutex);
    return m_settings;
}

ImageCatalog AppContext::catalog() const
{
    // Its settings never change after create().
    return ImageCatalog(ImageCatalog::defaultRunnerPath(), m_settings.imageOverrides, m_settings.baseImage);
}

bool AppContext::networkAllowFromEnvironment()
{
    return qEnvironmentVariableIsSet("LLM_SANDBOX_NETWORK_ALLOW");
}

bool AppContext::reloadSandboxSettings()
{
    // The environment's values stay for the whole process, as every other variable does.
    const bool foldersFromUser = m_options.desktopSettings && !qEnvironmentVariableIsSet("LLM_SANDBOX_SHARE");
    const bool networkFromUser = m_options.desktopSettings && !networkAllowFromEnvironment();
    const QList<SharedFolder> folders = foldersFromUser ? m_userSettings->usableSharedFolders() : QList<SharedFolder>();
    const NetworkAllowList networkAllow = networkFromUser ? m_userSettings->networkAllow() : NetworkAllowList();
    std::lock_guard lock(m_mutex);
    const bool foldersChanged = foldersFromUser && folders != m_settings.sharedFolders;
    const bool networkChanged = networkFromUser && !(networkAllow == m_settings.networkAllow);
    if (!foldersChanged && !networkChanged) {
        return false;
    }
    if (foldersChanged) {
        m_settings.sharedFolders = folders;
    }
    if (networkChanged) {
        m_settings.networkAllow = networkAllow;
    }
    // Each engine keeps the settings it was made with: the next run of each backend gets a new one.
    for (auto &[name, slot] : m_engines) {
        ExecutionEngine *engine = slot->engine.get();
        slot->drain = QtConcurrent::run([engine] { engine->drainPool(); });
        m_retired.push_back(std::move(slot));
    }
    m_engines.clear();
    qCDebug(lcContext).noquote() << "sandbox settings changed: folders" << m_settings.sharedFolders.size()
                                 << ", network" << m_settings.networkAllow.text() << "; engines retired";
    return true;
}

QString AppContext::defaultBackend() const
{
    std::lock_guard lock(m_mutex);
    return m_defaultBackend;
}

bool AppContext::reloadDefaultBackend()
{
    if (!m_options.backendName.trimmed().isEmpty()) {
        return false; // --backend wins over the settings for the whole process
    }
    const QString chosen = m_userSettings->effectiveBackend();
    std::lock_guard lock(m_mutex);
    if (chosen == m_defaultBackend) {
        return false;
    }
    qCDebug(lcContext).noquote() << "default backend" << m_defaultBackend << "->" << chosen;
    m_defaultBackend = chosen;
    return true;
}

QString AppContext::resolved(const QString &name) const
{
    return name.isEmpty() ? defaultBackend() : name.trimmed().toLower();
}

Result<std::shared_ptr<ContainerBackend>> AppContext::backend(const QString &name)
{
    const QString chosen = resolved(name);
    std::lock_guard lock(m_mutex);
    return backendLocked(chosen);
}

Result<std::shared_ptr<ContainerBackend>> AppContext::backendLocked(const QString &chosen)
{
    if (auto found = m_backends.find(chosen); found != m_backends.end()) {
        return found->second;
    }
    auto made = BackendFactory::create(chosen, m_userSettings->connection());
    if (!made) {
        return made.error();
    }
    m_backends.emplace(chosen, *made);
    return *made;
}

void AppContext::reconnect(const QString &name)
{
    const QString chosen = resolved(name);
    std::lock_guard lock(m_mutex);
    // The backend is made again from the connection saved now (BackendFactory reads it at creation only).
    m_backends.erase(chosen);
    auto found = m_engines.find(chosen);
    if (found == m_engines.end()) {
        return;
    }
    std::unique_ptr<EngineSlot> slot = std::move(found->second);
    m_engines.erase(found);
    // Not destroyed: a run in progress, an open session or an MCP session holds its pointer (the engine has no
    // reference count), and it ends where it began. Its warm containers would outlive them on the old connection:
    // they go now, off the caller's thread (removing containers talks to the engine), and none is pooled again.
    ExecutionEngine *engine = slot->engine.get();
    slot->drain = QtConcurrent::run([engine] { engine->drainPool(); });
    qCDebug(lcContext).noquote() << "engine for" << chosen << "retired; the next one uses the saved connection";
    m_retired.push_back(std::move(slot));
}

Result<ExecutionEngine *> AppContext::engine(const QString &name)
{
    const QString chosen = resolved(name);
    // One lock for the backend and the engine: a reconnect() between them would pair the old backend with a new
    // engine.
    std::lock_guard lock(m_mutex);
    if (auto found = m_engines.find(chosen); found != m_engines.end()) {
        return found->second->engine.get();
    }
    auto madeBackend = backendLocked(chosen);
    if (!madeBackend) {
        return madeBackend.error();
    }
    auto slot = std::make_unique<EngineSlot>();
    slot->engine = std::make_unique<ExecutionEngine>(*madeBackend, m_settings);
    ExecutionEngine *engine = slot->engine.get();
    if (!m_journalPath.isEmpty()) {
        slot->recorder = std::make_unique<JournalRecorder>(
            m_journalPath,
            JournalRecorder::Context{.backend = chosen,
                                     .endpoint = (*madeBackend)->endpoint(),
                                     .settings = JournalRecorder::settingsJson(m_settings),
                                     // Asked in runStarted, on a run's thread: the engine exists.
                                     .imageForLanguage = [engine](const QString &languageName) -> QString {
                                         auto language = LanguageRegistry::instance().find(languageName);
                                         auto image = language ? engine->catalog().runImage(*language)
                                                               : Result<QString>(QString());
                                         return image ? *image : QString();
                                     },
                                     .onProblem =
                                         [this](const QString &problem) {
                                             const std::lock_guard lock(m_problemMutex);
                                             m_journalProblem = problem;
                                             if (m_journalProblemHandler) {
                                                 m_journalProblemHandler(problem);
                                             }
                                         },
                                     // On the recorder's thread, which outlives the engine: its stops may be gone.
                                     .onStopRequested =
                                         [stops = engine->userStops()](const QString &runId) {
                                             if (const auto alive = stops.lock()) {
                                                 alive->stop(runId);
                                             }
                                         }});
        slot->journalSubscription = engine->subscribe(slot->recorder.get());
    }
    if (m_options.removeOrphans) {
        // Off the caller's thread: the desktop app's window and the MCP server's first answer do not wait for it.
        slot->cleanup = QtConcurrent::run([engine] { engine->removeOrphanedContainers(); });
    }
    for (const QString &language : std::as_const(m_options.prewarm)) {
        engine->prewarm(language);
    }
    qCDebug(lcContext).noquote() << "engine for" << chosen << "ready (" << toString(m_options.source) << ")";
    m_engines.emplace(chosen, std::move(slot));
    return engine;
}

QString AppContext::journalProblem() const
{
    const std::lock_guard lock(m_problemMutex);
    return m_journalProblem;
}

void AppContext::onJournalProblem(std::function<void(const QString &problem)> handler)
{
    const std::lock_guard lock(m_problemMutex);
    m_journalProblemHandler = std::move(handler);
}

JournalRecorder *AppContext::recorder(const QString &name)
{
    const QString chosen = resolved(name);
    std::lock_guard lock(m_mutex);
    auto found = m_engines.find(chosen);
    return found != m_engines.end() ? found->second->recorder.get() : nullptr;
}

JournalRecorder *AppContext::recorderOf(const ExecutionEngine *engine)
{
    std::lock_guard lock(m_mutex);
    for (const auto &[name, slot] : m_engines) {
        if (slot->engine.get() == engine) {
            return slot->recorder.get();
        }
    }
    for (const auto &slot : m_retired) {
        if (slot->engine.get() == engine) {
            return slot->recorder.get();
        }
    }
    return nullptr;
}

} // namespace sandbox
