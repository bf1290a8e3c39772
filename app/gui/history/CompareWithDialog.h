#pragma once

#include <QDialog>

class QDialogButtonBox;
class QTableView;

namespace sandbox::gui {

class HistoryModel;

/// "Compare with…": the runs of History's table (its model, with its filter and lazy pages) to pick the one run
/// `runId` is compared with; OK once another run is chosen, a double click picks and accepts.
class CompareWithDialog final : public QDialog
{
    Q_OBJECT

public:
    CompareWithDialog(HistoryModel &model, const QString &runId, QWidget *parent = nullptr);

    /// The run picked, empty while none (or `runId` itself) is.
    QString chosenRunId() const;
    QTableView *table() const { return m_table; }

private:
    QString m_runId;
    QTableView *m_table = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace sandbox::gui
