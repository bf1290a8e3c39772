#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox install-mcp [--client NAME] [--transport stdio|http] [--backend NAME] [--url URL] [--dry-run]`:
/// adds (or updates) the llm-sandbox entry in an assistant's per-user MCP configuration file, keeping every other
/// byte of it. Exit status 0 when the file has the entry (also when it had it already), 1 when the file was refused
/// or could not be written (it is then left as it was), 2 for a usage error.
int installMcpCommand(const QStringList &arguments);

/// `llm-sandbox uninstall-mcp [--client NAME] [--dry-run]`: removes that entry, and only it. Exit status as
/// install-mcp's; 0 also when there was no entry.
int uninstallMcpCommand(const QStringList &arguments);

} // namespace sandbox::cli
