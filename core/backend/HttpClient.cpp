#include "backend/HttpClient.h"

#include "backend/RawConnection.h"

#include <QFileInfo>
#include <QIODevice>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUrl>
#include <curl/curl.h>
#include <mutex>

Q_LOGGING_CATEGORY(lcHttp, "sandbox.backend.http")

namespace sandbox {

namespace {

void ensureCurlInitialized()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlHandle
{
    CURL *curl = curl_easy_init();
    curl_slist *headers = nullptr;
    ~CurlHandle()
    {
        curl_slist_free_all(headers);
        if (curl) {
            curl_easy_cleanup(curl);
        }
    }
    CURL *release()
    {
        CURL *out = curl;
        curl = nullptr;
        return out;
    }
};

struct TransferState
{
    const HttpRequest *request = nullptr;
    HttpResponse *response = nullptr;
    bool aborted = false;
};

size_t onBody(char *data, size_t size, size_t count, void *userData)
{
    auto *state = static_cast<TransferState *>(userData);
    const size_t bytes = size * count;
    if (state->request->onData && state->response->status >= 200 && state->response->status < 300) {
        if (!state->request->onData(QByteArray(data, qsizetype(bytes)))) {
            state->aborted = true;
            return 0;
        }
    } else {
        state->response->body.append(data, qsizetype(bytes));
    }
    return bytes;
}

/// libcurl asks about once a second, also while nothing moves: the moment to notice a cancel.
int onProgress(void *userData, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    auto *state = static_cast<TransferState *>(userData);
    if (state->request->cancelled && state->request->cancelled->load()) {
        state->aborted = true;
        return 1;
    }
    return 0;
}

size_t onHeader(char *data, size_t size, size_t count, void *userData)
{
    auto *state = static_cast<TransferState *>(userData);
    const size_t bytes = size * count;
    const QByteArray line = QByteArray(data, qsizetype(bytes)).trimmed();
    if (line.startsWith("HTTP/")) {
        state->response->headers.clear();
        const QList<QByteArray> parts = line.split(' ');
        state->response->status = parts.size() > 1 ? parts[1].toInt() : 0;
    } else if (const int colon = line.indexOf(':'); colon > 0) {
        state->response->headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    return bytes;
}

size_t onReadBody(char *buffer, size_t size, size_t count, void *userData)
{
    auto *device = static_cast<QIODevice *>(userData);
    const qint64 got = device->read(buffer, qint64(size * count));
    return got < 0 ? CURL_READFUNC_ABORT : size_t(got);
}

QString capitalized(const QString &text)
{
    return text.isEmpty() ? text : text.front().toUpper() + text.mid(1);
}

void applyEndpoint(CURL *curl, const HttpEndpoint &endpoint)
{
    if (!endpoint.unixSocket.isEmpty()) {
        curl_easy_setopt(curl, CURLOPT_UNIX_SOCKET_PATH, endpoint.unixSocket.toLocal8Bit().constData());
    }
    if (endpoint.tls) {
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, endpoint.verifyPeer ? 1L : 0L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, endpoint.verifyPeer ? 2L : 0L);
        // The blobs are copied by libcurl.
        if (!endpoint.caPem.isEmpty()) {
            curl_blob blob{const_cast<char *>(endpoint.caPem.constData()), size_t(endpoint.caPem.size()),
                           CURL_BLOB_COPY};
            curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob);
        } else if (QFileInfo::exists(endpoint.caFile)) {
            curl_easy_setopt(curl, CURLOPT_CAINFO, endpoint.caFile.toLocal8Bit().constData());
        }
        if (!endpoint.certPem.isEmpty()) {
            curl_blob cert{const_cast<char *>(endpoint.certPem.constData()), size_t(endpoint.certPem.size()),
                           CURL_BLOB_COPY};
            curl_blob key{const_cast<char *>(endpoint.keyPem.constData()), size_t(endpoint.keyPem.size()),
                          CURL_BLOB_COPY};
            curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, &cert);
            curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
            curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, &key);
            curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
        } else if (QFileInfo::exists(endpoint.certFile)) {
            curl_easy_setopt(curl, CURLOPT_SSLCERT, endpoint.certFile.toLocal8Bit().constData());
            curl_easy_setopt(curl, CURLOPT_SSLKEY, endpoint.keyFile.toLocal8Bit().constData());
        }
    }
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
}

} // namespace

HttpClient::HttpClient(HttpEndpoint endpoint) : m_endpoint(std::move(endpoint))
{
    ensureCurlInitialized();
}

Error HttpClient::transportError(int curlCode, const char *detail) const
{
    const QString where = m_endpoint.displayName;
    const QString engine = m_endpoint.engineName;
    switch (curlCode) {
    case CURLE_COULDNT_CONNECT:
        if (!m_endpoint.unixSocket.isEmpty()) {
            const QFileInfo socket(m_endpoint.unixSocket);
            if (!socket.exists()) {
                return Error{QStringLiteral("Cannot reach %1 at %2: no socket exists at %3. Is it running? %4, or set "
                                            "%5 to its socket.")
                                 .arg(engine, where, m_endpoint.unixSocket, capitalized(m_endpoint.startAdvice),
                                      m_endpoint.hostVariable),
                             ErrorCode::EngineUnreachable};
            }
            if (!socket.isReadable() || !socket.isWritable()) {
                return Error{QStringLiteral("Cannot reach %1 at %2: permission denied on %3. "
                                            "Run as a user allowed to use it (e.g. a member of the docker group).")
                                 .arg(engine, where, m_endpoint.unixSocket),
                             ErrorCode::EngineUnreachable};
            }
            return Error{QStringLiteral("Cannot reach %1 at %2: the connection was refused. It is not running; %3.")
                             .arg(engine, where, m_endpoint.startAdvice),
                         ErrorCode::EngineUnreachable};
        }
        return Error{QStringLiteral("Cannot reach %1 at %2: the connection was refused.").arg(engine, where),
                     ErrorCode::EngineUnreachable};
    case CURLE_COULDNT_RESOLVE_HOST:
        return Error{QStringLiteral("Cannot reach %1 at %2: the host name does not resolve.").arg(engine, where),
                     ErrorCode::EngineUnreachable};
    case CURLE_OPERATION_TIMEDOUT:
        return Error{QStringLiteral("%1 at %2 did not answer in time.").arg(capitalized(engine), where),
                     ErrorCode::EngineUnreachable};
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
        return Error{QStringLiteral("TLS with %1 at %2 failed (%3). %4")
                         .arg(engine, where, QString::fromUtf8(detail), m_endpoint.tlsAdvice),
                     ErrorCode::EngineUnreachable};
    default:
        return Error{QStringLiteral("Talking to %1 at %2 failed: %3.").arg(engine, where, QString::fromUtf8(detail)),
                     ErrorCode::EngineUnreachable};
    }
}

Result<HttpResponse> HttpClient::send(const HttpRequest &request) const
{
    CurlHandle handle;
    if (!handle.curl) {
        return Error{QStringLiteral("Could not initialise libcurl.")};
    }
    CURL *curl = handle.curl;
    applyEndpoint(curl, m_endpoint);
    const QByteArray url = (m_endpoint.baseUrl + request.path).toUtf8();
    curl_easy_setopt(curl, CURLOPT_URL, url.constData());
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.constData());

    HttpResponse response;
    TransferState state{&request, &response, false};
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &state);
    if (request.cancelled) {
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &state);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    }

    if (!request.contentType.isEmpty()) {
        handle.headers =
            curl_slist_append(handle.headers, QByteArray("Content-Type: " + request.contentType).constData());
    }
    for (const QByteArray &header : request.headers) {
        handle.headers = curl_slist_append(handle.headers, header.constData());
    }
    if (request.bodyDevice) {
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, onReadBody);
        curl_easy_setopt(curl, CURLOPT_READDATA, request.bodyDevice);
        if (!request.bodyDevice->isSequential()) {
            curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(request.bodyDevice->size()));
        }
        // CURLOPT_UPLOAD switches to PUT; CUSTOMREQUEST above restores the method.
        handle.headers = curl_slist_append(handle.headers, "Expect:");
    } else if (!request.body.isEmpty() || request.method == "POST" || request.method == "PUT") {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, handle.headers);
    if (request.timeout.count() > 0) {
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(request.timeout.count()));
    } else {
        // No overall limit, but a connection that moves nothing for 10 minutes is dead.
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 600L);
    }

    char errorBuffer[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    const CURLcode code = curl_easy_perform(curl);
    if (state.aborted) {
        return Error{QStringLiteral("The transfer was cancelled."), ErrorCode::Cancelled};
    }
    if (code != CURLE_OK) {
        qCDebug(lcHttp) << request.method << request.path << "failed:" << curl_easy_strerror(code) << errorBuffer;
        return transportError(code, errorBuffer[0] ? errorBuffer : curl_easy_strerror(code));
    }
    qCDebug(lcHttp) << request.method << request.path << response.status;
    return response;
}

Result<std::unique_ptr<RawConnection>> HttpClient::upgrade(const QByteArray &method, const QString &path) const
{
    CurlHandle handle;
    if (!handle.curl) {
        return Error{QStringLiteral("Could not initialise libcurl.")};
    }
    CURL *curl = handle.curl;
    applyEndpoint(curl, m_endpoint);
    curl_easy_setopt(curl, CURLOPT_URL, m_endpoint.baseUrl.toUtf8().constData());
    // libcurl sets up the connection (unix socket or TCP, TLS); the request on it is ours,
    // because libcurl has no API for an upgraded, bidirectional HTTP/1.1 stream.
    curl_easy_setopt(curl, CURLOPT_CONNECT_ONLY, 1L);
    char errorBuffer[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    if (const CURLcode code = curl_easy_perform(curl); code != CURLE_OK) {
        return transportError(code, errorBuffer[0] ? errorBuffer : curl_easy_strerror(code));
    }

    auto connection = std::make_unique<RawConnection>(handle.release());
    const QByteArray host =
        m_endpoint.unixSocket.isEmpty() ? QUrl(m_endpoint.baseUrl).authority().toUtf8() : QByteArray("localhost");
    const QByteArray head = method + ' ' + path.toUtf8() + " HTTP/1.1\r\nHost: " + host +
                            "\r\nContent-Type: text/plain\r\nContent-Length: 0\r\nConnection: Upgrade\r\n"
                            "Upgrade: tcp\r\n\r\n";
    if (auto written = connection->write(head); !written) {
        return written.error();
    }

    QByteArray received;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    qsizetype headerEnd = -1;
    while ((headerEnd = received.indexOf("\r\n\r\n")) < 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return Error{QStringLiteral("The container engine at %1 did not answer the attach request in time.")
                             .arg(m_endpoint.displayName),
                         ErrorCode::EngineUnreachable};
        }
        if (connection->read(received, left) != RawConnection::ReadStatus::Data && !received.contains("\r\n\r\n")) {
            return Error{
                QStringLiteral("The container engine at %1 closed the attach connection.").arg(m_endpoint.displayName),
                ErrorCode::EngineFailed};
        }
        if (received.size() > 64 * 1024) {
            return Error{QStringLiteral("The container engine sent an oversized reply to the attach request."),
                         ErrorCode::EngineFailed};
        }
    }
    const QByteArray statusLine = received.left(received.indexOf("\r\n"));
    const int status = statusLine.split(' ').value(1).toInt();
    QByteArray rest = received.mid(headerEnd + 4);
    if (status != 101 && status != 200) {
        // Error replies carry {"message": "..."}; take what has arrived.
        connection->read(rest, std::chrono::milliseconds(200));
        const QJsonObject reply = QJsonDocument::fromJson(rest.mid(rest.indexOf('{'))).object();
        const QString message = reply.value(QStringLiteral("message")).toString(QString::fromUtf8(statusLine));
        return Error{QStringLiteral("The container engine refused to attach: %1").arg(message),
                     ErrorCode::EngineFailed};
    }
    connection->unread(rest);
    return connection;
}

QString percentEncoded(const QString &value)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(value));
}

} // namespace sandbox
