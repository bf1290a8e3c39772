#pragma once

#include "engine/ContainerPool.h"
#include "engine/ContainerSpecFactory.h"
#include "engine/ContainerStarter.h"
#include "engine/ObserverList.h"
#include "engine/RunObserver.h"
#include "engine/RunRequest.h"
#include "engine/RunResult.h"
#include "engine/RunSlots.h"
#include "engine/Subscription.h"
#include "engine/UserStops.h"
#include "images/ImageCatalog.h"
#include "sandboxsession/SandboxSession.h"
#include "sandboxsession/SessionService.h"
#include "security/CodePolicy.h"
#include "settings/SandboxSettings.h"
#include "util/Result.h"

#include <QList>
#include <QSet>
#include <QStringList>
#include <memory>
#include <mutex>
#include <stop_token>
#include <utility>

namespace sandbox {

class ContainerBackend;
struct LibraryInstallPlan;

/// Runs code in sandboxes. Blocking and thread-safe: callers that must stay responsive
/// (the MCP server, the GUI) call run() from a worker thread; several runs may proceed at once.
class ExecutionEngine final
{
public:
    ExecutionEngine(std::shared_ptr<ContainerBackend> backend, SandboxSettings settings);
    ~ExecutionEngine();

    /// Runs one request to the end. Infrastructure failures (engine unreachable, image missing,
    /// bad request) are errors; a program that fails is a normal result with its exit code.
    /// Requesting `stop` cancels the run (the program is killed).
    Result<RunResult> run(const RunRequest &request, std::stop_token stop = {}, RunObserver *observer = nullptr);

    /// Opens a session: a container of its own, with `request.libraries` installed, kept for the
    /// runs that name it (RunRequest::sessionId) until closeSession() or until it has been idle for
    /// the settings' sessionIdleTimeout. Python and R sessions keep their variables between runs.
    Result<SessionInfo> createSession(const SessionRequest &request, std::stop_token stop = {},
                                      RunObserver *observer = nullptr);
    /// Closes the session and removes its container; an error when `owner` has no such session (a session belongs
    /// to the caller that opened it, SessionRequest::owner; the same for every call below).
    Result<void> closeSession(const QString &id, const QString &owner = {});
    QList<SessionInfo> sessions(const QString &owner = {}) const;
    /// Writes `data` to `path` (relative to the session's working directory). Returns the size written.
    Result<qint64> writeSessionFile(const QString &sessionId, const QString &path, const QByteArray &data,
                                    const QString &owner = {});
    /// The file at `path` in the session's working directory, up to the settings' maxSessionFileBytes.
    Result<QByteArray> readSessionFile(const QString &sessionId, const QString &path, const QString &owner = {});

    /// Starts a container for `language` in the background so the next run finds it warm.
    void prewarm(const QString &language);
    /// Warm containers waiting for a run of `language`.
    int warmContainers(const QString &language) const;
    /// Warm containers of `language` with libraries from the cache unpacked in them, each waiting for a run that asks
    /// for its set.
    int warmContainersWithLibraries(const QString &language) const;
    /// Removes the warm containers and keeps none from now on (ContainerPool::drain): for an engine that is replaced
    /// while its runs and sessions finish. Runs still work, each on a fresh container. Blocking.
    void drainPool();

    /// The runs in progress a person may stop from the desktop app (RunJournal::requestStop reaches them through the
    /// journal recorder): such a run ends as StopReason::StoppedByUser. Shared, so a recorder's thread that outlives
    /// the engine finds no run rather than a dangling engine.
    std::weak_ptr<UserStops> userStops() const { return m_userStops; }

    /// Subscribes `observer` (not owned) to every run of this engine (the journal, the live log) until the
    /// returned Subscription is reset or destroyed: from then on it is not called again, not even by runs that
    /// started before. Callbacks to one subscribed observer never overlap.
    [[nodiscard]] Subscription subscribe(RunObserver *observer);

    ContainerBackend &backend() const { return *m_backend; }
    const SandboxSettings &settings() const { return m_settings; }
    const ImageCatalog &catalog() const { return m_catalog; }

    /// Label on every container the engine creates (value: an id of the container).
    static QString containerLabel() { return ContainerSpecFactory::runLabel(); }
    /// Label naming the process that owns a container (host:pid:start time).
    static QString ownerLabel() { return ContainerSpecFactory::ownerLabel(); }
    /// This process's identity as ownerLabel() holds it.
    static QString ownerIdentity();
    /// Removes containers whose owning llm-sandbox process on this host has ended (it crashed
    /// or was killed before it could clean up). Returns how many were removed.
    int removeOrphanedContainers();

private:
    class Run;
    class LibraryInstall;
    class SessionRun;

    /// Warms a sandbox of `image` in the pool under `key` (the image's name, or with the folders' versions).
    void prewarmImage(const Language &language, const QString &image, const QString &key);
    /// Warms a sandbox of `image` with the set of `plan` (`libraries`) that the library cache holds unpacked in it, in
    /// the pool under `options.poolKey` (ExecutionEngine::Run::installAndRun).
    void prewarmLibraries(const Language &language, const QString &image, const QStringList &libraries,
                          const LibraryInstallPlan &plan, const ContainerOptions &options);
    /// Whether the shared folders travel into each sandbox as a copy made when it starts (the backend cannot mount
    /// them): then a sandbox holds them as they were then, and is pooled under their versions.
    bool foldersTravel() const;
    /// Starts the preloaded interpreters of a language (Language::preloaded) in a container being warmed, so its first
    /// run is a fork already: the plain one, and one with modules once a run of this engine needed it. Best effort: a
    /// container whose runner does not answer is left as is.
    void startPreloaded(SandboxContainer &container, const Language &language);
    /// Returns `error`; when it says the engine did not answer, the pool's containers are removed first.
    Error noteFailure(Error error);
    void notePreloadNamed(const QStringList &interpreter);
    bool preloadWasNamed(const QStringList &interpreter) const;
    /// The language named `languageName` and the image its runs use.
    Result<std::pair<Language, QString>> languageAndImage(const QString &languageName) const;

    std::shared_ptr<ContainerBackend> m_backend;
    SandboxSettings m_settings;
    ImageCatalog m_catalog;
    CodePolicy m_policy;
    ContainerStarter m_starter;
    ObserverList m_observers;
    RunSlots m_runSlots;
    const std::shared_ptr<UserStops> m_userStops = std::make_shared<UserStops>();
    mutable std::mutex m_preloadsMutex;
    QSet<QStringList> m_preloadsNamed; ///< the preloaded interpreters pooled runs have named
    // Last: their containers are removed before the backend goes.
    ContainerPool m_pool;
    SessionService m_sessions;
};

} // namespace sandbox
