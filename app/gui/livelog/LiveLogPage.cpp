#include "gui/livelog/LiveLogPage.h"

#include "gui/RunText.h"
#include "gui/livelog/LiveLogFilterModel.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogThumbnailDelegate.h"
#include "gui/widgets/AdaptiveSplitter.h"
#include "gui/widgets/DroppedPaths.h"
#include "gui/widgets/EmptyHint.h"
#include "gui/widgets/RunTableView.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThemedIcon.h"
#include "journal/JournalFeed.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QShowEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {
const SettingsKey<QByteArray> kSplits{"splits"};
/// While following, how long a run stays in view before a newer one takes its place: an assistant's loop starts a
/// dozen runs a second, and a page that showed each as it started would flash one empty "Running" run after another
/// (the run held has ended by then, with its output).
constexpr auto kFollowHold = std::chrono::milliseconds(1500);
} // namespace

LiveLogPage::LiveLogPage(JournalFeed &feed, ThumbnailProvider &thumbnails, QWidget *parent) : Page(parent), m_feed(feed)
{
    setObjectName(QStringLiteral("liveLogPage"));
    setAcceptDrops(true);
    m_model = new LiveLogModel(this);
    m_filter = new LiveLogFilterModel(this);
    m_filter->setSourceModel(m_model);

    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("liveLogSearch"));
    // A short placeholder fits the field in a 1024 px window, in every language; the tooltip says what it matches.
    m_search->setPlaceholderText(tr("Filter runs…"));
    m_search->setToolTip(
        tr("Shows only the runs whose language, status, source, client or run ID contains this text."));
    m_search->setClearButtonEnabled(true);
    setFindField(m_search);
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("liveLogSource"));
    m_source->addItem(tr("All sources"), QString());
    for (const auto &[text, sources] : runSourceChoices()) {
        m_source->addItem(text, sources);
    }
    m_follow = new QPushButton;
    m_follow->setObjectName(QStringLiteral("followNewest"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Show each run as it starts. Picking another run stops following; press this to "
                            "follow again."));
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_source);
    filterRow->addWidget(m_follow);

    // The result takes the room the others leave: it shows the run's charts.
    m_table = new RunTableView(LiveLogModel::Outcome);
    m_table->setObjectName(QStringLiteral("liveLogTable"));
    m_table->setModel(m_filter);
    m_table->setItemDelegateForColumn(LiveLogModel::Outcome, new LiveLogThumbnailDelegate(feed, thumbnails, m_table));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(LiveLogModel::Started, Qt::DescendingOrder);

    m_emptyHint = emptyHint(QStringLiteral("liveLogEmptyHint"));
    m_listStack = new QStackedWidget;
    m_listStack->addWidget(m_table);
    m_listStack->addWidget(m_emptyHint);
    // As in History, the table beside the run is never narrower than its columns at their least, so every column
    // stays in view (the splitter gives the run what is left); a rarer status ("CPU-time limit reached after 2 min
    // 5 s") widens them, and where the page has no room for both the run goes under the table (placeSplitter).
    connect(m_table, &RunTableView::columnsMeasured, this, [this] {
        m_listStack->setMinimumWidth(m_splitter->orientation() == Qt::Horizontal ? m_table->minimumColumnsWidth() : 0);
        placeSplitter();
    });

    auto *listPane = new QWidget;
    auto *listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addLayout(filterRow);
    listLayout->addWidget(m_listStack, 1);

    m_detail = new RunView(thumbnails);
    m_detail->setObjectName(QStringLiteral("runDetail"));
    connect(m_detail, &RunView::stopRequested, this, [this](const JournalRun &run) { emit stopRunsRequested({run}); });
    connect(m_detail, &RunView::openInConsoleRequested, this,
            [this](const QString &language, const QString &code, const QStringList &libraries) {
                emit navigate(OpenInConsole{language, code, libraries});
            });

    m_splitter = new AdaptiveSplitter;
    m_splitter->setObjectName(QStringLiteral("liveLogSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(listPane);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    // A narrower filter may hide the run followed: the newest it lets through is shown instead.
    connect(m_search, &QLineEdit::textChanged, this,
            [this](const QString &text) { refilter([this, text] { m_filter->setText(text); }); });
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] {
        refilter([this] { m_filter->setSources(runSourcesFromString(m_source->currentData().toString())); });
    });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &LiveLogPage::updateEmptyState);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &LiveLogPage::updateEmptyState);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &LiveLogPage::updateEmptyState);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &LiveLogPage::updateEmptyState);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                // The user picked a run other than the newest: it stays in view while new ones start.
                if (!m_selecting && current.isValid() && m_model->rowCount() > 0 &&
                    current.data(LiveLogModel::RunIdRole) != m_model->runAt(0).id) {
                    setFollowingNewest(false);
                }
                showSelected();
            });
    connect(m_follow, &QPushButton::toggled, this, [this](bool follow) {
        if (follow) {
            m_unseen = 0;
            selectNewest();
        }
        updateFollowButton();
    });
    updateFollowButton();
    m_followHold = new QTimer(this);
    m_followHold->setSingleShot(true);
    connect(m_followHold, &QTimer::timeout, this, [this] {
        if (isFollowingNewest()) {
            selectNewest();
        }
    });

    if (m_feed.isOff()) {
        m_emptyHint->setText(tr("The run journal is off (LLM_SANDBOX_JOURNAL=off), so there is no live log.\n"
                                "Unset that variable and restart to see every run here."));
        m_listStack->setCurrentWidget(m_emptyHint);
        m_search->setEnabled(false);
        m_source->setEnabled(false);
        m_detail->setVisible(false); // nothing can be selected: the hint gets the whole page
        return;
    }
    m_emptyHint->setText(tr("Reading the journal…"));
    m_listStack->setCurrentWidget(m_emptyHint);
    connect(&m_feed, &JournalFeed::runsChanged, this, &LiveLogPage::onRunsChanged);
    // The newest runs, read on the feed's thread; what changes afterwards comes through runsChanged (a run in both
    // is merged by id).
    m_feed.read<QList<JournalRun>>(
        this,
        [](const JournalReader &reader) {
            auto runs = reader.list(RunFilter{}, 0, InitialRuns);
            return runs ? *runs : QList<JournalRun>();
        },
        [this](const QList<JournalRun> &runs) {
            {
                const QScopedValueRollback selecting(m_selecting, true);
                m_model->merge(runs);
            }
            updateEmptyState();
            if (isFollowingNewest()) {
                selectNewest();
            }
        });
}

LiveLogPage::~LiveLogPage() = default;

void LiveLogPage::onRunsChanged(const QList<JournalRun> &runs)
{
    {
        // Rows inserted above the current one move it: that is no pick of the user's.
        const QScopedValueRollback selecting(m_selecting, true);
        const int before = m_model->rowCount();
        m_model->merge(runs);
        if (!isFollowingNewest()) {
            m_unseen += m_model->rowCount() - before;
            updateFollowButton();
        }
    }
    // As terminals and log viewers do: the newest run in view, unless the user is reading another one. Without
    // following, the first run to arrive is still selected, so its output is in view without a click.
    if (isFollowingNewest()) {
        followNewest();
    } else if (!m_table->selectionModel()->hasSelection() && m_filter->rowCount() > 0) {
        selectRow(0);
    }
}

void LiveLogPage::refilter(const std::function<void()> &change)
{
    const QString shown = m_follower ? m_follower->runId() : QString();
    {
        // The view moves the current row off a row the filter hides: no pick of the user's.
        const QScopedValueRollback selecting(m_selecting, true);
        change();
    }
    if (isFollowingNewest()) {
        selectNewest();
        return;
    }
    // The run shown is hidden now: it leaves the run pane too, not replaced by a neighbour the user did not pick.
    const int row = m_model->rowOf(shown);
    if (!shown.isEmpty() && (row < 0 || !m_filter->mapFromSource(m_model->index(row, 0)).isValid())) {
        const QScopedValueRollback selecting(m_selecting, true);
        m_table->selectionModel()->clear();
        showSelected();
    }
}

bool LiveLogPage::isFollowingNewest() const
{
    return m_follow->isChecked();
}

void LiveLogPage::setFollowingNewest(bool follow)
{
    m_follow->setChecked(follow);
}

void LiveLogPage::updateFollowButton()
{
    // Not following: how many runs started meanwhile, out of view.
    m_follow->setText(m_unseen > 0 ? tr("&Follow newest (%n new)", nullptr, m_unseen) : tr("&Follow newest"));
}

void LiveLogPage::selectNewest()
{
    // The model holds the runs newest first, whatever column the table is sorted by.
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
        if (index.isValid()) {
            selectRow(index.row());
            return;
        }
    }
}

void LiveLogPage::followNewest()
{
    const auto shownFor = std::chrono::milliseconds(m_shownFor.isValid() ? m_shownFor.elapsed() : kFollowHold.count());
    if (shownFor >= kFollowHold || !m_table->selectionModel()->hasSelection()) {
        selectNewest();
    } else if (!m_followHold->isActive()) {
        m_followHold->start(kFollowHold - shownFor);
    }
}

void LiveLogPage::selectRow(int row)
{
    const QScopedValueRollback selecting(m_selecting, true);
    m_table->selectRow(row);
    m_table->scrollTo(m_filter->index(row, 0));
}

bool LiveLogPage::open(const Intent &intent)
{
    const auto *follow = std::get_if<FollowRun>(&intent);
    if (follow) {
        selectRun(follow->runId);
    }
    return follow;
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
    const QString id = current.isValid() ? current.data(LiveLogModel::RunIdRole).toString() : QString();
    if (m_follower && m_follower->runId() == id) {
        return;
    }
    m_shownFor.start();
    delete m_follower;
    m_follower = nullptr;
    if (id.isEmpty()) {
        m_detail->clear();
        return;
    }
    // The model holds summaries; the feed hands the run whole (code, output, the MCP exchange), then what it gains.
    m_detail->showRun(m_model->runAt(m_filter->mapToSource(current).row()));
    m_follower = m_feed.follow(id, this);
    connect(m_follower, &RunFollower::updated, m_detail, &RunView::applyUpdate);
}

void LiveLogPage::updateEmptyState()
{
    if (m_feed.isOff()) {
        return;
    }
    if (m_filter->rowCount() > 0) {
        m_listStack->setCurrentWidget(m_table);
        return;
    }
    m_emptyHint->setText(m_model->rowCount() == 0
                             ? tr("No runs yet.\n\nRuns appear here the moment they start: from the Console, from "
                                  "“llm-sandbox run” and from assistants using “llm-sandbox --mcp”.")
                             : tr("No runs match the filter."));
    m_listStack->setCurrentWidget(m_emptyHint);
}

QString LiveLogPage::title() const
{
    return tr("Live log");
}

QIcon LiveLogPage::icon() const
{
    return themedIcon(QStringLiteral(":/icons/page-livelog.svg"), palette());
}

void LiveLogPage::saveState(QSettings &settings) const
{
    kSplits.write(settings, m_splitter->saveSplits());
}

void LiveLogPage::restoreState(const QSettings &settings)
{
    m_splitter->restoreSplits(kSplits.read(settings));
}

void LiveLogPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    placeSplitter();
}

void LiveLogPage::resizeEvent(QResizeEvent *event)
{
    Page::resizeEvent(event);
    placeSplitter();
}

void LiveLogPage::placeSplitter()
{
    if (!isVisible() || !m_detail->isVisibleTo(this)) {
        return;
    }
    // The run beside the table where the page has room for the table's columns and a run pane of 45 digits (1280 px
    // and wider windows); under it where it has not (1024 px), both as wide as the page, no column elided, as History
    // does. Decided again as the window is resized or a rarer status widens the columns.
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const int columns = m_table->preferredColumnsWidth();
    const int runPaneWidth = std::max(m_detail->minimumSizeHint().width(), digit * 45);
    const int wide =
        width() - layout()->contentsMargins().left() - layout()->contentsMargins().right() - m_splitter->handleWidth();
    if (wide - columns < runPaneWidth) {
        m_listStack->setMinimumWidth(0);
        m_splitter->place(Qt::Vertical, 2, 3);
        return;
    }
    // Three fifths of the page for the table, whose result column shows the runs' charts, and never less than its
    // columns at their least; the run the rest. The stretch factors share the page (3 : 2) as it grows and shrinks,
    // and the user's split is kept for each orientation.
    m_listStack->setMinimumWidth(m_table->minimumColumnsWidth());
    const int table = std::max(m_listStack->minimumWidth(), wide * 3 / 5);
    m_splitter->place(Qt::Horizontal, table, std::max(0, wide - table));
}

void LiveLogPage::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedPaths(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void LiveLogPage::dragMoveEvent(QDragMoveEvent *event)
{
    if (!droppedPaths(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void LiveLogPage::dropEvent(QDropEvent *event)
{
    if (const QStringList paths = droppedPaths(event->mimeData()); !paths.isEmpty()) {
        event->acceptProposedAction();
        emit navigate(ShareForNextRun{paths});
    }
}

} // namespace sandbox::gui
