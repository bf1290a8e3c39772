#include "mcp/protocol/Reply.h"

#include "mcp/protocol/JsonRpc.h"

namespace sandbox::mcp {

Reply::Reply(QJsonValue id, Notify notify) : m_id(std::move(id)), m_notify(std::move(notify)) {}

QJsonObject Reply::result(const QJsonObject &result) const
{
    return jsonrpc::makeResult(m_id, result);
}

QJsonObject Reply::error(int code, const QString &message, const QJsonValue &data) const
{
    return jsonrpc::makeError(m_id, code, message, data);
}

void Reply::notify(const QJsonObject &message) const
{
    if (m_notify) {
        m_notify(message);
    }
}

} // namespace sandbox::mcp
