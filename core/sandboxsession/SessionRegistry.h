#pragma once

#include "engine/SandboxContainer.h"
#include "sandboxsession/SandboxSession.h"
#include "util/Result.h"

#include <QList>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sandbox {

/// The open sessions of an engine, each with its own container. Closes a session (removing
/// its container) when it has been idle for `idleTimeout`; a session in use is never closed
/// under a run. Thread-safe.
class SessionRegistry final
{
public:
    struct Session
    {
        SessionInfo info;
        std::unique_ptr<SandboxContainer> container;
        /// Held for the duration of a run or file operation: one at a time per session.
        std::mutex use;
    };

    /// The time idle sessions are measured by; tests pass one they control.
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    /// `clock`: std::chrono::steady_clock::now unless given.
    SessionRegistry(std::chrono::seconds idleTimeout, int maxSessions, Clock clock = {});
    /// Removes every session's container.
    ~SessionRegistry();
    SessionRegistry(const SessionRegistry &) = delete;
    SessionRegistry &operator=(const SessionRegistry &) = delete;

    /// An error naming the limit when `maxSessions` are open (or sessions are disabled).
    Result<void> checkRoom() const;
    /// Adds a started session; its id and times are filled in here.
    Result<SessionInfo> add(std::shared_ptr<Session> session);
    /// A new session id (add() assigns one to a session that has none).
    static QString newId();
    /// The session `id` when `owner` opened it, or an error a model can act on; a session of another owner is
    /// reported exactly as one that does not exist.
    Result<std::shared_ptr<Session>> find(const QString &id, const QString &owner) const;
    /// Records a finished use of `session` (restarting its idle time).
    void touch(Session &session, bool countsAsRun);
    /// Removes `id` when `owner` opened it; its container goes when the last user lets go. False when there is no
    /// such session of that owner.
    bool close(const QString &id, const QString &owner);
    /// The sessions `owner` opened.
    QList<SessionInfo> list(const QString &owner) const;
    /// Closes every session idle for `idleTimeout` now; the reaper thread does this every second.
    void reapExpired();

private:
    SessionInfo snapshot(const Session &session) const;
    /// Takes the expired sessions out of the registry; `m_mutex` is held.
    std::vector<std::shared_ptr<Session>> takeExpired();
    void reap();

    std::chrono::seconds m_idleTimeout;
    int m_maxSessions;
    Clock m_clock;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<QString, std::shared_ptr<Session>> m_sessions;
    std::map<QString, std::chrono::steady_clock::time_point> m_lastUsed;
    bool m_stopping = false;
    std::thread m_reaper;
};

} // namespace sandbox
