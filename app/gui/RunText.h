#pragma once

#include "journal/JournalRun.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace sandbox {
struct RunResult;
}

namespace sandbox::gui {

/// How every page names a source: "Console", "Command line", "MCP", "MCP/HTTP", "Replay"; "unknown" for
/// none.
QString runSourceText(std::optional<RunSource> source);
/// How every page names where a run came from: its source and MCP client ("MCP · claude-ai", "MCP/HTTP ·
/// inspector").
QString runSourceText(std::optional<RunSource> source, const QString &clientName);
QString runSourceText(const JournalRun &run);
/// The choices of every page's source filter after "All sources", as (text, the sources it matches in
/// toString(QList<RunSource>)'s words): every source as runSourceText() names it, and before the two MCP transports
/// "Any MCP client (stdio or HTTP)", "mcp,http".
QList<std::pair<QString, QString>> runSourceChoices();
/// The name of an outcome on its own, as a chart's legend shows it: "Succeeded", "Failed", "Timed out", "Stopped",
/// "Could not run", "Interrupted", "Running".
QString runOutcomeName(RunOutcome outcome);
/// What ended a run, all its status text needs: from the journal's record (of(JournalRun)) or from a result in
/// hand (of(RunResult)), as the Console has it.
struct RunEnding
{
    RunOutcome outcome = RunOutcome::Running;
    std::optional<RunSource> source;
    std::optional<int> exitCode;
    std::optional<StopReason> stopReason;
    std::optional<ErrorCode> errorCode;
    qint64 durationMs = 0;
    qint64 timeoutMs = 0; ///< the limit that was set; 0 when not known

    static RunEnding of(const JournalRun &run);
    static RunEnding of(const RunResult &result, RunSource source, qint64 timeoutMs);
};
/// A run's status in the one vocabulary of every page (live log, history, run title, statistics, the Console): its
/// outcome with what ended it: "Succeeded", "Failed (exit 1)", "Timed out after 30 s", "Stopped by you after 3.00 s",
/// "Out of memory after 2.10 s", "Interrupted", "Engine unreachable", "Running". StateColors::forOutcome() is its
/// colour.
QString runStatusText(const RunEnding &run);
QString runStatusText(const JournalRun &run);
/// Why a run stopped, in words ("timed out"), from the journal's stop reason ("timeout").
QString stopReasonText(std::optional<StopReason> reason);
/// What a run's status leaves out, in a few words: a failed run's first error line, "output truncated"; mostly empty.
QString runOutcomeText(const JournalRun &run);
/// A duration as every page shows it: "840 ms", "2.35 s", "30.0 s", "2 min 5 s".
QString durationText(qint64 milliseconds);
/// A size as every page shows it, in binary units with one decimal: "512.0 KiB", "300.0 MiB", "1.5 GiB".
QString dataSizeText(qint64 bytes);
/// The shared folders a run could read, as its details show them: "sales (read only, 2 files, 35 B)", one per line.
QString sharedFoldersText(const QList<SharedFolderUse> &folders);
/// The libraries a run asked for, as its details show them: "numpy, pandas", and "(from the cache)" after them when
/// the library cache had them installed already (JournalRun::librariesCached); empty for none.
QString librariesText(const JournalRun &run);
/// Why the egress proxy refused a connection, or why an allowed one failed (NetworkConnection::reason, recorded in
/// English), in the user's language; a reason it does not know as it is.
QString networkReasonText(const QString &reason);
/// What a run could reach and what it made of it, as its details show it: "api.test, *.example.org:8443 · 3
/// connections, 1 refused · 2 with secret GITHUB_TOKEN" (the secrets the proxy added, by name); the hosts it asked for
/// of a summary; empty for a run without network.
QString networkText(const JournalRun &run);
/// The files saved for a run, where the sandbox saw them and where they are: "/data/out/summary.csv → /home/ada/
/// Sales/summary.csv (12 B)", one per line.
QString savedResultsText(const QList<SavedResult> &saved);
/// Plain text (a core error's English sentence, say) as HTML, its `backticked` commands set as code.
QString htmlWithCode(const QString &text);
/// A backend as people write it ("Docker"), from its short name ("docker").
QString backendText(const QString &name);
/// A language as people write it ("JavaScript (Node.js)"), from its short name ("javascript").
QString languageText(const QString &name);
/// A language's name without what it runs on ("JavaScript", not "JavaScript (Node.js)"), where room is short (a table
/// column, below a chart's box); the tooltip has the whole name.
QString shortLanguageText(const QString &name);

/// When something happened, in the locale's short date and its time with seconds ("11/5/26 3:04:05 PM",
/// "2026/11/5 15:04:05"); empty for an invalid time.
QString dateTimeText(const QDateTime &when);
/// A time of day in the locale's format, with seconds ("3:04:05 PM", "15:04:05").
QString timeText(const QTime &time);
/// A day without its year, in the locale's order ("Nov 5", "5 Nov", "11月5日").
QString dayText(const QDate &day);
/// A text a sandbox or a client chose (a run's error, which can end with a package's install output; a client's name),
/// as a tooltip: Qt renders a tooltip that looks like markup as rich text, and `<img src=/a/host/file.png>` would draw
/// a host file. The result always renders as exactly `text`.
QString plainToolTip(const QString &text);
/// The same for a desktop notification's body, which notification servers may read as markup: the characters that
/// make markup are replaced with ones that look alike and mean nothing ("‹b›" for "<b>").
QString plainNotificationText(const QString &text);
/// Sentences joined as the language writes them: a space after "." or "?", none after a CJK "。" or "？".
QString joinSentences(const QStringList &sentences);

} // namespace sandbox::gui
