#pragma once

#include "journal/ExchangeSink.h"
#include "mcp/protocol/LogLevel.h"
#include "mcp/protocol/McpMessage.h"
#include "mcp/protocol/Reply.h"
#include "mcp/protocol/RequestMeta.h"
#include "mcp/server/Resource.h"
#include "mcp/server/ResourceService.h"
#include "mcp/server/ServerIdentity.h"
#include "mcp/server/TaskRegistry.h"
#include "mcp/server/ToolCallRunner.h"
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
    /// The transport, where its runs come from: Mcp (stdio) or Http.
    RunSource source = RunSource::Mcp;
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
/// The dispatcher keeps the session (initialize, ping, logging, batches, cancellation) and the 2026-07-28 path;
/// tools/call goes to ToolCallRunner, resources to ResourceService, who the server is to ServerIdentity. Each
/// request is handled with its Reply: the sink bound to its id.
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
    /// handle() of one message a transport has read already.
    QFuture<QJsonDocument> handle(const McpMessage &message);
    /// Serves one request by the 2026-07-28 rules even when its `_meta` is missing (then -32602): for a transport
    /// that knows the request's era from elsewhere (an HTTP request without a session).
    QFuture<QJsonDocument> handlePerRequest(const McpMessage &request);

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
    QFuture<QJsonObject> dispatch(const McpMessage &message);
    /// A request of the session agreed in initialize.
    QFuture<QJsonObject> handleRequest(const Reply &reply, const McpMessage &request);
    /// A request of the 2026-07-28 era: no session, everything it needs is in its `_meta`.
    QFuture<QJsonObject> handlePerRequest(const Reply &reply, const McpMessage &request);
    void handleNotification(const McpMessage &notification);
    QJsonObject initialize(const Reply &reply, const QJsonObject &params);
    QJsonObject setLogLevel(const Reply &reply, const QJsonObject &params);
    /// skills/get (the Skills extension); `perRequest`: a 2026-07-28 request, whose result is cacheable.
    QJsonObject getSkill(const Reply &reply, const QJsonObject &params, bool perRequest) const;
    /// The channel of request `id`: what is sent while it is handled goes to the sink with its id.
    Reply replyTo(const QJsonValue &id) const;
    /// Who makes a tool call of the session; of a 2026-07-28 request (`meta`).
    ToolCallClient sessionClient() const;
    ToolCallClient perRequestClient(const RequestMeta &meta) const;
    ResourceReader resourceReader() const;
    bool isUiClient() const;
    /// The error reply to a malformed message, addressed to its id when it has a usable one.
    QJsonObject invalidReply(const McpMessage &message) const;
    /// An error reply to a message whose id could not be read, shaped as the agreed revision wants.
    QJsonObject unidentifiedError(int code, const QString &message, const QJsonValue &data = {}) const;
    /// A message of no request (task status, resource updates, the session's log).
    void send(const QJsonObject &message);

    const ToolRegistry m_tools;
    const MessageSink m_sink;
    const DispatcherOptions m_options;
    const ServerIdentity m_identity;
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
    std::atomic<int> m_logLevel;
    TaskRegistry m_tasks;
    // They keep a reference to the pool, which is declared last: it is destroyed first, waiting for their work.
    ResourceService m_resources;
    ToolCallRunner m_calls;

    // Last member: destroyed first, while everything its threads use still exists.
    QThreadPool m_pool;
};

} // namespace sandbox::mcp
