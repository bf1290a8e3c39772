#include "mcp/http/StreamableHttpServer.h"

#include "mcp/http/BearerToken.h"
#include "mcp/http/GuardedTcpServer.h"
#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"
#include "mcp/http/HttpSession.h"
#include "mcp/http/RoutingHeaders.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <optional>

namespace sandbox::mcp {

struct StreamableHttpServer::Exchange
{
    QPointer<QTcpSocket> socket;
    /// Taken by an event stream; absent once answered.
    std::optional<QHttpServerResponder> responder;
    bool closeConnection = false;
    /// A HEAD request: the answer has a head and no body.
    bool headOnly = false;
};

namespace {

const QString kUnauthorized = QStringLiteral("Unauthorized: send the server's token as \"Authorization: Bearer "
                                             "<token>\" (`llm-sandbox serve --show-token` prints it).");

/// The WWW-Authenticate value of a 401 (RFC 6750): a missing token, or one that is not this server's.
QByteArray authenticateChallenge(const QByteArray &authorization)
{
    return authorization.isEmpty() ? QByteArray("Bearer realm=\"llm-sandbox\"")
                                   : QByteArray("Bearer realm=\"llm-sandbox\", error=\"invalid_token\", "
                                                "error_description=\"The token is not this server's.\"");
}

QString notFound()
{
    return QStringLiteral("Not Found: the MCP endpoint is %1.").arg(StreamableHttpServer::kEndpoint);
}

/// The media types of an Accept header we can answer with; a missing header accepts everything.
StreamableHttpServer::Accepts parseAccept(const QByteArray &header)
{
    if (header.trimmed().isEmpty()) {
        return {true, true};
    }
    StreamableHttpServer::Accepts accepts;
    for (const QByteArray &item : header.split(',')) {
        const QList<QByteArray> parts = item.split(';');
        const QByteArray type = parts.first().trimmed().toLower();
        const bool refused = std::any_of(parts.begin() + 1, parts.end(), [](const QByteArray &parameter) {
            const QByteArray compact = parameter.trimmed().toLower().replace(' ', "");
            return compact == "q=0" || (compact.startsWith("q=0.") && compact.mid(4).count('0') == compact.size() - 4);
        });
        if (refused) {
            continue;
        }
        accepts.json = accepts.json || type == "application/json" || type == "application/*" || type == "*/*";
        accepts.eventStream = accepts.eventStream || type == "text/event-stream" || type == "text/*" || type == "*/*";
    }
    return accepts;
}

bool isJsonContentType(const QByteArray &header)
{
    return header.split(';').first().trimmed().toLower() == "application/json";
}

bool hasToken(const QByteArray &commaList, QByteArrayView token)
{
    const QList<QByteArray> items = commaList.split(',');
    return std::any_of(items.begin(), items.end(), [token](const QByteArray &item) {
        return item.trimmed().compare(token, Qt::CaseInsensitive) == 0;
    });
}

/// A header that may be present but empty, told apart from one that is absent.
std::optional<QByteArray> header(const QHttpServerRequest &request, QByteArrayView name)
{
    for (const auto &[key, value] : request.headers()) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return std::nullopt;
}

QString newSessionId()
{
    std::array<quint32, 4> words; // 128 bits from the system CSPRNG: not guessable
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words.data()), sizeof words).toHex());
}

/// The HTTP status of a 2026-07-28 answer: 2026-07-28 gives its errors statuses so that a client (and a dual-era
/// client probing the server's era) can tell them apart without reading the body.
int perRequestStatus(const QJsonObject &answer)
{
    if (!answer.contains(QStringLiteral("error"))) {
        return 200;
    }
    switch (answer.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt()) {
    case jsonrpc::MethodNotFound:
        return 404;
    case jsonrpc::ParseError:
    case jsonrpc::InvalidRequest:
    case jsonrpc::InvalidParams:
    case jsonrpc::HeaderMismatch:
    case jsonrpc::MissingRequiredClientCapability:
    case jsonrpc::UnsupportedProtocolVersion:
        return 400;
    default:
        return 200;
    }
}

QString methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get:
        return QStringLiteral("GET");
    case QHttpServerRequest::Method::Post:
        return QStringLiteral("POST");
    case QHttpServerRequest::Method::Delete:
        return QStringLiteral("DELETE");
    default:
        return QStringLiteral("other");
    }
}

} // namespace

StreamableHttpServer::StreamableHttpServer(DispatcherFactory factory, QByteArray token, HttpServerOptions options,
                                           QObject *parent)
    : QAbstractHttpServer(parent), m_factory(std::move(factory)), m_token(std::move(token)),
      m_options(std::move(options)), m_originPolicy(m_options.allowedOrigins, !m_options.allowRemote)
{
    connect(&m_expiryTimer, &QTimer::timeout, this, &StreamableHttpServer::expireIdleSessions);
}

StreamableHttpServer::~StreamableHttpServer()
{
    m_expiryTimer.stop();
    // Everything starts stopping at once; then each dispatcher waits for its own calls.
    for (const std::shared_ptr<HttpSession> &session : std::as_const(m_sessions)) {
        for (SseStream *stream : session->openStreams()) {
            stream->finish();
        }
        if (session->dispatcher()) {
            session->dispatcher()->cancelAll();
        }
    }
    for (const std::shared_ptr<McpDispatcher> &dispatcher : std::as_const(m_perRequest)) {
        dispatcher->cancelAll();
    }
    for (const std::shared_ptr<HttpSession> &session : std::as_const(m_sessions)) {
        session->takeDispatcher().reset();
    }
    m_sessions.clear();
    m_perRequest.clear();
    for (QFuture<void> &retiring : m_retiring) {
        retiring.waitForFinished();
    }
}

Result<quint16> StreamableHttpServer::start()
{
    if (m_tcpServer) {
        return m_tcpServer->serverPort();
    }
    if (!m_options.allowRemote && !m_options.address.isLoopback()) {
        return Error{QStringLiteral("%1 is not a loopback address; listening there needs --allow-remote.")
                         .arg(m_options.address.toString())};
    }
    // Refused on their head alone, before any body is read or a 100 Continue sent: requests for another path and
    // requests without this server's token (the handler checks both again, with the Host and Origin checks).
    // The connections are the TCP server's children, so `this` outlives every call (and sees a rotated token).
    auto check = [this](const HttpRequestFramer::RequestHead &head) -> std::optional<HttpRequestFramer::Rejection> {
        if (head.target.split('?').first() != kEndpoint.toLatin1()) {
            return HttpRequestFramer::Rejection{404, notFound().toUtf8()};
        }
        if (!BearerToken::matches(BearerToken::fromAuthorizationHeader(head.authorization), m_token)) {
            qCInfo(lcMcpHttp) << "refused a request without a valid token before its body";
            return HttpRequestFramer::Rejection{
                401, kUnauthorized.toUtf8(), "WWW-Authenticate: " + authenticateChallenge(head.authorization) + "\r\n"};
        }
        return std::nullopt;
    };
    auto *tcpServer = new GuardedTcpServer(m_options.limits, m_options.timeouts,
                                           {.connections = m_options.maxConnections,
                                            .perAddress = m_options.maxConnectionsPerAddress,
                                            .beforeAuthentication = m_options.maxConnectionsBeforeAuthentication},
                                           this, std::move(check));
    if (!tcpServer->listen(m_options.address, m_options.port)) {
        const QString reason = tcpServer->errorString();
        delete tcpServer;
        return Error{QStringLiteral("cannot listen on %1 port %2: %3.")
                         .arg(m_options.address.toString())
                         .arg(m_options.port)
                         .arg(reason)};
    }
    bind(tcpServer);
    m_tcpServer = tcpServer;
    m_expiryTimer.start(std::min<std::chrono::milliseconds>(m_options.sessionIdleTimeout, std::chrono::minutes(1)));
    qCDebug(lcMcpHttp).noquote() << "MCP over Streamable HTTP at" << url().toString();
    return m_tcpServer->serverPort();
}

QList<HttpSessionInfo> StreamableHttpServer::sessions() const
{
    QList<HttpSessionInfo> infos;
    for (const std::shared_ptr<HttpSession> &session : m_sessions) {
        if (std::optional<HttpSessionInfo> info = session->info()) {
            infos.append(std::move(*info));
        }
    }
    return infos;
}

void StreamableHttpServer::setToken(QByteArray token)
{
    m_token = std::move(token);
    qCInfo(lcMcpHttp) << "token replaced; ending" << m_sessions.size() << "session(s) opened with the old one";
    closeAllSessions();
}

QFuture<void> StreamableHttpServer::stop()
{
    m_expiryTimer.stop();
    if (m_tcpServer) {
        m_tcpServer->close();
        // A client must not keep talking over a connection it opened before: everything it sends from now on finds
        // no server.
        for (QTcpSocket *socket : m_tcpServer->findChildren<QTcpSocket *>()) {
            socket->abort();
        }
    }
    closeAllSessions();
    m_retiring.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
    if (m_retiring.isEmpty()) {
        return QtFuture::makeReadyFuture();
    }
    return QtFuture::whenAll(m_retiring.begin(), m_retiring.end()).then([](const QList<QFuture<void>> &) {});
}

quint16 StreamableHttpServer::port() const
{
    return m_tcpServer ? m_tcpServer->serverPort() : 0;
}

QUrl StreamableHttpServer::url() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(m_options.address.toString());
    url.setPort(port());
    url.setPath(kEndpoint);
    return url;
}

bool StreamableHttpServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    HttpConnectionGuard *guard = HttpConnectionGuard::of(socket);
    if (!guard) {
        qCWarning(lcMcpHttp) << "a connection without a guard; closing it";
        socket->abort();
        return true;
    }
    if (guard->responding()) {
        // Answers must go out in request order; a client that pipelines gets its connection closed instead.
        qCWarning(lcMcpHttp) << "a pipelined request from" << socket->peerAddress().toString() << "; closing";
        socket->abort();
        return true;
    }
    guard->beginResponse();
    auto exchange = std::make_shared<Exchange>();
    exchange->socket = socket;
    exchange->responder.emplace(makeResponder(request, socket));
    exchange->closeConnection = hasToken(request.value("connection"), "close");
    exchange->headOnly = request.method() == QHttpServerRequest::Method::Head;
    qCDebug(lcMcpHttp).noquote() << methodName(request.method()) << request.url().path() << "from"
                                 << socket->peerAddress().toString();

    if (!m_originPolicy.allowsHost(request.value("host"))) {
        respondError(
            exchange, 403,
            QStringLiteral("Forbidden: the Host header must name this machine by a loopback name or address."));
        return true;
    }
    const std::optional<QByteArray> origin = header(request, "origin");
    if (origin && !m_originPolicy.allowsOrigin(*origin)) {
        respondError(exchange, 403, QStringLiteral("Forbidden: requests from web pages of other origins are refused."));
        return true;
    }
    if (request.url().path() != kEndpoint) {
        respondError(exchange, 404, notFound());
        return true;
    }
    if (!BearerToken::matches(BearerToken::fromAuthorizationHeader(request.value("authorization")), m_token)) {
        qCInfo(lcMcpHttp) << "refused a request without a valid token from" << socket->peerAddress().toString();
        respondError(exchange, 401, kUnauthorized,
                     {{"WWW-Authenticate", authenticateChallenge(request.value("authorization"))}});
        return true;
    }
    // A POST may be a 2026-07-28 request, which answers an unsupported version itself (with the versions it takes).
    const QByteArray version = request.value("mcp-protocol-version").trimmed();
    if (request.method() != QHttpServerRequest::Method::Post &&
        ProtocolVersion::perRequest().contains(QString::fromLatin1(version))) {
        // 2026-07-28 has neither the GET stream nor sessions to DELETE.
        respondError(exchange, 405,
                     QStringLiteral("Method Not Allowed: protocol revision %1 has only POST (no GET stream, no "
                                    "sessions to end).")
                         .arg(QString::fromLatin1(version)),
                     {{"Allow", "POST"}});
        return true;
    }
    if (request.method() != QHttpServerRequest::Method::Post && !version.isEmpty() &&
        !ProtocolVersion::supported().contains(QString::fromLatin1(version))) {
        respondError(exchange, 400,
                     QStringLiteral("Bad Request: unsupported MCP-Protocol-Version %1; supported: %2.")
                         .arg(QString::fromLatin1(version), ProtocolVersion::supported().join(QStringLiteral(", "))));
        return true;
    }

    switch (request.method()) {
    case QHttpServerRequest::Method::Post:
        handlePost(exchange, request);
        break;
    case QHttpServerRequest::Method::Get:
        handleGet(exchange, request);
        break;
    case QHttpServerRequest::Method::Delete:
        handleDelete(exchange, request);
        break;
    default:
        respondError(exchange, 405, QStringLiteral("Method Not Allowed: use POST, GET or DELETE."),
                     {{"Allow", "GET, POST, DELETE"}});
        break;
    }
    return true;
}

void StreamableHttpServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    // handleRequest() answers everything; this is only here because QAbstractHttpServer requires it.
    QHttpServerResponder responder = makeResponder(request, socket);
    responder.write(HttpErrorResponse::body(QStringLiteral("Not Found.")), "application/json",
                    QHttpServerResponder::StatusCode::NotFound);
}

void StreamableHttpServer::handlePost(const std::shared_ptr<Exchange> &exchange, const QHttpServerRequest &request)
{
    if (!isJsonContentType(request.value("content-type"))) {
        respondError(exchange, 415, QStringLiteral("Unsupported Media Type: the body must be application/json."));
        return;
    }
    const Accepts accepts = parseAccept(request.value("accept"));
    if (!accepts.json && !accepts.eventStream) {
        respondError(exchange, 406,
                     QStringLiteral("Not Acceptable: the client must accept application/json or text/event-stream."));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body(), &parseError);
    if (parseError.error != QJsonParseError::NoError || document.isNull()) {
        respond(exchange, 400,
                HttpErrorResponse::body(QStringLiteral("Parse error: the body is not a JSON object or array."),
                                        jsonrpc::ParseError),
                {{"Content-Type", "application/json"}});
        return;
    }
    // Each message is read once, here; the dispatcher is handed what was read.
    QList<McpMessage> messages;
    for (const QJsonValue &value : document.isArray() ? document.array() : QJsonArray{document.object()}) {
        messages.append(McpMessage::parse(value));
    }

    // A request of the 2026-07-28 era is served on its own; everything else goes to a session as before.
    const QString version = QString::fromLatin1(request.value("mcp-protocol-version").trimmed());
    if (document.isObject() && messages.first().awaitsAnswer() &&
        (messages.first().isPerRequest() || (!header(request, "mcp-session-id") && !version.isEmpty() &&
                                             !ProtocolVersion::supported().contains(version)))) {
        handlePerRequestPost(exchange, request, messages.first(), accepts);
        return;
    }
    if (ProtocolVersion::perRequest().contains(version)) {
        respondError(exchange, 400,
                     QStringLiteral("Bad Request: protocol revision %1 takes one request per POST and no "
                                    "notifications or batches over HTTP (closing a response cancels its request).")
                         .arg(version));
        return;
    }
    if (!version.isEmpty() && !ProtocolVersion::supported().contains(version)) {
        respondError(
            exchange, 400,
            QStringLiteral("Bad Request: unsupported MCP-Protocol-Version %1; supported: %2.")
                .arg(version.left(64),
                     (ProtocolVersion::supported() + ProtocolVersion::perRequest()).join(QStringLiteral(", "))));
        return;
    }

    // What the body holds decides the shape of the answer; the dispatcher still judges each message itself.
    PostedRequests posted;
    for (const McpMessage &message : std::as_const(messages)) {
        if (message.awaitsAnswer()) {
            posted.ids.append(message.object().value(QStringLiteral("id")));
            posted.initialize = posted.initialize || message.method() == QLatin1String("initialize");
            posted.wantProgress = posted.wantProgress || !message.progressToken().isUndefined();
        }
    }
    if (posted.initialize && document.isArray()) {
        respondError(exchange, 400, QStringLiteral("Bad Request: initialize must be sent on its own, not in a batch."),
                     {});
        return;
    }
    const std::shared_ptr<HttpSession> session = sessionForPost(exchange, request, posted.initialize);
    if (!session) {
        return;
    }
    session->touch();
    session->beginExchange();
    McpDispatcher &dispatcher = *session->dispatcher();
    const QFuture<QJsonDocument> reply =
        document.isArray() ? dispatcher.handle(document) : dispatcher.handle(messages.first());
    // After handle(): a call that runs on is registered by then, so the owner counts it.
    emit sessionsChanged();

    if (posted.ids.isEmpty()) {
        // Notifications and responses: accepted at once; something the dispatcher objects to is a 400.
        whenReady(reply, [this, exchange, session](const QJsonDocument &answer) {
            session->endExchange();
            emit sessionsChanged();
            if (answer.isNull()) {
                respond(exchange, 202, {});
            } else {
                respond(exchange, 400, answer.toJson(QJsonDocument::Compact), {{"Content-Type", "application/json"}});
            }
        });
        return;
    }
    if (accepts.eventStream && (!accepts.json || (!posted.initialize && posted.wantProgress))) {
        answerOnStream(exchange, session, reply, posted);
        return;
    }
    answerAsJson(exchange, session, reply, posted, accepts.eventStream);
}

std::shared_ptr<HttpSession> StreamableHttpServer::sessionForPost(const std::shared_ptr<Exchange> &exchange,
                                                                  const QHttpServerRequest &request, bool initialize)
{
    if (!initialize) {
        std::shared_ptr<HttpSession> session = requireSession(exchange, request);
        return session && matchesSessionVersion(exchange, request, *session) ? session : nullptr;
    }
    if (header(request, "mcp-session-id")) {
        respondError(exchange, 400,
                     QStringLiteral("Bad Request: initialize starts a new session; send it without Mcp-Session-Id."));
        return nullptr;
    }
    std::shared_ptr<HttpSession> session = createSession();
    if (!session) {
        respondError(exchange, 503,
                     QStringLiteral("Service Unavailable: %1 MCP sessions are open; end one with DELETE %2 or wait "
                                    "for idle ones to expire.")
                         .arg(m_options.maxSessions)
                         .arg(kEndpoint));
    }
    return session;
}

void StreamableHttpServer::answerOnStream(const std::shared_ptr<Exchange> &exchange,
                                          const std::shared_ptr<HttpSession> &session,
                                          const QFuture<QJsonDocument> &reply, const PostedRequests &posted)
{
    SseStream *stream =
        openStream(exchange, posted.initialize ? Headers{{"Mcp-Session-Id", session->id().toLatin1()}} : Headers{});
    if (!stream) {
        session->endExchange();
        return;
    }
    // What the requests send while they are handled (their progress, their log messages) goes on this stream.
    QStringList requestKeys;
    for (const QJsonValue &id : posted.ids) {
        requestKeys.append(jsonrpc::idKey(id));
    }
    session->addRequestStream(stream, requestKeys);
    whenReady(reply, [this, session, stream = QPointer<SseStream>(stream)](const QJsonDocument &answer) {
        session->endExchange();
        emit sessionsChanged();
        if (stream) {
            if (!answer.isNull()) {
                stream->send(answer);
            }
            stream->finish();
        }
    });
}

void StreamableHttpServer::answerAsJson(const std::shared_ptr<Exchange> &exchange,
                                        const std::shared_ptr<HttpSession> &session,
                                        const QFuture<QJsonDocument> &reply, const PostedRequests &posted,
                                        bool eventStreamAccepted)
{
    whenReady(reply, [this, exchange, session, posted, eventStreamAccepted](const QJsonDocument &answer) {
        session->endExchange();
        emit sessionsChanged();
        if (answer.isNull()) {
            // The request was cancelled (notifications/cancelled or DELETE). The POST still gets the answer a request
            // is owed: an event stream that ends without a response, or, for a client that takes only JSON, an error
            // per request saying so.
            if (eventStreamAccepted) {
                respond(exchange, 200, {}, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}});
                return;
            }
            QJsonArray errors;
            for (const QJsonValue &id : posted.ids) {
                errors.append(jsonrpc::makeError(id, jsonrpc::InternalError,
                                                 QStringLiteral("The request was cancelled before it finished.")));
            }
            const QJsonDocument cancelled =
                errors.size() == 1 ? QJsonDocument(errors.first().toObject()) : QJsonDocument(errors);
            respond(exchange, 200, cancelled.toJson(QJsonDocument::Compact), {{"Content-Type", "application/json"}});
            return;
        }
        const QByteArray json = answer.toJson(QJsonDocument::Compact);
        if (!posted.initialize) {
            respond(exchange, 200, json, {{"Content-Type", "application/json"}});
        } else if (answer.object().contains(QStringLiteral("error"))) {
            closeSession(session->id()); // no session comes out of a failed initialize
            respond(exchange, 200, json, {{"Content-Type", "application/json"}});
        } else {
            qCInfo(lcMcpHttp).noquote() << "session" << session->id().left(8) << "initialized, protocol"
                                        << session->dispatcher()->protocolVersion();
            respond(exchange, 200, json,
                    {{"Content-Type", "application/json"}, {"Mcp-Session-Id", session->id().toLatin1()}});
        }
    });
}

void StreamableHttpServer::handlePerRequestPost(const std::shared_ptr<Exchange> &exchange,
                                                const QHttpServerRequest &request, const McpMessage &message,
                                                const Accepts &accepts)
{
    // Where the dispatcher's notifications (progress, log messages of this request) go: this request's event stream,
    // once there is one. A notification while the answer is JSON has nowhere to go and is dropped.
    auto stream = std::make_shared<QPointer<SseStream>>();
    McpDispatcher::MessageSink sink = [this, stream](const QJsonObject &notification, const QJsonValue &) {
        QMetaObject::invokeMethod(
            this,
            [stream, notification] {
                if (*stream) {
                    (*stream)->send(QJsonDocument(notification));
                }
            },
            Qt::QueuedConnection);
    };
    std::shared_ptr<McpDispatcher> dispatcher(m_factory(std::move(sink)));
    // Every client presents the same token and this request no session: the sandbox sessions it opens are reached
    // by the handle it is given, never by what another such request shares with it.
    dispatcher->ownSessionsByHandle();

    const QJsonValue id = message.object().value(QStringLiteral("id"));
    if (const std::optional<QString> problem =
            RoutingHeaders::mismatch(request.headers(), message.object(), dispatcher->tools())) {
        qCDebug(lcMcpHttp).noquote() << "400" << *problem;
        respond(exchange, 400,
                QJsonDocument(jsonrpc::makeError(id, jsonrpc::HeaderMismatch, *problem)).toJson(QJsonDocument::Compact),
                {{"Content-Type", "application/json"}});
        return;
    }

    const QFuture<QJsonDocument> reply = dispatcher->handlePerRequest(message);
    const auto finish = [this, dispatcher] {
        m_perRequest.remove(dispatcher.get());
        dispatcher->cancelAll();
        // Its destructor waits for its pool's threads: not on this thread.
        m_retiring.append(QtConcurrent::run([retired = dispatcher]() mutable { retired.reset(); }));
    };
    const QJsonObject meta = message.params().value(QStringLiteral("_meta")).toObject();
    const bool wantsNotifications =
        meta.contains(QStringLiteral("progressToken")) || meta.contains(RequestMeta::kLogLevel);
    const bool asStream = accepts.eventStream && (!accepts.json || wantsNotifications);
    const bool refused =
        reply.isFinished() && reply.resultCount() > 0 && reply.result().object().contains(QStringLiteral("error"));
    if (refused || (reply.isFinished() && !asStream)) {
        // Refusals and short requests: one JSON answer with the status the revision gives it.
        const QJsonDocument answer = reply.resultCount() > 0 ? reply.result() : QJsonDocument();
        respond(exchange, perRequestStatus(answer.object()), answer.toJson(QJsonDocument::Compact),
                {{"Content-Type", "application/json"}});
        finish();
        return;
    }
    m_perRequest.insert(dispatcher.get(), dispatcher);

    // A client gone before the answer cancels the request (2026-07-28 has no notifications/cancelled over HTTP).
    const std::weak_ptr<McpDispatcher> weak = dispatcher;
    const auto cancel = [weak] {
        if (const std::shared_ptr<McpDispatcher> running = weak.lock()) {
            running->cancelAll();
        }
    };
    if (QTcpSocket *socket = exchange->socket.data()) {
        connect(socket, &QTcpSocket::disconnected, this, cancel);
    }
    if (asStream) {
        *stream = openStream(exchange, {});
        if (!*stream) {
            dispatcher->cancelAll();
        } else {
            connect(stream->data(), &SseStream::ended, this, [cancel](bool clientGone) {
                if (clientGone) {
                    cancel();
                }
            });
        }
        whenReady(reply, [this, stream, finish](const QJsonDocument &answer) {
            // The request's notifications were queued to this thread before its answer was ready (possibly before
            // the stream opened): queued behind them, the answer comes last.
            QMetaObject::invokeMethod(
                this,
                [stream, finish, answer] {
                    if (*stream) {
                        if (!answer.isNull()) {
                            (*stream)->send(answer);
                        }
                        (*stream)->finish();
                    }
                    finish();
                },
                Qt::QueuedConnection);
        });
        return;
    }
    whenReady(reply, [this, exchange, finish](const QJsonDocument &answer) {
        // Null: cancelled because the client went away; there is no one left to answer.
        if (!answer.isNull()) {
            respond(exchange, perRequestStatus(answer.object()), answer.toJson(QJsonDocument::Compact),
                    {{"Content-Type", "application/json"}});
        }
        finish();
    });
}

void StreamableHttpServer::handleGet(const std::shared_ptr<Exchange> &exchange, const QHttpServerRequest &request)
{
    if (!parseAccept(request.value("accept")).eventStream) {
        respondError(exchange, 406,
                     QStringLiteral("Not Acceptable: GET opens an event stream; accept "
                                    "text/event-stream."));
        return;
    }
    const std::shared_ptr<HttpSession> session = requireSession(exchange, request);
    if (!session || !matchesSessionVersion(exchange, request, *session)) {
        return;
    }
    if (session->getStream()) {
        respondError(exchange, 409, QStringLiteral("Conflict: this session already has an open GET event stream."));
        return;
    }
    session->touch();
    // No Last-Event-ID replay: this server keeps no history, so a reconnecting client gets a fresh stream.
    SseStream *stream = openStream(exchange, {});
    session->setGetStream(stream);
    if (stream) {
        // A client that exits drops its stream: the owner shows it gone rather than waiting for the session to expire.
        connect(stream, &SseStream::ended, this, [this, weak = std::weak_ptr<HttpSession>(session)](bool clientGone) {
            const std::shared_ptr<HttpSession> ended = weak.lock();
            if (!ended || !m_sessions.contains(ended->id())) {
                return;
            }
            if (clientGone) {
                ended->setClientGone();
            }
            emit sessionsChanged();
        });
    }
    emit sessionsChanged();
}

void StreamableHttpServer::handleDelete(const std::shared_ptr<Exchange> &exchange, const QHttpServerRequest &request)
{
    const std::shared_ptr<HttpSession> session = requireSession(exchange, request);
    if (!session) {
        return;
    }
    closeSession(session->id());
    respond(exchange, 200, {});
}

bool StreamableHttpServer::matchesSessionVersion(const std::shared_ptr<Exchange> &exchange,
                                                 const QHttpServerRequest &request, const HttpSession &session)
{
    // A revision newer than the one the session agreed on is refused although the server speaks it: the session
    // cannot use what it did not agree on. An older one is what clients send when unsure (2025-03-26 is the
    // transport's assumption without the header), so it passes.
    const QString version = QString::fromLatin1(request.value("mcp-protocol-version").trimmed());
    const QString agreed = session.dispatcher() ? session.dispatcher()->protocolVersion() : QString();
    if (version.isEmpty() || agreed.isEmpty() || version <= agreed) {
        return true;
    }
    respondError(exchange, 400,
                 QStringLiteral("Bad Request: MCP-Protocol-Version %1 is newer than the version this session agreed on "
                                "(%2).")
                     .arg(version, agreed));
    return false;
}

std::shared_ptr<HttpSession> StreamableHttpServer::requireSession(const std::shared_ptr<Exchange> &exchange,
                                                                  const QHttpServerRequest &request)
{
    const QByteArray id = request.value("mcp-session-id").trimmed();
    if (id.isEmpty()) {
        respondError(exchange, 400,
                     QStringLiteral("Bad Request: the Mcp-Session-Id header is required; send initialize first."));
        return nullptr;
    }
    std::shared_ptr<HttpSession> session = m_sessions.value(QString::fromLatin1(id));
    if (!session) {
        respondError(exchange, 404,
                     QStringLiteral("Not Found: no such MCP session (it ended or expired); initialize a new one."));
    }
    return session;
}

std::shared_ptr<HttpSession> StreamableHttpServer::createSession()
{
    if (m_sessions.size() >= m_options.maxSessions) {
        expireIdleSessions();
    }
    if (m_sessions.size() >= m_options.maxSessions) {
        // Full of sessions that ask nothing (holding a GET stream is not asking): the one idle longest makes room,
        // so no one holding sessions open locks the others out. Its client gets 404 and starts a new one.
        std::shared_ptr<HttpSession> idlest;
        for (const std::shared_ptr<HttpSession> &session : std::as_const(m_sessions)) {
            if (!session->busy() && (!idlest || session->idleFor() > idlest->idleFor())) {
                idlest = session;
            }
        }
        if (!idlest) {
            return nullptr;
        }
        qCInfo(lcMcpHttp).noquote() << "session" << idlest->id().left(8) << "closed to make room, idle for"
                                    << idlest->idleFor().count() << "ms";
        closeSession(idlest->id());
    }
    const QString id = newSessionId();
    // From the dispatcher's worker threads to this thread; a message for a session that has ended is dropped.
    McpDispatcher::MessageSink sink = [this, id](const QJsonObject &message, const QJsonValue &request) {
        // A message of a request goes where its answer goes.
        const QString requestKey = jsonrpc::idKey(request);
        QMetaObject::invokeMethod(
            this, [this, id, message, requestKey] { deliver(id, message, requestKey); }, Qt::QueuedConnection);
    };
    std::unique_ptr<McpDispatcher> dispatcher = m_factory(std::move(sink));
    // Its sandbox sessions are its own: another MCP session is told they do not exist.
    dispatcher->setSessionOwner(id);
    auto session = std::make_shared<HttpSession>(id, std::move(dispatcher));
    m_sessions.insert(id, session);
    return session;
}

void StreamableHttpServer::closeSession(const QString &id)
{
    const std::shared_ptr<HttpSession> session = m_sessions.take(id);
    if (!session) {
        return;
    }
    qCInfo(lcMcpHttp).noquote() << "session" << id.left(8) << "closed";
    for (SseStream *stream : session->openStreams()) {
        stream->finish();
    }
    retire(session->takeDispatcher());
    emit sessionsChanged();
}

void StreamableHttpServer::closeAllSessions()
{
    for (const QString &id : m_sessions.keys()) {
        closeSession(id);
    }
    // The 2026-07-28 requests in flight are cancelled too; their dispatchers retire as their answers come back.
    for (const std::shared_ptr<McpDispatcher> &dispatcher : std::as_const(m_perRequest)) {
        dispatcher->cancelAll();
        m_retiring.append(QtConcurrent::run([dispatcher] { dispatcher->waitForDone(); }));
    }
}

void StreamableHttpServer::expireIdleSessions()
{
    const QList<std::shared_ptr<HttpSession>> sessions = m_sessions.values();
    for (const std::shared_ptr<HttpSession> &session : sessions) {
        if (!session->busy() && session->idleFor() >= m_options.sessionIdleTimeout) {
            qCInfo(lcMcpHttp).noquote() << "session" << session->id().left(8) << "expired";
            closeSession(session->id());
        }
    }
    m_retiring.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
}

void StreamableHttpServer::retire(std::unique_ptr<McpDispatcher> dispatcher)
{
    if (!dispatcher) {
        return;
    }
    dispatcher->cancelAll();
    // Its destructor waits for the cancelled calls (a container being removed): not on this thread.
    std::shared_ptr<McpDispatcher> retired(std::move(dispatcher));
    m_retiring.append(QtConcurrent::run([retired]() mutable { retired.reset(); }));
}

void StreamableHttpServer::deliver(const QString &sessionId, const QJsonObject &message, const QString &requestKey)
{
    const std::shared_ptr<HttpSession> session = m_sessions.value(sessionId);
    if (!session) {
        return;
    }
    SseStream *stream = session->streamFor(requestKey);
    if (!stream) {
        qCDebug(lcMcpHttp) << "no open stream for" << message.value(QStringLiteral("method")).toString() << "; dropped";
        return;
    }
    stream->send(QJsonDocument(message));
}

SseStream *StreamableHttpServer::openStream(const std::shared_ptr<Exchange> &exchange, const Headers &headers)
{
    QTcpSocket *socket = exchange->socket.data();
    if (!socket || socket->state() != QAbstractSocket::ConnectedState || !exchange->responder) {
        return nullptr;
    }
    auto *stream = new SseStream(std::move(*exchange->responder), socket, headers, m_options.keepAliveInterval);
    exchange->responder.reset();
    connect(stream, &SseStream::ended, this, [exchange](bool clientGone) {
        if (!clientGone && exchange->socket) {
            if (HttpConnectionGuard *guard = HttpConnectionGuard::of(exchange->socket)) {
                guard->endResponse(exchange->closeConnection);
            }
        }
    });
    return stream;
}

void StreamableHttpServer::respond(const std::shared_ptr<Exchange> &exchange, int status, const QByteArray &body,
                                   const Headers &headers)
{
    if (!exchange->responder) {
        return; // answered already
    }
    QHttpServerResponder responder = std::move(*exchange->responder);
    exchange->responder.reset();
    QTcpSocket *socket = exchange->socket.data();
    if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
        return; // the client went away while we worked
    }
    responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(status));
    for (const auto &[name, value] : headers) {
        responder.writeHeader(name, value);
    }
    responder.writeHeader("Content-Length", QByteArray::number(body.size()));
    responder.writeBody(exchange->headOnly ? QByteArray() : body);
    if (HttpConnectionGuard *guard = HttpConnectionGuard::of(socket)) {
        guard->endResponse(exchange->closeConnection);
    }
}

void StreamableHttpServer::respondError(const std::shared_ptr<Exchange> &exchange, int status, const QString &message,
                                        const Headers &headers)
{
    qCDebug(lcMcpHttp).noquote() << status << message;
    respond(exchange, status, HttpErrorResponse::body(message),
            Headers{{"Content-Type", "application/json"}} + headers);
}

void StreamableHttpServer::whenReady(const QFuture<QJsonDocument> &reply,
                                     std::function<void(const QJsonDocument &)> then)
{
    if (reply.isFinished()) {
        // Queued even so: a message the call sent before it finished (a log line from a worker thread) is already
        // queued for this thread and must reach the request's stream before the answer closes it.
        QMetaObject::invokeMethod(
            this,
            [reply, then] { then(reply.isValid() && reply.resultCount() > 0 ? reply.result() : QJsonDocument()); },
            Qt::QueuedConnection);
        return;
    }
    QFuture<QJsonDocument>(reply)
        .then(this, [then](const QJsonDocument &answer) { then(answer); })
        .onCanceled(this, [then] { then(QJsonDocument()); });
}

} // namespace sandbox::mcp
