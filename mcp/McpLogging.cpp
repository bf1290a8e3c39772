#include "mcp/McpLogging.h"

namespace sandbox::mcp {

// Debug messages (one per request) only when asked for: QT_LOGGING_RULES="sandbox.mcp.debug=true".
Q_LOGGING_CATEGORY(lcMcp, "sandbox.mcp", QtInfoMsg)

} // namespace sandbox::mcp
