#pragma once

#include <QLoggingCategory>

namespace sandbox::mcp {

Q_DECLARE_LOGGING_CATEGORY(lcMcp)

} // namespace sandbox::mcp
