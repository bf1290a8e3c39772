#include "gui/widgets/NetworkView.h"

#include "gui/widgets/NetworkConnectionModel.h"

#include <QHeaderView>
#include <QLabel>
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
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("networkConnections"));
    // In the order they ended, unsorted: a header's sort arrow would take room from nine columns beside the live
    // log's table.
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Rows of one line of text, as the run tables' (not the style's taller default).
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    // Whole hosts, reasons and numbers, never elided: a narrow pane scrolls sideways to the numbers.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false); // the numbers stay beside their row

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0); // flush with the tab, as the output is
    layout->addWidget(m_allowed);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void NetworkView::showRun(const JournalRun &run)
{
    const QStringList allowed = run.networkAllowed();
    m_allowed->setText(tr("Allowed: %1").arg(allowed.isEmpty() ? tr("nothing") : allowed.join(QStringLiteral(", "))));
    m_model->setConnections(run.networkConnections());
    // The secrets' column only for a run that had one added: most have none.
    m_table->setColumnHidden(NetworkConnectionModel::Secret, !m_model->hasSecrets());
    const int total = m_model->rowCount();
    const int refused = m_model->refusedCount();
    m_summary->setText(total == 0     ? tr("The run made no connection.")
                       : refused == 0 ? tr("%n connection(s), all allowed.", nullptr, total)
                                      : tr("%n connection(s), %1 refused.", nullptr, total).arg(refused));
}

} // namespace sandbox::gui
