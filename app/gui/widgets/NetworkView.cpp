#include "gui/widgets/NetworkView.h"

#include "gui/widgets/NetworkConnectionModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbox::gui {

NetworkView::NetworkView(QWidget *parent) : QWidget(parent)
{
    m_allowed = new QLabel;
    m_allowed->setObjectName(QStringLiteral("networkAllowed"));
    m_allowed->setTextFormat(Qt::PlainText); // host names a call asked for
    m_allowed->setWordWrap(true);
    m_allowed->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("networkSummary"));
    m_summary->setWordWrap(true);

    m_model = new NetworkConnectionModel(this);
    auto *sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_model);
    sorted->setSortRole(NetworkConnectionModel::SortRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("networkConnections"));
    m_table->setModel(sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // in the order they ended until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Whole hosts and numbers, never elided; the reason takes what is left.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_allowed);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void NetworkView::showRun(const JournalRun &run)
{
    const QStringList allowed = run.networkAllowed();
    m_allowed->setText(tr("Allowed: %1").arg(allowed.isEmpty() ? tr("nothing") : allowed.join(QStringLiteral(", "))));
    m_model->setConnections(run.networkConnections());
    const int total = m_model->rowCount();
    const int refused = m_model->refusedCount();
    m_summary->setText(total == 0     ? tr("The run made no connection.")
                       : refused == 0 ? tr("%n connection(s), all allowed.", nullptr, total)
                                      : tr("%n connection(s), %1 refused.", nullptr, total).arg(refused));
}

} // namespace sandbox::gui
