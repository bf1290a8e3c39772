#pragma once

#include "util/Result.h"

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox serve --http HOST:PORT`: the MCP server over Streamable HTTP, with a bearer token from
/// LLM_SANDBOX_HTTP_TOKEN or the system keychain (created there on first use). `serve --show-token` prints it.
/// Runs until SIGINT/SIGTERM; running calls are then cancelled and their containers removed.
int serveCommand(const QStringList &arguments);

/// What to tell a person when the HTTP token cannot be kept in (or read from) the system keychain: the error, and
/// how to give the token through LLM_SANDBOX_HTTP_TOKEN instead.
QString httpTokenAdvice(const Error &error);

} // namespace sandbox::cli
