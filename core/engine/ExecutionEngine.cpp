#include "engine/ExecutionEngine.h"

#include "artifacts/ArtifactBudget.h"
#include "backend/ContainerBackend.h"
#include "engine/EgressProxy.h"
#include "engine/LibraryInstallPlan.h"
#include "engine/OrphanReaper.h"
#include "engine/RunSampler.h"
#include "engine/SandboxContainer.h"
#include "lang/LanguageRegistry.h"
#include "runnerclient/RunnerClient.h"
#include "security/ImportScanner.h"
#include "security/SourceLexer.h"
#include "util/Redaction.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QUuid>

Q_LOGGING_CATEGORY(lcEngine, "sandbox.engine")

namespace sandbox {

namespace {

using namespace std::chrono_literals;

/// The network of an install's egress proxy: the engine's default.
const ContainerNetwork kInstallNetwork = ContainerNetwork::named(QStringLiteral("bridge"));
/// What an installer sandbox packs its libraries into, in its working directory, for the sandbox that runs the code.
const QString kLibraryArchive = QStringLiteral(".llm-sandbox-libraries.tar.gz");
/// The largest library archive copied from an installer sandbox (it travels through the runner protocol).
constexpr qint64 kMaxLibraryArchiveBytes = 128LL * 1024 * 1024;
/// How long a session file operation may take before the session's runner is considered stuck.
constexpr auto kFileOperationTimeout = 60s;
/// How long past the run's timeout the runner may take to report before the container is removed.
constexpr auto kReportGrace = 10s;
constexpr auto kPollInterval = 100ms;

/// The preloaded interpreters of `language` (Language::preloaded): the plain one, and the one that imported
/// `preloadedModules` first, if it names any.
QList<QStringList> preloadedInterpreters(const Language &language)
{
    if (language.preloaded.isEmpty()) {
        return {};
    }
    if (language.preloadedModules.isEmpty()) {
        return {language.preloaded};
    }
    return {language.preloaded, language.preloaded + language.preloadedModules};
}

/// The preloaded interpreter `code` runs as a fork of: the one with the modules it imports (their top-level
/// packages), else the plain one; empty when the language has none.
QStringList preloadedInterpreterFor(const Language &language, const QString &code)
{
    const QList<QStringList> interpreters = preloadedInterpreters(language);
    if (interpreters.size() < 2) {
        return interpreters.value(0);
    }
    const LexedSource source = SourceLexer::lex(language.name, code);
    for (const ImportReference &reference : ImportScanner::imports(language.name, source)) {
        const QString package = reference.module.section(u'.', 0, 0);
        if (std::any_of(language.preloadedModules.begin(), language.preloadedModules.end(),
                        [&](const QString &module) { return module.section(u'.', 0, 0) == package; })) {
            return interpreters.last();
        }
    }
    return interpreters.first();
}

/// The whole environment of a run's steps: nothing of the host's, only what the run needs.
QMap<QString, QString> runEnvironment(const Language &language)
{
    QMap<QString, QString> env{
        {QStringLiteral("PATH"), QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")},
        {QStringLiteral("HOME"), QStringLiteral("/tmp")},
        {QStringLiteral("TMPDIR"), QStringLiteral("/tmp")},
        {QStringLiteral("LANG"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("LLM_SANDBOX_OUTPUT_DIR"), SandboxContainer::outputDir()},
    };
    for (auto it = language.environment.begin(); it != language.environment.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    return env;
}

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

/// The libraries of `requested` that still need installing: not in the image (prompts often name numpy or
/// matplotlib) and not in `installed` (a session's) already.
QStringList librariesToInstall(const Language &language, const QStringList &requested,
                               const QStringList &installed = {})
{
    QStringList missing;
    for (const QString &library : requested) {
        if (!language.preinstalledLibraries.contains(library.trimmed(), Qt::CaseInsensitive) &&
            !installed.contains(library.trimmed(), Qt::CaseInsensitive)) {
            missing << library;
        }
    }
    return missing;
}

QList<RunnerFile> projectFiles(const Language &language)
{
    QList<RunnerFile> files;
    for (auto it = language.projectFiles.begin(); it != language.projectFiles.end(); ++it) {
        files.append(RunnerFile{it.key(), it.value().toUtf8()});
    }
    return files;
}

/// What a run says of its sandbox that ended under it, neither for want of memory nor by the engine going away.
QString unexpectedEnd(const ContainerEnd &end)
{
    if (end.killedThroughEngine) {
        return QStringLiteral("The sandbox container was killed from outside the run (a kill or stop asked of the "
                              "container engine), which did not finish.");
    }
    if (end.exitCode) {
        return QStringLiteral("The sandbox container stopped unexpectedly (exit status %1).").arg(*end.exitCode);
    }
    return QStringLiteral("The sandbox container stopped unexpectedly.");
}

StopReason reasonFrom(RunnerDoneReason reason, bool compileFailed)
{
    switch (reason) {
    case RunnerDoneReason::Timeout:
        return StopReason::TimedOut;
    case RunnerDoneReason::OutOfMemory:
        return StopReason::OutOfMemory;
    case RunnerDoneReason::CpuLimit:
        return StopReason::CpuLimit;
    case RunnerDoneReason::OutputLimit:
        return StopReason::OutputLimit;
    case RunnerDoneReason::Cancelled:
        return StopReason::Cancelled;
    case RunnerDoneReason::Exit:
    case RunnerDoneReason::Error:
        break;
    }
    return compileFailed ? StopReason::CompileFailed : StopReason::Exited;
}

// The result carries the limits in force in its sandbox; a sandbox that lacks some, accepted by
// SANDBOX_ALLOW_UNENFORCED_LIMITS, is noted on every run so weaker isolation never goes unnoticed.
void attachLimits(Result<RunResult> &result, const SandboxContainer &container)
{
    if (!container.acceptedWeakerIsolation().isEmpty()) {
        qCWarning(lcEngine).noquote() << container.acceptedWeakerIsolation();
    }
    if (result) {
        result->enforcedLimits = container.enforcedLimits();
    }
}

} // namespace

/// One run (or the opening of a session): takes or starts the container, drives the runner, collects the result,
/// and tells the observers.
class ExecutionEngine::Run final
{
public:
    /// `subscribed`: whether the engine's subscribed observers see this run (not the opening of a session);
    /// `caller`: the caller's own observer, or null.
    Run(ExecutionEngine &engine, QString id, bool subscribed, RunObserver *caller, std::stop_token stop)
        : m_engine(engine), m_id(std::move(id)), m_subscribed(subscribed), m_caller(caller), m_stop(std::move(stop))
    {}

    Result<RunResult> execute(const RunRequest &request);
    /// The started container of the new session `sessionId` of `language` with `libraries` installed.
    Result<std::unique_ptr<SandboxContainer>> prepareSession(const Language &language, const QStringList &libraries,
                                                             const QString &sessionId);
    void notify(const std::function<void(RunObserver &)> &call) const
    {
        if (m_subscribed) {
            m_engine.m_observers.forEach(call);
        }
        if (m_caller) {
            call(*m_caller);
        }
    }

private:
    RunnerRunRequest runRequest(const RunRequest &request, const Language &language, bool afterInstall = false) const;
    /// Reads the runner's events to the end of the run; `clean` tells whether the runner
    /// reported the end itself without an error (then the container can serve another run). Output goes to
    /// the observers as output, or (`asProgress`, for install steps) as progress lines. A container the engine
    /// records as ended by the OOM killer (`containerId`: the one to ask about) ends the run with `oom`: the whole
    /// sandbox reached its memory limit (under gVisor the host's OOM killer takes the Sentry, which holds the program's
    /// memory, with the program).
    Result<RunResult> collect(RunnerClient &runner, std::chrono::milliseconds timeout, bool &clean,
                              bool asProgress = false, const QString &containerId = {});
    /// collect() of the program's run in `container`, its container sampled meanwhile (RunObserver::runSample).
    Result<RunResult> collectSampled(SandboxContainer &container, std::chrono::milliseconds timeout, bool &clean)
    {
        notify([&](RunObserver &observer) { observer.runContainer(m_id, container.id()); });
        const RunSampler sampler(m_engine.m_backend, container.id(), [this](const ContainerStats &sample) {
            notify([&](RunObserver &observer) { observer.runSample(m_id, sample); });
        });
        return collect(container.runner(), timeout, clean, false, container.id());
    }
    /// Starts a container with `plan` installed, then runs the code there.
    Result<RunResult> installAndRun(const RunRequest &request, const Language &language, const QString &image,
                                    const LibraryInstallPlan &plan);
    /// A fresh container of `image` with `plan` (`libraries`) installed and no network. The install runs in a
    /// builder sandbox of its own (the language's builder image, with its compilers) whose only way out is the
    /// egress proxy (EgressProxy), and what it wrote is copied into a
    /// container that never had network. `labels` go to the container the code runs in.
    Result<std::unique_ptr<SandboxContainer>> startWithLibraries(const Language &language, const QString &image,
                                                                 const QStringList &libraries,
                                                                 const LibraryInstallPlan &plan, bool forSession,
                                                                 const QHash<QString, QString> &labels = {});
    /// Installs `plan` (`libraries`) in `container`.
    Result<void> install(SandboxContainer &container, const Language &language, const QStringList &libraries,
                         const LibraryInstallPlan &plan, bool forSession);
    /// Packs what the install wrote in the builder `installer` (Language::LibraryInstaller::installedPaths, the
    /// project files) and unpacks it in `container`.
    Result<void> copyLibraries(SandboxContainer &installer, SandboxContainer &container, const Language &language,
                               bool forSession);
    /// A request of the engine's own steps (install, pack, unpack): no source file, no artifacts, the install
    /// timeout.
    RunnerRunRequest setupRequest(const Language &language, QList<RunnerStep> steps) const;
    /// Sends `request` to `container` and reads its events to the end: an error naming `what` when it was cancelled
    /// or a step did not exit with 0 (with its output, and that the session was not created or the code not run).
    Result<void> runSetup(SandboxContainer &container, const RunnerRunRequest &request, const QString &what,
                          bool forSession);
    Result<RunResult> executeInSession(const RunRequest &request);
    Result<std::unique_ptr<SandboxContainer>> startContainer(const Language &language, const QString &image,
                                                             const ContainerOptions &options = {})
    {
        return m_engine.m_starter.start(
            language, image, [this](const RunProgress &progress) { report(progress); }, options);
    }
    /// An error for a run cancelled before its program started, or nothing.
    Result<void> checkNotCancelled() const
    {
        if (m_stop.stop_requested()) {
            return Error{QStringLiteral("The run was cancelled before it started."), ErrorCode::Cancelled};
        }
        return {};
    }
    /// Progress reaches the GUI, the journal's observers and MCP clients: never a credential a URL carries.
    void report(RunProgress progress) const
    {
        progress.message = redactCredentials(std::move(progress.message));
        notify([&](RunObserver &observer) { observer.runProgress(m_id, progress); });
    }
    void report(RunProgress::Kind kind, const QString &message) const { report(RunProgress{kind, message}); }

    ExecutionEngine &m_engine;
    QString m_id;
    bool m_subscribed;
    RunObserver *m_caller;
    std::stop_token m_stop;
};

RunnerRunRequest ExecutionEngine::Run::runRequest(const RunRequest &request, const Language &language,
                                                  bool afterInstall) const
{
    const SandboxSettings &settings = m_engine.m_settings;
    RunnerRunRequest run;
    run.id = m_id;
    run.workdir = SandboxContainer::workdir();
    // What one run leaves in a pooled container's scratch space is gone before the next.
    // POSIX message queues (/dev/mqueue) outlive their processes just like files.
    run.scratchDirs = {QStringLiteral("/tmp"), QStringLiteral("/dev/shm"), QStringLiteral("/dev/mqueue")};
    if (!language.buildCacheDir.isEmpty()) {
        run.keptDirs = {RunnerKeptDir{language.buildCacheDir, language.buildCacheSeed}};
    }
    run.files = {RunnerFile{language.sourceFileName(request.code), request.code.toUtf8()}};
    // After an install the project files are there already, with what the install added (go.mod).
    if (!afterInstall) {
        run.files += projectFiles(language);
    }
    if (language.isCompiled()) {
        run.steps.append(RunnerStep{QStringLiteral("compile"), language.commandFor(language.compile, request.code)});
    }
    // A pooled container's preloaded interpreter runs the program as a fork; after an install it could hold a library
    // the install replaced, so the program starts afresh there.
    run.steps.append(RunnerStep{QStringLiteral("run"), language.commandFor(language.run, request.code),
                                afterInstall ? QStringList() : preloadedInterpreterFor(language, request.code)});
    run.env = runEnvironment(language);
    if (language.isCompiled() && !language.compileOutput.isEmpty() && !run.keptDirs.isEmpty() && !afterInstall) {
        // The same program, built the same way, in the same container image: everything the output depends on.
        QCryptographicHash key(QCryptographicHash::Sha256);
        const auto add = [&](const QByteArray &part) {
            key.addData(QByteArray(QByteArray::number(part.size()) + ':' + part));
        };
        add("llm-sandbox compile output 1");
        for (const QString &argument : run.steps.first().argv) {
            add(argument.toUtf8());
        }
        QStringList names = run.env.keys();
        names.sort();
        for (const QString &name : names) {
            add(name.toUtf8() + '=' + run.env.value(name).toUtf8());
        }
        for (const RunnerFile &file : run.files) {
            add(file.path.toUtf8());
            add(QByteArray::number(file.mode));
            add(file.data);
        }
        run.steps.first().reuseKey = QString::fromLatin1(key.result().toHex());
        run.steps.first().reuseFile = language.commandFor({language.compileOutput}, request.code).value(0);
    }
    run.timeout = request.timeout;
    run.cpuLimit = settings.cpuTimeLimitFor(request.timeout);
    run.maxOutputBytes = settings.maxOutputBytes;
    run.outputDir = SandboxContainer::outputDir();
    run.maxArtifactBytes = settings.maxArtifactBytes;
    run.maxArtifacts = settings.maxArtifacts;
    run.keepFiles = afterInstall;
    return run;
}

Result<RunResult> ExecutionEngine::Run::collect(RunnerClient &runner, std::chrono::milliseconds timeout, bool &clean,
                                                bool asProgress, const QString &containerId)
{
    clean = false;
    RunResult result;
    const SandboxSettings &settings = m_engine.m_settings;
    ArtifactBudget artifactBudget({settings.maxArtifacts, settings.maxArtifactBytes, settings.maxArtifactsTotalBytes});
    const auto giveUpAt = std::chrono::steady_clock::now() + timeout + kReportGrace;
    bool cancelSent = false;
    bool outputCut = false;
    // An engine that goes away (stopped, restarted) stops its containers: the run's stream ends, or its runner reports
    // it stopped by a signal nobody here sent. Either way the run did not finish, and the engine is to blame.
    // `state`: what the engine says of the container (howEnded).
    const auto engineWentAway = [](const Result<ContainerEnd> &state) -> std::optional<Error> {
        if (state || state.error().code != ErrorCode::EngineUnreachable) {
            return std::nullopt;
        }
        return Error{QStringLiteral("The container engine went away during the run, which did not finish. %1")
                         .arg(state.error().message),
                     ErrorCode::EngineUnreachable};
    };
    for (;;) {
        if (m_stop.stop_requested() && !cancelSent) {
            cancelSent = true;
            if (auto sent = runner.send(RunnerCancelRequest{m_id}); !sent) {
                return sent.error();
            }
        }
        if (std::chrono::steady_clock::now() > giveUpAt) {
            // The runner did not report in time (it may itself be starved): the container goes.
            result.reason = cancelSent ? StopReason::Cancelled : StopReason::TimedOut;
            result.exitCode = 137;
            return result;
        }
        auto message = runner.next(kPollInterval);
        if (!message && message.error().code == ErrorCode::SandboxFailed && !containerId.isEmpty()) {
            const auto end = m_engine.m_backend->howEnded(containerId);
            if (auto gone = engineWentAway(end)) {
                return *gone;
            }
            if (end && !end->outOfMemory()) {
                return Error{unexpectedEnd(*end), ErrorCode::SandboxFailed};
            }
            if (end) {
                result.reason = StopReason::OutOfMemory;
                result.exitCode = 137;
                // What the sandbox's cgroup reached; the runner, which measures the program's own peak, ended too.
                result.peakMemoryKb = settings.memoryBytes / 1024;
                result.stderrData.append(QStringLiteral("llm-sandbox: the sandbox reached its memory limit (%1 MiB) "
                                                        "and the OOM killer ended it whole.\n")
                                             .arg(settings.memoryBytes >> 20)
                                             .toUtf8());
                return result;
            }
        }
        if (!message) {
            return message.error();
        }
        if (!message->has_value()) {
            continue;
        }
        RunnerEvent &event = **message;
        if (auto *output = std::get_if<RunnerOutputEvent>(&event)) {
            // The host's own cap, whatever the runner says it enforced: a runner is code in the sandbox's image.
            const qint64 room = settings.maxOutputBytes - result.stdoutData.size() - result.stderrData.size();
            if (settings.maxOutputBytes > 0 && output->data.size() > room) {
                output->data.truncate(std::max<qint64>(room, 0));
                outputCut = true;
            }
            if (output->data.isEmpty()) {
                continue;
            }
            (output->stream == OutputStream::Stderr ? result.stderrData : result.stdoutData).append(output->data);
            if (asProgress) {
                report(RunProgress::Kind::LibraryInstall, QString::fromUtf8(output->data).trimmed());
            } else {
                notify([&](RunObserver &observer) { observer.runOutput(m_id, output->stream, output->data); });
            }
        } else if (auto *file = std::get_if<RunnerArtifactEvent>(&event)) {
            Artifact artifact = Artifact::fromFile(file->name, std::move(file->data));
            if (!artifactBudget.admit(artifact)) {
                continue;
            }
            notify([&](RunObserver &observer) { observer.runArtifact(m_id, artifact); });
            result.artifacts.append(std::move(artifact));
        } else if (const auto *error = std::get_if<RunnerErrorEvent>(&event)) {
            qCWarning(lcEngine).noquote() << "runner:" << error->message;
            result.stderrData.append(error->message.toUtf8() + '\n');
        } else if (const auto *done = std::get_if<RunnerDoneEvent>(&event)) {
            result.exitCode = done->exitCode;
            result.reason = reasonFrom(done->reason, done->failedStep == QLatin1String("compile"));
            if (result.reason == StopReason::Cancelled && !cancelSent && !containerId.isEmpty()) {
                if (auto gone = engineWentAway(m_engine.m_backend->howEnded(containerId))) {
                    return *gone;
                }
            }
            result.wallMs = done->wallMs;
            result.cpuMs = done->cpuMs;
            result.peakMemoryKb = done->maxRssKb;
            result.outputTruncated = done->outputTruncated || outputCut;
            result.artifactsDropped = done->artifactsDropped + artifactBudget.dropped();
            if (result.artifactsDropped > 0) {
                // Never silent: the caller (often a model) reads stderr, not only the count.
                result.stderrData.append(artifactBudget.droppedNote(result.artifactsDropped).toUtf8());
            }
            // A run the runner could not carry out (workspace not prepared, step not executable) may have
            // been sabotaged by an earlier run's leftovers: no later run gets that container. Nor does one where
            // processes outlived SIGKILL (a fork bomb under gVisor): they would hold its task limit.
            clean = done->reason != RunnerDoneReason::Error && !done->processesSurvived;
            return result;
        }
    }
}

Result<RunResult> ExecutionEngine::Run::execute(const RunRequest &request)
{
    const std::optional<RunSlots::Slot> slot = m_engine.m_runSlots.take(m_stop, [this](int running) {
        report(RunProgress::Kind::Status,
               QStringLiteral("Waiting for a free place: %1 runs are going, at most %2 at once (LLM_SANDBOX_MAX_RUNS).")
                   .arg(running)
                   .arg(m_engine.m_runSlots.capacity()));
    });
    if (!slot) {
        return Error{QStringLiteral("The run was cancelled while it waited for a free place."), ErrorCode::Cancelled};
    }
    // What the engine could not remove while it was away goes first, now that it may answer again.
    if (!m_engine.m_starter.removals().empty()) {
        m_engine.m_starter.removals().retry(*m_engine.m_backend);
    }
    if (!request.sessionId.isEmpty()) {
        return executeInSession(request);
    }
    auto language = LanguageRegistry::instance().find(request.language);
    if (!language) {
        return language.error();
    }
    // The policy is one layer in front of the sandbox: refused code never reaches a container.
    if (auto allowed = m_engine.m_policy.check(language->name, request.code); !allowed) {
        return allowed.error();
    }
    const QStringList toInstall = librariesToInstall(*language, request.libraries);
    if (request.timeout.count() <= 0) {
        return Error{QStringLiteral("The timeout must be positive."), ErrorCode::BadRequest};
    }
    auto image = m_engine.m_catalog.runImage(*language);
    if (!image) {
        return image.error();
    }
    if (auto running = checkNotCancelled(); !running) {
        return running.error();
    }
    if (!toInstall.isEmpty()) {
        auto plan = LibraryInstallPlan::make(*language, toInstall, SandboxContainer::workdir());
        if (!plan) {
            return plan.error();
        }
        return installAndRun(request, *language, *image, *plan);
    }
    bool cold = false;
    const auto start = [&] {
        cold = true;
        report(RunProgress::Kind::ContainerStart, QStringLiteral("Starting a %1 sandbox").arg(language->displayName));
        return startContainer(*language, *image);
    };
    auto container = m_engine.m_pool.acquire(*image, start);
    if (!container) {
        return m_engine.noteFailure(container.error());
    }
    const RunnerRunRequest message = runRequest(request, *language);
    m_engine.notePreloadNamed(message.steps.last().preload);
    if (auto sent = (*container)->runner().send(message); !sent) {
        m_engine.m_pool.release(std::move(*container), false);
        // A pooled container may have died while idle (with its engine, when that was restarted): one retry in a
        // fresh one.
        if (cold) {
            return sent.error();
        }
        container = start();
        if (!container) {
            return m_engine.noteFailure(container.error());
        }
        if (auto resent = (*container)->runner().send(message); !resent) {
            m_engine.m_pool.release(std::move(*container), false);
            return resent.error();
        }
    }
    bool clean = false;
    auto result = collectSampled(**container, request.timeout, clean);
    if (!result) {
        m_engine.noteFailure(result.error());
    }
    attachLimits(result, **container);
    if (result) {
        result->coldStart = cold;
    }
    m_engine.m_pool.release(std::move(*container), clean && result.ok());
    if (clean) {
        // Keep one container warm for the next run of this language.
        m_engine.prewarmImage(*language, *image);
    }
    return result;
}

Result<RunResult> ExecutionEngine::Run::installAndRun(const RunRequest &request, const Language &language,
                                                      const QString &image, const LibraryInstallPlan &plan)
{
    // Not pooled: the container holds this run's libraries (and may have had network).
    auto container = startWithLibraries(language, image, request.libraries, plan, false);
    if (!container) {
        return container.error();
    }
    if (auto running = checkNotCancelled(); !running) {
        return running.error();
    }
    if (auto sent = (*container)->runner().send(runRequest(request, language, true)); !sent) {
        return sent.error();
    }
    bool clean = false;
    auto result = collectSampled(**container, request.timeout, clean);
    attachLimits(result, **container);
    if (result) {
        result->coldStart = true;
    }
    return result;
}

Result<std::unique_ptr<SandboxContainer>>
ExecutionEngine::Run::startWithLibraries(const Language &language, const QString &image, const QStringList &libraries,
                                         const LibraryInstallPlan &plan, bool forSession,
                                         const QHash<QString, QString> &labels)
{
    auto builderImage = m_engine.m_catalog.builderImage(language);
    if (!builderImage) {
        return builderImage.error();
    }
    // Declared before the builder: removed after it, whose volumes it holds.
    std::unique_ptr<EgressProxyContainer> proxy;
    ContainerOptions builder;
    LibraryInstallPlan confined = plan;
    if (plan.needsNetwork) {
        auto proxyImage = m_engine.m_catalog.proxyImage();
        if (!proxyImage) {
            return proxyImage.error();
        }
        QStringList reachable;
        for (const EgressRule &rule : plan.egress) {
            reachable << QStringLiteral("%1:%2").arg(rule.host).arg(rule.port);
        }
        report(RunProgress::Kind::ContainerStart,
               QStringLiteral("Starting the egress proxy (it lets through %1 only)").arg(reachable.join(", ")));
        auto started = m_engine.m_starter.startProxy(language, *proxyImage, plan.egress, kInstallNetwork,
                                                     [this](const RunProgress &progress) { report(progress); });
        if (!started) {
            return started.error();
        }
        proxy = std::move(*started);
        builder.volumesFrom = proxy->builderVolumes();
        builder.network = proxy->builderNetwork();
        confined.argv = EgressProxy::relayed(SandboxContainer::runnerPath(), proxy->upstream(), plan.argv);
        confined.environment.insert(EgressProxy::clientEnvironment());
    }
    report(
        RunProgress::Kind::ContainerStart,
        QStringLiteral("Starting a %1 builder sandbox (%2) to install %3")
            .arg(language.displayName,
                 plan.needsNetwork ? QStringLiteral("no network but the egress proxy") : QStringLiteral("no network"),
                 plan.argv.join(QLatin1Char(' '))));
    auto installer = startContainer(language, *builderImage, builder);
    if (!installer) {
        return installer.error();
    }
    if (auto installed = install(**installer, language, libraries, confined, forSession); !installed) {
        return installed.error();
    }
    if (auto going = checkNotCancelled(); !going) {
        return going.error();
    }
    report(RunProgress::Kind::ContainerStart,
           QStringLiteral("Starting a %1 sandbox (no network) for the installed libraries").arg(language.displayName));
    auto container = startContainer(language, image, {.labels = labels});
    if (!container) {
        return container.error();
    }
    if (auto copied = copyLibraries(**installer, **container, language, forSession); !copied) {
        return copied.error();
    }
    return container;
}

RunnerRunRequest ExecutionEngine::Run::setupRequest(const Language &language, QList<RunnerStep> steps) const
{
    const SandboxSettings &settings = m_engine.m_settings;
    RunnerRunRequest request = runRequest(RunRequest{}, language);
    request.files.clear();
    request.steps = std::move(steps);
    request.timeout = settings.installTimeout;
    request.cpuLimit = settings.cpuTimeLimitFor(settings.installTimeout);
    request.outputDir.clear();
    return request;
}

Result<void> ExecutionEngine::Run::runSetup(SandboxContainer &container, const RunnerRunRequest &request,
                                            const QString &what, bool forSession)
{
    if (auto sent = container.runner().send(request); !sent) {
        return sent.error();
    }
    bool clean = false;
    auto done = collect(container.runner(), request.timeout, clean, true);
    if (!done) {
        return done.error();
    }
    if (done->reason == StopReason::Cancelled) {
        return Error{QStringLiteral("%1 was cancelled.").arg(what), ErrorCode::Cancelled};
    }
    if (done->reason != StopReason::Exited || done->exitCode != 0) {
        const QByteArray log = QByteArray(done->stderrData + done->stdoutData).trimmed();
        // `what` names the libraries and the log repeats the install's command and output: either may hold URLs with
        // credentials.
        return Error{redactCredentials(QStringLiteral("%1 failed (%2); %3 %4")
                                           .arg(what,
                                                done->timedOut() ? QStringLiteral("timed out")
                                                                 : QStringLiteral("exit code %1").arg(done->exitCode),
                                                forSession ? QStringLiteral("the session was not created.")
                                                           : QStringLiteral("the code was not run."),
                                                QString::fromUtf8(log.right(2000)))),
                     ErrorCode::InstallFailed};
    }
    return {};
}

Result<void> ExecutionEngine::Run::install(SandboxContainer &container, const Language &language,
                                           const QStringList &libraries, const LibraryInstallPlan &plan,
                                           bool forSession)
{
    RunnerRunRequest install = setupRequest(language, {RunnerStep{QStringLiteral("install"), plan.argv}});
    for (const FileEntry &file : plan.offlineFiles) {
        install.files.append(RunnerFile{file.path, file.data, file.mode});
    }
    install.files += projectFiles(language);
    for (auto it = plan.environment.begin(); it != plan.environment.end(); ++it) {
        install.env.insert(it.key(), it.value());
    }
    return runSetup(
        container, install,
        QStringLiteral("Installing %1 with %2").arg(libraries.join(QStringLiteral(", ")), language.packageManager),
        forSession);
}

Result<void> ExecutionEngine::Run::copyLibraries(SandboxContainer &installer, SandboxContainer &container,
                                                 const Language &language, bool forSession)
{
    // Paths relative to / for tar; a path the install did not create (go.sum without dependencies) is skipped.
    QStringList paths;
    for (const QString &path : language.libraries.installedPaths + language.projectFiles.keys()) {
        const QString absolute = path.startsWith(u'/') ? path : SandboxContainer::workdir() + u'/' + path;
        paths << absolute.mid(1);
    }
    QStringList pack{QStringLiteral("tar"),  QStringLiteral("--ignore-failed-read"),
                     QStringLiteral("-C"),   QStringLiteral("/"),
                     QStringLiteral("-czf"), kLibraryArchive,
                     QStringLiteral("--")};
    RunnerRunRequest packing = setupRequest(language, {RunnerStep{QStringLiteral("pack"), pack + paths}});
    packing.keepFiles = true;
    if (auto packed = runSetup(installer, packing, QStringLiteral("Packing the installed libraries"), forSession);
        !packed) {
        return packed.error();
    }
    auto archive = installer.runner().transferFile(
        RunnerGetFileRequest{m_id, SandboxContainer::workdir(), kLibraryArchive, kMaxLibraryArchiveBytes},
        m_engine.m_settings.installTimeout);
    if (!archive) {
        return Error{QStringLiteral("Copying the installed libraries out of the installer sandbox failed (at most "
                                    "%1 MiB compressed): %2")
                         .arg(kMaxLibraryArchiveBytes / (1024 * 1024))
                         .arg(archive.error().message),
                     ErrorCode::InstallFailed};
    }
    report(RunProgress::Kind::LibraryInstall, QStringLiteral("Copying %1 KiB of installed libraries into the sandbox")
                                                  .arg((archive->data.size() + 1023) / 1024));

    RunnerRunRequest unpacking = setupRequest(
        language,
        {RunnerStep{QStringLiteral("unpack"),
                    {QStringLiteral("tar"), QStringLiteral("-C"), QStringLiteral("/"), QStringLiteral("-xzf"),
                     kLibraryArchive}},
         RunnerStep{QStringLiteral("unpack"), {QStringLiteral("rm"), QStringLiteral("-f"), kLibraryArchive}}});
    unpacking.files = {RunnerFile{kLibraryArchive, std::move(archive->data)}};
    return runSetup(container, unpacking, QStringLiteral("Unpacking the installed libraries"), forSession);
}

Result<RunResult> ExecutionEngine::Run::executeInSession(const RunRequest &request)
{
    SessionRegistry &sessions = m_engine.m_sessions.registry();
    auto found = sessions.find(request.sessionId, request.sessionOwner);
    if (!found) {
        return found.error();
    }
    const std::shared_ptr<SessionRegistry::Session> session = *found;
    const std::lock_guard use(session->use);
    if (auto still = sessions.find(request.sessionId, request.sessionOwner); !still || *still != session) {
        return Error{QStringLiteral("Session \"%1\" was closed while this run waited for it.").arg(request.sessionId),
                     ErrorCode::NotFound};
    }
    // run() has filled in the session's language and timeout where the request had none.
    const SessionInfo &info = session->info;
    auto language = LanguageRegistry::instance().find(request.language);
    if (!language) {
        return language.error();
    }
    if (language->name != info.language) {
        return Error{QStringLiteral("Session \"%1\" runs %2, not %3: run this code without the session, or create a "
                                    "%3 session.")
                         .arg(info.id, info.language, language->name),
                     ErrorCode::BadRequest};
    }
    if (auto allowed = m_engine.m_policy.check(language->name, request.code); !allowed) {
        return allowed.error();
    }
    if (const QStringList missing = librariesToInstall(*language, request.libraries, info.libraries);
        !missing.isEmpty()) {
        return Error{QStringLiteral("Session \"%1\" cannot install %2: a session's sandbox has no network after it "
                                    "is created. Create a session with these libraries (create_session with "
                                    "libraries) or run without the session.")
                         .arg(info.id, missing.join(QStringLiteral(", "))),
                     ErrorCode::BadRequest};
    }
    if (auto running = checkNotCancelled(); !running) {
        return running.error();
    }

    // Files stay from run to run; a persistent interpreter keeps the variables too.
    RunnerRunRequest message = runRequest(request, *language, true);
    message.scratchDirs.clear();
    if (!language->sessionInterpreter.isEmpty()) {
        QStringList argv{QStringLiteral("/bin/bash"), SandboxContainer::sessionClientPath(),
                         language->sourceFileName(request.code)};
        argv << language->sessionInterpreter;
        message.steps = {RunnerStep{QStringLiteral("run"), argv}};
        message.keepProcesses = true;
        // The interpreter serves every run of the session: a per-process CPU-time limit would add them all up.
        // Each run is still bounded by its timeout, after which the interpreter is interrupted.
        message.cpuLimit = std::chrono::milliseconds(0);
    }
    RunnerClient &runner = session->container->runner();
    if (auto sent = runner.send(message); !sent) {
        sessions.close(info.id, info.owner);
        return Error{QStringLiteral("The sandbox of session \"%1\" has stopped (%2); the session was closed. Create "
                                    "a new one.")
                         .arg(info.id, sent.error().message),
                     ErrorCode::SandboxFailed};
    }
    bool clean = false;
    auto result = collectSampled(*session->container, request.timeout, clean);
    attachLimits(result, *session->container);
    const bool unresponsive =
        result && !clean && (result->reason == StopReason::TimedOut || result->reason == StopReason::Cancelled);
    if (!result || unresponsive) {
        // The runner did not finish the run: nothing more can be trusted to this container.
        sessions.close(info.id, info.owner);
        if (!result) {
            return Error{QStringLiteral("The sandbox of session \"%1\" stopped during the run (%2); the session was "
                                        "closed. Create a new one.")
                             .arg(info.id, result.error().message),
                         ErrorCode::SandboxFailed};
        }
        result->stderrData.append(QStringLiteral("\nllm-sandbox: the sandbox did not respond after the run; session "
                                                 "\"%1\" was closed.\n")
                                      .arg(info.id)
                                      .toUtf8());
        return result;
    }
    sessions.touch(*session, true);
    return result;
}

Result<std::unique_ptr<SandboxContainer>>
ExecutionEngine::Run::prepareSession(const Language &language, const QStringList &libraries, const QString &sessionId)
{
    auto image = m_engine.m_catalog.runImage(language);
    if (!image) {
        return image.error();
    }
    const QStringList toInstall = librariesToInstall(language, libraries);
    std::optional<LibraryInstallPlan> plan;
    if (!toInstall.isEmpty()) {
        auto made = LibraryInstallPlan::make(language, toInstall, SandboxContainer::workdir());
        if (!made) {
            return made.error();
        }
        plan = std::move(*made);
    }
    if (auto going = checkNotCancelled(); !going) {
        return going.error();
    }
    const QHash<QString, QString> labels{{ContainerSpecFactory::sessionLabel(), sessionId}};
    if (plan) {
        return startWithLibraries(language, *image, libraries, *plan, true, labels);
    }
    report(RunProgress::Kind::ContainerStart, QStringLiteral("Starting a %1 session").arg(language.displayName));
    auto container = startContainer(language, *image, {.labels = labels});
    if (!container) {
        return container.error();
    }
    for (const RunnerFile &file : projectFiles(language)) {
        auto written =
            (*container)
                ->runner()
                .transferFile(RunnerPutFileRequest{m_id, SandboxContainer::workdir(), file}, kFileOperationTimeout);
        if (!written) {
            return written.error();
        }
    }
    return container;
}

ExecutionEngine::ExecutionEngine(std::shared_ptr<ContainerBackend> backend, SandboxSettings settings)
    : m_backend(std::move(backend)), m_settings(std::move(settings)),
      m_catalog(ImageCatalog::defaultRunnerPath(), m_settings.imageOverrides, m_settings.baseImage),
      m_policy(policyNamed(m_settings.policy, m_settings.policyRules)),
      m_starter(*m_backend, m_catalog, ContainerSpecFactory(m_settings, ownerIdentity())),
      m_runSlots(m_settings.maxRuns), m_pool({m_settings.poolSize, m_settings.poolIdleTimeout, m_settings.poolMaxUses,
                                              std::min(m_settings.poolIdleTimeout, std::chrono::seconds(30))}),
      m_sessions(m_settings.sessionIdleTimeout, m_settings.maxSessions, m_settings.maxSessionFileBytes)
{}

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
    prewarmImage(found->first, found->second);
}

void ExecutionEngine::prewarmImage(const Language &language, const QString &image)
{
    // The factory runs later on the pool's thread: it holds copies, never a run's references.
    m_pool.prewarm(image, [this, language, image] {
        auto container = m_starter.start(language, image, {});
        if (container && !language.preloaded.isEmpty()) {
            startPreloaded(**container, language);
        }
        return container;
    });
}

void ExecutionEngine::startPreloaded(SandboxContainer &container, const Language &language)
{
    // A run of `true` naming each preloaded interpreter: the runner starts them after it, as after any run that names
    // one, so the container's first real run can be a fork already.
    RunnerRunRequest warm;
    warm.id = QStringLiteral("preload-") + newId();
    warm.workdir = SandboxContainer::workdir();
    const QList<QStringList> interpreters = preloadedInterpreters(language);
    for (const QStringList &interpreter : interpreters) {
        if (interpreter == interpreters.first() || preloadWasNamed(interpreter)) {
            warm.steps.append(RunnerStep{QStringLiteral("preload"), {QStringLiteral("true")}, interpreter});
        }
    }
    warm.env = runEnvironment(language);
    warm.outputDir = SandboxContainer::outputDir();
    if (!container.runner().send(warm)) {
        return;
    }
    const auto giveUpAt = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < giveUpAt) {
        auto event = container.runner().next(kPollInterval);
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
    Run run(*this, id, true, observer, std::move(stop));
    run.notify([&](RunObserver &each) { each.runStarted(id, request); });
    QElapsedTimer timer;
    timer.start();
    auto result = run.execute(request);
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
        return run.prepareSession(language, request.libraries, sessionId);
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
