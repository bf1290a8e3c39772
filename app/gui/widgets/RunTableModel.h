#pragma once

#include "journal/JournalRun.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace sandbox::gui {

/// The runs of a table, one summary a row (no output), with the columns, texts, tooltips and sort keys every run
/// table shares: the live log (LiveLogModel) and History (HistoryModel) add only where their rows come from, how
/// they mark a status, and (the live log) today's start times without their date. Rows are found by run id in constant
/// time.
class RunTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Started,
        Source,
        Language,
        Status,
        Outcome,
        Duration,
        Code, ///< the code's first line (History only)
        ColumnCount
    };
    enum Role
    {
        RunIdRole = Qt::UserRole + 1,
        SourceRole, ///< the RunSource as an int; -1: unknown
        SearchRole, ///< the text a filter matches against
        SortRole,   ///< Started and Duration as values, the rest as shown
    };

    /// The summary shown in `row`.
    const JournalRun &runAt(int row) const { return m_runs.at(row); }
    /// The row of run `runId`, or -1 when it is not shown.
    int rowOf(const QString &runId) const { return m_rowById.value(runId, -1); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    /// `lastColumn`: Duration (the live log) or Code (History).
    explicit RunTableModel(Column lastColumn, QObject *parent = nullptr);

    /// The run in `row`, replaced by a newer summary of it; its row is redrawn.
    void updateRun(int row, const JournalRun &run);
    /// `runs` in at `row`, in their order.
    void insertRuns(int row, const QList<JournalRun> &runs);
    /// Every row from `row` on goes.
    void removeRunsFrom(int row);
    /// No rows.
    void clearRuns();
    const QList<JournalRun> &runs() const { return m_runs; }

private:
    void reindexFrom(int row);

    const int m_columnCount;
    QList<JournalRun> m_runs;
    QHash<QString, int> m_rowById;
};

} // namespace sandbox::gui
