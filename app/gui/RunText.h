#pragma once

#include "journal/JournalRun.h"

#include <QString>

namespace sandbox::gui {

/// How every page names where a run came from: "MCP · claude-ai", "Command line", "Console", ...
QString runSourceText(const JournalRun &run);
/// A run's status as every page shows it ("Running", "Finished", "Failed", "Interrupted").
QString runStatusText(RunStatus status);
/// A language as people write it ("JavaScript (Node.js)"), from its short name ("javascript").
QString languageText(const QString &name);

} // namespace sandbox::gui
