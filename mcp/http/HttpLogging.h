#pragma once

#include <QLoggingCategory>

namespace sandbox::mcp {

Q_DECLARE_LOGGING_CATEGORY(lcMcpHttp)

} // namespace sandbox::mcp
