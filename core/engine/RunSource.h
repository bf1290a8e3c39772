#pragma once

#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// Where a run came from: the desktop app's console, the command line, an MCP client over stdio or over HTTP, or a
/// replay of another run. The journal keeps toString()'s name; each face shows its own text for it.
enum class RunSource
{
    Gui,
    Cli,
    Mcp,
    Http,
    Replay
};

/// Every source, in the order the app offers them.
inline constexpr RunSource kRunSources[] = {RunSource::Gui, RunSource::Cli, RunSource::Mcp, RunSource::Http,
                                            RunSource::Replay};

/// "gui", "cli", "mcp", "http", "replay" (RunRequest::source, the journal's `source` column).
QString toString(RunSource source);
std::optional<RunSource> runSourceFromString(const QString &text);
/// Several sources as one string, "mcp,http"; and back (empty when a name is unknown).
QString toString(const QList<RunSource> &sources);
QList<RunSource> runSourcesFromString(const QString &text);

} // namespace sandbox
