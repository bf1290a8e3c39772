#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox show RUN_ID [--json]`: everything the journal holds about one run: code, output, artifacts,
/// settings, resource usage and, for MCP runs, the tool call and its reply.
int showCommand(const QStringList &arguments);

} // namespace sandbox::cli
