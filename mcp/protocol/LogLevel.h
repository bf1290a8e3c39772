#pragma once

#include <QString>
#include <optional>

namespace sandbox::mcp {

/// MCP log levels (RFC 5424 severities), least to most severe.
enum class LogLevel
{
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency
};

QString toString(LogLevel level);
std::optional<LogLevel> logLevelFromString(const QString &name);

} // namespace sandbox::mcp
