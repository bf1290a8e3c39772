#pragma once

#include "gui/widgets/RunTableModel.h"

namespace sandbox::gui {

/// The runs of the live log, newest first, as summaries from the journal (no code or output). Runs are
/// merged in by id as the journal reports changes, so a run's row updates in place from running to finished.
class LiveLogModel final : public RunTableModel
{
    Q_OBJECT

public:
    explicit LiveLogModel(QObject *parent = nullptr) : RunTableModel(Duration, parent) {}

    /// Adds new runs and updates the ones already shown (matched by id).
    void merge(const QList<JournalRun> &changed);
    void clear() { clearRuns(); }
    /// Keep at most this many runs (the oldest go first).
    void setMaximumRows(int rows) { m_maximumRows = rows; }

    /// The status's coloured dot besides what every run table shows.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int m_maximumRows = 2000;
};

} // namespace sandbox::gui
