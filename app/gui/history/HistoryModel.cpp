#include "gui/history/HistoryModel.h"

#include "gui/StateColors.h"
#include "journal/JournalFeed.h"

#include <QColor>
#include <QGuiApplication>
#include <algorithm>

namespace sandbox::gui {

HistoryModel::HistoryModel(JournalFeed &feed, QObject *parent) : RunTableModel(Code, parent), m_feed(feed)
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
    m_filter = filter;
    m_atEnd = false;
    m_fetching = false;
    ++m_generation; // the answers to reads for the filter before are dropped
    clearRuns();
    recount();
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (role == Qt::ForegroundRole && (index.column() == Status || index.column() == Outcome) &&
        checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return StateColors::of(QGuiApplication::palette()).forOutcome(runAt(index.row()).outcome());
    }
    return RunTableModel::data(index, role);
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
        [filter = m_filter, offset = rowCount()](const JournalReader &reader) {
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
        if (rowOf(run.id) < 0) {
            fresh.append(std::move(run));
        }
    }
    insertRuns(rowCount(), fresh);
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
    insertRuns(0, {summary});
    recount();
}

void HistoryModel::applyChanges(const QList<JournalRun> &runs)
{
    for (const JournalRun &summary : runs) {
        const int row = rowOf(summary.id);
        if (row >= 0) {
            updateRun(row, summary);
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
