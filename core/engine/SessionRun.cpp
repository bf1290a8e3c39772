#include "engine/SessionRun.h"

#include "engine/LibraryInstall.h"
#include "lang/LanguageRegistry.h"
#include "runnerclient/RunnerClient.h"
#include "security/ScannedSource.h"

namespace sandbox {

namespace {

using namespace std::chrono_literals;

/// How long a session file operation may take before the session's runner is considered stuck.
constexpr auto kFileOperationTimeout = 60s;

} // namespace

Result<RunResult> ExecutionEngine::SessionRun::execute(const RunRequest &request)
{
    SessionRegistry &sessions = m_run.engine().m_sessions.registry();
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
    if (auto allowed = m_run.engine().m_policy.check(ScannedSource(language->name, request.code)); !allowed) {
        return allowed.error();
    }
    if (const QStringList missing = Run::librariesToInstall(*language, request.libraries, info.libraries);
        !missing.isEmpty()) {
        return Error{QStringLiteral("Session \"%1\" cannot install %2: a session's sandbox has no network after it "
                                    "is created. Create a session with these libraries (create_session with "
                                    "libraries) or run without the session.")
                         .arg(info.id, missing.join(QStringLiteral(", "))),
                     ErrorCode::BadRequest};
    }
    if (auto running = m_run.checkNotCancelled(); !running) {
        return running.error();
    }

    // The session's sandbox mounts the shared folders' copies since it was created: brought up to date for each run.
    auto folders = m_run.updateSharedFolders(m_run.engine().m_settings.sharedFolders);
    if (!folders) {
        return folders.error();
    }

    // Files stay from run to run; a persistent interpreter keeps the variables too.
    RunnerRunRequest message = m_run.runRequest(request, *language, nullptr, true);
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
    if (const EgressProxyContainer *proxy = session->container->egressProxy()) {
        Run::addNetwork(message, *language, proxy->sandboxEnvironment());
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
    auto result = m_run.collectSampled(*session->container, request.timeout, clean);
    Run::attachLimits(result, *session->container);
    Run::attachNetwork(result, *session->container);
    if (result) {
        result->sharedFolders = *folders;
    }
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

Result<std::unique_ptr<SandboxContainer>> ExecutionEngine::SessionRun::prepare(const Language &language,
                                                                               const QStringList &libraries,
                                                                               const QStringList &network,
                                                                               const QString &sessionId)
{
    auto image = m_run.engine().m_catalog.runImage(language);
    if (!image) {
        return image.error();
    }
    const QStringList toInstall = Run::librariesToInstall(language, libraries);
    std::optional<LibraryInstallPlan> plan;
    if (!toInstall.isEmpty()) {
        auto made = LibraryInstallPlan::make(language, toInstall, SandboxContainer::workdir());
        if (!made) {
            return made.error();
        }
        plan = std::move(*made);
    }
    if (auto going = m_run.checkNotCancelled(); !going) {
        return going.error();
    }
    // Where the folders travel as a copy, the session keeps the one its sandbox starts with: the folders as now.
    if (m_run.engine().foldersTravel()) {
        if (auto folders = m_run.updateSharedFolders(m_run.engine().m_settings.sharedFolders); !folders) {
            return folders.error();
        }
    }
    ContainerOptions options{.labels = {{ContainerSpecFactory::sessionLabel(), sessionId}}};
    auto proxy = m_run.startNetwork(language, network, options);
    if (!proxy) {
        return proxy.error();
    }
    if (plan) {
        auto container = LibraryInstall(m_run, true).start(language, *image, libraries, *plan, options);
        if (container) {
            (*container)->keepEgressProxy(std::move(*proxy));
        }
        return container;
    }
    m_run.report(RunProgress::Kind::ContainerStart, QStringLiteral("Starting a %1 session").arg(language.displayName));
    auto container = m_run.startContainer(language, *image, options);
    if (!container) {
        return container.error();
    }
    (*container)->keepEgressProxy(std::move(*proxy));
    for (const RunnerFile &file : Run::projectFiles(language)) {
        auto written = (*container)
                           ->runner()
                           .transferFile(RunnerPutFileRequest{m_run.id(), SandboxContainer::workdir(), file},
                                         kFileOperationTimeout);
        if (!written) {
            return written.error();
        }
    }
    return container;
}

} // namespace sandbox
