#include "gui/livelog/LiveLogPage.h"

#include "gui/livelog/LiveLogFilterModel.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/RunDetailView.h"
#include "journal/JournalReader.h"
#include "journal/JournalWatcher.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {
const SettingsKey<QByteArray> kSplitterState{"splitter"};
} // namespace

LiveLogPage::LiveLogPage(const QString &journalPath, QWidget *parent) : Page(parent)
{
    setObjectName(QStringLiteral("liveLogPage"));
    m_model = new LiveLogModel(this);
    m_filter = new LiveLogFilterModel(this);
    m_filter->setSourceModel(m_model);

    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("liveLogSearch"));
    m_search->setPlaceholderText(tr("Filter by language, status, client, run id…"));
    m_search->setClearButtonEnabled(true);
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("liveLogSource"));
    m_source->addItem(tr("All sources"), QString());
    m_source->addItem(tr("Console"), QStringLiteral("gui"));
    m_source->addItem(tr("MCP clients"), QStringLiteral("mcp"));
    m_source->addItem(tr("Command line"), QStringLiteral("cli"));
    m_source->addItem(tr("HTTP server"), QStringLiteral("http"));
    m_source->addItem(tr("Replays"), QStringLiteral("replay"));
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_source);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("liveLogTable"));
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(LiveLogModel::Started, Qt::DescendingOrder);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 10);
    QHeaderView *header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(LiveLogModel::Outcome, QHeaderView::Stretch);
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    header->resizeSection(LiveLogModel::Started, digit * 11);
    header->resizeSection(LiveLogModel::Source, digit * 20);
    header->resizeSection(LiveLogModel::Language, digit * 12);
    header->resizeSection(LiveLogModel::Status, digit * 13);
    header->resizeSection(LiveLogModel::Duration, digit * 10);

    m_emptyHint = new QLabel;
    m_emptyHint->setObjectName(QStringLiteral("liveLogEmptyHint"));
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setMargin(24);
    m_emptyHint->setEnabled(false);
    m_listStack = new QStackedWidget;
    m_listStack->addWidget(m_table);
    m_listStack->addWidget(m_emptyHint);

    auto *listPane = new QWidget;
    auto *listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addLayout(filterRow);
    listLayout->addWidget(m_listStack, 1);

    m_detail = new RunDetailView;
    m_detail->setObjectName(QStringLiteral("runDetail"));

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("liveLogSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(listPane);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    connect(m_search, &QLineEdit::textChanged, m_filter, &LiveLogFilterModel::setText);
    connect(m_source, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setSource(m_source->currentData().toString()); });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &LiveLogPage::updateEmptyState);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &LiveLogPage::updateEmptyState);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &LiveLogPage::updateEmptyState);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &LiveLogPage::updateEmptyState);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &LiveLogPage::showSelected);

    if (journalPath.isEmpty()) {
        m_emptyHint->setText(tr("The run journal is off (LLM_SANDBOX_JOURNAL=off), so there is no live log.\n"
                                "Unset that variable and restart to see every run here."));
        m_listStack->setCurrentWidget(m_emptyHint);
        m_search->setEnabled(false);
        m_source->setEnabled(false);
        m_detail->setVisible(false); // nothing can be selected: the hint gets the whole page
        return;
    }
    m_reader = std::make_unique<JournalReader>(journalPath);
    m_watcher = new JournalWatcher(journalPath, this);
    connect(m_watcher, &JournalWatcher::runsChanged, this, &LiveLogPage::onRunsChanged);
    loadInitialRuns();
    m_watcher->start();
}

LiveLogPage::~LiveLogPage() = default;

void LiveLogPage::loadInitialRuns()
{
    // The sequence number first: a run that changes between the two reads is then reported again, not lost.
    const auto seq = m_reader->latestSeq();
    const auto runs = m_reader->list(RunFilter{}, 0, InitialRuns);
    if (seq) {
        m_watcher->setLastSeq(*seq);
    }
    if (runs) {
        m_model->merge(*runs);
    }
    updateEmptyState();
}

void LiveLogPage::onRunsChanged(const QList<JournalRun> &runs)
{
    m_model->merge(runs);
    const QString shown = m_detail->runId();
    for (const JournalRun &run : runs) {
        if (run.id == shown) {
            showSelected();
            break;
        }
    }
    // The first run to arrive is selected, so its output is in view without a click.
    if (!m_table->selectionModel()->hasSelection() && m_filter->rowCount() > 0) {
        m_table->selectRow(0);
    }
}

void LiveLogPage::selectRun(const QString &runId)
{
    const int row = m_model->rowOf(runId);
    if (row >= 0) {
        const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
        if (index.isValid()) {
            m_table->selectRow(index.row());
            m_table->scrollTo(index);
        }
    }
}

void LiveLogPage::showSelected()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid() || !m_reader) {
        m_detail->showNothing();
        return;
    }
    // The model holds summaries; code, output and the MCP exchange are read when a run is shown.
    const QString id = current.data(LiveLogModel::RunIdRole).toString();
    if (auto run = m_reader->run(id)) {
        m_detail->showRun(*run);
    } else {
        m_detail->showRun(m_model->runAt(m_filter->mapToSource(current).row()));
    }
}

void LiveLogPage::updateEmptyState()
{
    if (!m_reader) {
        return;
    }
    if (m_filter->rowCount() > 0) {
        m_listStack->setCurrentWidget(m_table);
        return;
    }
    m_emptyHint->setText(m_model->rowCount() == 0
                             ? tr("No runs yet.\n\nRuns appear here the moment they start: from the Console, from "
                                  "`llm-sandbox run` and from assistants using `llm-sandbox --mcp`.")
                             : tr("No runs match the filter."));
    m_listStack->setCurrentWidget(m_emptyHint);
}

QString LiveLogPage::title() const
{
    return tr("Live log");
}

QIcon LiveLogPage::icon() const
{
    return style()->standardIcon(QStyle::SP_FileDialogDetailedView);
}

void LiveLogPage::saveState(QSettings &settings) const
{
    kSplitterState.write(settings, m_splitter->saveState());
}

void LiveLogPage::restoreState(const QSettings &settings)
{
    m_splitter->restoreState(kSplitterState.read(settings));
}

} // namespace sandbox::gui
