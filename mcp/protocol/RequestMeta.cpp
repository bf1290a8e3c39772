#include "mcp/protocol/RequestMeta.h"

#include "mcp/protocol/ProtocolVersion.h"

namespace sandbox::mcp {

bool RequestMeta::isPerRequest(const QString &method, const QJsonObject &params)
{
    return method == kDiscover || params.value(QStringLiteral("_meta")).toObject().contains(kProtocolVersion);
}

Result<RequestMeta> RequestMeta::parse(const QJsonObject &params)
{
    const QJsonValue meta = params.value(QStringLiteral("_meta"));
    if (!meta.isObject()) {
        return Error{QStringLiteral("Invalid params: the request has no \"_meta\" object; protocol revision %1 "
                                    "needs \"%2\" and \"%3\" in every request.")
                         .arg(ProtocolVersion::kStateless, kProtocolVersion, kClientCapabilities),
                     ErrorCode::BadRequest};
    }
    const QJsonObject object = meta.toObject();
    const QJsonValue version = object.value(kProtocolVersion);
    if (!version.isString() || version.toString().isEmpty()) {
        return Error{QStringLiteral("Invalid params: \"_meta\" needs \"%1\" as a string.").arg(kProtocolVersion),
                     ErrorCode::BadRequest};
    }
    const QJsonValue capabilities = object.value(kClientCapabilities);
    if (!capabilities.isObject()) {
        return Error{QStringLiteral("Invalid params: \"_meta\" needs \"%1\" as an object (empty when the client has "
                                    "no optional capabilities).")
                         .arg(kClientCapabilities),
                     ErrorCode::BadRequest};
    }
    RequestMeta parsed;
    parsed.protocolVersion = version.toString();
    parsed.clientCapabilities = capabilities.toObject();
    const QJsonObject client = object.value(kClientInfo).toObject();
    parsed.clientName = client.value(QStringLiteral("name")).toString();
    parsed.clientVersion = client.value(QStringLiteral("version")).toString();
    const QJsonValue level = object.value(kLogLevel);
    if (!level.isUndefined()) {
        parsed.logLevel = logLevelFromString(level.toString());
        if (!parsed.logLevel) {
            return Error{QStringLiteral("Invalid params: \"%1\" must be one of debug, info, notice, warning, error, "
                                        "critical, alert, emergency.")
                             .arg(kLogLevel),
                         ErrorCode::BadRequest};
        }
    }
    return parsed;
}

} // namespace sandbox::mcp
