#pragma once

// The engine's own parts (not for its users): one run, as ExecutionEngine::run() and createSession() drive it.

#include "engine/EgressProxy.h"
#include "engine/ExecutionEngine.h"
#include "engine/SandboxContainer.h"
#include "runnerclient/RunnerMessages.h"

#include <QLoggingCategory>
#include <QMap>
#include <chrono>
#include <functional>

Q_DECLARE_LOGGING_CATEGORY(lcEngine)

namespace sandbox {

class ResultWriter;
class RunnerClient;
class ScannedSource;

/// One run (or the opening of a session): takes or starts the container, drives the runner, collects the result,
/// and tells the observers. What a run needs a library install for goes to LibraryInstall, a session's runs to
/// SessionRun; both work through this run's observers, stop token and collection.
class ExecutionEngine::Run final
{
public:
    /// `subscribed`: whether the engine's subscribed observers see this run (not the opening of a session);
    /// `caller`: the caller's own observer, or null.
    Run(ExecutionEngine &engine, QString id, bool subscribed, RunObserver *caller, std::stop_token stop)
        : m_engine(engine), m_id(std::move(id)), m_subscribed(subscribed), m_caller(caller), m_stop(std::move(stop))
    {}

    Result<RunResult> execute(const RunRequest &request);

    ExecutionEngine &engine() const { return m_engine; }
    const QString &id() const { return m_id; }
    void notify(const std::function<void(RunObserver &)> &call) const;
    /// Progress reaches the GUI, the journal's observers and MCP clients: never a credential a URL carries.
    void report(RunProgress progress) const;
    void report(RunProgress::Kind kind, const QString &message) const { report(RunProgress{kind, message}); }
    /// An error for a run cancelled before its program started, or nothing.
    Result<void> checkNotCancelled() const;
    Result<std::unique_ptr<SandboxContainer>> startContainer(const Language &language, const QString &image,
                                                             const ContainerOptions &options = {});

    /// The runner's request for `request`'s code. `scanned`: the code as the policy read it, for the choice of the
    /// preloaded interpreter it forks from (null: none, as after an install, whose libraries a preloaded interpreter
    /// may hold older copies of); `afterInstall`: the project files are in place already and the run keeps files.
    RunnerRunRequest runRequest(const RunRequest &request, const Language &language, const ScannedSource *scanned,
                                bool afterInstall = false) const;
    /// Reads the runner's events to the end of the run; `clean` tells whether the runner
    /// reported the end itself without an error (then the container can serve another run). Output goes to
    /// the observers as output, or (`asProgress`, for install steps) as progress lines. A container the engine
    /// records as ended by the OOM killer (`containerId`: the one to ask about) ends the run with `oom`: the whole
    /// sandbox reached its memory limit (under gVisor the host's OOM killer takes the Sentry, which holds the program's
    /// memory, with the program).
    Result<RunResult> collect(RunnerClient &runner, std::chrono::milliseconds timeout, bool &clean,
                              bool asProgress = false, const QString &containerId = {});
    /// collect() of the program's run in `container`, its container sampled meanwhile (RunObserver::runSample).
    Result<RunResult> collectSampled(SandboxContainer &container, std::chrono::milliseconds timeout, bool &clean);

    /// A run's own egress proxy, letting through what `requested` is granted of the user's ceiling
    /// (SandboxSettings::networkAllow) and recording every request; `options` changed so that the sandbox's only way
    /// out is that proxy, which the sandbox then keeps (SandboxContainer::keepEgressProxy). The user's secrets bound
    /// to a host it may reach (SandboxSettings::networkSecrets) are added by the proxy; the sandbox sees placeholders.
    /// Null when nothing is requested. BadRequest beyond the ceiling.
    Result<std::unique_ptr<EgressProxyContainer>> startNetwork(const Language &language, const QStringList &requested,
                                                               ContainerOptions &options);
    /// `request` (a run step's) told where its egress proxy is: `environment`
    /// (EgressProxyContainer::sandboxEnvironment: the proxy variables every HTTP client reads, the secrets'
    /// placeholders), and the language's proxy arguments (Language::withProxyArguments) for those that read none.
    static void addNetwork(RunnerRunRequest &request, const Language &language,
                           const QHash<QString, QString> &environment);
    /// What `container`'s egress proxy (startNetwork()) logged for the finished run of `result`, and what it was
    /// allowed; nothing for a sandbox without one.
    static void attachNetwork(Result<RunResult> &result, const SandboxContainer &container);

    /// The preloaded interpreters of `language` (Language::preloaded): the plain one, and the one that imported
    /// `preloadedModules` first, if it names any.
    static QList<QStringList> preloadedInterpreters(const Language &language);
    /// The whole environment of a run's steps: nothing of the host's, only what the run needs.
    static QMap<QString, QString> runEnvironment(const Language &language);
    static QList<RunnerFile> projectFiles(const Language &language);
    /// The libraries of `requested` that still need installing: not in the image (prompts often name numpy or
    /// matplotlib) and not in `installed` (a session's) already.
    static QStringList librariesToInstall(const Language &language, const QStringList &requested,
                                          const QStringList &installed = {});
    /// Brings the sandbox's copies of `folders` up to date before a run (FolderSnapshot), saying so when it takes a
    /// while; what the run is given of each, for its result.
    /// `versions`, when given, gets each folder's FolderSnapshot::Report::version ("NAME:VERSION ").
    Result<QList<SharedFolderUse>> updateSharedFolders(const QList<SharedFolder> &folders,
                                                       QString *versions = nullptr) const;
    /// The result carries the limits in force in its sandbox; a sandbox that lacks some, accepted by
    /// SANDBOX_ALLOW_UNENFORCED_LIMITS, is noted on every run so weaker isolation never goes unnoticed.
    static void attachLimits(Result<RunResult> &result, const SandboxContainer &container);
    /// How often a run's reading of the runner's events looks at its stop token and deadline.
    static constexpr std::chrono::milliseconds kPollInterval{100};
    /// Between a pool key and a library set's key in the cache: a sandbox warmed with those libraries.
    static constexpr QLatin1String kWithLibraries{" with libraries "};

private:
    /// The preloaded interpreter the code runs as a fork of: the one with the modules it imports (their top-level
    /// packages), else the plain one; empty when the language has none.
    static QStringList preloadedInterpreterFor(const Language &language, const ScannedSource &scanned);
    /// Starts a container with `plan` installed (and `proxy`, its egress proxy, or null), then runs the code there.
    Result<RunResult> installAndRun(const RunRequest &request, const Language &language, const QString &image,
                                    const LibraryInstallPlan &plan, const ContainerOptions &options,
                                    std::unique_ptr<EgressProxyContainer> proxy);

    /// Saves what the run left in a writable shared folder (`event`) into it, into `result`.
    void saveResultFile(const RunnerResultFileEvent &event, ResultWriter &writer, RunResult &result) const;

    ExecutionEngine &m_engine;
    QString m_id;
    QList<SharedFolder> m_ownFolders; ///< the run's own shared folders (RunRequest::sharedFolders)
    bool m_subscribed;
    RunObserver *m_caller;
    std::stop_token m_stop;
    QHash<QString, QString> m_networkEnvironment; ///< what startNetwork() started tells the run (addNetwork())
};

} // namespace sandbox
