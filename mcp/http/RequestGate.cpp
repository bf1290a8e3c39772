#include "mcp/http/RequestGate.h"

#include "mcp/http/BearerToken.h"
#include "mcp/http/HttpExchange.h"
#include "mcp/http/HttpLogging.h"
#include "mcp/http/StreamableHttpServer.h"
#include "mcp/protocol/ProtocolVersion.h"

#include <QHttpServerRequest>

namespace sandbox::mcp {

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

} // namespace

RequestGate::RequestGate(OriginPolicy originPolicy, QByteArray token)
    : m_originPolicy(std::move(originPolicy)), m_token(std::move(token))
{}

bool RequestGate::hasToken(const QByteArray &authorization) const
{
    return BearerToken::matches(BearerToken::fromAuthorizationHeader(authorization), m_token);
}

std::optional<RequestGate::Refusal> RequestGate::check(const QHttpServerRequest &request) const
{
    if (!m_originPolicy.allowsHost(request.value("host"))) {
        return Refusal{403, QStringLiteral("Forbidden: the Host header must name this machine by a loopback name or "
                                           "address.")};
    }
    const std::optional<QByteArray> origin = findHeader(request, "origin");
    if (origin && !m_originPolicy.allowsOrigin(*origin)) {
        return Refusal{403, QStringLiteral("Forbidden: requests from web pages of other origins are refused.")};
    }
    if (request.url().path() != StreamableHttpServer::kEndpoint) {
        return Refusal{404, notFound()};
    }
    if (!hasToken(request.value("authorization"))) {
        qCInfo(lcMcpHttp) << "refused a request without a valid token";
        return Refusal{
            401, kUnauthorized, {{"WWW-Authenticate", authenticateChallenge(request.value("authorization"))}}};
    }
    if (request.method() == QHttpServerRequest::Method::Post) {
        return std::nullopt;
    }
    const QString version = QString::fromLatin1(request.value("mcp-protocol-version").trimmed());
    if (ProtocolVersion::perRequest().contains(version)) {
        // 2026-07-28 has neither the GET stream nor sessions to DELETE.
        return Refusal{405,
                       QStringLiteral("Method Not Allowed: protocol revision %1 has only POST (no GET stream, no "
                                      "sessions to end).")
                           .arg(version),
                       {{"Allow", "POST"}}};
    }
    if (!version.isEmpty() && !ProtocolVersion::supported().contains(version)) {
        return Refusal{400, QStringLiteral("Bad Request: unsupported MCP-Protocol-Version %1; supported: %2.")
                                .arg(version, ProtocolVersion::supported().join(QStringLiteral(", ")))};
    }
    return std::nullopt;
}

std::optional<RequestGate::Refusal> RequestGate::checkSessionVersion(const QString &version)
{
    if (ProtocolVersion::perRequest().contains(version)) {
        return Refusal{400, QStringLiteral("Bad Request: protocol revision %1 takes one request per POST and no "
                                           "notifications or batches over HTTP (closing a response cancels its "
                                           "request).")
                                .arg(version)};
    }
    if (!version.isEmpty() && !ProtocolVersion::supported().contains(version)) {
        return Refusal{
            400, QStringLiteral("Bad Request: unsupported MCP-Protocol-Version %1; supported: %2.")
                     .arg(version.left(64),
                          (ProtocolVersion::supported() + ProtocolVersion::perRequest()).join(QStringLiteral(", ")))};
    }
    return std::nullopt;
}

std::optional<HttpRequestFramer::Rejection> RequestGate::checkHead(const HttpRequestFramer::RequestHead &head) const
{
    if (head.target.split('?').first() != StreamableHttpServer::kEndpoint.toLatin1()) {
        return HttpRequestFramer::Rejection{404, notFound().toUtf8()};
    }
    if (!hasToken(head.authorization)) {
        qCInfo(lcMcpHttp) << "refused a request without a valid token before its body";
        return HttpRequestFramer::Rejection{401, kUnauthorized.toUtf8(),
                                            "WWW-Authenticate: " + authenticateChallenge(head.authorization) + "\r\n"};
    }
    return std::nullopt;
}

} // namespace sandbox::mcp
