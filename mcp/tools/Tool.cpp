#include "mcp/tools/Tool.h"

#include "mcp/protocol/ProtocolVersion.h"

#include <QJsonArray>

namespace sandbox::mcp {

bool ToolCall::supportsStructuredContent() const
{
    return protocolVersion >= ProtocolVersion::kStructuredContent;
}

QJsonObject textToolResult(const QString &text)
{
    const QJsonObject item{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
    return QJsonObject{{QStringLiteral("content"), QJsonArray{item}}, {QStringLiteral("isError"), false}};
}

QJsonObject errorToolResult(const QString &message)
{
    QJsonObject result = textToolResult(message);
    result.insert(QStringLiteral("isError"), true);
    return result;
}

} // namespace sandbox::mcp
