#pragma once

#include "journal/JournalReader.h"
#include "journal/JournalRun.h"

#include <QList>
#include <QObject>
#include <QTimer>
#include <chrono>

namespace sandbox {

/// Tells which journal runs changed, whichever process wrote them. Lives on the thread that made it (the GUI's);
/// each tick costs one PRAGMA data_version, and only when that moved does it ask for the runs after the last
/// sequence number it reported.
class JournalWatcher final : public QObject
{
    Q_OBJECT
public:
    explicit JournalWatcher(const QString &databasePath, QObject *parent = nullptr);

    /// Polls every `interval` from now on (checking once at once).
    void start(std::chrono::milliseconds interval = std::chrono::milliseconds(200));
    void stop();
    qint64 lastSeq() const { return m_lastSeq; }
    /// E.g. latestSeq() at start, to see only what changes afterwards.
    void setLastSeq(qint64 seq) { m_lastSeq = seq; }
    /// Checks now instead of at the next tick.
    void poll();

signals:
    /// Summaries, seq ascending; written by ANY process.
    void runsChanged(const QList<sandbox::JournalRun> &runs);

private:
    JournalReader m_reader;
    QTimer m_timer;
    qint64 m_lastSeq = 0;
    qint64 m_dataVersion = -1;
};

} // namespace sandbox
