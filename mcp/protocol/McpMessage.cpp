#include "mcp/protocol/McpMessage.h"

#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/RequestMeta.h"

namespace sandbox::mcp {

namespace {

bool isValidId(const QJsonValue &id)
{
    return id.isString() || id.isDouble();
}

} // namespace

McpMessage McpMessage::invalid(QJsonObject object, QJsonValue id, int code, QString text)
{
    McpMessage message;
    message.m_kind = Kind::Invalid;
    message.m_object = std::move(object);
    message.m_id = isValidId(id) ? std::move(id) : QJsonValue(QJsonValue::Null);
    message.m_method = message.m_object.value(QStringLiteral("method")).toString();
    message.m_params = message.m_object.value(QStringLiteral("params")).toObject();
    message.m_errorCode = code;
    message.m_errorText = std::move(text);
    return message;
}

McpMessage McpMessage::parse(const QJsonValue &value)
{
    using namespace jsonrpc;
    if (!value.isObject()) {
        return invalid({}, {}, InvalidRequest, QStringLiteral("A JSON-RPC message must be an object."));
    }
    const QJsonObject object = value.toObject();
    const bool hasId = object.contains(QStringLiteral("id"));
    const QJsonValue id = object.value(QStringLiteral("id"));
    if (object.value(QStringLiteral("jsonrpc")) != QLatin1String("2.0")) {
        return invalid(object, id, InvalidRequest, QStringLiteral("The \"jsonrpc\" member must be \"2.0\"."));
    }
    McpMessage message;
    message.m_object = object;
    if (!object.contains(QStringLiteral("method"))) {
        if (hasId && (object.contains(QStringLiteral("result")) || object.contains(QStringLiteral("error")))) {
            message.m_kind = Kind::Ignored;
            message.m_id = id;
            return message;
        }
        return invalid(object, id, InvalidRequest, QStringLiteral("The message has no \"method\"."));
    }
    const QJsonValue method = object.value(QStringLiteral("method"));
    if (!method.isString()) {
        return invalid(object, id, InvalidRequest, QStringLiteral("The \"method\" member must be a string."));
    }
    if (hasId && !isValidId(id)) {
        return invalid(object, {}, InvalidRequest, QStringLiteral("A request id must be a string or a number."));
    }
    const QJsonValue params = object.value(QStringLiteral("params"));
    if (!params.isUndefined() && !params.isObject()) {
        if (!hasId) {
            message.m_kind = Kind::Ignored;
            return message;
        }
        return invalid(object, id, InvalidParams, QStringLiteral("The \"params\" member must be an object."));
    }
    message.m_kind = hasId ? Kind::Request : Kind::Notification;
    message.m_id = hasId ? id : QJsonValue(QJsonValue::Null);
    message.m_method = method.toString();
    message.m_params = params.toObject();
    return message;
}

QJsonValue McpMessage::progressToken() const
{
    const QJsonValue token = m_params.value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    return token.isString() || token.isDouble() ? token : QJsonValue(QJsonValue::Undefined);
}

bool McpMessage::awaitsAnswer() const
{
    return m_object.value(QStringLiteral("method")).isString() && m_object.contains(QStringLiteral("id"));
}

bool McpMessage::isPerRequest() const
{
    return awaitsAnswer() && RequestMeta::isPerRequest(m_method, m_params);
}

} // namespace sandbox::mcp
