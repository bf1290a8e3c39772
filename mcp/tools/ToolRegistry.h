#pragma once

#include "mcp/tools/Tool.h"

#include <QJsonArray>
#include <QList>

namespace sandbox::mcp {

/// The tools a server offers, in the order tools/list shows them.
class ToolRegistry final
{
public:
    ToolRegistry() = default;
    explicit ToolRegistry(QList<Tool> tools);

    void add(Tool tool);
    const Tool *find(const QString &name) const;
    const QList<Tool> &tools() const { return m_tools; }

    /// The `tools` array of a tools/list result, shaped for the given protocol revision; `uiClient`: the client
    /// renders MCP Apps (each tool's uiMeta is its `_meta`).
    QJsonArray toJson(const QString &protocolVersion, bool uiClient = false) const;

private:
    QList<Tool> m_tools;
};

} // namespace sandbox::mcp
