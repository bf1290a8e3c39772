#pragma once

#include "mcp/tools/ToolRegistry.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <optional>

namespace sandbox::mcp {

/// The headers a 2026-07-28 request over Streamable HTTP mirrors from its body (MCP-Protocol-Version, Mcp-Method,
/// Mcp-Name and the Mcp-Param-<name> of arguments a tool marks with x-mcp-header). Gateways route and enforce policy
/// on them without reading the body, so a request whose headers say something else than its body is refused
/// (HeaderMismatch, -32020, HTTP 400): otherwise a proxy could be shown one tool while the server runs another.
class RoutingHeaders final
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    /// Why the headers do not match `request` (a JSON-RPC request), or nothing when they do. Header names are
    /// compared case-insensitively, values exactly after trimming the spaces around them and decoding the
    /// "=?base64?...?=" form.
    static std::optional<QString> mismatch(const Headers &headers, const QJsonObject &request,
                                           const ToolRegistry &tools);
    /// A header value as sent: the decoded text of "=?base64?<base64>?=", otherwise the value itself; nothing when
    /// the base64 is malformed or a plain value holds characters a header must not carry.
    static std::optional<QString> decode(const QByteArray &value);

    RoutingHeaders() = delete;
};

} // namespace sandbox::mcp
