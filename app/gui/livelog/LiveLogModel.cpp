#include "gui/livelog/LiveLogModel.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"

#include <QColor>
#include <QGuiApplication>
#include <QIcon>
#include <QPainter>
#include <algorithm>

namespace sandbox::gui {

namespace {

bool newerFirst(const JournalRun &a, const JournalRun &b)
{
    return a.startedAt != b.startedAt ? a.startedAt > b.startedAt : a.id > b.id;
}

QIcon statusDot(const QColor &color)
{
    // A coloured dot reads at a glance in both themes; the text beside it says the same for screen readers.
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    return QIcon(pixmap);
}

} // namespace

void LiveLogModel::merge(const QList<JournalRun> &changed)
{
    QList<JournalRun> added;
    for (const JournalRun &run : changed) {
        const int row = rowOf(run.id);
        if (row >= 0) {
            updateRun(row, run);
        } else {
            added.append(run);
        }
    }
    if (added.isEmpty()) {
        return;
    }
    std::sort(added.begin(), added.end(), newerFirst);
    // New runs nearly always start after every run shown: one insertion at the top. Otherwise each goes to its
    // place by start time.
    for (const JournalRun &run : std::as_const(added)) {
        const auto position = std::lower_bound(runs().begin(), runs().end(), run, newerFirst);
        insertRuns(int(position - runs().begin()), {run});
    }
    removeRunsFrom(m_maximumRows);
}

QVariant LiveLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const JournalRun &run = runAt(index.row());
    if (role == Qt::DecorationRole && index.column() == Status) {
        return statusDot(StateColors::of(QGuiApplication::palette()).forOutcome(run.outcome()));
    }
    // Today's runs by their time alone: the log is about now; the tooltip has the whole date.
    if (role == Qt::DisplayRole && index.column() == Started && run.startedAt.date() == QDate::currentDate()) {
        return timeText(run.startedAt.toLocalTime().time());
    }
    return RunTableModel::data(index, role);
}

} // namespace sandbox::gui
