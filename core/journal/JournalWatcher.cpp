#include "journal/JournalWatcher.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcJournal)

namespace sandbox {

JournalWatcher::JournalWatcher(const QString &databasePath, QObject *parent) : QObject(parent), m_reader(databasePath)
{
    qRegisterMetaType<QList<sandbox::JournalRun>>();
    connect(&m_timer, &QTimer::timeout, this, &JournalWatcher::poll);
}

void JournalWatcher::start(std::chrono::milliseconds interval)
{
    m_timer.start(interval);
    poll();
}

void JournalWatcher::stop()
{
    m_timer.stop();
}

void JournalWatcher::poll()
{
    auto version = m_reader.dataVersion();
    if (!version) {
        qCDebug(lcJournal).noquote() << version.error().message;
        return;
    }
    // data_version stays put while no other connection commits: then there is nothing to read. It reads 0 while
    // the journal file does not exist yet, so a new file is looked at on every tick until it has a version.
    if (*version == m_dataVersion && *version != 0) {
        return;
    }
    m_dataVersion = *version;
    QList<JournalRun> changed;
    for (;;) {
        auto runs = m_reader.changedSince(m_lastSeq);
        if (!runs) {
            qCDebug(lcJournal).noquote() << runs.error().message;
            break;
        }
        if (runs->isEmpty()) {
            break;
        }
        m_lastSeq = runs->last().seq;
        changed.append(*runs);
    }
    if (!changed.isEmpty()) {
        emit runsChanged(changed);
    }
}

} // namespace sandbox
