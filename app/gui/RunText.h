#pragma once

#include "journal/JournalRun.h"

#include <QString>

namespace sandbox::gui {

/// How every page names a source: "Console", "Command line", "MCP", "HTTP", "Replay"; "unknown" for none.
QString runSourceText(std::optional<RunSource> source);
/// How every page names where a run came from: its source and MCP client ("MCP · claude-ai").
QString runSourceText(const JournalRun &run);
/// A run's status as every page shows it ("Running", "Finished", "Failed", "Interrupted").
QString runStatusText(RunStatus status);
/// Why a run stopped, in words ("timed out"), from the journal's stop reason ("timeout").
QString stopReasonText(std::optional<StopReason> reason);
/// How a run ended in a few words ("exit 3, timed out"; a failed run's first error line); empty while it runs.
QString runOutcomeText(const JournalRun &run);
/// A duration as every page shows it: "840 ms", "2.35 s", "30.0 s", "2 min 5 s".
QString durationText(qint64 milliseconds);
/// A backend as people write it ("Docker"), from its short name ("docker").
QString backendText(const QString &name);
/// A language as people write it ("JavaScript (Node.js)"), from its short name ("javascript").
QString languageText(const QString &name);

} // namespace sandbox::gui
