#pragma once

#include "mcp/http/HttpRequestFramer.h"
#include "mcp/http/OriginPolicy.h"
#include "mcp/http/SseStream.h"

#include <QByteArray>
#include <QString>
#include <optional>

class QHttpServerRequest;

namespace sandbox::mcp {

/// What every request must pass before it is served, as one verdict: a Host that names this machine (when bound to
/// loopback) and no foreign Origin (a web page the user visits must not reach the server: DNS rebinding), the one
/// endpoint, the server's token, and for GET and DELETE a protocol version that has them. A POST's version is
/// judged with its body (the 2026-07-28 path answers an unsupported one itself). Lives on the server's thread.
class RequestGate final
{
public:
    struct Refusal
    {
        int status;
        QString message;
        SseStream::Headers headers = {};
    };

    RequestGate(OriginPolicy originPolicy, QByteArray token);

    /// From now on requests must present `token`.
    void setToken(QByteArray token) { m_token = std::move(token); }
    /// Why `request` is refused; nothing when it may be served.
    std::optional<Refusal> check(const QHttpServerRequest &request) const;
    /// For a POST that goes to a session (not a 2026-07-28 request): why its MCP-Protocol-Version is refused.
    static std::optional<Refusal> checkSessionVersion(const QString &version);
    /// The path and token checks on a request's head alone, before its body is read or a 100 Continue is sent.
    std::optional<HttpRequestFramer::Rejection> checkHead(const HttpRequestFramer::RequestHead &head) const;

private:
    bool hasToken(const QByteArray &authorization) const;

    const OriginPolicy m_originPolicy;
    QByteArray m_token;
};

} // namespace sandbox::mcp
