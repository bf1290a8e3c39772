#include "mcp/server/McpDispatcher.h"

#include "mcp/McpLogging.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"
#include "mcp/protocol/ReadyFuture.h"
#include "mcp/tools/ArgumentValidator.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/apps/RunViewResource.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <exception>
#include <stop_token>

namespace sandbox::mcp {

using namespace jsonrpc;

namespace {

const QString kServerName = QStringLiteral("llm-sandbox");

const QString kInstructions = QStringLiteral(
    "Runs code in isolated, hardened containers (no network by default). Use execute_code to run Python, "
    "JavaScript, Java, C++, Go, R or Ruby; the result holds exit code, stdout, stderr, resource usage and why the "
    "program stopped, and every chart the code draws comes back as an image. get_language_details lists a "
    "language's preinstalled libraries and examples.");

/// How long a client may keep what server/discover and the lists say: they change only with a new server binary.
constexpr int kListTtlMs = 5 * 60 * 1000;
/// Resource texts are built from the live language registry; a minute keeps them fresh enough.
constexpr int kResourceTtlMs = 60 * 1000;

/// Resources one client may subscribe to at once (each is read again after every run in its session).
constexpr int kMaxSubscriptions = 64;

/// What a subscriber is compared against: the resource's bytes, or the reason it cannot be read.
QByteArray fingerprint(const Result<ResourceContents> &contents)
{
    return contents ? QCryptographicHash::hash(contents->data, QCryptographicHash::Sha256)
                    : QByteArray("error:") + contents.error().message.toUtf8();
}

QJsonObject logMessage(LogLevel level, const QString &message)
{
    return makeNotification(QStringLiteral("notifications/message"),
                            QJsonObject{{QStringLiteral("level"), toString(level)},
                                        {QStringLiteral("logger"), kServerName},
                                        {QStringLiteral("data"), message}});
}

QFuture<QJsonDocument> toDocument(QFuture<QJsonObject> reply)
{
    return reply.then(QtFuture::Launch::Sync, [](const QJsonObject &object) {
        return object.isEmpty() ? QJsonDocument() : QJsonDocument(object);
    });
}

bool isValidId(const QJsonValue &id)
{
    return id.isString() || id.isDouble();
}

/// Runs a tool's handler; what it throws becomes an internal error reply instead of ending the server.
QJsonObject invokeHandler(const QJsonValue &id, const ToolHandler &handler, const QString &toolName,
                          const ToolCall &call)
{
    try {
        return makeResult(id, handler(call));
    } catch (const std::exception &e) {
        qCCritical(lcMcp) << "tool" << toolName << "threw:" << e.what();
        return makeError(id, InternalError, QStringLiteral("Internal error in tool %1: %2").arg(toolName, e.what()));
    } catch (...) {
        qCCritical(lcMcp) << "tool" << toolName << "threw";
        return makeError(id, InternalError, QStringLiteral("Internal error in tool %1.").arg(toolName));
    }
}

} // namespace

struct McpDispatcher::RunningCall
{
    std::stop_source stop;
    // Set when the client cancelled (or the server shuts down): the call then gets no reply.
    std::atomic<bool> cancelled = false;
};

McpDispatcher::McpDispatcher(ToolRegistry tools, QList<Resource> resources, MessageSink sink, DispatcherOptions options)
    : m_tools(std::move(tools)), m_resources(std::move(resources)), m_sink(std::move(sink)),
      m_options(std::move(options)), m_protocolVersion(ProtocolVersion::kLatest),
      m_exchangeSink(m_options.exchangeSink), m_logLevel(static_cast<int>(m_options.logLevel)),
      m_tasks(m_options.taskLimits, [this](const QJsonObject &task) {
          send(makeNotification(QStringLiteral("notifications/tasks/status"), task));
      })
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
        return toDocument(dispatch(document.object()));
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
        const QJsonObject object = item.toObject();
        if (object.value(QStringLiteral("method")) == QLatin1String("initialize")) {
            const QJsonValue id = object.value(QStringLiteral("id"));
            replies.append(readyFuture(isValidId(id) ? makeError(id, InvalidRequest,
                                                                 QStringLiteral("initialize must be sent on its own, "
                                                                                "not in a batch."))
                                                     : QJsonObject()));
            continue;
        }
        replies.append(dispatch(item));
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

QFuture<QJsonDocument> McpDispatcher::handlePerRequest(const QJsonObject &request)
{
    const QJsonValue id = request.value(QStringLiteral("id"));
    const QJsonValue method = request.value(QStringLiteral("method"));
    if (request.value(QStringLiteral("jsonrpc")) != QLatin1String("2.0") || !method.isString() || !isValidId(id) ||
        !(request.value(QStringLiteral("params")).isObject() ||
          request.value(QStringLiteral("params")).isUndefined())) {
        // Not a well-formed request: the ordinary path finds the fault and words it.
        return toDocument(dispatch(request));
    }
    return toDocument(
        handlePerRequest(id, method.toString(), request.value(QStringLiteral("params")).toObject(), request));
}

QFuture<QJsonObject> McpDispatcher::dispatch(const QJsonValue &message)
{
    if (!message.isObject()) {
        return readyFuture(unidentifiedError(InvalidRequest, QStringLiteral("A JSON-RPC message must be an object.")));
    }
    const QJsonObject object = message.toObject();
    const bool hasId = object.contains(QStringLiteral("id"));
    const QJsonValue id = object.value(QStringLiteral("id"));
    // An error about a message whose id is unusable answers without one (or with null, as the revision wants).
    const auto errorReply = [this, &id](int code, const QString &text) {
        return isValidId(id) ? makeError(id, code, text) : unidentifiedError(code, text);
    };

    if (object.value(QStringLiteral("jsonrpc")) != QLatin1String("2.0")) {
        return readyFuture(errorReply(InvalidRequest, QStringLiteral("The \"jsonrpc\" member must be \"2.0\".")));
    }
    if (!object.contains(QStringLiteral("method"))) {
        if (hasId && (object.contains(QStringLiteral("result")) || object.contains(QStringLiteral("error")))) {
            // A response: we never send requests, so there is nothing waiting for it.
            qCDebug(lcMcp) << "ignoring a response with id" << id;
            return readyFuture(QJsonObject());
        }
        return readyFuture(errorReply(InvalidRequest, QStringLiteral("The message has no \"method\".")));
    }
    const QJsonValue method = object.value(QStringLiteral("method"));
    if (!method.isString()) {
        return readyFuture(errorReply(InvalidRequest, QStringLiteral("The \"method\" member must be a string.")));
    }
    if (hasId && !isValidId(id)) {
        return readyFuture(
            unidentifiedError(InvalidRequest, QStringLiteral("A request id must be a string or a number.")));
    }
    const QJsonValue params = object.value(QStringLiteral("params"));
    if (!params.isUndefined() && !params.isObject()) {
        if (!hasId) {
            return readyFuture(QJsonObject());
        }
        return readyFuture(makeError(id, InvalidParams, QStringLiteral("The \"params\" member must be an object.")));
    }

    if (!hasId) {
        handleNotification(method.toString(), params.toObject());
        return readyFuture(QJsonObject());
    }
    if (RequestMeta::isPerRequest(method.toString(), params.toObject())) {
        return handlePerRequest(id, method.toString(), params.toObject(), object);
    }
    return handleRequest(id, method.toString(), params.toObject(), object);
}

QFuture<QJsonObject> McpDispatcher::handleRequest(const QJsonValue &id, const QString &method,
                                                  const QJsonObject &params, const QJsonObject &message)
{
    qCDebug(lcMcp) << "request" << method << id;
    // Every revision has the client start with initialize and allows only pings before it.
    if (!isInitialized() && method != QLatin1String("initialize") && method != QLatin1String("ping")) {
        return readyFuture(makeError(id, InvalidRequest,
                                     QStringLiteral("The session is not initialized: send initialize first (only "
                                                    "ping may come before it).")));
    }
    // This server lists everything on one page and hands out no cursors, so any cursor is one it did not give.
    const QJsonValue cursor = params.value(QStringLiteral("cursor"));
    if (method.endsWith(QLatin1String("/list")) && !cursor.isUndefined() && !cursor.isNull()) {
        return readyFuture(makeError(id, InvalidParams,
                                     QStringLiteral("Invalid cursor: this server gives out no cursors (every list "
                                                    "fits on one page).")));
    }
    if (method == QLatin1String("tools/call")) {
        return callTool(id, params, message);
    }
    if (method == QLatin1String("initialize")) {
        return readyFuture(initialize(id, params));
    }
    if (method == QLatin1String("ping")) {
        return readyFuture(makeResult(id, QJsonObject()));
    }
    if (method == QLatin1String("tools/list")) {
        // Everything fits on one page, so there is never a nextCursor.
        return readyFuture(
            makeResult(id, QJsonObject{{QStringLiteral("tools"), m_tools.toJson(protocolVersion(), isUiClient())}}));
    }
    if (method == QLatin1String("resources/list")) {
        const bool titles = protocolVersion() >= ProtocolVersion::kStructuredContent;
        return readyFuture(
            makeResult(id, QJsonObject{{QStringLiteral("resources"), resourceList(titles, isUiClient())}}));
    }
    if (method == QLatin1String("resources/read")) {
        return readResource(id, params);
    }
    if (method == QLatin1String("resources/templates/list")) {
        return readyFuture(makeResult(id, QJsonObject{{QStringLiteral("resourceTemplates"), resourceTemplateList()}}));
    }
    if (method == QLatin1String("resources/subscribe")) {
        return subscribe(id, params);
    }
    if (method == QLatin1String("resources/unsubscribe")) {
        return readyFuture(unsubscribe(id, params));
    }
    if (method.startsWith(QLatin1String("tasks/")) && protocolVersion() >= ProtocolVersion::kTasks) {
        return m_tasks.handle(id, method, params);
    }
    if (method == QLatin1String("logging/setLevel")) {
        return readyFuture(setLogLevel(id, params));
    }
    return readyFuture(makeError(id, MethodNotFound, QStringLiteral("Method not found: %1").arg(method)));
}

QFuture<QJsonObject> McpDispatcher::handlePerRequest(const QJsonValue &id, const QString &method,
                                                     const QJsonObject &params, const QJsonObject &message)
{
    qCDebug(lcMcp) << "per-request" << method << id;
    Result<RequestMeta> meta = RequestMeta::parse(params);
    if (!meta) {
        return readyFuture(makeError(id, InvalidParams, meta.error().message));
    }
    if (!ProtocolVersion::perRequest().contains(meta->protocolVersion)) {
        const QString requested = meta->protocolVersion.left(64);
        return readyFuture(makeError(
            id, UnsupportedProtocolVersion, QStringLiteral("Unsupported protocol version: %1").arg(requested),
            QJsonObject{{QStringLiteral("supported"), QJsonArray::fromStringList(ProtocolVersion::perRequest())},
                        {QStringLiteral("requested"), meta->protocolVersion}}));
    }
    const QJsonValue cursor = params.value(QStringLiteral("cursor"));
    if (method.endsWith(QLatin1String("/list")) && !cursor.isUndefined() && !cursor.isNull()) {
        return readyFuture(makeError(id, InvalidParams,
                                     QStringLiteral("Invalid cursor: this server gives out no cursors (every list "
                                                    "fits on one page).")));
    }
    const auto complete = [this, &id](const QJsonObject &result) {
        return readyFuture(makeResult(id, completeResult(result, kListTtlMs)));
    };
    if (method == RequestMeta::kDiscover) {
        return readyFuture(discover(id));
    }
    if (method == QLatin1String("tools/list")) {
        return complete(QJsonObject{
            {QStringLiteral("tools"),
             m_tools.toJson(meta->protocolVersion, RunViewResource::clientSupports(meta->clientCapabilities))}});
    }
    if (method == QLatin1String("tools/call")) {
        return callTool(id, params, message, *meta).then(QtFuture::Launch::Sync, [this](QJsonObject reply) {
            if (reply.contains(QStringLiteral("result"))) {
                reply.insert(QStringLiteral("result"),
                             completeResult(reply.value(QStringLiteral("result")).toObject()));
            }
            return reply;
        });
    }
    if (method == QLatin1String("resources/list")) {
        return complete(QJsonObject{{QStringLiteral("resources"),
                                     resourceList(true, RunViewResource::clientSupports(meta->clientCapabilities))}});
    }
    if (method == QLatin1String("resources/templates/list")) {
        return complete(QJsonObject{{QStringLiteral("resourceTemplates"), resourceTemplateList()}});
    }
    if (method == QLatin1String("resources/read")) {
        return readResource(id, params, true);
    }
    if (method == QLatin1String("prompts/list")) {
        // This server has no prompts; 2026-07-28 clients (and caches) get the empty list rather than an error.
        return complete(QJsonObject{{QStringLiteral("prompts"), QJsonArray()}});
    }
    // initialize, ping, logging/setLevel and the subscriptions are gone in 2026-07-28; the rest never existed.
    return readyFuture(makeError(
        id, MethodNotFound,
        QStringLiteral("Method not found: %1 (protocol revision %2)").arg(method.left(200), meta->protocolVersion)));
}

QJsonObject McpDispatcher::discover(const QJsonValue &id) const
{
    const QJsonObject capabilities{
        {QStringLiteral("logging"), QJsonObject()},
        {QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("subscribe"), false}, {QStringLiteral("listChanged"), false}}},
        {QStringLiteral("prompts"), QJsonObject{{QStringLiteral("listChanged"), false}}},
    };
    return makeResult(id, completeResult(QJsonObject{{QStringLiteral("supportedVersions"),
                                                      QJsonArray::fromStringList(ProtocolVersion::perRequest())},
                                                     {QStringLiteral("capabilities"), capabilities},
                                                     {QStringLiteral("instructions"), kInstructions}},
                                         kListTtlMs));
}

QJsonObject McpDispatcher::serverInfo(const QString &version) const
{
    QJsonObject info{{QStringLiteral("name"), kServerName},
                     {QStringLiteral("version"), m_options.serverVersion.isEmpty()
                                                     ? QCoreApplication::applicationVersion()
                                                     : m_options.serverVersion}};
    if (version >= ProtocolVersion::kStructuredContent) {
        info.insert(QStringLiteral("title"), QStringLiteral("LLM Sandbox"));
    }
    return info;
}

QJsonObject McpDispatcher::completeResult(QJsonObject result, std::optional<int> ttlMs) const
{
    result.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
    QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
    meta.insert(RequestMeta::kServerInfo, serverInfo(ProtocolVersion::kStateless));
    result.insert(QStringLiteral("_meta"), meta);
    if (ttlMs) {
        // Nothing here depends on who asks: the token only decides whether one may ask at all.
        result.insert(QStringLiteral("ttlMs"), *ttlMs);
        result.insert(QStringLiteral("cacheScope"), QStringLiteral("public"));
    }
    return result;
}

QJsonArray McpDispatcher::resourceList(bool titles, bool uiClient) const
{
    QJsonArray resources;
    for (const Resource &resource : m_resources) {
        if (resource.forUiClients && !uiClient) {
            continue;
        }
        QJsonObject json{{QStringLiteral("uri"), resource.uri},
                         {QStringLiteral("name"), resource.name},
                         {QStringLiteral("description"), resource.description},
                         {QStringLiteral("mimeType"), resource.mimeType}};
        if (titles && !resource.title.isEmpty()) {
            json.insert(QStringLiteral("title"), resource.title);
        }
        if (!resource.meta.isEmpty()) {
            json.insert(QStringLiteral("_meta"), resource.meta);
        }
        resources.append(json);
    }
    return resources;
}

void McpDispatcher::handleNotification(const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String("notifications/cancelled")) {
        const QString key = idKey(params.value(QStringLiteral("requestId")));
        std::shared_ptr<RunningCall> call;
        {
            const std::lock_guard lock(m_mutex);
            call = m_running.value(key);
        }
        // A cancellation may cross the reply on the wire; then there is nothing left to stop.
        if (call) {
            qCInfo(lcMcp) << "client cancelled request" << params.value(QStringLiteral("requestId"))
                          << params.value(QStringLiteral("reason")).toString();
            call->cancelled = true;
            call->stop.request_stop();
        }
        return;
    }
    if (method == QLatin1String("notifications/initialized")) {
        qCInfo(lcMcp) << "client initialized, protocol" << protocolVersion();
        return;
    }
    qCDebug(lcMcp) << "ignoring notification" << method;
}

QJsonObject McpDispatcher::initialize(const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue requested = params.value(QStringLiteral("protocolVersion"));
    if (!requested.isString()) {
        return makeError(id, InvalidParams, QStringLiteral("initialize needs \"protocolVersion\" as a string."));
    }
    const QString version = ProtocolVersion::negotiate(requested.toString());
    {
        const std::lock_guard lock(m_mutex);
        m_protocolVersion = version;
        m_initialized = true;
    }
    const QJsonObject client = params.value(QStringLiteral("clientInfo")).toObject();
    {
        const std::lock_guard lock(m_mutex);
        m_clientName = client.value(QStringLiteral("name")).toString();
        m_clientVersion = client.value(QStringLiteral("version")).toString();
        m_uiClient = RunViewResource::clientSupports(params.value(QStringLiteral("capabilities")).toObject());
    }
    qCInfo(lcMcp) << "initialize from" << client.value(QStringLiteral("name")).toString()
                  << client.value(QStringLiteral("version")).toString() << "asking for" << requested.toString()
                  << "-> speaking" << version;

    QJsonObject capabilities{
        {QStringLiteral("logging"), QJsonObject()},
        {QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("subscribe"), true}, {QStringLiteral("listChanged"), false}}},
    };
    if (version >= ProtocolVersion::kTasks) {
        capabilities.insert(QStringLiteral("tasks"),
                            QJsonObject{{QStringLiteral("list"), QJsonObject()},
                                        {QStringLiteral("cancel"), QJsonObject()},
                                        {QStringLiteral("requests"),
                                         QJsonObject{{QStringLiteral("tools"),
                                                      QJsonObject{{QStringLiteral("call"), QJsonObject()}}}}}});
    }
    return makeResult(id, QJsonObject{{QStringLiteral("protocolVersion"), version},
                                      {QStringLiteral("capabilities"), capabilities},
                                      {QStringLiteral("serverInfo"), serverInfo(version)},
                                      {QStringLiteral("instructions"), kInstructions}});
}

QFuture<QJsonObject> McpDispatcher::callTool(const QJsonValue &id, const QJsonObject &params,
                                             const QJsonObject &callMessage, const std::optional<RequestMeta> &meta)
{
    const QJsonValue name = params.value(QStringLiteral("name"));
    if (!name.isString()) {
        return readyFuture(
            makeError(id, InvalidParams, QStringLiteral("tools/call needs the tool's \"name\" as a string.")));
    }
    const Tool *tool = m_tools.find(name.toString());
    if (!tool) {
        QStringList names;
        for (const Tool &known : m_tools.tools()) {
            names << known.name;
        }
        return readyFuture(makeError(id, InvalidParams,
                                     QStringLiteral("Unknown tool: %1. Available tools: %2.")
                                         .arg(name.toString(), names.join(QStringLiteral(", ")))));
    }
    const QJsonValue arguments = params.value(QStringLiteral("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject()) {
        return readyFuture(makeError(id, InvalidParams, QStringLiteral("Tool \"arguments\" must be an object.")));
    }
    Result<QJsonObject> validated = ArgumentValidator::validate(tool->inputSchema, arguments.toObject());
    if (!validated) {
        // Bad arguments are the model's to fix, so they travel as a tool result it can read, not a protocol error.
        return readyFuture(makeResult(id, errorToolResult(validated.error().message)));
    }

    ToolCall call;
    // A null argument was not given (the validator filled in its default).
    const QJsonObject sent = arguments.toObject();
    for (auto it = sent.begin(); it != sent.end(); ++it) {
        if (!it.value().isNull()) {
            call.givenArguments << it.key();
        }
    }
    call.arguments = std::move(validated.value());
    call.request = callMessage;
    call.origin = m_options.origin;
    call.owner = m_sessionOwner;
    call.sessionHandles = m_sessionHandles;
    call.connection = m_connection;
    if (meta) {
        call.protocolVersion = meta->protocolVersion;
        call.clientName = meta->clientName;
        call.clientVersion = meta->clientVersion;
    } else {
        call.protocolVersion = protocolVersion();
        const std::lock_guard lock(m_mutex);
        call.clientName = m_clientName;
        call.clientVersion = m_clientVersion;
    }
    // The handler names the run it started; the journal keeps the call and the reply with that run.
    auto runId = std::make_shared<QString>();
    call.ranAs = [runId](const QString &id) {
        *runId = id;
    };
    // A 2026-07-28 request has no session to read the files back in later.
    call.artifactLinks = !meta && call.protocolVersion >= ProtocolVersion::kStructuredContent &&
                         m_exchangeSink.load() && templateFor(CodeExecutor::artifactUri(QString(), QString()));
    if (!meta) {
        call.log = [this, id](LogLevel level, const QString &message) {
            log(level, message, id);
        };
    } else if (meta->logLevel) {
        // 2026-07-28: the request names its own level, and without one it gets no log messages at all.
        call.log = [this, id, minimum = *meta->logLevel](LogLevel level, const QString &message) {
            qCDebug(lcMcp).noquote() << toString(level) << message;
            if (level >= minimum) {
                send(logMessage(level, message), id);
            }
        };
    } else {
        call.log = [](LogLevel level, const QString &message) {
            qCDebug(lcMcp).noquote() << toString(level) << message;
        };
    }
    const QJsonValue progressToken =
        params.value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    if (progressToken.isString() || progressToken.isDouble()) {
        auto counter = std::make_shared<std::atomic<int>>(0);
        call.progress = [this, id, progressToken, counter](const QString &message) {
            // Progress must grow with every notification even though the total is unknown.
            send(makeNotification(QStringLiteral("notifications/progress"),
                                  QJsonObject{{QStringLiteral("progressToken"), progressToken},
                                              {QStringLiteral("progress"), ++*counter},
                                              {QStringLiteral("message"), message}}),
                 id);
        };
    }

    auto invoke = [this, id, runId, handler = tool->handler, toolName = tool->name](const ToolCall &call) {
        const QJsonObject reply = invokeHandler(id, handler, toolName, call);
        if (ExchangeSink *sink = m_exchangeSink.load(); sink && !runId->isEmpty()) {
            sink->recordExchange(*runId, call.request, reply, call.protocolVersion);
        }
        checkSubscriptions(call.arguments);
        return reply;
    };

    // 2026-07-28 moved tasks into an extension this server does not offer: there `task` is an unknown member.
    const QJsonValue task = params.value(QStringLiteral("task"));
    if (!meta && task.isObject() && call.protocolVersion >= ProtocolVersion::kTasks) {
        if (!tool->longRunning) {
            return readyFuture(makeError(id, MethodNotFound,
                                         QStringLiteral("Tool %1 answers at once and does not run as a task; call it "
                                                        "without \"task\".")
                                             .arg(tool->name)));
        }
        return readyFuture(m_tasks.start(id, task.toObject(), m_pool,
                                         [invoke = std::move(invoke), call = std::move(call)](
                                             std::stop_token stop, const TaskRegistry::Progress &progress) mutable {
                                             call.stop = std::move(stop);
                                             // tasks/get shows the latest progress too, for a client that polls instead
                                             // of listening.
                                             call.progress = [notify = call.progress,
                                                              progress](const QString &message) {
                                                 notify(message);
                                                 progress(message);
                                             };
                                             return invoke(call);
                                         }));
    }

    if (!tool->longRunning) {
        return readyFuture(invoke(call));
    }

    // Registered before the call is queued, so a notifications/cancelled that follows at once finds it.
    const QString key = idKey(id);
    auto running = std::make_shared<RunningCall>();
    {
        const std::lock_guard lock(m_mutex);
        if (m_running.contains(key)) {
            return readyFuture(
                makeError(id, InvalidRequest,
                          QStringLiteral("Request id %1 is already in use by a running call.").arg(key.mid(2))));
        }
        m_running.insert(key, running);
    }
    call.stop = running->stop.get_token();
    return QtConcurrent::run(&m_pool, [this, key, running, invoke = std::move(invoke), call = std::move(call)] {
        QJsonObject reply = call.stop.stop_requested() ? QJsonObject() : invoke(call);
        {
            const std::lock_guard lock(m_mutex);
            if (m_running.value(key) == running) {
                m_running.remove(key);
            }
        }
        return running->cancelled ? QJsonObject() : reply;
    });
}

QFuture<QJsonObject> McpDispatcher::readResource(const QJsonValue &id, const QJsonObject &params, bool perRequest)
{
    const QJsonValue uri = params.value(QStringLiteral("uri"));
    if (!uri.isString()) {
        return readyFuture(
            makeError(id, InvalidParams, QStringLiteral("resources/read needs the resource's \"uri\" as a string.")));
    }
    // -32002 until 2025-11-25; 2026-07-28 made an unknown URI an invalid parameter.
    const auto notFound = [id, uri, perRequest] {
        return makeError(id, perRequest ? InvalidParams : ResourceNotFound,
                         QStringLiteral("Resource not found: %1").arg(uri.toString().left(200)),
                         QJsonObject{{QStringLiteral("uri"), uri}});
    };
    for (const Resource &resource : m_resources) {
        if (resource.uri == uri.toString()) {
            QJsonObject contents{{QStringLiteral("uri"), resource.uri},
                                 {QStringLiteral("mimeType"), resource.mimeType},
                                 {QStringLiteral("text"), resource.read()}};
            if (!resource.meta.isEmpty()) {
                contents.insert(QStringLiteral("_meta"), resource.meta);
            }
            const QJsonObject result{{QStringLiteral("contents"), QJsonArray{contents}}};
            return readyFuture(makeResult(id, perRequest ? completeResult(result, kResourceTtlMs) : result));
        }
    }
    const ResourceTemplate *resourceTemplate = templateFor(uri.toString());
    if (!resourceTemplate) {
        return readyFuture(notFound());
    }
    // A journal or a sandbox session answers in milliseconds, but not at once: not on the protocol thread.
    return QtConcurrent::run(&m_pool, [this, id, uri = uri.toString(), read = resourceTemplate->read,
                                       reader = resourceReader(), perRequest, notFound] {
        const Result<ResourceContents> contents = read(uri, reader);
        if (!contents) {
            const sandbox::ErrorCode code = contents.error().code;
            return code == sandbox::ErrorCode::NotFound || code == sandbox::ErrorCode::BadRequest
                       ? notFound()
                       : makeError(id, InternalError, contents.error().message.left(2000));
        }
        QJsonObject item{{QStringLiteral("uri"), uri}, {QStringLiteral("mimeType"), contents->mimeType}};
        if (isTextMimeType(contents->mimeType)) {
            item.insert(QStringLiteral("text"), QString::fromUtf8(contents->data));
        } else {
            item.insert(QStringLiteral("blob"), QString::fromLatin1(contents->data.toBase64()));
        }
        const QJsonObject result{{QStringLiteral("contents"), QJsonArray{item}}};
        return makeResult(id, perRequest ? completeResult(result) : result);
    });
}

QJsonArray McpDispatcher::resourceTemplateList() const
{
    QJsonArray templates;
    for (const ResourceTemplate &resourceTemplate : m_options.resourceTemplates) {
        templates.append(QJsonObject{{QStringLiteral("uriTemplate"), resourceTemplate.uriTemplate},
                                     {QStringLiteral("name"), resourceTemplate.name},
                                     {QStringLiteral("title"), resourceTemplate.title},
                                     {QStringLiteral("description"), resourceTemplate.description}});
    }
    return templates;
}

const ResourceTemplate *McpDispatcher::templateFor(const QString &uri) const
{
    for (const ResourceTemplate &resourceTemplate : m_options.resourceTemplates) {
        if (uri.startsWith(resourceTemplate.prefix)) {
            return &resourceTemplate;
        }
    }
    return nullptr;
}

ResourceReader McpDispatcher::resourceReader() const
{
    ResourceReader reader;
    reader.owner = m_sessionOwner;
    reader.journal = m_exchangeSink.load();
    reader.connection = m_connection;
    return reader;
}

QFuture<QJsonObject> McpDispatcher::subscribe(const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue uri = params.value(QStringLiteral("uri"));
    if (!uri.isString()) {
        return readyFuture(makeError(id, InvalidParams,
                                     QStringLiteral("resources/subscribe needs the resource's \"uri\" as a string.")));
    }
    const ResourceTemplate *resourceTemplate = templateFor(uri.toString());
    const bool fixed = std::any_of(m_resources.begin(), m_resources.end(),
                                   [&uri](const Resource &resource) { return resource.uri == uri.toString(); });
    if (!resourceTemplate && !fixed) {
        return readyFuture(makeError(id, ResourceNotFound,
                                     QStringLiteral("Resource not found: %1").arg(uri.toString().left(200)),
                                     QJsonObject{{QStringLiteral("uri"), uri}}));
    }
    {
        const std::lock_guard lock(m_mutex);
        if (m_subscriptions.size() >= kMaxSubscriptions && !m_subscriptions.contains(uri.toString())) {
            return readyFuture(makeError(
                id, InvalidRequest,
                QStringLiteral("At most %1 resources can be subscribed to at once; unsubscribe from one first.")
                    .arg(kMaxSubscriptions)));
        }
    }
    if (fixed) {
        // What it shows changes only with a new server binary: there will be nothing to tell.
        const std::lock_guard lock(m_mutex);
        m_subscriptions.insert(uri.toString(), QByteArray());
        return readyFuture(makeResult(id, QJsonObject()));
    }
    // A session file that does not exist yet may be subscribed to: its creation is a change too.
    return QtConcurrent::run(
        &m_pool, [this, id, uri = uri.toString(), read = resourceTemplate->read, reader = resourceReader()] {
            const QByteArray now = fingerprint(read(uri, reader));
            const std::lock_guard lock(m_mutex);
            m_subscriptions.insert(uri, now);
            return makeResult(id, QJsonObject());
        });
}

QJsonObject McpDispatcher::unsubscribe(const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue uri = params.value(QStringLiteral("uri"));
    if (!uri.isString()) {
        return makeError(id, InvalidParams,
                         QStringLiteral("resources/unsubscribe needs the resource's \"uri\" as a string."));
    }
    const std::lock_guard lock(m_mutex);
    m_subscriptions.remove(uri.toString());
    return makeResult(id, QJsonObject());
}

void McpDispatcher::checkSubscriptions(const QJsonObject &arguments)
{
    QStringList uris;
    {
        const std::lock_guard lock(m_mutex);
        for (auto it = m_subscriptions.cbegin(); it != m_subscriptions.cend(); ++it) {
            const ResourceTemplate *resourceTemplate = templateFor(it.key());
            if (resourceTemplate && resourceTemplate->changedBy && resourceTemplate->changedBy(it.key(), arguments)) {
                uris << it.key();
            }
        }
    }
    if (uris.isEmpty()) {
        return;
    }
    // Each file is read again through the session's runner: on the pool, after the call's own work.
    m_pool.start([this, uris, reader = resourceReader()] {
        for (const QString &uri : uris) {
            const ResourceTemplate *resourceTemplate = templateFor(uri);
            const QByteArray now = fingerprint(resourceTemplate->read(uri, reader));
            {
                const std::lock_guard lock(m_mutex);
                const auto it = m_subscriptions.find(uri);
                if (it == m_subscriptions.end() || *it == now) {
                    continue;
                }
                *it = now;
            }
            send(makeNotification(QStringLiteral("notifications/resources/updated"),
                                  QJsonObject{{QStringLiteral("uri"), uri}}));
        }
    });
}

QJsonObject McpDispatcher::setLogLevel(const QJsonValue &id, const QJsonObject &params)
{
    const auto level = logLevelFromString(params.value(QStringLiteral("level")).toString());
    if (!level) {
        return makeError(id, InvalidParams,
                         QStringLiteral("Unknown log level; use one of debug, info, notice, warning, error, critical, "
                                        "alert, emergency."));
    }
    m_logLevel = static_cast<int>(*level);
    return makeResult(id, QJsonObject());
}

void McpDispatcher::ownSessionsByHandle()
{
    // An owner no session has: a plain session id reaches nothing, list_sessions lists nothing.
    m_sessionOwner = QStringLiteral("request:") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_sessionHandles = true;
}

void McpDispatcher::cancelAll()
{
    const std::lock_guard lock(m_mutex);
    for (const auto &call : std::as_const(m_running)) {
        call->cancelled = true;
        call->stop.request_stop();
    }
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
    const std::lock_guard lock(m_mutex);
    return static_cast<int>(m_running.size()) + m_tasks.running();
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
    log(level, message, QJsonValue(QJsonValue::Undefined));
}

void McpDispatcher::log(LogLevel level, const QString &message, const QJsonValue &request)
{
    qCDebug(lcMcp).noquote() << toString(level) << message;
    // Only a client that initialized asked for log messages this way; a 2026-07-28 client asks per request.
    if (static_cast<int>(level) < m_logLevel || !isInitialized()) {
        return;
    }
    send(logMessage(level, message), request);
}

QJsonObject McpDispatcher::messageTooLargeReply() const
{
    return unidentifiedError(InvalidRequest,
                             QStringLiteral("The message is larger than the %1 MiB limit and was dropped.")
                                 .arg(m_options.maxMessageBytes / (1024.0 * 1024.0)));
}

void McpDispatcher::send(const QJsonObject &message, const QJsonValue &request)
{
    if (m_sink) {
        m_sink(message, request);
    }
}

} // namespace sandbox::mcp
