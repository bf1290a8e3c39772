#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox --mcp`: serves the Model Context Protocol over stdio (for Claude Desktop and other
/// assistants). Returns when stdin closes or on SIGTERM/SIGINT.
int mcpCommand(const QStringList &arguments);

} // namespace sandbox::cli
