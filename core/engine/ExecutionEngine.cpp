#include "engine/ExecutionEngine.h"

#include "artifacts/ArtifactBudget.h"
#include "backend/ContainerBackend.h"
#include "images/ImageBuilder.h"
#include "lang/LanguageRegistry.h"
#include "engine/LibraryInstallPlan.h"
#include "runnerclient/RunnerClient.h"
#include "engine/SandboxContainer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSysInfo>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QUuid>

Q_LOGGING_CATEGORY(lcEngine, "sandbox.engine")

namespace sandbox {

namespace {

using namespace std::chrono_literals;

const QString kWorkdir = QStringLiteral("/sandbox");
const QString kOutputDir = QStringLiteral("/sandbox/output");
const QString kRunnerPath = QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner");
/// Runs one file in a session's persistent interpreter (resources/session/client.sh).
const QString kSessionClient = QStringLiteral("/opt/llm-sandbox/session/client.sh");
const QString kInstallNetwork = QStringLiteral("bridge");
/// How long a session file operation may take before the session's runner is considered stuck.
constexpr auto kFileOperationTimeout = 60s;
constexpr auto kRunnerStartTimeout = 20s;
/// How long past the run's timeout the runner may take to report before the container is removed.
constexpr auto kReportGrace = 10s;
constexpr auto kPollInterval = 100ms;

/// A file of a runner `run` request.
QJsonObject fileMessage(const QString &path, const QByteArray &data, int mode = 0644)
{
    return QJsonObject{{QStringLiteral("path"), path},
                       {QStringLiteral("data"), QString::fromLatin1(data.toBase64())},
                       {QStringLiteral("mode"), mode}};
}

/// Field 22 of /proc/PID/stat (start time since boot): with the pid it names a process uniquely.
QByteArray processStartTime(const QString &pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray line = stat.readAll();
    // The command name in parentheses may hold spaces: count fields after its closing one.
    return line.mid(line.lastIndexOf(')') + 2).split(' ').value(19);
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

/// A put_file request for the runner.
QJsonObject putFileMessage(const QString &id, const QString &path, const QByteArray &data)
{
    QJsonObject put = fileMessage(path, data);
    put.insert(QStringLiteral("op"), QStringLiteral("put_file"));
    put.insert(QStringLiteral("id"), id);
    put.insert(QStringLiteral("workdir"), kWorkdir);
    return put;
}

/// A path relative to the sandbox's working directory, from what a caller wrote ("data/x.csv" or
/// "/sandbox/data/x.csv"); never one that leaves it.
Result<QString> sessionPath(const QString &path)
{
    QString relative = path;
    if (relative.startsWith(kWorkdir + QLatin1Char('/'))) {
        relative = relative.mid(kWorkdir.size() + 1);
    }
    const QStringList parts = relative.split(QLatin1Char('/'));
    if (relative.isEmpty() || relative.startsWith(QLatin1Char('/')) || relative.contains(QChar(0)) ||
        parts.contains(QStringLiteral("..")) || relative.size() > 1024) {
        return Error{QStringLiteral("The path \"%1\" must be relative to the session's working directory %2 "
                                    "(e.g. data/input.csv) and must not contain \"..\".")
                         .arg(path.left(200), kWorkdir), ErrorCode::BadRequest};
    }
    return relative;
}

/// Sends a put_file/get_file request and waits for its answer.
Result<QJsonObject> exchangeFile(RunnerClient &runner, const QJsonObject &request)
{
    const QString id = request.value(QStringLiteral("id")).toString();
    if (auto sent = runner.send(request); !sent) {
        return sent.error();
    }
    const auto giveUpAt = std::chrono::steady_clock::now() + kFileOperationTimeout;
    while (std::chrono::steady_clock::now() < giveUpAt) {
        auto message = runner.next(kPollInterval);
        if (!message) {
            return message.error();
        }
        if (!message->has_value() || (*message)->value(QStringLiteral("id")).toString() != id) {
            continue;
        }
        const QString type = (*message)->value(QStringLiteral("ev")).toString();
        if (type == QLatin1String("file")) {
            return **message;
        }
        if (type == QLatin1String("error")) {
            return Error{(*message)->value(QStringLiteral("message")).toString(), ErrorCode::BadRequest};
        }
    }
    return Error{QStringLiteral("The sandbox did not answer the file operation within %1 s.")
                     .arg(std::chrono::seconds(kFileOperationTimeout).count()), ErrorCode::SandboxFailed};
}

StopReason reasonFrom(const QString &reason, bool compileFailed)
{
    if (reason == QLatin1String("timeout")) {
        return StopReason::TimedOut;
    }
    if (reason == QLatin1String("oom")) {
        return StopReason::OutOfMemory;
    }
    if (reason == QLatin1String("cpu_limit")) {
        return StopReason::CpuLimit;
    }
    if (reason == QLatin1String("output_limit")) {
        return StopReason::OutputLimit;
    }
    if (reason == QLatin1String("cancelled")) {
        return StopReason::Cancelled;
    }
    return compileFailed ? StopReason::CompileFailed : StopReason::Exited;
}

} // namespace

/// One run: creates the container, drives the runner, collects the result.
class ExecutionEngine::Run final
{
public:
    Run(ExecutionEngine &engine, QString id, QList<RunObserver *> observers, std::stop_token stop)
        : m_engine(engine), m_id(std::move(id)), m_observers(std::move(observers)), m_stop(std::move(stop))
    {
    }

    Result<RunResult> execute(const RunRequest &request);
    Result<SessionInfo> openSession(const SessionRequest &request);

private:
    QJsonObject environment(const Language &language) const;
    QJsonObject runMessage(const RunRequest &request, const Language &language, bool afterInstall = false) const;
    /// Reads the runner's events to the end of the run; `clean` tells whether the runner
    /// reported the end itself without an error (then the container can serve another run). Output goes to
    /// the observers as output, or (`asProgress`, for install steps) as progress lines.
    Result<RunResult> collect(RunnerClient &runner, std::chrono::milliseconds timeout, bool &clean,
                              bool asProgress = false);
    /// Installs `plan` in a fresh container (with network only if it needs it), detaches the
    /// network, then runs the code there.
    Result<RunResult> installAndRun(const RunRequest &request, const Language &language, const QString &image,
                                    const LibraryInstallPlan &plan);
    /// Installs `plan` (the libraries of `request`) in `container`, then detaches the network the install had.
    Result<void> install(SandboxContainer &container, const RunRequest &request, const Language &language,
                         const LibraryInstallPlan &plan);
    Result<RunResult> executeInSession(const RunRequest &request);
    /// The code policy's verdict on `code`: refused code never reaches a container.
    Result<void> checkPolicy(const Language &language, const QString &code) const
    {
        return m_engine.m_policy.check(language.name, code);
    }
    void progress(const QString &message)
    {
        for (RunObserver *observer : m_observers) {
            observer->runProgress(m_id, message);
        }
    }

    ExecutionEngine &m_engine;
    QString m_id;
    QList<RunObserver *> m_observers;
    std::stop_token m_stop;
};

QJsonObject ExecutionEngine::Run::environment(const Language &language) const
{
    // Nothing of the host's environment: only what the run needs.
    QJsonObject env{
        {QStringLiteral("PATH"), QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")},
        {QStringLiteral("HOME"), QStringLiteral("/tmp")},
        {QStringLiteral("TMPDIR"), QStringLiteral("/tmp")},
        {QStringLiteral("LANG"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("LLM_SANDBOX_OUTPUT_DIR"), kOutputDir},
    };
    for (auto it = language.environment.begin(); it != language.environment.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    return env;
}

QJsonObject ExecutionEngine::Run::runMessage(const RunRequest &request, const Language &language, bool afterInstall) const
{
    const SandboxSettings &settings = m_engine.m_settings;
    const QString file = language.sourceFileName(request.code);
    QJsonArray steps;
    if (language.isCompiled()) {
        steps.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("compile")},
                                 {QStringLiteral("argv"), QJsonArray::fromStringList(language.commandFor(language.compile, request.code))}});
    }
    steps.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("run")},
                             {QStringLiteral("argv"), QJsonArray::fromStringList(language.commandFor(language.run, request.code))}});
    const QJsonObject env = environment(language);
    QJsonArray files{fileMessage(file, request.code.toUtf8())};
    // After an install the project files are there already, with what the install added (go.mod).
    for (auto it = language.projectFiles.begin(); !afterInstall && it != language.projectFiles.end(); ++it) {
        files.append(fileMessage(it.key(), it.value().toUtf8()));
    }
    return QJsonObject{
        {QStringLiteral("op"), QStringLiteral("run")},
        {QStringLiteral("id"), m_id},
        {QStringLiteral("workdir"), kWorkdir},
        // What one run leaves in a pooled container's scratch space is gone before the next.
        // POSIX message queues (/dev/mqueue) outlive their processes just like files.
        {QStringLiteral("scratch_dirs"),
         QJsonArray{QStringLiteral("/tmp"), QStringLiteral("/dev/shm"), QStringLiteral("/dev/mqueue")}},
        {QStringLiteral("files"), files},
        {QStringLiteral("steps"), steps},
        {QStringLiteral("env"), env},
        {QStringLiteral("timeout_ms"), double(request.timeout.count())},
        {QStringLiteral("cpu_limit_ms"), double(settings.cpuTimeLimitFor(request.timeout).count())},
        {QStringLiteral("max_output_bytes"), double(settings.maxOutputBytes)},
        {QStringLiteral("output_dir"), kOutputDir},
        {QStringLiteral("max_artifact_bytes"), double(settings.maxArtifactBytes)},
        {QStringLiteral("max_artifacts"), settings.maxArtifacts},
        {QStringLiteral("keep_files"), afterInstall},
    };
}

Result<RunResult> ExecutionEngine::Run::collect(RunnerClient &runner, std::chrono::milliseconds timeout, bool &clean,
                                                bool asProgress)
{
    clean = false;
    RunResult result;
    const SandboxSettings &settings = m_engine.m_settings;
    ArtifactBudget artifactBudget({settings.maxArtifacts, settings.maxArtifactBytes, settings.maxArtifactsTotalBytes});
    const auto giveUpAt = std::chrono::steady_clock::now() + timeout + kReportGrace;
    bool cancelSent = false;
    QString failedStep;
    for (;;) {
        if (m_stop.stop_requested() && !cancelSent) {
            cancelSent = true;
            if (auto sent = runner.send({{QStringLiteral("op"), QStringLiteral("cancel")}, {QStringLiteral("id"), m_id}});
                !sent) {
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
        if (!message) {
            return message.error();
        }
        if (!message->has_value()) {
            continue;
        }
        const QJsonObject &event = **message;
        const QString type = event.value(QStringLiteral("ev")).toString();
        if (type == QLatin1String("output")) {
            const QByteArray data = QByteArray::fromBase64(event.value(QStringLiteral("data")).toString().toLatin1());
            const bool isStderr = event.value(QStringLiteral("stream")).toString() == QLatin1String("stderr");
            (isStderr ? result.stderrData : result.stdoutData).append(data);
            for (RunObserver *observer : m_observers) {
                if (asProgress) {
                    observer->runProgress(m_id, QString::fromUtf8(data).trimmed());
                } else {
                    observer->runOutput(m_id, isStderr ? OutputStream::Stderr : OutputStream::Stdout, data);
                }
            }
        } else if (type == QLatin1String("artifact")) {
            Artifact artifact = Artifact::fromFile(
                event.value(QStringLiteral("name")).toString(),
                QByteArray::fromBase64(event.value(QStringLiteral("data")).toString().toLatin1()));
            if (!artifactBudget.admit(artifact)) {
                continue;
            }
            for (RunObserver *observer : m_observers) {
                observer->runArtifact(m_id, artifact);
            }
            result.artifacts.append(std::move(artifact));
        } else if (type == QLatin1String("error")) {
            qCWarning(lcEngine).noquote() << "runner:" << event.value(QStringLiteral("message")).toString();
            result.stderrData.append(event.value(QStringLiteral("message")).toString().toUtf8() + '\n');
        } else if (type == QLatin1String("done")) {
            failedStep = event.value(QStringLiteral("failed_step")).toString();
            result.exitCode = event.value(QStringLiteral("exit_code")).toInt();
            result.reason = reasonFrom(event.value(QStringLiteral("reason")).toString(),
                                       failedStep == QLatin1String("compile"));
            result.wallMs = qint64(event.value(QStringLiteral("wall_ms")).toDouble());
            result.cpuMs = qint64(event.value(QStringLiteral("cpu_ms")).toDouble());
            result.peakMemoryKb = qint64(event.value(QStringLiteral("max_rss_kb")).toDouble());
            result.outputTruncated = event.value(QStringLiteral("output_truncated")).toBool();
            result.artifactsDropped =
                event.value(QStringLiteral("artifacts_dropped")).toInt() + artifactBudget.dropped();
            if (result.artifactsDropped > 0) {
                // Never silent: the caller (often a model) reads stderr, not only the count.
                result.stderrData.append(artifactBudget.droppedNote(result.artifactsDropped).toUtf8());
            }
            // A run the runner could not carry out (workspace not prepared, step not executable) may have
            // been sabotaged by an earlier run's leftovers: no later run gets that container.
            clean = event.value(QStringLiteral("reason")).toString() != QLatin1String("error");
            return result;
        }
    }
}

Result<RunResult> ExecutionEngine::Run::execute(const RunRequest &request)
{
    if (!request.sessionId.isEmpty()) {
        return executeInSession(request);
    }
    auto language = LanguageRegistry::instance().find(request.language);
    if (!language) {
        return language.error();
    }
    // The policy is one layer in front of the sandbox: refused code never reaches a container.
    if (auto allowed = checkPolicy(*language, request.code); !allowed) {
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
    if (!toInstall.isEmpty()) {
        auto plan = LibraryInstallPlan::make(*language, toInstall, kWorkdir);
        if (!plan) {
            return plan.error();
        }
        return installAndRun(request, *language, *image, *plan);
    }
    const auto start = [&] {
        progress(QStringLiteral("Starting a %1 sandbox").arg(language->displayName));
        return m_engine.startContainer(*language, *image, [this](const QString &line) { progress(line); });
    };
    auto container = m_engine.m_pool.acquire(*image, start);
    if (!container) {
        return container.error();
    }
    const QJsonObject message = runMessage(request, *language);
    if (auto sent = (*container)->runner().send(message); !sent) {
        // A pooled container may have died while idle: one retry in a fresh one.
        if ((*container)->uses() == 0) {
            return sent.error();
        }
        container = start();
        if (!container) {
            return container.error();
        }
        if (auto resent = (*container)->runner().send(message); !resent) {
            return resent.error();
        }
    }
    bool clean = false;
    auto result = collect((*container)->runner(), request.timeout, clean);
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
    // Not pooled: the container has had network and holds this run's libraries.
    progress(QStringLiteral("Starting a %1 sandbox to install %2").arg(language.displayName, plan.argv.join(QLatin1Char(' '))));
    auto container = m_engine.startContainer(language, image, [this](const QString &line) { progress(line); },
                                             plan.needsNetwork ? kInstallNetwork : QString());
    if (!container) {
        return container.error();
    }
    if (auto installed = install(**container, request, language, plan); !installed) {
        return installed.error();
    }
    if (auto sent = (*container)->runner().send(runMessage(request, language, true)); !sent) {
        return sent.error();
    }
    bool clean = false;
    return collect((*container)->runner(), request.timeout, clean);
}

Result<void> ExecutionEngine::Run::install(SandboxContainer &container, const RunRequest &request,
                                           const Language &language, const LibraryInstallPlan &plan)
{
    QJsonObject install = runMessage(request, language);
    QJsonArray files;
    for (const FileEntry &file : plan.offlineFiles) {
        files.append(fileMessage(file.path, file.data, file.mode));
    }
    for (auto it = language.projectFiles.begin(); it != language.projectFiles.end(); ++it) {
        files.append(fileMessage(it.key(), it.value().toUtf8()));
    }
    QJsonObject env = environment(language);
    for (auto it = plan.environment.begin(); it != plan.environment.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    install.insert(QStringLiteral("files"), files);
    install.insert(QStringLiteral("env"), env);
    install.insert(QStringLiteral("steps"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("install")},
                                                                   {QStringLiteral("argv"), QJsonArray::fromStringList(plan.argv)}}});
    install.insert(QStringLiteral("timeout_ms"), double(std::chrono::milliseconds(m_engine.m_settings.installTimeout).count()));
    install.insert(QStringLiteral("cpu_limit_ms"),
                   double(m_engine.m_settings.cpuTimeLimitFor(m_engine.m_settings.installTimeout).count()));
    install.remove(QStringLiteral("output_dir"));
    if (auto sent = container.runner().send(install); !sent) {
        return sent.error();
    }
    bool clean = false;
    auto installed = collect(container.runner(), m_engine.m_settings.installTimeout, clean, true);
    if (!installed) {
        return installed.error();
    }
    if (installed->reason != StopReason::Exited || installed->exitCode != 0) {
        const QByteArray log = (installed->stderrData + installed->stdoutData).trimmed();
        return Error{QStringLiteral("Installing %1 with %2 failed (%3); %4 %5")
                         .arg(request.libraries.join(QStringLiteral(", ")), language.packageManager,
                              installed->timedOut() ? QStringLiteral("timed out")
                                                    : QStringLiteral("exit code %1").arg(installed->exitCode),
                              request.code.isEmpty() ? QStringLiteral("the session was not created.")
                                                     : QStringLiteral("the code was not run."),
                              QString::fromUtf8(log.right(2000))), ErrorCode::InstallFailed};
    }
    if (plan.needsNetwork) {
        if (auto detached = m_engine.m_backend->disconnectNetwork(container.id(), kInstallNetwork); !detached) {
            return detached.error();
        }
    }
    return {};
}

Result<RunResult> ExecutionEngine::Run::executeInSession(const RunRequest &request)
{
    auto found = m_engine.m_sessions.find(request.sessionId);
    if (!found) {
        return found.error();
    }
    const std::shared_ptr<SessionRegistry::Session> session = *found;
    const std::lock_guard use(session->use);
    if (auto still = m_engine.m_sessions.find(request.sessionId); !still || *still != session) {
        return Error{QStringLiteral("Session \"%1\" was closed while this run waited for it.").arg(request.sessionId), ErrorCode::NotFound};
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
                         .arg(info.id, info.language, language->name), ErrorCode::BadRequest};
    }
    if (auto allowed = checkPolicy(*language, request.code); !allowed) {
        return allowed.error();
    }
    if (const QStringList missing = librariesToInstall(*language, request.libraries, info.libraries);
        !missing.isEmpty()) {
        return Error{QStringLiteral("Session \"%1\" cannot install %2: a session's sandbox has no network after it "
                                    "is created. Create a session with these libraries (create_session with "
                                    "libraries) or run without the session.")
                         .arg(info.id, missing.join(QStringLiteral(", "))), ErrorCode::BadRequest};
    }

    // Files stay from run to run; a persistent interpreter keeps the variables too.
    QJsonObject message = runMessage(request, *language, true);
    message.remove(QStringLiteral("scratch_dirs"));
    if (!language->sessionInterpreter.isEmpty()) {
        QStringList argv{QStringLiteral("/bin/bash"), kSessionClient, language->sourceFileName(request.code)};
        argv << language->sessionInterpreter;
        message.insert(QStringLiteral("steps"),
                       QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("run")},
                                              {QStringLiteral("argv"), QJsonArray::fromStringList(argv)}}});
        message.insert(QStringLiteral("keep_processes"), true);
        // The interpreter serves every run of the session: a per-process CPU-time limit would add them all up.
        // Each run is still bounded by its timeout, after which the interpreter is interrupted.
        message.remove(QStringLiteral("cpu_limit_ms"));
    }
    RunnerClient &runner = session->container->runner();
    if (auto sent = runner.send(message); !sent) {
        m_engine.m_sessions.close(info.id);
        return Error{QStringLiteral("The sandbox of session \"%1\" has stopped (%2); the session was closed. Create "
                                    "a new one.")
                         .arg(info.id, sent.error().message), ErrorCode::SandboxFailed};
    }
    bool clean = false;
    auto result = collect(runner, request.timeout, clean);
    const bool unresponsive = result && !clean && (result->reason == StopReason::TimedOut || result->reason == StopReason::Cancelled);
    if (!result || unresponsive) {
        // The runner did not finish the run: nothing more can be trusted to this container.
        m_engine.m_sessions.close(info.id);
        if (!result) {
            return Error{QStringLiteral("The sandbox of session \"%1\" stopped during the run (%2); the session was "
                                        "closed. Create a new one.")
                             .arg(info.id, result.error().message), ErrorCode::SandboxFailed};
        }
        result->stderrData.append(QStringLiteral("\nllm-sandbox: the sandbox did not respond after the run; session "
                                                 "\"%1\" was closed.\n")
                                      .arg(info.id)
                                      .toUtf8());
        return result;
    }
    m_engine.m_sessions.touch(*session, true);
    return result;
}

Result<SessionInfo> ExecutionEngine::Run::openSession(const SessionRequest &request)
{
    auto language = LanguageRegistry::instance().find(request.language);
    if (!language) {
        return language.error();
    }
    if (request.timeout.count() <= 0) {
        return Error{QStringLiteral("The timeout must be positive."), ErrorCode::BadRequest};
    }
    if (auto room = m_engine.m_sessions.checkRoom(); !room) {
        return room.error();
    }
    auto image = m_engine.m_catalog.runImage(*language);
    if (!image) {
        return image.error();
    }
    const QStringList toInstall = librariesToInstall(*language, request.libraries);
    std::optional<LibraryInstallPlan> plan;
    if (!toInstall.isEmpty()) {
        auto made = LibraryInstallPlan::make(*language, toInstall, kWorkdir);
        if (!made) {
            return made.error();
        }
        plan = std::move(*made);
    }
    progress(QStringLiteral("Starting a %1 session").arg(language->displayName));
    auto container = m_engine.startContainer(*language, *image, [this](const QString &line) { progress(line); },
                                             plan && plan->needsNetwork ? kInstallNetwork : QString());
    if (!container) {
        return container.error();
    }
    if (plan) {
        RunRequest installRequest;
        installRequest.language = language->name;
        installRequest.libraries = request.libraries;
        if (auto installed = install(**container, installRequest, *language, *plan); !installed) {
            return installed.error();
        }
    } else {
        for (auto it = language->projectFiles.begin(); it != language->projectFiles.end(); ++it) {
            if (auto written = exchangeFile((*container)->runner(), putFileMessage(m_id, it.key(), it.value().toUtf8()));
                !written) {
                return written.error();
            }
        }
    }
    auto session = std::make_shared<SessionRegistry::Session>();
    session->info.language = language->name;
    session->info.libraries = request.libraries;
    session->info.timeout = request.timeout;
    session->info.keepsVariables = !language->sessionInterpreter.isEmpty();
    session->container = std::move(*container);
    return m_engine.m_sessions.add(std::move(session));
}

Result<std::unique_ptr<SandboxContainer>> ExecutionEngine::startContainer(const Language &language,
                                                                          const QString &image,
                                                                          const ProgressCallback &progress,
                                                                          const QString &networkMode)
{
    const SandboxSettings &settings = m_settings;
    ContainerSpec spec;
    spec.image = image;
    spec.command = {kRunnerPath};
    spec.user = settings.user;
    spec.workingDir = kWorkdir;
    spec.labels = {{containerLabel(), QUuid::createUuid().toString(QUuid::Id128).left(16)},
                   {ownerLabel(), ownerIdentity()}};
    spec.networkMode = networkMode.isEmpty() ? settings.networkMode : networkMode;
    spec.memoryBytes = settings.memoryBytes;
    spec.cpus = settings.cpus;
    spec.pidsLimit = settings.pidsLimit;
    spec.ulimits = {{QStringLiteral("nofile"), settings.nofileLimit, settings.nofileLimit},
                    {QStringLiteral("nproc"), settings.nprocLimit, settings.nprocLimit},
                    {QStringLiteral("fsize"), settings.fileSizeLimitBytes, settings.fileSizeLimitBytes},
                    {QStringLiteral("core"), 0, 0}};
    spec.capDrop = settings.capDrop;
    spec.securityOpt = settings.securityOpt;
    spec.seccompProfile = settings.seccompProfile;
    spec.readOnlyRootfs = settings.readOnlyRootfs;
    spec.privileged = settings.privileged;
    const QString uid = settings.user.section(QLatin1Char(':'), 0, 0);
    const QString gid = settings.user.section(QLatin1Char(':'), 1, 1);
    spec.tmpfs = {
        {kWorkdir, QStringLiteral("rw,exec,nosuid,nodev,size=%1,uid=%2,gid=%3,mode=0755")
                       .arg(settings.workdirBytes)
                       .arg(uid, gid.isEmpty() ? uid : gid)},
        {QStringLiteral("/tmp"), QStringLiteral("rw,exec,nosuid,nodev,size=%1,mode=1777").arg(settings.tmpBytes)},
    };

    auto created = m_backend->createContainer(spec);
    if (!created) {
        // A missing image is built on first use (parents first), then creation is retried.
        auto present = m_backend->hasImage(spec.image);
        if (!present || *present) {
            return created.error();
        }
        progress(QStringLiteral("Building the %1 image (first use)...").arg(language.displayName));
        ImageBuilder builder(*m_backend, m_catalog);
        if (auto built = builder.ensure(language, progress); !built) {
            return built.error();
        }
        created = m_backend->createContainer(spec);
        if (!created) {
            return created.error();
        }
    }
    // From here on the container is removed whatever happens.
    auto stream = m_backend->startAttached(*created);
    if (!stream) {
        (void)m_backend->removeContainer(*created);
        return stream.error();
    }
    auto container = std::make_unique<SandboxContainer>(*m_backend, *created, image,
                                                        std::make_unique<RunnerClient>(std::move(*stream)));
    if (auto ready = container->runner().waitReady(kRunnerStartTimeout); !ready) {
        return ready.error();
    }
    return container;
}

ExecutionEngine::ExecutionEngine(std::shared_ptr<ContainerBackend> backend, SandboxSettings settings)
    : m_backend(std::move(backend)), m_settings(std::move(settings)),
      m_catalog(ImageCatalog::defaultRunnerPath(), m_settings.imageOverrides, m_settings.baseImage),
      m_policy(policyNamed(m_settings.policy, m_settings.policyRules)),
      m_pool({m_settings.poolSize, m_settings.poolIdleTimeout, m_settings.poolMaxUses}),
      m_sessions(m_settings.sessionIdleTimeout, m_settings.maxSessions)
{
}

QString ExecutionEngine::ownerIdentity()
{
    // host:pid:start time — a pid alone could be reused by an unrelated process later.
    const QByteArray startTime = processStartTime(QStringLiteral("self"));
    return QStringLiteral("%1:%2:%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QString::fromLatin1(startTime));
}

int ExecutionEngine::removeOrphanedContainers()
{
    auto containers = m_backend->listContainersWithLabels(ownerLabel());
    if (!containers) {
        return 0;
    }
    int removed = 0;
    for (auto it = containers->begin(); it != containers->end(); ++it) {
        const QStringList owner = it.value().split(QLatin1Char(':'));
        if (owner.size() != 3 || owner[0] != QSysInfo::machineHostName()) {
            continue; // another machine's container: not ours to judge
        }
        const QByteArray startTime = processStartTime(owner[1]);
        const bool alive = !startTime.isEmpty() && startTime == owner[2].toLatin1();
        if (!alive && m_backend->removeContainer(it.key())) {
            ++removed;
        }
    }
    if (removed > 0) {
        qCInfo(lcEngine) << "removed" << removed << "container(s) left by llm-sandbox processes that ended";
    }
    return removed;
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
    m_pool.prewarm(image, [this, language, image] { return startContainer(language, image, [](const QString &) {}); });
}

ExecutionEngine::~ExecutionEngine() = default;

QList<RunObserver *> ExecutionEngine::observersFor(RunObserver *extra) const
{
    std::lock_guard lock(m_observersMutex);
    QList<RunObserver *> observers = m_observers;
    if (extra) {
        observers.append(extra);
    }
    return observers;
}

void ExecutionEngine::addObserver(RunObserver *observer)
{
    std::lock_guard lock(m_observersMutex);
    m_observers.append(observer);
}

void ExecutionEngine::removeObserver(RunObserver *observer)
{
    std::lock_guard lock(m_observersMutex);
    m_observers.removeAll(observer);
}

Result<RunResult> ExecutionEngine::run(const RunRequest &original, std::stop_token stop, RunObserver *observer)
{
    // A session run without its own language or timeout takes the session's; observers see the values used.
    RunRequest request = original;
    if (!request.sessionId.isEmpty()) {
        if (auto session = m_sessions.find(request.sessionId)) {
            if (request.language.isEmpty()) {
                request.language = (*session)->info.language;
            }
            if (request.timeout.count() <= 0) {
                request.timeout = (*session)->info.timeout;
            }
        }
    }
    const QString id = QUuid::createUuid().toString(QUuid::Id128).left(16);
    const QList<RunObserver *> observers = observersFor(observer);
    for (RunObserver *each : observers) {
        each->runStarted(id, request);
    }
    QElapsedTimer timer;
    timer.start();
    Run run(*this, id, observers, std::move(stop));
    auto result = run.execute(request);
    if (result) {
        result->runId = id;
        result->durationMs = timer.elapsed();
        qCDebug(lcEngine) << "run" << id << "finished:" << toString(result->reason) << result->exitCode << "in"
                          << result->durationMs << "ms";
    } else {
        qCDebug(lcEngine).noquote() << "run" << id << "failed:" << result.error().message;
    }
    for (RunObserver *each : observers) {
        each->runFinished(id, result ? *result : RunResult{}, result ? QString() : result.error().message);
    }
    return result;
}

Result<SessionInfo> ExecutionEngine::createSession(const SessionRequest &request, std::stop_token stop,
                                                   RunObserver *observer)
{
    // Only the caller sees the progress: opening a session is not a run of the journal.
    Run run(*this, QUuid::createUuid().toString(QUuid::Id128).left(16),
            observer ? QList<RunObserver *>{observer} : QList<RunObserver *>{}, std::move(stop));
    return run.openSession(request);
}

Result<void> ExecutionEngine::closeSession(const QString &id)
{
    if (!m_sessions.close(id)) {
        return m_sessions.find(id).error();
    }
    return {};
}

QList<SessionInfo> ExecutionEngine::sessions() const
{
    return m_sessions.list();
}

Result<QJsonObject> ExecutionEngine::sessionFileRequest(const QString &sessionId, QJsonObject request)
{
    auto found = m_sessions.find(sessionId);
    if (!found) {
        return found.error();
    }
    const std::shared_ptr<SessionRegistry::Session> session = *found;
    const std::lock_guard use(session->use);
    request.insert(QStringLiteral("id"), QUuid::createUuid().toString(QUuid::Id128).left(16));
    request.insert(QStringLiteral("workdir"), kWorkdir);
    auto answer = exchangeFile(session->container->runner(), request);
    m_sessions.touch(*session, false);
    return answer;
}

Result<qint64> ExecutionEngine::writeSessionFile(const QString &sessionId, const QString &path, const QByteArray &data)
{
    auto relative = sessionPath(path);
    if (!relative) {
        return relative.error();
    }
    if (data.size() > m_settings.maxSessionFileBytes) {
        return Error{QStringLiteral("The file has %1 bytes, more than the limit of %2 bytes per file.")
                         .arg(data.size())
                         .arg(m_settings.maxSessionFileBytes), ErrorCode::LimitReached};
    }
    QJsonObject request = fileMessage(*relative, data);
    request.insert(QStringLiteral("op"), QStringLiteral("put_file"));
    auto answer = sessionFileRequest(sessionId, request);
    if (!answer) {
        return answer.error();
    }
    return qint64(answer->value(QStringLiteral("size")).toDouble());
}

Result<QByteArray> ExecutionEngine::readSessionFile(const QString &sessionId, const QString &path)
{
    auto relative = sessionPath(path);
    if (!relative) {
        return relative.error();
    }
    auto answer = sessionFileRequest(sessionId, QJsonObject{{QStringLiteral("op"), QStringLiteral("get_file")},
                                                            {QStringLiteral("path"), *relative},
                                                            {QStringLiteral("max_bytes"),
                                                             double(m_settings.maxSessionFileBytes)}});
    if (!answer) {
        return answer.error();
    }
    return QByteArray::fromBase64(answer->value(QStringLiteral("data")).toString().toLatin1());
}

} // namespace sandbox
