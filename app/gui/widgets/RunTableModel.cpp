#include "gui/widgets/RunTableModel.h"

#include "gui/RunText.h"
#include "gui/widgets/ThemedIcon.h"

#include <QCoreApplication>
#include <QFont>
#include <QGuiApplication>
#include <QHash>
#include <QLocale>

namespace sandbox::gui {

namespace {

QString firstLineOfCode(const QString &code)
{
    for (QStringView line : QStringView(code).split(QLatin1Char('\n'))) {
        const QStringView trimmed = line.trimmed();
        if (!trimmed.isEmpty()) {
            return trimmed.toString();
        }
    }
    return {};
}

QString displayText(const JournalRun &run, int column)
{
    switch (column) {
    case RunTableModel::Started:
        return dateTimeText(run.startedAt);
    case RunTableModel::Source:
        return runSourceText(run);
    case RunTableModel::Language:
        // "JavaScript", not "JavaScript (Node.js)": the column stays narrow; the tooltip has the whole name.
        return shortLanguageText(run.language);
    case RunTableModel::Status:
        return runStatusText(run);
    case RunTableModel::Outcome:
        return runOutcomeText(run);
    case RunTableModel::Duration:
        return run.status == RunStatus::Running ? QString() : durationText(run.durationMs);
    case RunTableModel::Code:
        return firstLineOfCode(run.code);
    default:
        return {};
    }
}

/// The globe that marks a run with network, in the text colour of the app's palette (made once per theme).
QIcon networkIcon()
{
    static QHash<QRgb, QIcon> icons;
    const QPalette palette = QGuiApplication::palette();
    const QRgb key = palette.color(QPalette::WindowText).rgba();
    auto icon = icons.constFind(key);
    if (icon == icons.constEnd()) {
        icon = icons.insert(key, themedIcon(QStringLiteral(":/icons/network.svg"), palette));
    }
    return *icon;
}

QString toolTip(const JournalRun &run, int column)
{
    switch (column) {
    case RunTableModel::Started:
        return QLocale().toString(run.startedAt.toLocalTime(), QLocale::LongFormat);
    case RunTableModel::Source: {
        QString tip =
            run.clientName.isEmpty()
                ? runSourceText(run)
                : RunTableModel::tr("%1 %2 via %3").arg(run.clientName, run.clientVersion, runSourceText(run.source));
        // The globe beside it: which hosts the run reached.
        if (!run.networkHosts.isEmpty()) {
            tip +=
                QLatin1Char('\n') + RunTableModel::tr("Network: %1").arg(run.networkHosts.join(QStringLiteral(", ")));
        }
        return plainToolTip(tip);
    }
    case RunTableModel::Language:
        return languageText(run.language);
    case RunTableModel::Status:
    case RunTableModel::Outcome: {
        // A failed run's whole error; otherwise the whole text of a narrow column. The status's says what the result
        // adds too, for a table without that column (History).
        QString tip = run.status == RunStatus::Failed && !run.error.isEmpty() ? run.error : displayText(run, column);
        if (column == RunTableModel::Status && run.outputTruncated) {
            tip += QLatin1Char('\n') + QCoreApplication::translate("RunText", "output truncated");
        }
        return plainToolTip(tip);
    }
    default:
        return RunTableModel::tr("Run %1").arg(run.id);
    }
}

} // namespace

RunTableModel::RunTableModel(Column lastColumn, QObject *parent)
    : QAbstractTableModel(parent), m_columnCount(lastColumn + 1)
{}

int RunTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int RunTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columnCount;
}

QVariant RunTableModel::data(const QModelIndex &index, int role) const
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
        return (QStringList{run.id, run.language, runSourceText(run), runStatusText(run), runOutcomeText(run),
                            run.backend} +
                run.networkHosts)
            .join(QLatin1Char('\n'));
    case SortRole:
        if (index.column() == Started) {
            return run.startedAt;
        }
        return index.column() == Duration ? QVariant(run.durationMs) : QVariant(displayText(run, index.column()));
    case Qt::DisplayRole:
        return displayText(run, index.column());
    case Qt::ToolTipRole:
        return toolTip(run, index.column());
    case Qt::DecorationRole:
        return index.column() == Source && !run.networkHosts.isEmpty() ? QVariant(networkIcon()) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Duration ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::FontRole:
        if (index.column() == Code) {
            QFont font(QStringLiteral("monospace"));
            font.setStyleHint(QFont::Monospace);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    case Code:
        return tr("Code");
    default:
        return {};
    }
}

void RunTableModel::updateRun(int row, const JournalRun &run)
{
    m_runs[row] = run;
    emit dataChanged(index(row, 0), index(row, m_columnCount - 1));
}

void RunTableModel::insertRuns(int row, const QList<JournalRun> &runs)
{
    if (runs.isEmpty()) {
        return;
    }
    beginInsertRows({}, row, row + int(runs.size()) - 1);
    for (qsizetype i = 0; i < runs.size(); ++i) {
        m_runs.insert(row + i, runs.at(i));
    }
    reindexFrom(row);
    endInsertRows();
}

void RunTableModel::removeRunsFrom(int row)
{
    if (row >= m_runs.size()) {
        return;
    }
    beginRemoveRows({}, row, int(m_runs.size()) - 1);
    for (qsizetype i = row; i < m_runs.size(); ++i) {
        m_rowById.remove(m_runs.at(i).id);
    }
    m_runs.resize(row);
    endRemoveRows();
}

void RunTableModel::clearRuns()
{
    beginResetModel();
    m_runs.clear();
    m_rowById.clear();
    endResetModel();
}

void RunTableModel::reindexFrom(int row)
{
    for (qsizetype i = row; i < m_runs.size(); ++i) {
        m_rowById.insert(m_runs.at(i).id, int(i));
    }
}

} // namespace sandbox::gui
