#include "gui/activity/RunningRuns.h"

#include "gui/RunText.h"
#include "journal/JournalFeed.h"
#include "journal/RunJournal.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace sandbox::gui {

namespace {
/// Enough to recognise a run's later changes (its MCP exchange written after its end) as no new end.
constexpr int kEndedRemembered = 1000;
constexpr int kDetailLines = 12;
} // namespace

RunningRuns::RunningRuns(JournalFeed &feed, QObject *parent) : QObject(parent), m_journalPath(feed.databasePath())
{
    if (feed.isOff()) {
        return;
    }
    connect(&feed, &JournalFeed::runsChanged, this, [this](const QList<JournalRun> &runs) { apply(runs, false); });
    feed.read<QList<JournalRun>>(
        this,
        [](const JournalReader &reader) {
            RunFilter filter;
            filter.status = RunStatus::Running;
            auto runs = reader.list(filter, 0, 500);
            return runs ? *runs : QList<JournalRun>();
        },
        [this](const QList<JournalRun> &runs) { apply(runs, true); });
}

QList<JournalRun> RunningRuns::runs() const
{
    QList<JournalRun> runs = m_running.values();
    std::sort(runs.begin(), runs.end(),
              [](const JournalRun &a, const JournalRun &b) { return a.startedAt > b.startedAt; });
    return runs;
}

void RunningRuns::apply(const QList<JournalRun> &runs, bool initial)
{
    bool changedAny = false;
    for (const JournalRun &run : runs) {
        if (m_ended.contains(run.id)) {
            continue; // a later change of a run that ended, or the first read behind the changes
        }
        if (run.status == RunStatus::Running) {
            changedAny |= !m_running.contains(run.id);
            m_running.insert(run.id, run);
            continue;
        }
        if (initial) {
            continue;
        }
        changedAny |= m_running.remove(run.id) > 0;
        m_ended.insert(run.id);
        m_endedOrder.append(run.id);
        if (m_endedOrder.size() > kEndedRemembered) {
            m_ended.remove(m_endedOrder.takeFirst());
        }
        emit runEnded(run);
    }
    if (changedAny) {
        emit changed();
    }
}

void RunningRuns::requestStop(const QStringList &runIds)
{
    if (runIds.isEmpty() || m_journalPath.isEmpty()) {
        return;
    }
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (const QString problem = watcher->result(); !problem.isEmpty()) {
            emit stopFailed(problem);
        }
    });
    // A write that may wait for another process's transaction: never on the GUI thread.
    watcher->setFuture(QtConcurrent::run([path = m_journalPath, runIds] {
        auto journal = RunJournal::open(path);
        auto asked = journal ? (*journal)->requestStop(runIds) : Result<int>(journal.error());
        return asked ? QString() : asked.error().message;
    }));
}

QString RunningRuns::summary(const QList<JournalRun> &runs)
{
    if (runs.isEmpty()) {
        return tr("No runs in progress");
    }
    // Grouped by where they come from, the biggest group first.
    QList<std::pair<QString, int>> groups;
    for (const JournalRun &run : runs) {
        const QString source = runSourceText(run);
        const auto group = std::find_if(groups.begin(), groups.end(),
                                        [&source](const std::pair<QString, int> &g) { return g.first == source; });
        if (group == groups.end()) {
            groups.append({source, 1});
        } else {
            ++group->second;
        }
    }
    std::stable_sort(
        groups.begin(), groups.end(),
        [](const std::pair<QString, int> &a, const std::pair<QString, int> &b) { return a.second > b.second; });
    QStringList parts;
    for (const auto &[source, count] : groups) {
        parts << tr("%1 %2", "a number of runs and where they come from: 1 Console").arg(count).arg(source);
    }
    return tr("%n running: %1", nullptr, int(runs.size())).arg(parts.join(tr(", ", "between the groups of runs")));
}

QString RunningRuns::details(const QList<JournalRun> &runs)
{
    QStringList lines;
    for (const JournalRun &run : runs.mid(0, kDetailLines)) {
        lines << tr("%1 · %2 · since %3")
                     .arg(languageText(run.language), runSourceText(run),
                          run.startedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
    }
    if (runs.size() > kDetailLines) {
        lines << tr("and %n more", nullptr, int(runs.size() - kDetailLines));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace sandbox::gui
