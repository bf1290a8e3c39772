#pragma once

#include "journal/JournalRun.h"

#include <QAbstractTableModel>

namespace sandbox::gui {

/// The runs of the live log, newest first, as summaries from the journal (no code or output). Runs are
/// merged in by id as the journal reports changes, so a run's row updates in place from running to finished.
class LiveLogModel final : public QAbstractTableModel
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
        ColumnCount
    };
    enum Role
    {
        RunIdRole = Qt::UserRole + 1,
        SourceRole, ///< the RunSource as an int; -1: unknown
        SearchRole, ///< the text the filter matches against
        SortRole,
    };

    explicit LiveLogModel(QObject *parent = nullptr);

    /// Adds new runs and updates the ones already shown (matched by id).
    void merge(const QList<JournalRun> &runs);
    void clear();
    /// Keep at most this many runs (the oldest go first).
    void setMaximumRows(int rows) { m_maximumRows = rows; }

    const JournalRun &runAt(int row) const { return m_runs.at(row); }
    int rowOf(const QString &runId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<JournalRun> m_runs; // newest first
    int m_maximumRows = 2000;
};

} // namespace sandbox::gui
