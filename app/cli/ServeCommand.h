#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox serve --http HOST:PORT`: the MCP server over Streamable HTTP, with a bearer token from
/// LLM_SANDBOX_HTTP_TOKEN or the system keychain (created there on first use). `serve --show-token` prints it.
/// Runs until SIGINT/SIGTERM; running calls are then cancelled and their containers removed.
int serveCommand(const QStringList &arguments);

} // namespace sandbox::cli
