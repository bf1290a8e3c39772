#pragma once

#include "journal/JournalRun.h"
#include "util/Result.h"

#include <QAbstractTableModel>
#include <QHash>

namespace sandbox {
class JournalFeed;
}

namespace sandbox::gui {

/// The journal's runs, newest first, as summaries (no code or output). Rows are read lazily, a page at a
/// time as the view scrolls (canFetchMore/fetchMore), so a journal of any size opens at once. Every read goes
/// through the JournalFeed, off the GUI thread: a page's rows arrive a moment after fetchMore. Changes the feed
/// reports update rows in place or insert new runs at the top, so a view's selection survives them.
class HistoryModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        StartedColumn,
        SourceColumn,
        LanguageColumn,
        StatusColumn,
        OutcomeColumn,
        DurationColumn,
        CodeColumn,
        ColumnCount
    };
    static constexpr int RunIdRole = Qt::UserRole + 1;
    static constexpr int PageSize = 200;

    explicit HistoryModel(JournalFeed &feed, QObject *parent = nullptr);
    ~HistoryModel() override;

    /// Shows only the runs matching `filter`, from the first page again.
    void setFilter(const RunFilter &filter);
    const RunFilter &filter() const { return m_filter; }

    /// The summary shown in `row`.
    const JournalRun &run(int row) const { return m_runs.at(row); }
    /// The row of run `runId`, or -1 when it is not loaded.
    int rowOf(const QString &runId) const;
    /// How many runs match the filter; -1 while it is being counted.
    int totalCount() const { return m_totalCount; }
    /// Whether a page asked for (fetchMore) is still being read.
    bool isFetching() const { return m_fetching; }
    /// The last error reading the journal, empty when the last read worked.
    QString lastError() const { return m_lastError; }

    /// Applies summaries of runs that changed (JournalFeed::runsChanged).
    void applyChanges(const QList<JournalRun> &runs);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    void totalCountChanged(int count);
    void errorOccurred(const QString &message);

private:
    /// Whether a new run matches the filter, but for its text.
    bool matches(const JournalRun &summary) const;
    void addPage(Result<QList<JournalRun>> page);
    void insertOnTop(const JournalRun &summary);
    void recount();
    void setError(const QString &message);

    JournalFeed &m_feed;
    RunFilter m_filter;
    QList<JournalRun> m_runs;
    QHash<QString, int> m_rowById;
    bool m_atEnd = false;
    bool m_fetching = false;
    int m_totalCount = -1;
    QString m_lastError;
    quint64 m_generation = 0; ///< of the filter: answers to reads for an earlier one are dropped
};

} // namespace sandbox::gui
