#include "mcp/protocol/JsonRpc.h"

namespace sandbox::mcp::jsonrpc {

namespace {

const QString kVersion = QStringLiteral("2.0");

} // namespace

QJsonObject makeResult(const QJsonValue &id, const QJsonObject &result)
{
    return QJsonObject{
        {QStringLiteral("jsonrpc"), kVersion}, {QStringLiteral("id"), id}, {QStringLiteral("result"), result}};
}

QJsonObject makeError(const QJsonValue &id, int code, const QString &message, const QJsonValue &data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    // No "data": null: the member is optional, and a null says nothing.
    if (!data.isUndefined() && !data.isNull()) {
        error.insert(QStringLiteral("data"), data);
    }
    return QJsonObject{{QStringLiteral("jsonrpc"), kVersion},
                       {QStringLiteral("id"), id.isUndefined() ? QJsonValue(QJsonValue::Null) : id},
                       {QStringLiteral("error"), error}};
}

QJsonObject makeNotification(const QString &method, const QJsonObject &params)
{
    return QJsonObject{
        {QStringLiteral("jsonrpc"), kVersion}, {QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
}

QString idKey(const QJsonValue &id)
{
    if (id.isString()) {
        return QStringLiteral("s:") + id.toString();
    }
    if (id.isDouble()) {
        // Integers keep every digit (an id beyond 2^53 must not collide with its neighbours).
        const qint64 integer = id.toInteger();
        return QStringLiteral("n:") +
               (QJsonValue(integer) == id ? QString::number(integer) : QString::number(id.toDouble(), 'g', 17));
    }
    return {};
}

} // namespace sandbox::mcp::jsonrpc
