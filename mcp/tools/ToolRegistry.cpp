#include "mcp/tools/ToolRegistry.h"

#include "mcp/protocol/ProtocolVersion.h"

namespace sandbox::mcp {

ToolRegistry::ToolRegistry(QList<Tool> tools) : m_tools(std::move(tools)) {}

void ToolRegistry::add(Tool tool)
{
    m_tools.append(std::move(tool));
}

const Tool *ToolRegistry::find(const QString &name) const
{
    for (const Tool &tool : m_tools) {
        if (tool.name == name) {
            return &tool;
        }
    }
    return nullptr;
}

QJsonArray ToolRegistry::toJson(const QString &protocolVersion, bool uiClient) const
{
    const bool structured = protocolVersion >= ProtocolVersion::kStructuredContent;
    const bool annotations = protocolVersion >= ProtocolVersion::kToolAnnotations;
    const bool headers = protocolVersion >= ProtocolVersion::kStateless;
    // 2026-07-28 moved tasks into an extension this server does not offer.
    const bool tasks = protocolVersion >= ProtocolVersion::kTasks && protocolVersion < ProtocolVersion::kStateless;
    QJsonArray out;
    for (const Tool &tool : m_tools) {
        QJsonObject inputSchema = tool.inputSchema;
        if (headers && !tool.headerArguments.isEmpty()) {
            QJsonObject properties = inputSchema.value(QStringLiteral("properties")).toObject();
            for (const auto &[argument, header] : tool.headerArguments) {
                QJsonObject property = properties.value(argument).toObject();
                property.insert(QStringLiteral("x-mcp-header"), header);
                properties.insert(argument, property);
            }
            inputSchema.insert(QStringLiteral("properties"), properties);
        }
        QJsonObject json{{QStringLiteral("name"), tool.name},
                         {QStringLiteral("description"), tool.description},
                         {QStringLiteral("inputSchema"), inputSchema}};
        // Each revision gets only the members its schema has (title came with 2025-06-18, annotations with
        // 2025-03-26).
        if (structured && !tool.title.isEmpty()) {
            json.insert(QStringLiteral("title"), tool.title);
        }
        if (annotations && !tool.annotations.isEmpty()) {
            json.insert(QStringLiteral("annotations"), tool.annotations);
        }
        // A client told about an outputSchema expects structuredContent, which older revisions do not have.
        if (structured && !tool.outputSchema.isEmpty()) {
            json.insert(QStringLiteral("outputSchema"), tool.outputSchema);
        }
        if (uiClient && !tool.uiMeta.isEmpty()) {
            json.insert(QStringLiteral("_meta"), tool.uiMeta);
        }
        if (tasks && tool.longRunning) {
            json.insert(QStringLiteral("execution"),
                        QJsonObject{{QStringLiteral("taskSupport"), QStringLiteral("optional")}});
        }
        out.append(json);
    }
    return out;
}

} // namespace sandbox::mcp
