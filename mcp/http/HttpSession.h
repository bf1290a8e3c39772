#pragma once

#include "mcp/http/SseStream.h"
#include "mcp/server/McpDispatcher.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <chrono>
#include <memory>
#include <optional>

namespace sandbox::mcp {

/// What a connected client is, as the server's owner shows it (the desktop app's list of clients).
struct HttpSessionInfo
{
    QString id;
    QString clientName, clientVersion; ///< its clientInfo
    QString protocolVersion;           ///< the revision agreed in initialize
    QDateTime lastActivity;            ///< its last request (UTC)
    int runningCalls = 0;
    bool streamOpen = false; ///< its GET event stream is open: the client is listening
    /// Its GET event stream was dropped from the client's side and it has made no request since: the client has most
    /// likely exited (its session stays until it expires or is ended).
    bool clientGone = false;
};

/// One MCP session of the HTTP transport (one Mcp-Session-Id): its own dispatcher, so protocol version, log level
/// and running calls are per client, and the event streams its messages can travel on. Lives on the server's thread.
class HttpSession final
{
public:
    HttpSession(QString id, std::unique_ptr<McpDispatcher> dispatcher);

    HttpSession(const HttpSession &) = delete;
    HttpSession &operator=(const HttpSession &) = delete;

    const QString &id() const { return m_id; }
    /// Null once the session was closed.
    McpDispatcher *dispatcher() const { return m_dispatcher.get(); }
    std::unique_ptr<McpDispatcher> takeDispatcher() { return std::move(m_dispatcher); }

    void touch();
    std::chrono::milliseconds idleFor() const { return std::chrono::milliseconds(m_lastUse.elapsed()); }
    /// Whether this session was last used before `other`, by the monotonic clock's own resolution (two sessions
    /// used within one millisecond still have an order).
    bool usedBefore(const HttpSession &other) const { return m_lastUse < other.m_lastUse; }
    /// A request is waiting for its answer (its stream open) or a call is running: not to be expired. An open GET
    /// stream alone is not: a client that listens but asks nothing goes like any idle one.
    bool busy() const;
    void beginExchange() { ++m_exchanges; }
    void endExchange() { --m_exchanges; }

    /// Null before initialize was answered (or once the session was closed).
    std::optional<HttpSessionInfo> info() const;

    SseStream *getStream() const;
    void setGetStream(SseStream *stream) { m_getStream = stream; }
    /// The GET stream was dropped by the client (touch() clears it).
    void setClientGone() { m_clientGone = true; }
    /// A POST answered as a stream: the messages sent while its requests (jsonrpc::idKey of each id) are handled go
    /// there.
    void addRequestStream(SseStream *stream, const QStringList &requestKeys);
    /// Where a message the server sends on its own goes: the stream of the request whose handling sent it
    /// (`requestKey`, empty for a message of no request), else the GET stream, else (for a message of no request)
    /// the newest request stream. Null: no stream fits, the message is dropped.
    SseStream *streamFor(const QString &requestKey);
    QList<SseStream *> openStreams();

private:
    void prune();

    const QString m_id;
    std::unique_ptr<McpDispatcher> m_dispatcher;
    QElapsedTimer m_lastUse;
    QDateTime m_lastActivity;
    int m_exchanges = 0;
    bool m_clientGone = false;
    QPointer<SseStream> m_getStream;
    QList<QPointer<SseStream>> m_requestStreams;
    QHash<QString, QPointer<SseStream>> m_requestKeyStreams;
};

} // namespace sandbox::mcp
