#pragma once

#include "mcp/protocol/LogLevel.h"
#include "util/Result.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace sandbox::mcp {

/// What a 2026-07-28 request says about itself in `params._meta`: the revision it speaks and the client's
/// capabilities (both required), who the client is and the log level it wants (both optional). That revision has
/// no handshake, so this is all the server knows about the client while it serves the request.
struct RequestMeta
{
    static inline const QString kProtocolVersion = QStringLiteral("io.modelcontextprotocol/protocolVersion");
    static inline const QString kClientCapabilities = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
    static inline const QString kClientInfo = QStringLiteral("io.modelcontextprotocol/clientInfo");
    static inline const QString kLogLevel = QStringLiteral("io.modelcontextprotocol/logLevel");
    static inline const QString kServerInfo = QStringLiteral("io.modelcontextprotocol/serverInfo");
    static inline const QString kDiscover = QStringLiteral("server/discover");

    QString protocolVersion;
    QJsonObject clientCapabilities;
    QString clientName;
    QString clientVersion;
    /// Absent: the client wants no notifications/message for this request.
    std::optional<LogLevel> logLevel;

    /// True when a request takes the 2026-07-28 path: it names a protocol version in its `_meta`, or it is
    /// server/discover (which only that revision has). Everything else is served as the session agreed.
    static bool isPerRequest(const QString &method, const QJsonObject &params);
    /// Reads `params._meta`; a BadRequest error (JSON-RPC -32602) when a required field is missing or malformed.
    static Result<RequestMeta> parse(const QJsonObject &params);
};

} // namespace sandbox::mcp
