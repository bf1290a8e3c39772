#pragma once

#include "journal/ExchangeSink.h"
#include "mcp/protocol/LogLevel.h"
#include "mcp/protocol/RequestMeta.h"
#include "mcp/server/Resource.h"
#include "mcp/server/TaskRegistry.h"
#include "mcp/tools/ToolRegistry.h"

#include <QFuture>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QThreadPool>
#include <QUuid>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace sandbox::mcp {

struct DispatcherOptions
{
    /// Larger messages are answered with an error instead of being parsed.
    qint64 maxMessageBytes = 64LL * 1024 * 1024;
    /// serverInfo.version; empty means QCoreApplication::applicationVersion().
    QString serverVersion;
    /// Long tool calls (execute_code) that may run at the same time; more wait for a free slot.
    int maxConcurrentCalls = 16;
    /// Log notifications below this level are not sent until the client calls logging/setLevel.
    LogLevel logLevel = LogLevel::Info;
    /// The transport, as the journal names a run's source: "mcp" (stdio) or "http".
    QString origin = QStringLiteral("mcp");
    /// Receives each tool call that ran code and its reply, for the run journal, and gives back the runs' files;
    /// not owned, may be null.
    ExchangeSink *exchangeSink = nullptr;
    /// Families of resources read through a template (SandboxTools::resourceTemplates).
    QList<ResourceTemplate> resourceTemplates;
    /// How long a client's tasks are kept and how many it may hold.
    TaskRegistry::Limits taskLimits;
};

/// The MCP server's protocol logic as a function from one incoming JSON-RPC message to its reply, free of any
/// transport. Short requests answer at once (the future is already finished); long tool calls run on the
/// dispatcher's own thread pool, so they never block the caller, and can be cancelled with
/// notifications/cancelled. Notifications the server sends on its own (progress, log messages) go to the sink.
/// A client on 2025-11-25 may run a long tool as a task (tools/call with `task`, then tasks/get, tasks/result,
/// tasks/list, tasks/cancel): the task lives as long as this dispatcher, that is as long as the client's session.
/// Thread-safe: handle() may be called from any thread, the sink is called from several.
class McpDispatcher final
{
public:
    /// Where the messages the server sends on its own go. `request`: the id of the request whose handling sent it (its
    /// progress, its log messages), for a transport that sends them where that request's answer goes; undefined for
    /// a message of no request (task status, resource updates, the session's log).
    using MessageSink = std::function<void(const QJsonObject &message, const QJsonValue &request)>;
    /// Makes a dispatcher whose own messages go to `sink`: what a transport is given (McpHost::dispatcherFactory).
    using Factory = std::function<std::unique_ptr<McpDispatcher>(MessageSink sink)>;

    McpDispatcher(ToolRegistry tools, QList<Resource> resources, MessageSink sink, DispatcherOptions options = {});
    /// Cancels running calls and waits for them to end.
    ~McpDispatcher();

    McpDispatcher(const McpDispatcher &) = delete;
    McpDispatcher &operator=(const McpDispatcher &) = delete;

    /// Handles one message as received (a JSON-RPC request, notification, response or batch). The future's
    /// document is null when nothing must be sent back (notifications, responses, cancelled requests). A request
    /// whose `_meta` names a protocol version, and server/discover, are served by the 2026-07-28 rules on their own,
    /// beside (and without touching) the session agreed in initialize.
    QFuture<QJsonDocument> handle(const QByteArray &message);
    /// handle() of a message a transport has parsed already (an object or a batch).
    QFuture<QJsonDocument> handle(const QJsonDocument &message);
    /// Serves one parsed request by the 2026-07-28 rules even when its `_meta` is missing (then -32602): for a
    /// transport that knows the request's era from elsewhere (an HTTP request without a session).
    QFuture<QJsonDocument> handlePerRequest(const QJsonObject &request);

    /// The tools this dispatcher serves (the HTTP transport checks the headers some of their arguments mirror).
    const ToolRegistry &tools() const { return m_tools; }

    /// The owner of the sandbox sessions its tool calls open and may use (ToolCall::owner): the HTTP transport's
    /// MCP session id. Set before the first message.
    void setSessionOwner(QString owner) { m_sessionOwner = std::move(owner); }
    /// For one request that came alone over HTTP (2026-07-28): it owns no session, and create_session answers with
    /// a handle (SessionHandle). Set before the message.
    void ownSessionsByHandle();

    /// Cancels every running call; none of them will be answered.
    void cancelAll();
    /// Blocks until no call is running.
    void waitForDone();
    /// Calls running on the pool right now, tasks included.
    int runningCalls() const;

    /// The revision agreed in initialize (the latest one before that).
    QString protocolVersion() const;
    /// The clientInfo name and version the client gave in initialize (empty before).
    QString clientName() const;
    QString clientVersion() const;
    /// From now on tool calls that ran code are handed to `sink` with their reply (null: to nobody). The sink must
    /// outlive the dispatcher or be replaced before it goes.
    void setExchangeSink(ExchangeSink *sink);
    /// True once initialize has been answered; until then only ping and initialize are served.
    bool isInitialized() const;
    /// Sends a notifications/message when `level` is at or above the level the client asked for.
    void log(LogLevel level, const QString &message);

    /// The error reply for a message over the size limit, for transports that drop such a message unread.
    QJsonObject messageTooLargeReply() const;

private:
    struct RunningCall;

    QFuture<QJsonObject> dispatch(const QJsonValue &message);
    QFuture<QJsonObject> handleRequest(const QJsonValue &id, const QString &method, const QJsonObject &params,
                                       const QJsonObject &message);
    void handleNotification(const QString &method, const QJsonObject &params);
    /// A request of the 2026-07-28 era: no session, everything it needs is in its `_meta`.
    QFuture<QJsonObject> handlePerRequest(const QJsonValue &id, const QString &method, const QJsonObject &params,
                                          const QJsonObject &message);
    QJsonObject initialize(const QJsonValue &id, const QJsonObject &params);
    QJsonObject discover(const QJsonValue &id) const;
    /// `meta` is set for a 2026-07-28 request (its client, log level and revision instead of the session's).
    QFuture<QJsonObject> callTool(const QJsonValue &id, const QJsonObject &params, const QJsonObject &message,
                                  const std::optional<RequestMeta> &meta = std::nullopt);
    /// `uiClient`: the client renders MCP Apps (RunViewResource), so the resources only such clients use are listed
    /// too.
    QJsonArray resourceList(bool titles, bool uiClient) const;
    QFuture<QJsonObject> readResource(const QJsonValue &id, const QJsonObject &params, bool perRequest = false);
    QJsonArray resourceTemplateList() const;
    const ResourceTemplate *templateFor(const QString &uri) const;
    ResourceReader resourceReader() const;
    QFuture<QJsonObject> subscribe(const QJsonValue &id, const QJsonObject &params);
    QJsonObject unsubscribe(const QJsonValue &id, const QJsonObject &params);
    /// After a tool call with these arguments: tells the subscribers of the resources it changed.
    void checkSubscriptions(const QJsonObject &arguments);

    QJsonObject serverInfo(const QString &version) const;
    bool isUiClient() const;
    /// A 2026-07-28 result: resultType, the server's identity in `_meta` and, with `ttlMs` (cacheable results),
    /// ttlMs and cacheScope.
    QJsonObject completeResult(QJsonObject result, std::optional<int> ttlMs = std::nullopt) const;
    QJsonObject setLogLevel(const QJsonValue &id, const QJsonObject &params);
    /// `request`: the request the message belongs to (MessageSink).
    void send(const QJsonObject &message, const QJsonValue &request = QJsonValue(QJsonValue::Undefined));
    /// log() for the handling of `request`.
    void log(LogLevel level, const QString &message, const QJsonValue &request);
    /// An error reply to a message whose id could not be read, shaped as the agreed revision wants.
    QJsonObject unidentifiedError(int code, const QString &message, const QJsonValue &data = {}) const;

    const ToolRegistry m_tools;
    const QList<Resource> m_resources;
    const MessageSink m_sink;
    const DispatcherOptions m_options;
    QString m_sessionOwner;
    bool m_sessionHandles = false;
    /// This connection's id in the journal's runs (ToolCall::connection): the runs whose files it may read.
    const QString m_connection = QUuid::createUuid().toString(QUuid::WithoutBraces);

    mutable std::mutex m_mutex;
    QString m_protocolVersion;
    QString m_clientName;
    QString m_clientVersion;
    /// The client announced MCP Apps (io.modelcontextprotocol/ui) in initialize.
    bool m_uiClient = false;
    std::atomic<ExchangeSink *> m_exchangeSink;
    bool m_initialized = false;
    QHash<QString, std::shared_ptr<RunningCall>> m_running;
    /// The resources the client subscribed to, with a hash of what they held when last looked at.
    QHash<QString, QByteArray> m_subscriptions;
    std::atomic<int> m_logLevel;
    TaskRegistry m_tasks;

    // Last member: destroyed first, while everything its threads use still exists.
    QThreadPool m_pool;
};

} // namespace sandbox::mcp
