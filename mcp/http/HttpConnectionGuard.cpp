#include "mcp/http/HttpConnectionGuard.h"

#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"

#include <QTcpSocket>

namespace sandbox::mcp {

HttpConnectionGuard::HttpConnectionGuard(QTcpSocket *socket, HttpLimits limits, HttpTimeouts timeouts,
                                         QObject *httpServer, HttpRequestFramer::HeadCheck check)
    : QObject(socket), m_socket(socket), m_httpServer(httpServer),
      m_framer(limits,
               [this, check = std::move(check)](
                   const HttpRequestFramer::RequestHead &head) -> std::optional<HttpRequestFramer::Rejection> {
                   std::optional<HttpRequestFramer::Rejection> rejection;
                   if (check) {
                       rejection = check(head);
                   }
                   m_authenticated = m_authenticated || !rejection;
                   return rejection;
               }),
      m_timeouts(timeouts)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpConnectionGuard::onTimeout);
    connect(m_socket, &QIODevice::readyRead, this, &HttpConnectionGuard::onReadyRead);
    armTimer();
}

HttpConnectionGuard *HttpConnectionGuard::of(QTcpSocket *socket)
{
    return socket ? socket->findChild<HttpConnectionGuard *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void HttpConnectionGuard::beginResponse()
{
    m_responding = true;
    armTimer();
}

void HttpConnectionGuard::endResponse(bool closeConnection)
{
    m_responding = false;
    if (closeConnection) {
        m_socket->disconnectFromHost();
        return;
    }
    armTimer();
}

void HttpConnectionGuard::reject(int status, const QString &message, const QByteArray &headers)
{
    if (m_rejected) {
        return;
    }
    m_rejected = true;
    m_timer.stop();
    qCInfo(lcMcpHttp).noquote() << "refusing a request from" << m_socket->peerAddress().toString() << "with" << status
                                << message;
    // Qt's parser must not see the rest: it would try to serve it or drop the connection without an answer.
    if (m_httpServer) {
        disconnect(m_socket, &QIODevice::readyRead, m_httpServer, nullptr);
    }
    if (m_socket->isTransactionStarted()) {
        m_socket->rollbackTransaction();
    }
    m_socket->readAll();
    m_socket->write(HttpErrorResponse::closingResponse(status, message, headers));
    m_socket->disconnectFromHost();
}

void HttpConnectionGuard::onReadyRead()
{
    if (m_rejected) {
        m_socket->readAll(); // draining, so closing does not reset the connection before the answer is read
        return;
    }
    // Peek, not read: QAbstractHttpServer reads the same bytes right after this slot returns.
    const QByteArray fresh = m_socket->peek(m_socket->bytesAvailable());
    const bool wasMidRequest = m_framer.midRequest();
    const HttpRequestFramer::Progress progress = m_framer.feed(fresh);
    if (progress.rejection) {
        reject(progress.rejection->status, QString::fromUtf8(progress.rejection->message), progress.rejection->headers);
        return;
    }
    if (progress.continueExpected) {
        m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }
    if (progress.completed > 0 || !wasMidRequest) {
        m_timingRequest = false; // a new request starts its own clock
    }
    armTimer();
}

void HttpConnectionGuard::onTimeout()
{
    if (m_responding || m_rejected) {
        return;
    }
    if (!m_authenticated && m_framer.midRequest()) {
        const auto limit = std::min(m_timeouts.beforeAuthentication, m_timeouts.request);
        reject(408, QStringLiteral("The request's head did not arrive within %1 seconds.")
                        .arg(std::chrono::duration_cast<std::chrono::seconds>(limit).count()));
        return;
    }
    if (m_framer.midRequest()) {
        reject(408, QStringLiteral("The request did not arrive completely within %1 seconds.")
                        .arg(std::chrono::duration_cast<std::chrono::seconds>(m_timeouts.request).count()));
        return;
    }
    qCDebug(lcMcpHttp) << "closing an idle connection from" << m_socket->peerAddress().toString();
    m_socket->disconnectFromHost();
}

void HttpConnectionGuard::armTimer()
{
    if (m_responding || m_rejected) {
        m_timer.stop();
        m_timingRequest = false;
        return;
    }
    if (!m_authenticated) {
        // One clock from the connection's start, whatever arrives: a head with the token must come in time.
        if (!m_timer.isActive()) {
            m_timer.start(std::min(m_timeouts.beforeAuthentication, m_timeouts.request));
        }
        return;
    }
    if (m_framer.midRequest()) {
        if (!m_timingRequest) {
            m_timingRequest = true;
            m_timer.start(m_timeouts.request);
        }
        return;
    }
    m_timingRequest = false;
    m_timer.start(m_timeouts.idle);
}

} // namespace sandbox::mcp
