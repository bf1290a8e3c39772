#include "mcp/http/HttpLogging.h"

namespace sandbox::mcp {

// One line per rejected request and per session at info; QT_LOGGING_RULES="sandbox.mcp.http.debug=true" adds one
// per request.
Q_LOGGING_CATEGORY(lcMcpHttp, "sandbox.mcp.http", QtInfoMsg)

} // namespace sandbox::mcp
