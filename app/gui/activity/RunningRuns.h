#pragma once

#include "journal/JournalRun.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

namespace sandbox {
class JournalFeed;
}

namespace sandbox::gui {

/// The runs in progress now, from the journal: every process's (the Console, the command line, an assistant's
/// `llm-sandbox --mcp`, the app's own MCP server), and the runs that end while it watches.
class RunningRuns final : public QObject
{
    Q_OBJECT

public:
    /// Reads the runs in progress on the feed's thread, then follows its changes. `feed` must outlive this.
    explicit RunningRuns(JournalFeed &feed, QObject *parent = nullptr);

    /// Newest first.
    QList<JournalRun> runs() const;
    int count() const { return int(m_running.size()); }

    /// Asks the runs `runIds` to stop, whichever process runs them (RunJournal::requestStop, off this thread): each
    /// then ends as "Stopped by you after N s", in the journal and in what its assistant is answered. stopFailed()
    /// says when the journal could not take the request.
    void requestStop(const QStringList &runIds);

    /// What the status bar says: "No runs in progress", "2 running: 1 Console, 1 MCP · claude-ai".
    static QString summary(const QList<JournalRun> &runs);
    /// One line per run (language, where from, since when), for a tooltip.
    static QString details(const QList<JournalRun> &runs);

signals:
    void changed();
    /// A run ended (finished, failed, interrupted) while this watched; once per run.
    void runEnded(const sandbox::JournalRun &run);
    /// requestStop() could not be written to the journal: why.
    void stopFailed(const QString &message);

private:
    void apply(const QList<JournalRun> &runs, bool initial);

    const QString m_journalPath; ///< empty when the journal is off
    QHash<QString, JournalRun> m_running;
    QSet<QString> m_ended;       ///< runs reported as ended, not to be counted or reported again
    QList<QString> m_endedOrder; ///< oldest first, to keep m_ended small
};

} // namespace sandbox::gui
