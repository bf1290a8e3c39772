#pragma once

#include "gui/widgets/RunTableModel.h"

#include <QTableView>
#include <array>

namespace sandbox::gui {

/// A table of runs (a RunTableModel, or a proxy of one) whose columns fit its width, the same in the live log and
/// History: each column measured from its header and first rows, the status from every row (a rare "Cancelled after
/// 2 min 5 s" further down, or a run's status as it changes), times, durations and statuses never cut, source,
/// language and result elided first, and one column (History's code, the live log's result) taking what is left. A
/// column the user drags keeps its width; the rest still fit around it. Hidden columns take no room.
class RunTableView final : public QTableView
{
    Q_OBJECT

public:
    /// `fillColumn` takes the width the others leave.
    explicit RunTableView(RunTableModel::Column fillColumn, QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    /// The width of every column at its least (with the frame and a scroll bar): no narrower shows them all.
    int minimumColumnsWidth() const { return m_minimumWidth; }
    /// The width of every column at the width it wants.
    int preferredColumnsWidth() const;
    /// Measures the columns again (the model's first rows do it on their own).
    void measureColumns();

signals:
    /// The columns were measured: their minimum and preferred widths may have changed.
    void columnsMeasured();

protected:
    bool viewportEvent(QEvent *event) override;

private:
    struct ColumnWidth
    {
        int preferred = 0, minimum = 0;
    };
    /// Column widths for the viewport's width.
    void fitColumns();
    /// The widest text of `column` in rows `first` to `last`, with `samples` besides, in `metrics`.
    int widestText(int column, int first, int last, const QFontMetrics &metrics, const QStringList &samples) const;
    /// Measures the columns again when a status of rows `first` to `last` is wider than every status before; returns
    /// whether it did.
    bool measureStatuses(int first, int last);

    const int m_fillColumn;
    std::array<ColumnWidth, RunTableModel::ColumnCount> m_widths{};
    int m_minimumWidth = 0;
    int m_widestStatus = 0; ///< the widest status text of every row so far, with its icon and padding
    bool m_fitting = false;
    bool m_sizedByUser = false;
};

} // namespace sandbox::gui
