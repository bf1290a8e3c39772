#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <functional>
#include <optional>

namespace sandbox::mcp {

struct HttpLimits
{
    /// Request line and headers together.
    qint64 maxHeaderBytes = 64 * 1024;
    qint64 maxBodyBytes = 64LL * 1024 * 1024;
};

/// Follows the bytes a client sends on one connection and finds where each request ends, checking the request line
/// and headers strictly before Qt's HTTP parser sees them.
///
/// Qt HttpServer 6.4 has no size limits (it buffers any body whole) and answers a request it cannot parse by
/// closing the connection without a status; this class supplies both. It only frames: the request itself is still
/// parsed by QAbstractHttpServer. Accepted: HTTP/1.1, origin-form targets, the methods Qt knows, one Host, bodies
/// with Content-Length (chunked uploads are refused with 411; MCP clients send a length).
class HttpRequestFramer final
{
public:
    struct Rejection
    {
        int status = 400;
        QByteArray message;
        /// Header lines of the answer beyond the usual ones, each ending in CRLF (WWW-Authenticate for a 401).
        QByteArray headers = {};
    };
    /// What the server may judge a request by before its body arrives.
    struct RequestHead
    {
        QByteArray target;
        QByteArray authorization; ///< the Authorization header's value, empty when absent
    };
    /// Refuses a request on its head alone, before a byte of its body is read or a 100 Continue is sent.
    using HeadCheck = std::function<std::optional<Rejection>(const RequestHead &head)>;
    struct Progress
    {
        /// Set once the stream cannot be served; the connection must be answered with it and closed.
        std::optional<Rejection> rejection;
        /// Requests whose last byte arrived in this chunk.
        int completed = 0;
        /// A request announced `Expect: 100-continue`: the client waits for an interim response before its body.
        bool continueExpected = false;
    };

    explicit HttpRequestFramer(HttpLimits limits = {}, HeadCheck check = {});

    /// Whether a comma-separated header value ("keep-alive, Upgrade") holds `token`, in any case.
    static bool hasToken(QByteArrayView commaList, QByteArrayView token);

    Progress feed(QByteArrayView bytes);
    /// Some bytes of a request have arrived, but not all of it.
    bool midRequest() const { return m_state == State::Body || !m_head.isEmpty(); }

private:
    enum class State
    {
        Head,
        Body,
        Failed,
    };
    struct Head
    {
        qint64 contentLength = 0;
        bool expectContinue = false;
        RequestHead request;
    };

    std::optional<Rejection> parseHead(QByteArrayView head, Head &parsed) const;
    static std::optional<Rejection> parseRequestLine(QByteArrayView line, Head &parsed);
    std::optional<Rejection> parseHeaders(const QList<QByteArrayView> &lines, Head &parsed) const;
    Progress fail(Progress progress, int status, const char *message);

    const HttpLimits m_limits;
    const HeadCheck m_check;
    State m_state = State::Head;
    QByteArray m_head;
    qint64 m_bodyRemaining = 0;
};

} // namespace sandbox::mcp
