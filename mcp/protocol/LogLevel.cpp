#include "mcp/protocol/LogLevel.h"

#include <array>

namespace sandbox::mcp {

namespace {

constexpr std::array<const char *, 8> kNames = {"debug", "info",     "notice", "warning",
                                                "error", "critical", "alert",  "emergency"};

} // namespace

QString toString(LogLevel level)
{
    return QString::fromLatin1(kNames.at(static_cast<std::size_t>(level)));
}

std::optional<LogLevel> logLevelFromString(const QString &name)
{
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (name == QLatin1String(kNames[i])) {
            return static_cast<LogLevel>(i);
        }
    }
    return std::nullopt;
}

} // namespace sandbox::mcp
