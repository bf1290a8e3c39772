#include "gui/history/CompareWithDialog.h"

#include "gui/history/HistoryModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbox::gui {

CompareWithDialog::CompareWithDialog(HistoryModel &model, const QString &runId, QWidget *parent)
    : QDialog(parent), m_runId(runId)
{
    setObjectName(QStringLiteral("compareWithDialog"));
    setWindowTitle(tr("Compare with…"));
    auto *label = new QLabel(tr("Pick the run to compare run %1 with:").arg(runId), this);
    label->setWordWrap(true);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareWithTable"));
    m_table->setModel(&model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->resizeColumnsToContents();
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(label);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_buttons);
    resize(760, 460);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!chosenRunId().isEmpty()); });
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (!chosenRunId().isEmpty()) {
            accept();
        }
    });
}

QString CompareWithDialog::chosenRunId() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const QString id = current.isValid() ? current.data(HistoryModel::RunIdRole).toString() : QString();
    return id == m_runId ? QString() : id;
}

} // namespace sandbox::gui
