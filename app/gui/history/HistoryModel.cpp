#include "gui/history/HistoryModel.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "journal/JournalFeed.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <algorithm>

namespace sandbox::gui {

namespace {} // namespace

HistoryModel::HistoryModel(JournalFeed &feed, QObject *parent) : QAbstractTableModel(parent), m_feed(feed)
{
    if (m_feed.isOff()) {
        m_atEnd = true; // nothing to read, and nothing will answer
        m_lastError = tr("the run journal is off (LLM_SANDBOX_JOURNAL=off)");
        return;
    }
    recount();
}

HistoryModel::~HistoryModel() = default;

void HistoryModel::setFilter(const RunFilter &filter)
{
    if (m_feed.isOff()) {
        m_filter = filter;
        return;
    }
    beginResetModel();
    m_filter = filter;
    m_runs.clear();
    m_rowById.clear();
    m_atEnd = false;
    m_fetching = false;
    ++m_generation; // the answers to reads for the filter before are dropped
    endResetModel();
    recount();
}

int HistoryModel::rowOf(const QString &runId) const
{
    return m_rowById.value(runId, -1);
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

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

} // namespace

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const JournalRun &run = m_runs.at(index.row());
    if (role == RunIdRole) {
        return run.id;
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case StartedColumn:
            return dateTimeText(run.startedAt);
        case SourceColumn:
            return runSourceText(run);
        case LanguageColumn:
            // "JavaScript", not "JavaScript (Node.js)": the column stays narrow; the tooltip has the whole name.
            return shortLanguageText(run.language);
        case StatusColumn:
            return runStatusText(run);
        case OutcomeColumn:
            return runOutcomeText(run);
        case DurationColumn:
            return run.status == RunStatus::Running ? QString() : durationText(run.durationMs);
        case CodeColumn:
            return firstLineOfCode(run.code);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == StatusColumn && !run.error.isEmpty()) {
            return plainToolTip(run.error);
        }
        if (index.column() == LanguageColumn) {
            return languageText(run.language);
        }
        if (index.column() == SourceColumn && !run.clientName.isEmpty()) {
            return plainToolTip(tr("%1 %2 via %3").arg(run.clientName, run.clientVersion, runSourceText(run.source)));
        }
        // Narrow columns are elided: their whole text.
        if (index.column() == SourceColumn || index.column() == LanguageColumn || index.column() == StatusColumn ||
            index.column() == OutcomeColumn) {
            return data(index, Qt::DisplayRole);
        }
        return tr("Run %1").arg(run.id);
    }
    if (role == Qt::ForegroundRole && (index.column() == StatusColumn || index.column() == OutcomeColumn)) {
        return StateColors::of(QGuiApplication::palette()).forOutcome(run.outcome());
    }
    if (role == Qt::FontRole && index.column() == CodeColumn) {
        QFont font(QStringLiteral("monospace"));
        font.setStyleHint(QFont::Monospace);
        return font;
    }
    if (role == Qt::TextAlignmentRole && index.column() == DurationColumn) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case StartedColumn:
        return tr("Started");
    case SourceColumn:
        return tr("Source");
    case LanguageColumn:
        return tr("Language");
    case StatusColumn:
        return tr("Status");
    case OutcomeColumn:
        return tr("Result");
    case DurationColumn:
        return tr("Duration");
    case CodeColumn:
        return tr("Code");
    }
    return {};
}

bool HistoryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_atEnd && !m_fetching;
}

void HistoryModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_atEnd || m_fetching) {
        return;
    }
    // One page, by index on the journal side, on the feed's thread; views ask again when the rows arrive.
    m_fetching = true;
    m_feed.read<Result<QList<JournalRun>>>(
        this,
        [filter = m_filter, offset = int(m_runs.size())](const JournalReader &reader) {
            return reader.list(filter, offset, PageSize);
        },
        [this, generation = m_generation](Result<QList<JournalRun>> page) {
            if (generation == m_generation) {
                m_fetching = false;
                addPage(std::move(page));
            }
        });
}

void HistoryModel::addPage(Result<QList<JournalRun>> page)
{
    if (!page) {
        m_atEnd = true;
        setError(page.error().message);
        return;
    }
    m_lastError.clear();
    m_atEnd = page->size() < PageSize;
    QList<JournalRun> fresh;
    fresh.reserve(page->size());
    for (JournalRun &run : *page) {
        // Runs inserted at the top since the last page shift the offsets: skip the ones already shown.
        if (!m_rowById.contains(run.id)) {
            fresh.append(std::move(run));
        }
    }
    if (fresh.isEmpty()) {
        return;
    }
    const int first = int(m_runs.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (JournalRun &run : fresh) {
        m_rowById.insert(run.id, int(m_runs.size()));
        m_runs.append(std::move(run));
    }
    endInsertRows();
}

bool HistoryModel::matches(const JournalRun &summary) const
{
    if (!m_filter.language.isEmpty() && summary.language != m_filter.language) {
        return false;
    }
    if (m_filter.status && summary.status != *m_filter.status) {
        return false;
    }
    if (m_filter.outcome && summary.outcome() != *m_filter.outcome) {
        return false;
    }
    if (!m_filter.sources.isEmpty() && (!summary.source || !m_filter.sources.contains(*summary.source))) {
        return false;
    }
    if (m_filter.from.isValid() && summary.startedAt < m_filter.from) {
        return false;
    }
    if (m_filter.to.isValid() && summary.startedAt > m_filter.to) {
        return false;
    }
    return true;
}

void HistoryModel::insertOnTop(const JournalRun &summary)
{
    // A run the model has not seen is new: the newest, so it goes on top (rows below shift, persistent indexes and
    // with them the selection follow).
    beginInsertRows({}, 0, 0);
    m_runs.prepend(summary);
    m_rowById.clear();
    for (int i = 0; i < m_runs.size(); ++i) {
        m_rowById.insert(m_runs.at(i).id, i);
    }
    endInsertRows();
    recount();
}

void HistoryModel::applyChanges(const QList<JournalRun> &runs)
{
    for (const JournalRun &summary : runs) {
        const int row = rowOf(summary.id);
        if (row >= 0) {
            m_runs[row] = summary;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            continue;
        }
        if (!matches(summary)) {
            continue;
        }
        if (m_filter.text.isEmpty()) {
            insertOnTop(summary);
            continue;
        }
        // Summaries carry no code or output; the text filter asks the journal whether this run has the text.
        RunFilter filter = m_filter;
        filter.from = filter.to = summary.startedAt;
        m_feed.read<bool>(
            this,
            [filter, id = summary.id](const JournalReader &reader) {
                auto runs = reader.list(filter, 0, 100);
                return runs &&
                       std::any_of(runs->cbegin(), runs->cend(), [&id](const JournalRun &run) { return run.id == id; });
            },
            [this, summary, generation = m_generation](bool found) {
                if (found && generation == m_generation && rowOf(summary.id) < 0) {
                    insertOnTop(summary);
                }
            });
    }
}

void HistoryModel::recount()
{
    // Counting scans every matching row: on the feed's thread.
    m_feed.read<int>(
        this,
        [filter = m_filter](const JournalReader &reader) {
            Result<int> count = reader.count(filter);
            return count ? *count : -1;
        },
        [this, generation = m_generation](int count) {
            if (generation == m_generation) {
                m_totalCount = count;
                emit totalCountChanged(m_totalCount);
            }
        });
}

void HistoryModel::setError(const QString &message)
{
    m_lastError = message;
    emit errorOccurred(message);
}

} // namespace sandbox::gui
