#include "gui/livelog/LiveLogModel.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"

#include <QApplication>
#include <QColor>
#include <QGuiApplication>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPalette>
#include <QStyle>
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

LiveLogModel::LiveLogModel(QObject *parent) : QAbstractTableModel(parent) {}

int LiveLogModel::rowOf(const QString &runId) const
{
    for (int row = 0; row < m_runs.size(); ++row) {
        if (m_runs.at(row).id == runId) {
            return row;
        }
    }
    return -1;
}

void LiveLogModel::merge(const QList<JournalRun> &runs)
{
    QList<JournalRun> added;
    for (const JournalRun &run : runs) {
        const int row = rowOf(run.id);
        if (row >= 0) {
            m_runs[row] = run;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
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
        const auto position = std::lower_bound(m_runs.begin(), m_runs.end(), run, newerFirst);
        const int row = int(position - m_runs.begin());
        beginInsertRows({}, row, row);
        m_runs.insert(row, run);
        endInsertRows();
    }
    if (m_runs.size() > m_maximumRows) {
        beginRemoveRows({}, m_maximumRows, int(m_runs.size()) - 1);
        m_runs.resize(m_maximumRows);
        endRemoveRows();
    }
}

void LiveLogModel::clear()
{
    beginResetModel();
    m_runs.clear();
    endResetModel();
}

int LiveLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int LiveLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const JournalRun &run = m_runs.at(index.row());
    switch (role) {
    case RunIdRole:
        return run.id;
    case SourceRole:
        return run.source ? int(*run.source) : -1;
    case SearchRole:
        return QStringList{run.id,     run.language, runSourceText(run), runStatusText(run), runOutcomeText(run),
                           run.backend}
            .join(QLatin1Char('\n'));
    case SortRole:
        switch (index.column()) {
        case Started:
            return run.startedAt;
        case Duration:
            return run.durationMs;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case Started:
            return run.startedAt.date() == QDate::currentDate() ? timeText(run.startedAt.toLocalTime().time())
                                                                : dateTimeText(run.startedAt);
        case Source:
            return runSourceText(run);
        case Language:
            // "JavaScript", not "JavaScript (Node.js)": the column stays narrow; the tooltip has the whole name.
            return shortLanguageText(run.language);
        case Status:
            return runStatusText(run);
        case Outcome:
            return runOutcomeText(run);
        case Duration:
            return run.status == RunStatus::Running ? QString() : durationText(run.durationMs);
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == Status) {
            return statusDot(StateColors::of(QGuiApplication::palette()).forOutcome(run.outcome()));
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == Started) {
            return QLocale().toString(run.startedAt.toLocalTime(), QLocale::LongFormat);
        }
        if (index.column() == Outcome && run.status == RunStatus::Failed) {
            return plainToolTip(run.error);
        }
        if (index.column() == Language) {
            return languageText(run.language);
        }
        if (index.column() == Source && !run.clientVersion.isEmpty()) {
            return plainToolTip(tr("%1 %2").arg(run.clientName, run.clientVersion));
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == Duration) {
            return int(Qt::AlignRight | Qt::AlignVCenter);
        }
        break;
    default:
        break;
    }
    return {};
}

QVariant LiveLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case Started:
        return tr("Started");
    case Source:
        return tr("Source");
    case Language:
        return tr("Language");
    case Status:
        return tr("Status");
    case Outcome:
        return tr("Result");
    case Duration:
        return tr("Duration");
    }
    return {};
}

} // namespace sandbox::gui
