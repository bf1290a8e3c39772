#include "mcp/http/StreamableHttpServer.h"

#include "mcp/http/GuardedTcpServer.h"
#include "mcp/http/HttpConnectionGuard.h"
#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"
#include "mcp/http/RoutingHeaders.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QTcpSocket>
#include <algorithm>
#include <optional>

namespace sandbox::mcp {

namespace {

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
    : QAbstractHttpServer(parent), m_factory(std::move(factory)), m_options(std::move(options)),
      m_gate(OriginPolicy(m_options.allowedOrigins, !m_options.allowRemote), std::move(token)),
      m_sessions(m_options.maxSessions, [this] { emit sessionsChanged(); }),
      m_stateless(m_factory, m_sessions, m_options.keepAliveInterval, this)
{
    connect(&m_expiryTimer, &QTimer::timeout, this, [this] { m_sessions.expireIdle(m_options.sessionIdleTimeout); });
}

StreamableHttpServer::~StreamableHttpServer()
{
    m_expiryTimer.stop();
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
    // requests without this server's token (handleRequest() asks the gate again, Host and Origin included).
    // The connections are the TCP server's children, so `this` outlives every call (and sees a rotated token).
    auto *tcpServer = new GuardedTcpServer(
        m_options.limits, m_options.timeouts,
        {.connections = m_options.maxConnections,
         .perAddress = m_options.maxConnectionsPerAddress,
         .beforeAuthentication = m_options.maxConnectionsBeforeAuthentication},
        this, [this](const HttpRequestFramer::RequestHead &head) { return m_gate.checkHead(head); });
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

void StreamableHttpServer::setToken(QByteArray token)
{
    m_gate.setToken(std::move(token));
    qCInfo(lcMcpHttp) << "token replaced; ending" << m_sessions.size() << "session(s) opened with the old one";
    m_sessions.closeAll();
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
    m_sessions.closeAll();
    return m_sessions.whenRetired();
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
    auto exchange = std::make_shared<HttpExchange>(request, makeResponder(request, socket), socket);
    qCDebug(lcMcpHttp).noquote() << methodName(request.method()) << request.url().path() << "from"
                                 << socket->peerAddress().toString();
    if (const std::optional<RequestGate::Refusal> refusal = m_gate.check(request)) {
        exchange->respondError(refusal->status, refusal->message, refusal->headers);
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
        exchange->respondError(405, QStringLiteral("Method Not Allowed: use POST, GET or DELETE."),
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

void StreamableHttpServer::handlePost(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request)
{
    if (!isJsonContentType(request.value("content-type"))) {
        exchange->respondError(415, QStringLiteral("Unsupported Media Type: the body must be application/json."));
        return;
    }
    const Accepts accepts = parseAccept(request.value("accept"));
    if (!accepts.json && !accepts.eventStream) {
        exchange->respondError(
            406, QStringLiteral("Not Acceptable: the client must accept application/json or text/event-stream."));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body(), &parseError);
    if (parseError.error != QJsonParseError::NoError || document.isNull()) {
        exchange->respond(
            400,
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
        (messages.first().isPerRequest() || (!findHeader(request, "mcp-session-id") && !version.isEmpty() &&
                                             !ProtocolVersion::supported().contains(version)))) {
        m_stateless.handle(exchange, request, messages.first(), accepts);
        return;
    }
    if (const std::optional<RequestGate::Refusal> refusal = RequestGate::checkSessionVersion(version)) {
        exchange->respondError(refusal->status, refusal->message);
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
        exchange->respondError(400, QStringLiteral("Bad Request: initialize must be sent on its own, not in a batch."),
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
        acceptWithoutAnswer(exchange, session, reply);
        return;
    }
    if (accepts.eventStream && (!accepts.json || (!posted.initialize && posted.wantProgress))) {
        answerOnStream(exchange, session, reply, posted);
        return;
    }
    answerAsJson(exchange, session, reply, posted, accepts.eventStream);
}

void StreamableHttpServer::acceptWithoutAnswer(const std::shared_ptr<HttpExchange> &exchange,
                                               const std::shared_ptr<HttpSession> &session,
                                               const QFuture<QJsonDocument> &reply)
{
    // Notifications and responses: accepted at once; something the dispatcher objects to is a 400.
    whenReady(this, reply, [this, exchange, session](const QJsonDocument &answer) {
        session->endExchange();
        emit sessionsChanged();
        if (answer.isNull()) {
            exchange->respond(202, {});
        } else {
            exchange->respond(400, answer.toJson(QJsonDocument::Compact), {{"Content-Type", "application/json"}});
        }
    });
}

std::shared_ptr<HttpSession> StreamableHttpServer::sessionForPost(const std::shared_ptr<HttpExchange> &exchange,
                                                                  const QHttpServerRequest &request, bool initialize)
{
    if (!initialize) {
        std::shared_ptr<HttpSession> session = requireSession(exchange, request);
        return session && matchesSessionVersion(exchange, request, *session) ? session : nullptr;
    }
    if (findHeader(request, "mcp-session-id")) {
        exchange->respondError(
            400, QStringLiteral("Bad Request: initialize starts a new session; send it without Mcp-Session-Id."));
        return nullptr;
    }
    std::shared_ptr<HttpSession> session = createSession();
    if (!session) {
        exchange->respondError(
            503, QStringLiteral("Service Unavailable: %1 MCP sessions are open; end one with DELETE %2 or wait "
                                "for idle ones to expire.")
                     .arg(m_options.maxSessions)
                     .arg(kEndpoint));
    }
    return session;
}

void StreamableHttpServer::answerOnStream(const std::shared_ptr<HttpExchange> &exchange,
                                          const std::shared_ptr<HttpSession> &session,
                                          const QFuture<QJsonDocument> &reply, const PostedRequests &posted)
{
    SseStream *stream =
        exchange->openStream(posted.initialize ? Headers{{"Mcp-Session-Id", session->id().toLatin1()}} : Headers{},
                             m_options.keepAliveInterval, this);
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
    whenReady(this, reply, [this, session, stream = QPointer<SseStream>(stream)](const QJsonDocument &answer) {
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

void StreamableHttpServer::answerAsJson(const std::shared_ptr<HttpExchange> &exchange,
                                        const std::shared_ptr<HttpSession> &session,
                                        const QFuture<QJsonDocument> &reply, const PostedRequests &posted,
                                        bool eventStreamAccepted)
{
    whenReady(this, reply, [this, exchange, session, posted, eventStreamAccepted](const QJsonDocument &answer) {
        session->endExchange();
        emit sessionsChanged();
        if (answer.isNull()) {
            // The request was cancelled (notifications/cancelled or DELETE). The POST still gets the answer a request
            // is owed: an event stream that ends without a response, or, for a client that takes only JSON, an error
            // per request saying so.
            if (eventStreamAccepted) {
                exchange->respond(200, {}, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}});
                return;
            }
            QJsonArray errors;
            for (const QJsonValue &id : posted.ids) {
                errors.append(jsonrpc::makeError(id, jsonrpc::InternalError,
                                                 QStringLiteral("The request was cancelled before it finished.")));
            }
            const QJsonDocument cancelled =
                errors.size() == 1 ? QJsonDocument(errors.first().toObject()) : QJsonDocument(errors);
            exchange->respond(200, cancelled.toJson(QJsonDocument::Compact), {{"Content-Type", "application/json"}});
            return;
        }
        const QByteArray json = answer.toJson(QJsonDocument::Compact);
        if (!posted.initialize) {
            exchange->respond(200, json, {{"Content-Type", "application/json"}});
        } else if (answer.object().contains(QStringLiteral("error"))) {
            m_sessions.close(session->id()); // no session comes out of a failed initialize
            exchange->respond(200, json, {{"Content-Type", "application/json"}});
        } else {
            qCInfo(lcMcpHttp).noquote() << "session" << session->id().left(8) << "initialized, protocol"
                                        << session->dispatcher()->protocolVersion();
            exchange->respond(200, json,
                              {{"Content-Type", "application/json"}, {"Mcp-Session-Id", session->id().toLatin1()}});
        }
    });
}

void StreamableHttpServer::handleGet(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request)
{
    if (!parseAccept(request.value("accept")).eventStream) {
        exchange->respondError(406, QStringLiteral("Not Acceptable: GET opens an event stream; accept "
                                                   "text/event-stream."));
        return;
    }
    const std::shared_ptr<HttpSession> session = requireSession(exchange, request);
    if (!session || !matchesSessionVersion(exchange, request, *session)) {
        return;
    }
    if (session->getStream()) {
        exchange->respondError(409, QStringLiteral("Conflict: this session already has an open GET event stream."));
        return;
    }
    session->touch();
    // No Last-Event-ID replay: this server keeps no history, so a reconnecting client gets a fresh stream.
    SseStream *stream = exchange->openStream({}, m_options.keepAliveInterval, this);
    session->setGetStream(stream);
    if (stream) {
        // A client that exits drops its stream: the owner shows it gone rather than waiting for the session to expire.
        connect(stream, &SseStream::ended, this, [this, weak = std::weak_ptr<HttpSession>(session)](bool clientGone) {
            const std::shared_ptr<HttpSession> ended = weak.lock();
            if (!ended || !m_sessions.find(ended->id())) {
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

void StreamableHttpServer::handleDelete(const std::shared_ptr<HttpExchange> &exchange,
                                        const QHttpServerRequest &request)
{
    const std::shared_ptr<HttpSession> session = requireSession(exchange, request);
    if (!session) {
        return;
    }
    m_sessions.close(session->id());
    exchange->respond(200, {});
}

bool StreamableHttpServer::matchesSessionVersion(const std::shared_ptr<HttpExchange> &exchange,
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
    exchange->respondError(
        400, QStringLiteral("Bad Request: MCP-Protocol-Version %1 is newer than the version this session agreed on "
                            "(%2).")
                 .arg(version, agreed));
    return false;
}

std::shared_ptr<HttpSession> StreamableHttpServer::requireSession(const std::shared_ptr<HttpExchange> &exchange,
                                                                  const QHttpServerRequest &request)
{
    const QByteArray id = request.value("mcp-session-id").trimmed();
    if (id.isEmpty()) {
        exchange->respondError(
            400, QStringLiteral("Bad Request: the Mcp-Session-Id header is required; send initialize first."));
        return nullptr;
    }
    std::shared_ptr<HttpSession> session = m_sessions.find(QString::fromLatin1(id));
    if (!session) {
        exchange->respondError(
            404, QStringLiteral("Not Found: no such MCP session (it ended or expired); initialize a new one."));
    }
    return session;
}

std::shared_ptr<HttpSession> StreamableHttpServer::createSession()
{
    // From the dispatcher's worker threads to this thread; a message for a session that has ended is dropped.
    return m_sessions.create(
        [this](const QString &id) {
            McpDispatcher::MessageSink sink = [this, id](const QJsonObject &message, const QJsonValue &request) {
                // A message of a request goes where its answer goes.
                const QString requestKey = jsonrpc::idKey(request);
                QMetaObject::invokeMethod(
                    this, [this, id, message, requestKey] { deliver(id, message, requestKey); }, Qt::QueuedConnection);
            };
            std::unique_ptr<McpDispatcher> dispatcher = m_factory(std::move(sink));
            // Its sandbox sessions are its own: another MCP session is told they do not exist.
            dispatcher->setSessionOwner(id);
            return dispatcher;
        },
        m_options.sessionIdleTimeout);
}

void StreamableHttpServer::deliver(const QString &sessionId, const QJsonObject &message, const QString &requestKey)
{
    const std::shared_ptr<HttpSession> session = m_sessions.find(sessionId);
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

} // namespace sandbox::mcp
