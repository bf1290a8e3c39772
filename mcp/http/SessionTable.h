#pragma once

#include "mcp/http/HttpSession.h"
#include "mcp/server/McpDispatcher.h"

#include <QFuture>
#include <QHash>
#include <QList>
#include <QString>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox::mcp {

/// The MCP sessions of the HTTP transport by their Mcp-Session-Id, and the dispatchers of the 2026-07-28 requests in
/// flight. An ended session's dispatcher retires off the server's thread: its calls are cancelled there and it waits
/// for them (a container being removed) before it goes. Lives on the server's thread.
class SessionTable final
{
public:
    /// Makes the dispatcher of the session `id`.
    using Make = std::function<std::unique_ptr<McpDispatcher>(const QString &id)>;

    /// `changed`: a session began or ended.
    SessionTable(int maxSessions, std::function<void()> changed);
    /// Cancels every call and waits until every dispatcher is gone.
    ~SessionTable();

    SessionTable(const SessionTable &) = delete;
    SessionTable &operator=(const SessionTable &) = delete;

    int size() const { return static_cast<int>(m_sessions.size()); }
    int maxSessions() const { return m_maxSessions; }
    /// Null when there is no such session (never was, ended or expired).
    std::shared_ptr<HttpSession> find(const QString &id) const { return m_sessions.value(id); }
    /// The initialized sessions: who is connected.
    QList<HttpSessionInfo> infos() const;

    /// A new session with a fresh unguessable id. When all are taken, expired ones go first, then the one idle
    /// longest; null when every session is busy.
    std::shared_ptr<HttpSession> create(const Make &make, std::chrono::milliseconds idleTimeout);
    /// Ends session `id`: its streams finish, its calls are cancelled.
    void close(const QString &id);
    /// Ends every session and cancels the 2026-07-28 requests in flight.
    void closeAll();
    /// Ends the sessions with no request or call for `idleTimeout`.
    void expireIdle(std::chrono::milliseconds idleTimeout);

    /// Keeps a 2026-07-28 request's dispatcher while its answer is pending (closeAll() cancels it).
    void hold(const std::shared_ptr<McpDispatcher> &dispatcher) { m_perRequest.insert(dispatcher.get(), dispatcher); }
    /// Its answer went out (or it was refused): its calls are cancelled and it goes, off this thread.
    void release(const std::shared_ptr<McpDispatcher> &dispatcher);
    /// Finishes once every ended session's and request's dispatcher is gone.
    QFuture<void> whenRetired();

private:
    void retire(std::shared_ptr<McpDispatcher> dispatcher);

    const int m_maxSessions;
    const std::function<void()> m_changed;
    QHash<QString, std::shared_ptr<HttpSession>> m_sessions;
    QHash<McpDispatcher *, std::shared_ptr<McpDispatcher>> m_perRequest;
    QList<QFuture<void>> m_retiring;
};

} // namespace sandbox::mcp
