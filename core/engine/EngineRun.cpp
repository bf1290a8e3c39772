#include "engine/EngineRun.h"

#include "artifacts/ArtifactBudget.h"
#include "artifacts/ChartData.h"
#include "engine/LibraryInstall.h"
#include "engine/RunSampler.h"
#include "engine/SessionRun.h"
#include "folders/FolderSnapshot.h"
#include "folders/ResultWriter.h"
#include "lang/LanguageRegistry.h"
#include "runnerclient/RunnerClient.h"
#include "security/ScannedSource.h"
#include "util/Redaction.h"

#include <QCryptographicHash>
#include <QNetworkInterface>

namespace sandbox {

namespace {

using namespace std::chrono_literals;

/// How long past the run's timeout the runner may take to report before the container is removed.
constexpr auto kReportGrace = 10s;

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

} // namespace

QList<QStringList> ExecutionEngine::Run::preloadedInterpreters(const Language &language)
{
    if (language.preloaded.isEmpty()) {
        return {};
    }
    if (language.preloadedModules.isEmpty()) {
        return {language.preloaded};
    }
    return {language.preloaded, language.preloaded + language.preloadedModules};
}

QMap<QString, QString> ExecutionEngine::Run::runEnvironment(const Language &language)
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

QList<RunnerFile> ExecutionEngine::Run::projectFiles(const Language &language)
{
    QList<RunnerFile> files;
    for (auto it = language.projectFiles.begin(); it != language.projectFiles.end(); ++it) {
        files.append(RunnerFile{it.key(), it.value().toUtf8()});
    }
    return files;
}

QStringList ExecutionEngine::Run::librariesToInstall(const Language &language, const QStringList &requested,
                                                     const QStringList &installed)
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

void ExecutionEngine::Run::attachLimits(Result<RunResult> &result, const SandboxContainer &container)
{
    if (!container.acceptedWeakerIsolation().isEmpty()) {
        qCWarning(lcEngine).noquote() << container.acceptedWeakerIsolation();
    }
    if (result) {
        result->enforcedLimits = container.enforcedLimits();
    }
}

void ExecutionEngine::Run::notify(const std::function<void(RunObserver &)> &call) const
{
    if (m_subscribed) {
        m_engine.m_observers.forEach(call);
    }
    if (m_caller) {
        call(*m_caller);
    }
}

void ExecutionEngine::Run::report(RunProgress progress) const
{
    progress.message = redactCredentials(std::move(progress.message));
    notify([&](RunObserver &observer) { observer.runProgress(m_id, progress); });
}

Result<void> ExecutionEngine::Run::checkNotCancelled() const
{
    if (m_stop.stop_requested()) {
        return Error{QStringLiteral("The run was cancelled before it started."), ErrorCode::Cancelled};
    }
    return {};
}

Result<std::unique_ptr<SandboxContainer>>
ExecutionEngine::Run::startContainer(const Language &language, const QString &image, const ContainerOptions &options)
{
    return m_engine.m_starter.start(
        language, image, [this](const RunProgress &progress) { report(progress); }, options);
}

Result<RunResult> ExecutionEngine::Run::collectSampled(SandboxContainer &container, std::chrono::milliseconds timeout,
                                                       bool &clean)
{
    notify([&](RunObserver &observer) { observer.runContainer(m_id, container.id()); });
    const RunSampler sampler(m_engine.m_backend, container.id(), [this](const ContainerStats &sample) {
        notify([&](RunObserver &observer) { observer.runSample(m_id, sample); });
    });
    return collect(container.runner(), timeout, clean, false, container.id());
}

QStringList ExecutionEngine::Run::preloadedInterpreterFor(const Language &language, const ScannedSource &scanned)
{
    const QList<QStringList> interpreters = preloadedInterpreters(language);
    if (interpreters.size() < 2) {
        return interpreters.value(0);
    }
    for (const ImportReference &reference : scanned.imports()) {
        const QString package = reference.module.section(u'.', 0, 0);
        if (std::any_of(language.preloadedModules.begin(), language.preloadedModules.end(),
                        [&](const QString &module) { return module.section(u'.', 0, 0) == package; })) {
            return interpreters.last();
        }
    }
    return interpreters.first();
}

Result<QList<SharedFolderUse>> ExecutionEngine::Run::updateSharedFolders(const QList<SharedFolder> &folders,
                                                                         QString *versions) const
{
    QList<SharedFolderUse> uses;
    for (const SharedFolder &folder : folders) {
        auto snapshot = FolderSnapshot::update(folder, {});
        if (!snapshot) {
            return Error{QStringLiteral("The shared folder \"%1\" could not be given to the sandbox: %2")
                             .arg(folder.name, snapshot.error().message),
                         snapshot.error().code};
        }
        if (snapshot->copied > 0) {
            report(RunProgress::Kind::ContainerStart,
                   QStringLiteral("Copied %n new or changed file(s) of the shared folder \"%1\"")
                       .replace(QLatin1String("%n"), QString::number(snapshot->copied))
                       .arg(folder.name));
        }
        if (versions) {
            *versions += QStringLiteral("%1:%2 ").arg(folder.name).arg(snapshot->version);
        }
        uses << SharedFolderUse{folder.name, folder.writable, snapshot->files, snapshot->bytes,
                                snapshot->skipped.size()};
    }
    return uses;
}

RunnerRunRequest ExecutionEngine::Run::runRequest(const RunRequest &request, const Language &language,
                                                  const ScannedSource *scanned, bool afterInstall) const
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
    run.steps.append(
        RunnerStep{QStringLiteral("run"), language.commandFor(language.run, request.code),
                   afterInstall || !scanned ? QStringList() : preloadedInterpreterFor(language, *scanned)});
    run.env = runEnvironment(language);
    if (!request.network.isEmpty()) {
        addNetwork(run, language, m_networkEnvironment);
    }
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
    run.resultDirs = ContainerSpecFactory::resultDirsOf(settings.sharedFolders + request.sharedFolders);
    const ResultLimits resultLimits;
    run.maxResultFiles = resultLimits.maxFiles;
    run.maxResultBytes = resultLimits.maxFileBytes;
    return run;
}

Result<RunResult> ExecutionEngine::Run::collect(RunnerClient &runner, std::chrono::milliseconds timeout, bool &clean,
                                                bool asProgress, const QString &containerId)
{
    clean = false;
    RunResult result;
    const SandboxSettings &settings = m_engine.m_settings;
    ArtifactBudget artifactBudget({settings.maxArtifacts, settings.maxArtifactBytes, settings.maxArtifactsTotalBytes});
    ResultWriter resultWriter;
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
            if (const QString image = ChartData::imageOf(file->name); !image.isEmpty()) {
                // A chart's data, written after its image: it goes with the image, not as a file of its own.
                if (const QJsonObject chart = ChartData::read(file->data); !chart.isEmpty()) {
                    for (Artifact &artifact : result.artifacts) {
                        if (artifact.name == image) {
                            artifact.chart = chart;
                        }
                    }
                }
                continue;
            }
            Artifact artifact = Artifact::fromFile(file->name, std::move(file->data));
            if (!artifactBudget.admit(artifact)) {
                continue;
            }
            notify([&](RunObserver &observer) { observer.runArtifact(m_id, artifact); });
            result.artifacts.append(std::move(artifact));
        } else if (const auto *resultFile = std::get_if<RunnerResultFileEvent>(&event)) {
            saveResultFile(*resultFile, resultWriter, result);
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

void ExecutionEngine::Run::saveResultFile(const RunnerResultFileEvent &event, ResultWriter &writer,
                                          RunResult &result) const
{
    const QList<SharedFolder> folders = m_engine.m_settings.sharedFolders + m_ownFolders;
    const auto folder = std::find_if(folders.cbegin(), folders.cend(), [&event](const SharedFolder &each) {
        return each.writable && each.mountPath() == event.dir;
    });
    if (folder == folders.cend()) {
        qCWarning(lcEngine).noquote() << "runner: results from a folder the run has not:" << event.dir.left(80);
        return;
    }
    const QString path = folder->mountPath() + QLatin1Char('/') + event.name;
    const auto refuse = [&](const QString &reason) {
        result.refusedResults << RefusedResult{path, reason};
    };
    const ResultLimits &limits = writer.limits();
    if (event.type == QLatin1String("symlink")) {
        refuse(QStringLiteral("A symbolic link is not saved: only regular files are."));
    } else if (event.type != QLatin1String("file")) {
        refuse(QStringLiteral("A %1 is not saved: only regular files are.")
                   .arg(event.type == QLatin1String("fifo") ? QStringLiteral("FIFO") : event.type.left(16)));
    } else if (event.name.contains(QLatin1Char('/'))) {
        refuse(QStringLiteral("Files in a folder the code made are not saved: only files directly in %1 are.")
                   .arg(folder->mountPath()));
    } else if (!event.data || event.size > limits.maxFileBytes) {
        refuse(QStringLiteral("Not saved: a run saves at most %1 files of at most %2 MiB each.")
                   .arg(limits.maxFiles)
                   .arg(limits.maxFileBytes >> 20));
    } else if (auto saved = writer.save(*folder, event.name, *event.data, m_engine.m_settings.shareOverwrite); saved) {
        result.savedResults << *saved;
    } else {
        refuse(saved.error().message);
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
        return SessionRun(*this).execute(request);
    }
    auto language = LanguageRegistry::instance().find(request.language);
    if (!language) {
        return language.error();
    }
    // The policy is one layer in front of the sandbox: refused code never reaches a container. The code is read once,
    // for the policy and for the preloaded interpreter the run forks.
    const ScannedSource scanned(language->name, request.code);
    if (auto allowed = m_engine.m_policy.check(scanned); !allowed) {
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
    // The user's folders as they are now: those shared with every sandbox are mounted in the pooled ones already, and
    // a run's own (a folder dropped on the Console) get a sandbox of their own.
    QString versions;
    auto folders = updateSharedFolders(m_engine.m_settings.sharedFolders, &versions);
    if (!folders) {
        return folders.error();
    }
    // Where the folders travel as a copy, a pooled sandbox serves the runs while the folders stay as they were when
    // it started.
    const QString poolKey = m_engine.foldersTravel() ? *image + QStringLiteral(" with folders ") + versions : *image;
    for (const SharedFolder &own : request.sharedFolders) {
        const auto sameName = [&own](const SharedFolder &other) {
            return other.name == own.name;
        };
        if (std::count_if(request.sharedFolders.cbegin(), request.sharedFolders.cend(), sameName) > 1 ||
            std::any_of(m_engine.m_settings.sharedFolders.cbegin(), m_engine.m_settings.sharedFolders.cend(),
                        sameName)) {
            return Error{
                QStringLiteral("Two shared folders are named \"%1\": give one another name (PATH:NAME)").arg(own.name),
                ErrorCode::BadRequest};
        }
    }
    ContainerOptions options{.folders = request.sharedFolders, .poolKey = poolKey};
    m_ownFolders = request.sharedFolders;
    auto ownFolders = updateSharedFolders(request.sharedFolders);
    if (!ownFolders) {
        return ownFolders.error();
    }
    *folders += *ownFolders;
    std::optional<LibraryInstallPlan> plan;
    if (!toInstall.isEmpty()) {
        auto made = LibraryInstallPlan::make(*language, toInstall, SandboxContainer::workdir());
        if (!made) {
            return made.error();
        }
        plan = std::move(*made);
    }
    // Started last, once nothing else can fail the run before its sandbox; the sandbox keeps it.
    auto proxy = startNetwork(*language, request.network, options);
    if (!proxy) {
        return proxy.error();
    }
    const bool network = *proxy != nullptr;
    if (plan) {
        auto result = installAndRun(request, *language, *image, *plan, options, std::move(*proxy));
        if (result) {
            result->sharedFolders = *folders;
        }
        return result;
    }
    bool cold = false;
    const auto start = [&] {
        cold = true;
        report(RunProgress::Kind::ContainerStart, QStringLiteral("Starting a %1 sandbox").arg(language->displayName));
        return startContainer(*language, *image, options);
    };
    // A sandbox of the run's own folders or with network serves no other run.
    const bool ownSandbox = !options.folders.isEmpty() || network;
    auto container = ownSandbox ? start() : m_engine.m_pool.acquire(poolKey, start);
    if (!container) {
        return m_engine.noteFailure(container.error());
    }
    if (network) {
        (*container)->keepEgressProxy(std::move(*proxy));
    }
    const RunnerRunRequest message = runRequest(request, *language, &scanned);
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
        result->sharedFolders = *folders;
    }
    attachNetwork(result, **container);
    if (ownSandbox) {
        return result;
    }
    m_engine.m_pool.release(std::move(*container), clean && result.ok());
    if (clean) {
        // Keep one container warm for the next run of this language.
        m_engine.prewarmImage(*language, *image, poolKey);
    }
    return result;
}

Result<RunResult> ExecutionEngine::Run::installAndRun(const RunRequest &request, const Language &language,
                                                      const QString &image, const LibraryInstallPlan &plan,
                                                      const ContainerOptions &options,
                                                      std::unique_ptr<EgressProxyContainer> proxy)
{
    LibraryInstall install(*this, false);
    // A set the library cache holds serves the next call with the same libraries from a sandbox it was unpacked in
    // ahead (prewarmLibraries()): used once, so nothing a call's code changed in them reaches another. A sandbox of
    // the run's own folders or with network is its own.
    QString warmKey;
    if (options.folders.isEmpty() && !proxy) {
        auto key = install.cacheKey(language, image, request.libraries, plan);
        if (!key) {
            return key.error();
        }
        if (!key->isEmpty()) {
            warmKey = options.poolKey + kWithLibraries + *key;
        }
    }
    ContainerOptions started = options;
    bool warm = !warmKey.isEmpty();
    auto container = [&]() -> Result<std::unique_ptr<SandboxContainer>> {
        if (!warm) {
            return install.start(language, image, request.libraries, plan, started);
        }
        started.poolKey = warmKey;
        return m_engine.m_pool.acquire(warmKey, [&] {
            warm = false;
            return install.start(language, image, request.libraries, plan, started);
        });
    }();
    if (!container) {
        return container.error();
    }
    if (warm) {
        report(RunProgress::Kind::LibraryInstall,
               QStringLiteral("Libraries from the cache: %1, unpacked ahead in a sandbox that waited for this run")
                   .arg(request.libraries.join(QStringLiteral(", "))));
    }
    (*container)->keepEgressProxy(std::move(proxy));
    if (auto running = checkNotCancelled(); !running) {
        return running.error();
    }
    const RunnerRunRequest message = runRequest(request, language, nullptr, true);
    if (auto sent = (*container)->runner().send(message); !sent) {
        if (!warm) {
            return sent.error();
        }
        // A warmed sandbox may have died while idle (with its engine): one retry in a fresh one.
        m_engine.m_pool.release(std::move(*container), false);
        warm = false;
        container = install.start(language, image, request.libraries, plan, started);
        if (!container) {
            return container.error();
        }
        if (auto resent = (*container)->runner().send(message); !resent) {
            m_engine.m_pool.release(std::move(*container), false);
            return resent.error();
        }
    }
    bool clean = false;
    auto result = collectSampled(**container, request.timeout, clean);
    attachLimits(result, **container);
    attachNetwork(result, **container);
    if (result) {
        result->coldStart = !warm;
        result->librariesCached = (*container)->librariesCached();
    }
    if (!warmKey.isEmpty()) {
        // Never used again (removed on the pool's thread, not this run's); the next call's sandbox is warmed now.
        m_engine.m_pool.release(std::move(*container), false);
        if (clean) {
            m_engine.prewarmLibraries(language, image, request.libraries, plan, started);
        }
    }
    return result;
}

Result<std::unique_ptr<EgressProxyContainer>>
ExecutionEngine::Run::startNetwork(const Language &language, const QStringList &requested, ContainerOptions &options)
{
    if (requested.isEmpty()) {
        return std::unique_ptr<EgressProxyContainer>();
    }
    auto granted = m_engine.m_settings.networkAllow.grant(requested);
    if (!granted) {
        return granted.error();
    }
    auto proxyImage = m_engine.m_catalog.proxyImage();
    if (!proxyImage) {
        return proxyImage.error();
    }
    QStringList hostAddresses;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        hostAddresses << address.toString();
    }
    RunSecrets secrets;
    if (m_engine.m_settings.networkSecrets) {
        auto found = m_engine.m_settings.networkSecrets->secretsFor(*granted);
        if (!found) {
            return found.error();
        }
        secrets = std::move(*found);
    }
    // A read-only run's proxy opens every tunnel to see the methods of the requests inside.
    const bool intercepting = !secrets.isEmpty() || granted->isReadOnly();
    if (intercepting && m_engine.m_starter.proxyReach() != ContainerBackend::EgressProxyReach::SocketVolume) {
        // The sandbox trusts the proxy's authority through a file in the proxy's volume, which a pod cannot mount.
        return Error{QStringLiteral("Secrets and a read-only network are not available with the Kubernetes backend "
                                    "yet: use Docker or Podman, or ask for hosts without secrets bound to them."),
                     ErrorCode::Unavailable};
    }
    if (intercepting && !secrets.hasAuthority()) {
        return Error{QStringLiteral("A read-only network needs the egress proxy's certificate authority, which this "
                                    "program has no keychain for."),
                     ErrorCode::Unavailable};
    }
    ProxyExtras extras;
    if (intercepting) {
        auto files = EgressProxy::interceptionFiles(secrets, m_engine.m_settings.proxyTrust);
        if (!files) {
            return files.error();
        }
        extras = ProxyExtras{granted->isReadOnly() ? QStringList{QStringLiteral("*")} : secrets.hostsWithin(*granted),
                             *files};
    }
    report(RunProgress::Kind::ContainerStart,
           QStringLiteral("Starting the run's egress proxy (it lets through %1 only)").arg(granted->text()));
    auto proxy = m_engine.m_starter.startProxy(
        language, *proxyImage,
        EgressProxy::runConfig(*granted, hostAddresses, m_engine.m_starter.proxyReach(), intercepting),
        ContainerNetwork::named(m_engine.m_settings.proxyNetwork),
        [this](const RunProgress &progress) { report(progress); }, m_engine.m_settings.proxyHosts, extras);
    if (!proxy) {
        return proxy.error();
    }
    (*proxy)->recordConnections(*granted);
    QHash<QString, QString> environment = EgressProxy::clientEnvironment(intercepting);
    for (const GrantedSecret &secret : std::as_const(secrets.secrets)) {
        environment.insert(secret.binding.name, secret.placeholder);
    }
    (*proxy)->setSandboxEnvironment(environment);
    m_networkEnvironment = environment;
    options.volumesFrom = (*proxy)->builderVolumes();
    options.network = (*proxy)->builderNetwork();
    options.egressUpstream = (*proxy)->upstream();
    return proxy;
}

void ExecutionEngine::Run::addNetwork(RunnerRunRequest &request, const Language &language,
                                      const QHash<QString, QString> &environment)
{
    for (auto it = environment.begin(); it != environment.end(); ++it) {
        // Java's proxy properties go on its command line (Language::withProxyArguments): JAVA_TOOL_OPTIONS would
        // print a line of its own to the program's stderr.
        if (it.key() != QLatin1String("JAVA_TOOL_OPTIONS")) {
            request.env.insert(it.key(), it.value());
        }
    }
    if (!request.steps.isEmpty()) {
        request.steps.last().argv = language.withProxyArguments(request.steps.last().argv, EgressProxy::port());
    }
}

void ExecutionEngine::Run::attachNetwork(Result<RunResult> &result, const SandboxContainer &container)
{
    EgressProxyContainer *proxy = container.egressProxy();
    if (!proxy || !result) {
        return;
    }
    result->networkGranted = proxy->granted();
    result->network = proxy->takeConnections();
}

} // namespace sandbox
