#include "mcp/server/McpDispatcher.h"

#include "mcp/McpLogging.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"
#include "mcp/protocol/ReadyFuture.h"
#include "mcp/tools/apps/RunViewResource.h"

#include <QJsonArray>
#include <algorithm>

namespace sandbox::mcp {

using namespace jsonrpc;

namespace {

QFuture<QJsonDocument> toDocument(QFuture<QJsonObject> reply)
{
    return reply.then(QtFuture::Launch::Sync, [](const QJsonObject &object) {
        return object.isEmpty() ? QJsonDocument() : QJsonDocument(object);
    });
}

/// This server lists everything on one page and hands out no cursors, so any cursor is one it did not give.
bool hasForeignCursor(const McpMessage &request)
{
    const QJsonValue cursor = request.params().value(QStringLiteral("cursor"));
    return request.method().endsWith(QLatin1String("/list")) && !cursor.isUndefined() && !cursor.isNull();
}

const QString kNoCursors =
    QStringLiteral("Invalid cursor: this server gives out no cursors (every list fits on one page).");

} // namespace

McpDispatcher::McpDispatcher(ToolRegistry tools, QList<Resource> resources, MessageSink sink, DispatcherOptions options)
    : m_tools(std::move(tools)), m_sink(std::move(sink)), m_options(std::move(options)),
      m_identity(m_options.serverVersion), m_protocolVersion(ProtocolVersion::kLatest),
      m_exchangeSink(m_options.exchangeSink), m_logLevel(static_cast<int>(m_options.logLevel)),
      m_tasks(m_options.taskLimits,
              [this](const QJsonObject &task) {
                  send(makeNotification(QStringLiteral("notifications/tasks/status"), task));
              }),
      m_resources(std::move(resources), m_options.resourceTemplates, m_identity, m_pool,
                  [this](const QJsonObject &message) { send(message); }),
      m_calls(m_tools, m_tasks, m_resources, m_pool)
{
    m_pool.setMaxThreadCount(std::max(1, m_options.maxConcurrentCalls));
}

McpDispatcher::~McpDispatcher()
{
    cancelAll();
    waitForDone();
}

QFuture<QJsonDocument> McpDispatcher::handle(const QByteArray &message)
{
    if (message.size() > m_options.maxMessageBytes) {
        qCWarning(lcMcp) << "dropping a message of" << message.size() << "bytes";
        return readyFuture(QJsonDocument(messageTooLargeReply()));
    }

    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(message, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // QJsonDocument only takes objects and arrays; valid JSON of another kind is an invalid request, not a
        // parse error.
        const QJsonDocument wrapped = QJsonDocument::fromJson('[' + message + ']');
        if (wrapped.isArray() && wrapped.array().size() == 1) {
            return readyFuture(QJsonDocument(
                unidentifiedError(InvalidRequest, QStringLiteral("A JSON-RPC message must be an object."))));
        }
        return readyFuture(
            QJsonDocument(unidentifiedError(ParseError, QStringLiteral("Parse error: the message is not valid JSON."),
                                            QJsonObject{{QStringLiteral("detail"), parseError.errorString()},
                                                        {QStringLiteral("offset"), parseError.offset}})));
    }

    return handle(document);
}

QFuture<QJsonDocument> McpDispatcher::handle(const QJsonDocument &document)
{
    if (!document.isArray()) {
        return toDocument(dispatch(McpMessage::parse(document.object())));
    }

    // Batches came with 2025-03-26 and went with 2025-06-18; before initialize nothing is agreed, and initialize
    // itself never travels in one.
    const QString version = protocolVersion();
    if (!isInitialized() || version > ProtocolVersion::kLastWithBatches) {
        return readyFuture(QJsonDocument(unidentifiedError(
            InvalidRequest,
            isInitialized() ? QStringLiteral("JSON-RPC batches are not part of protocol revision %1; send each "
                                             "message on its own.")
                                  .arg(version)
                            : QStringLiteral("A batch cannot come before initialize; send initialize on its own."))));
    }
    const QJsonArray batch = document.array();
    if (batch.isEmpty()) {
        return readyFuture(
            QJsonDocument(unidentifiedError(InvalidRequest, QStringLiteral("A batch must not be empty."))));
    }
    QList<QFuture<QJsonObject>> replies;
    for (const QJsonValue &item : batch) {
        const McpMessage message = McpMessage::parse(item);
        if (message.object().value(QStringLiteral("method")) == QLatin1String("initialize")) {
            const QJsonValue id = message.object().value(QStringLiteral("id"));
            replies.append(readyFuture(id.isString() || id.isDouble()
                                           ? makeError(id, InvalidRequest,
                                                       QStringLiteral("initialize must be sent on its own, not in a "
                                                                      "batch."))
                                           : QJsonObject()));
            continue;
        }
        replies.append(dispatch(message));
    }
    return QtFuture::whenAll(replies.begin(), replies.end())
        .then(QtFuture::Launch::Sync, [](const QList<QFuture<QJsonObject>> &done) {
            QJsonArray out;
            for (const QFuture<QJsonObject> &reply : done) {
                if (reply.resultCount() > 0 && !reply.result().isEmpty()) {
                    out.append(reply.result());
                }
            }
            return out.isEmpty() ? QJsonDocument() : QJsonDocument(out);
        });
}

QFuture<QJsonDocument> McpDispatcher::handle(const McpMessage &message)
{
    return toDocument(dispatch(message));
}

QFuture<QJsonDocument> McpDispatcher::handlePerRequest(const McpMessage &request)
{
    if (request.kind() != McpMessage::Kind::Request) {
        // Not a well-formed request: the ordinary path finds the fault and words it.
        return toDocument(dispatch(request));
    }
    return toDocument(handlePerRequest(replyTo(request.id()), request));
}

QFuture<QJsonObject> McpDispatcher::dispatch(const McpMessage &message)
{
    switch (message.kind()) {
    case McpMessage::Kind::Invalid:
        return readyFuture(invalidReply(message));
    case McpMessage::Kind::Ignored:
        qCDebug(lcMcp) << "ignoring a response or a notification with malformed params" << message.id();
        return readyFuture(QJsonObject());
    case McpMessage::Kind::Notification:
        handleNotification(message);
        return readyFuture(QJsonObject());
    case McpMessage::Kind::Request:
        break;
    }
    const Reply reply = replyTo(message.id());
    return message.isPerRequest() ? handlePerRequest(reply, message) : handleRequest(reply, message);
}

QFuture<QJsonObject> McpDispatcher::handleRequest(const Reply &reply, const McpMessage &request)
{
    const QString &method = request.method();
    const QJsonObject &params = request.params();
    qCDebug(lcMcp) << "request" << method << reply.id();
    // Every revision has the client start with initialize and allows only pings before it.
    if (!isInitialized() && method != QLatin1String("initialize") && method != QLatin1String("ping")) {
        return readyFuture(reply.error(InvalidRequest, QStringLiteral("The session is not initialized: send "
                                                                      "initialize first (only ping may come before "
                                                                      "it).")));
    }
    if (hasForeignCursor(request)) {
        return readyFuture(reply.error(InvalidParams, kNoCursors));
    }
    if (method == QLatin1String("tools/call")) {
        return m_calls.call(reply, params, request.object(), sessionClient());
    }
    if (method == QLatin1String("initialize")) {
        return readyFuture(initialize(reply, params));
    }
    if (method == QLatin1String("ping")) {
        return readyFuture(reply.result(QJsonObject()));
    }
    if (method == QLatin1String("tools/list")) {
        // Everything fits on one page, so there is never a nextCursor.
        return readyFuture(
            reply.result(QJsonObject{{QStringLiteral("tools"), m_tools.toJson(protocolVersion(), isUiClient())}}));
    }
    if (method == QLatin1String("resources/list")) {
        const bool titles = protocolVersion() >= ProtocolVersion::kStructuredContent;
        return readyFuture(
            reply.result(QJsonObject{{QStringLiteral("resources"), m_resources.list(titles, isUiClient())}}));
    }
    if (method == QLatin1String("resources/read")) {
        return m_resources.read(reply, params, resourceReader(), false);
    }
    if (method == QLatin1String("resources/templates/list")) {
        return readyFuture(
            reply.result(QJsonObject{{QStringLiteral("resourceTemplates"), m_resources.templateList()}}));
    }
    if (method == QLatin1String("resources/subscribe")) {
        return m_resources.subscribe(reply, params, resourceReader());
    }
    if (method == QLatin1String("resources/unsubscribe")) {
        return readyFuture(m_resources.unsubscribe(reply, params));
    }
    if (method == QLatin1String("skills/list")) {
        return readyFuture(reply.result(QJsonObject{{QStringLiteral("skills"), m_resources.skills()}}));
    }
    if (method == QLatin1String("skills/get")) {
        return readyFuture(getSkill(reply, params, false));
    }
    if (method.startsWith(QLatin1String("tasks/")) && protocolVersion() >= ProtocolVersion::kTasks) {
        return m_tasks.handle(reply.id(), method, params);
    }
    if (method == QLatin1String("logging/setLevel")) {
        return readyFuture(setLogLevel(reply, params));
    }
    return readyFuture(reply.error(MethodNotFound, QStringLiteral("Method not found: %1").arg(method)));
}

QFuture<QJsonObject> McpDispatcher::handlePerRequest(const Reply &reply, const McpMessage &request)
{
    const QString &method = request.method();
    const QJsonObject &params = request.params();
    qCDebug(lcMcp) << "per-request" << method << reply.id();
    Result<RequestMeta> meta = RequestMeta::parse(params);
    if (!meta) {
        return readyFuture(reply.error(InvalidParams, meta.error().message));
    }
    if (!ProtocolVersion::perRequest().contains(meta->protocolVersion)) {
        const QString requested = meta->protocolVersion.left(64);
        return readyFuture(reply.error(
            UnsupportedProtocolVersion, QStringLiteral("Unsupported protocol version: %1").arg(requested),
            QJsonObject{{QStringLiteral("supported"), QJsonArray::fromStringList(ProtocolVersion::perRequest())},
                        {QStringLiteral("requested"), meta->protocolVersion}}));
    }
    if (hasForeignCursor(request)) {
        return readyFuture(reply.error(InvalidParams, kNoCursors));
    }
    const auto complete = [this, &reply](const QJsonObject &result) {
        return readyFuture(reply.result(m_identity.completeResult(result, ServerIdentity::kListTtlMs)));
    };
    const bool uiClient = RunViewResource::clientSupports(meta->clientCapabilities);
    if (method == RequestMeta::kDiscover) {
        return readyFuture(reply.result(m_identity.discoverResult()));
    }
    if (method == QLatin1String("tools/list")) {
        return complete(QJsonObject{{QStringLiteral("tools"), m_tools.toJson(meta->protocolVersion, uiClient)}});
    }
    if (method == QLatin1String("tools/call")) {
        return m_calls.call(reply, params, request.object(), perRequestClient(*meta))
            .then(QtFuture::Launch::Sync, [this](QJsonObject answer) {
                if (answer.contains(QStringLiteral("result"))) {
                    answer.insert(QStringLiteral("result"),
                                  m_identity.completeResult(answer.value(QStringLiteral("result")).toObject()));
                }
                return answer;
            });
    }
    if (method == QLatin1String("resources/list")) {
        return complete(QJsonObject{{QStringLiteral("resources"), m_resources.list(true, uiClient)}});
    }
    if (method == QLatin1String("resources/templates/list")) {
        return complete(QJsonObject{{QStringLiteral("resourceTemplates"), m_resources.templateList()}});
    }
    if (method == QLatin1String("resources/read")) {
        return m_resources.read(reply, params, resourceReader(), true);
    }
    if (method == QLatin1String("skills/list")) {
        return readyFuture(reply.result(m_identity.completeResult(
            QJsonObject{{QStringLiteral("skills"), m_resources.skills()}}, ServerIdentity::kResourceTtlMs)));
    }
    if (method == QLatin1String("skills/get")) {
        return readyFuture(getSkill(reply, params, true));
    }
    if (method == QLatin1String("prompts/list")) {
        // This server has no prompts; 2026-07-28 clients (and caches) get the empty list rather than an error.
        return complete(QJsonObject{{QStringLiteral("prompts"), QJsonArray()}});
    }
    // initialize, ping, logging/setLevel and the subscriptions are gone in 2026-07-28; the rest never existed.
    return readyFuture(reply.error(
        MethodNotFound,
        QStringLiteral("Method not found: %1 (protocol revision %2)").arg(method.left(200), meta->protocolVersion)));
}

QJsonObject McpDispatcher::getSkill(const Reply &reply, const QJsonObject &params, bool perRequest) const
{
    const QString uri = params.value(QStringLiteral("uri")).toString();
    const std::optional<QJsonObject> skill = m_resources.skill(uri);
    if (!skill) {
        return reply.error(InvalidParams, QStringLiteral("No skill is served at %1").arg(uri.left(200)));
    }
    const QJsonObject result{{QStringLiteral("skill"), *skill}};
    return reply.result(perRequest ? m_identity.completeResult(result, ServerIdentity::kResourceTtlMs) : result);
}

void McpDispatcher::handleNotification(const McpMessage &notification)
{
    const QString &method = notification.method();
    if (method == QLatin1String("notifications/cancelled")) {
        const QJsonValue requestId = notification.params().value(QStringLiteral("requestId"));
        if (m_calls.cancel(requestId)) {
            qCInfo(lcMcp) << "client cancelled request" << requestId
                          << notification.params().value(QStringLiteral("reason")).toString();
        }
        return;
    }
    if (method == QLatin1String("notifications/initialized")) {
        qCInfo(lcMcp) << "client initialized, protocol" << protocolVersion();
        return;
    }
    qCDebug(lcMcp) << "ignoring notification" << method;
}

QJsonObject McpDispatcher::initialize(const Reply &reply, const QJsonObject &params)
{
    const QJsonValue requested = params.value(QStringLiteral("protocolVersion"));
    if (!requested.isString()) {
        return reply.error(InvalidParams, QStringLiteral("initialize needs \"protocolVersion\" as a string."));
    }
    const QString version = ProtocolVersion::negotiate(requested.toString());
    const QJsonObject client = params.value(QStringLiteral("clientInfo")).toObject();
    {
        const std::lock_guard lock(m_mutex);
        m_protocolVersion = version;
        m_initialized = true;
        m_clientName = client.value(QStringLiteral("name")).toString();
        m_clientVersion = client.value(QStringLiteral("version")).toString();
        m_uiClient = RunViewResource::clientSupports(params.value(QStringLiteral("capabilities")).toObject());
    }
    qCInfo(lcMcp) << "initialize from" << client.value(QStringLiteral("name")).toString()
                  << client.value(QStringLiteral("version")).toString() << "asking for" << requested.toString()
                  << "-> speaking" << version;
    return reply.result(m_identity.initializeResult(version));
}

QJsonObject McpDispatcher::setLogLevel(const Reply &reply, const QJsonObject &params)
{
    const auto level = logLevelFromString(params.value(QStringLiteral("level")).toString());
    if (!level) {
        return reply.error(InvalidParams,
                           QStringLiteral("Unknown log level; use one of debug, info, notice, warning, error, "
                                          "critical, alert, emergency."));
    }
    m_logLevel = static_cast<int>(*level);
    return reply.result(QJsonObject());
}

Reply McpDispatcher::replyTo(const QJsonValue &id) const
{
    return Reply(id, [sink = m_sink, id](const QJsonObject &message) {
        if (sink) {
            sink(message, id);
        }
    });
}

ToolCallClient McpDispatcher::sessionClient() const
{
    ToolCallClient client;
    {
        const std::lock_guard lock(m_mutex);
        client.protocolVersion = m_protocolVersion;
        client.clientName = m_clientName;
        client.clientVersion = m_clientVersion;
    }
    // The level the client set may change while the call runs.
    client.sendsLog = [this](LogLevel level) {
        return static_cast<int>(level) >= m_logLevel && isInitialized();
    };
    client.source = m_options.source;
    client.owner = m_sessionOwner;
    client.sessionHandles = m_sessionHandles;
    client.connection = m_connection;
    client.reader = resourceReader();
    return client;
}

ToolCallClient McpDispatcher::perRequestClient(const RequestMeta &meta) const
{
    ToolCallClient client = sessionClient();
    client.protocolVersion = meta.protocolVersion;
    client.clientName = meta.clientName;
    client.clientVersion = meta.clientVersion;
    client.perRequest = true;
    // 2026-07-28: the request names its own level, and without one it gets no log messages at all.
    client.sendsLog = nullptr;
    if (const std::optional<LogLevel> minimum = meta.logLevel) {
        client.sendsLog = [minimum = *minimum](LogLevel level) {
            return level >= minimum;
        };
    }
    return client;
}

ResourceReader McpDispatcher::resourceReader() const
{
    ResourceReader reader;
    reader.owner = m_sessionOwner;
    reader.journal = m_exchangeSink.load();
    reader.connection = m_connection;
    return reader;
}

void McpDispatcher::ownSessionsByHandle()
{
    // An owner no session has: a plain session id reaches nothing, list_sessions lists nothing.
    m_sessionOwner = QStringLiteral("request:") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_sessionHandles = true;
}

void McpDispatcher::cancelAll()
{
    m_calls.cancelAll();
    if (const int stopped = m_tasks.stopAll(); stopped > 0) {
        qCInfo(lcMcp) << "the client's session ended: stopping" << stopped << "running task(s)";
    }
}

void McpDispatcher::waitForDone()
{
    m_pool.waitForDone();
}

int McpDispatcher::runningCalls() const
{
    return m_calls.running() + m_tasks.running();
}

void McpDispatcher::setExchangeSink(ExchangeSink *sink)
{
    m_exchangeSink.store(sink);
}

QString McpDispatcher::protocolVersion() const
{
    const std::lock_guard lock(m_mutex);
    return m_protocolVersion;
}

QString McpDispatcher::clientName() const
{
    const std::lock_guard lock(m_mutex);
    return m_clientName;
}

QString McpDispatcher::clientVersion() const
{
    const std::lock_guard lock(m_mutex);
    return m_clientVersion;
}

bool McpDispatcher::isUiClient() const
{
    const std::lock_guard lock(m_mutex);
    return m_uiClient;
}

bool McpDispatcher::isInitialized() const
{
    const std::lock_guard lock(m_mutex);
    return m_initialized;
}

QJsonObject McpDispatcher::invalidReply(const McpMessage &message) const
{
    return message.id().isNull() ? unidentifiedError(message.errorCode(), message.errorText())
                                 : makeError(message.id(), message.errorCode(), message.errorText());
}

QJsonObject McpDispatcher::unidentifiedError(int code, const QString &message, const QJsonValue &data) const
{
    QJsonObject error = makeError(QJsonValue::Null, code, message, data);
    // From 2025-11-25 the schema has the id optional and never null; older revisions follow JSON-RPC 2.0 (null).
    if (protocolVersion() >= ProtocolVersion::kOptionalErrorId) {
        error.remove(QStringLiteral("id"));
    }
    return error;
}

void McpDispatcher::log(LogLevel level, const QString &message)
{
    qCDebug(lcMcp).noquote() << toString(level) << message;
    // Only a client that initialized asked for log messages this way; a 2026-07-28 client asks per request.
    if (static_cast<int>(level) < m_logLevel || !isInitialized()) {
        return;
    }
    send(ServerIdentity::logMessage(level, message));
}

QJsonObject McpDispatcher::messageTooLargeReply() const
{
    return unidentifiedError(InvalidRequest,
                             QStringLiteral("The message is larger than the %1 MiB limit and was dropped.")
                                 .arg(m_options.maxMessageBytes / (1024.0 * 1024.0)));
}

void McpDispatcher::send(const QJsonObject &message)
{
    if (m_sink) {
        m_sink(message, QJsonValue(QJsonValue::Undefined));
    }
}

} // namespace sandbox::mcp
