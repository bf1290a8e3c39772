#pragma once

#include "journal/JournalRun.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace sandbox::gui {

class NetworkConnectionModel;

/// A run's network (RunView's Network tab): the hosts it was allowed to reach, how many connections it made and how
/// many were refused, and every connection in a table (NetworkConnectionModel).
class NetworkView final : public QWidget
{
    Q_OBJECT

public:
    explicit NetworkView(QWidget *parent = nullptr);

    /// Shows `run`'s network (nothing for a run without any: JournalRun::hasNetwork()).
    void showRun(const JournalRun &run);
    const NetworkConnectionModel &connections() const { return *m_model; }

private:
    QLabel *m_allowed = nullptr;
    QLabel *m_summary = nullptr;
    NetworkConnectionModel *m_model = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace sandbox::gui
