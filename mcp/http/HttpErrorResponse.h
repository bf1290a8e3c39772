#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox::mcp {

/// What the server answers when it refuses a request at the HTTP level: the status and a JSON-RPC error without an
/// id as the body (the MCP transport allows it, and clients show its message).
class HttpErrorResponse final
{
public:
    /// The JSON-RPC error code MCP SDKs use for transport-level failures.
    static constexpr int kTransportError = -32000;

    static QByteArray reasonPhrase(int status);
    static QByteArray body(const QString &message, int code = kTransportError);
    /// A whole response that also closes the connection, for answering before Qt's HTTP server sees a request.
    /// `headers`: further header lines, each ending in CRLF.
    static QByteArray closingResponse(int status, const QString &message, const QByteArray &headers = {});

    HttpErrorResponse() = delete;
};

} // namespace sandbox::mcp
