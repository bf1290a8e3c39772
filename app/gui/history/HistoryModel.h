#pragma once

#include "gui/widgets/RunTableModel.h"
#include "util/Result.h"

namespace sandbox {
class JournalFeed;
}

namespace sandbox::gui {

/// The journal's runs, newest first, as summaries (no code or output). Rows are read lazily, a page at a
/// time as the view scrolls (canFetchMore/fetchMore), so a journal of any size opens at once. Every read goes
/// through the JournalFeed, off the GUI thread: a page's rows arrive a moment after fetchMore. Changes the feed
/// reports update rows in place or insert new runs at the top, so a view's selection survives them.
class HistoryModel final : public RunTableModel
{
    Q_OBJECT

public:
    static constexpr int PageSize = 200;

    explicit HistoryModel(JournalFeed &feed, QObject *parent = nullptr);
    ~HistoryModel() override;

    /// Shows only the runs matching `filter`, from the first page again.
    void setFilter(const RunFilter &filter);
    const RunFilter &filter() const { return m_filter; }

    /// How many runs match the filter; -1 while it is being counted.
    int totalCount() const { return m_totalCount; }
    /// Whether a page asked for (fetchMore) is still being read.
    bool isFetching() const { return m_fetching; }
    /// The last error reading the journal, empty when the last read worked.
    QString lastError() const { return m_lastError; }

    /// Applies summaries of runs that changed (JournalFeed::runsChanged).
    void applyChanges(const QList<JournalRun> &runs);

    /// A status and result in their outcome's colour besides what every run table shows.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
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
    bool m_atEnd = false;
    bool m_fetching = false;
    int m_totalCount = -1;
    QString m_lastError;
    quint64 m_generation = 0; ///< of the filter: answers to reads for an earlier one are dropped
};

} // namespace sandbox::gui
