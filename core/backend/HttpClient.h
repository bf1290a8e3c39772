#pragma once

#include "backend/HttpEndpoint.h"
#include "util/Result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

class QIODevice;

namespace sandbox {

class RawConnection;

struct HttpRequest
{
    QByteArray method = "GET";
    QString path; ///< path and query, already encoded ("/v1.41/containers/json?all=1")
    QByteArray body;
    QIODevice *bodyDevice = nullptr; ///< streamed request body (large uploads); overrides `body`
    QByteArray contentType;
    /// Further header lines ("Authorization: Bearer ...").
    QList<QByteArray> headers;
    /// Total time allowed; zero means no limit (long streams such as image builds: then a
    /// stalled connection is still detected by a low-speed limit).
    std::chrono::milliseconds timeout{std::chrono::seconds(30)};
    /// Streamed response body: called per chunk; return false to abort the transfer.
    std::function<bool(const QByteArray &)> onData;
    /// When it turns true the transfer is aborted within a second (ErrorCode::Cancelled), data flowing or not.
    const std::atomic_bool *cancelled = nullptr;
};

/// `value` percent-encoded for a request's path or query (ids, image names, label selectors).
QString percentEncoded(const QString &value);

struct HttpResponse
{
    int status = 0;
    QByteArray body;                       ///< empty when the request streamed through onData
    QHash<QByteArray, QByteArray> headers; ///< lower-case names

    bool isSuccess() const { return status >= 200 && status < 300; }
};

/// HTTP over a unix socket or TCP(+TLS) with libcurl. Stateless and thread-safe: every call
/// uses its own connection, so concurrent runs never share one.
class HttpClient final
{
public:
    explicit HttpClient(HttpEndpoint endpoint);

    const HttpEndpoint &endpoint() const { return m_endpoint; }

    Result<HttpResponse> send(const HttpRequest &request) const;

    /// Sends a request that switches the connection to a raw byte stream (Docker's attach
    /// "hijack": `Upgrade: tcp`) and returns that stream once the engine answered 101 or 200.
    Result<std::unique_ptr<RawConnection>> upgrade(const QByteArray &method, const QString &path) const;

private:
    Error transportError(int curlCode, const char *detail) const;

    HttpEndpoint m_endpoint;
};

} // namespace sandbox
