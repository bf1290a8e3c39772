#include "gui/history/HistoryPage.h"

#include "gui/EngineController.h"
#include "gui/RunText.h"
#include "gui/history/CompareWithDialog.h"
#include "gui/history/DiffView.h"
#include "gui/history/HistoryFilterBar.h"
#include "gui/history/HistoryModel.h"
#include "gui/widgets/AdaptiveSplitter.h"
#include "gui/widgets/EmptyHint.h"
#include "gui/widgets/RunTableView.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThemedIcon.h"
#include "journal/JournalFeed.h"
#include "journal/JournalReader.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QShowEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace sandbox::gui {

namespace {
const SettingsKey<QByteArray> kSplits{"splits"};
} // namespace

HistoryPage::HistoryPage(JournalFeed &feed, ThumbnailProvider &thumbnails, EngineController &controller,
                         QStringList backends, QWidget *parent)
    : Page(parent), m_feed(feed), m_controller(controller), m_backends(std::move(backends))
{
    setObjectName(QStringLiteral("historyPage"));
    m_filters = new HistoryFilterBar(this);
    setFindField(m_filters->textField());
    m_model = new HistoryModel(feed, this);

    m_table = new RunTableView(HistoryModel::Code, this);
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_model);
    // The result said something only for a run that could not start or whose output was cut, and the status (its
    // words and its tooltip) says both: an empty column on nearly every row gives its room to the code.
    m_table->setColumnHidden(HistoryModel::Outcome, true);
    // Two runs selected (Ctrl+click, Shift+click) can be compared.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);

    m_emptyHint = emptyHint(QStringLiteral("historyEmptyHint"));
    m_tableStack = new QStackedWidget(this);
    m_tableStack->addWidget(m_table);
    // The table is never narrower than its columns at their least, so every column stays in view, but no wider
    // either: the run pane keeps room for its tabs. The first rows may want wider columns than the samples did: the
    // splitter follows, until the user moves it.
    connect(m_table, &RunTableView::columnsMeasured, this, [this] {
        m_tableStack->setMinimumWidth(m_table->minimumColumnsWidth());
        placeSplitter();
    });
    m_tableStack->addWidget(m_emptyHint);

    m_view = new RunView(thumbnails, this);
    m_view->setObjectName(QStringLiteral("historyRunView"));
    connect(m_view, &RunView::stopRequested, this, [this](const JournalRun &run) { emit stopRunsRequested({run}); });
    connect(m_view, &RunView::openInConsoleRequested, this,
            [this](const QString &language, const QString &code, const QStringList &libraries) {
                emit navigate(OpenInConsole{language, code, libraries});
            });
    m_diff = new DiffView;
    m_diffTab = m_view->addTab(m_diff, tr("Differences"));

    m_replayBackend = new QComboBox(this);
    m_replayBackend->setObjectName(QStringLiteral("replayBackend"));
    m_replayBackend->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const QString &backend : m_backends) {
        m_replayBackend->addItem(backendText(backend), backend);
    }
    m_replayButton = new QPushButton(tr("Replay"), this);
    m_replayButton->setObjectName(QStringLiteral("replayButton"));
    m_replayButton->setToolTip(tr("Run the same code, language, libraries and timeout again; the replay is a new "
                                  "run, compared with this one when it ends."));
    m_compareWithButton = new QPushButton(tr("Compare with…"), this);
    m_compareWithButton->setObjectName(QStringLiteral("compareWithButton"));
    m_compareWithButton->setToolTip(
        tr("Pick another run to compare the run shown with: output, exit code and charts."));
    // A line of its own, wrapped: a long message must not widen the pane and squeeze the table.
    m_replayStatus = new QLabel(this);
    m_replayStatus->setObjectName(QStringLiteral("replayStatus"));
    m_replayStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_replayStatus->setWordWrap(true);
    m_replayStatus->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_replayStatus->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("historyStatus"));

    m_compareAction = new QAction(tr("&Compare the Two Selected Runs"), this);
    m_compareAction->setObjectName(QStringLiteral("compareAction"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_compareAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_compareAction);
    m_compareButton = new QPushButton(tr("Compare"), this);
    m_compareButton->setObjectName(QStringLiteral("compareButton"));
    m_compareButton->setToolTip(tr("Compare the two selected runs (%1); Ctrl+click selects a second run.")
                                    .arg(m_compareAction->shortcut().toString(QKeySequence::NativeText)));

    auto *replayBar = new QHBoxLayout;
    replayBar->addWidget(new QLabel(tr("Replay on:"), this));
    replayBar->addWidget(m_replayBackend);
    replayBar->addWidget(m_replayButton);
    replayBar->addStretch(1);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(replayBar);
    rightLayout->addWidget(m_replayStatus);
    rightLayout->addWidget(m_view, 1);

    m_splitter = new AdaptiveSplitter(this);
    m_splitter->setObjectName(QStringLiteral("historySplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_tableStack);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto *statusBar = new QHBoxLayout;
    statusBar->addWidget(m_status, 1);
    statusBar->addWidget(m_compareWithButton);
    statusBar->addWidget(m_compareButton);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filters);
    layout->addWidget(m_splitter, 1);
    layout->addLayout(statusBar);

    connect(m_filters, &HistoryFilterBar::filterChanged, this, [this](const RunFilter &filter) {
        m_model->setFilter(filter);
        // The reset emptied the table: ask for the first page now (not at the view's next layout).
        if (m_model->canFetchMore({})) {
            m_model->fetchMore({});
        }
        updateStatus();
        dropShownRunUnlessItMatches();
    });
    // The view's own Ctrl+End stops at the last run read so far.
    auto *toLast = new QAction(m_table);
    toLast->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_End));
    toLast->setShortcutContext(Qt::WidgetShortcut);
    connect(toLast, &QAction::triggered, this, &HistoryPage::goToLastRun);
    m_table->addAction(toLast);
    connect(m_model, &HistoryModel::rowsInserted, this, [this](const QModelIndex &, int, int last) {
        // Pages arrive at the end; a new run on top is no page.
        if (m_goingToLast && last == m_model->rowCount() - 1) {
            selectLastRow();
            if (m_model->canFetchMore({})) {
                m_model->fetchMore({});
            }
            m_goingToLast = m_model->isFetching(); // the view may have asked for the next page itself
        }
    });
    connect(m_model, &HistoryModel::modelReset, this, [this] { m_goingToLast = false; });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_goingToLast = m_goingToLast && m_selectingLast; // the user went elsewhere meanwhile
    });
    // The run shown is selected again when the rows that arrive have it (after a new filter, say); a selection the
    // user is making (a second run Ctrl+clicked while the first is read) is left alone.
    connect(m_model, &HistoryModel::rowsInserted, this, [this] {
        const int row = m_model->rowOf(m_view->run().id);
        if (row >= 0 && !m_table->selectionModel()->hasSelection()) {
            m_table->selectRow(row);
        }
    });
    connect(m_model, &HistoryModel::totalCountChanged, this, &HistoryPage::updateStatus);
    connect(m_model, &HistoryModel::rowsInserted, this, &HistoryPage::updateStatus);
    connect(m_model, &HistoryModel::errorOccurred, this, &HistoryPage::updateStatus);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid()) {
                    inspect(current.data(HistoryModel::RunIdRole).toString());
                }
            });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPage::updateCompareAction);
    connect(m_model, &HistoryModel::modelReset, this, &HistoryPage::updateCompareAction);
    connect(m_table, &QTableView::customContextMenuRequested, this, &HistoryPage::showContextMenu);
    connect(m_replayButton, &QPushButton::clicked, this,
            [this] { replay(m_view->run().id, m_replayBackend->currentData().toString()); });
    connect(m_compareWithButton, &QPushButton::clicked, this, [this] { compareWith(m_view->run().id); });
    connect(m_compareAction, &QAction::triggered, this, [this] {
        const QStringList ids = selectedRunIds();
        if (ids.size() == 2) {
            compare(ids.at(0), ids.at(1));
        }
    });
    connect(m_compareButton, &QPushButton::clicked, m_compareAction, &QAction::trigger);

    connect(&m_controller, &EngineController::runStarted, this, [this](quint64 ticket, const QString &runId) {
        auto it = m_replays.find(ticket);
        if (it != m_replays.end()) {
            it->runId = runId;
        }
    });
    connect(&m_controller, &EngineController::runFinished, this,
            [this](quint64 ticket, const RunResult &result) { onReplayFinished(ticket, result.runId); });
    connect(&m_controller, &EngineController::runFailed, this,
            [this](quint64 ticket, const Error &error) { onReplayFinished(ticket, {}, error.message); });

    connect(&m_feed, &JournalFeed::runsChanged, this, &HistoryPage::onJournalChanged);

    updateReplayControls();
    updateCompareAction();
    updateStatus();
    m_table->measureColumns();
}

HistoryPage::~HistoryPage() = default;

QStringList HistoryPage::selectedRunIds() const
{
    QStringList ids;
    for (const QModelIndex &row : m_table->selectionModel()->selectedRows()) {
        ids << row.data(HistoryModel::RunIdRole).toString();
    }
    return ids;
}

void HistoryPage::updateCompareAction()
{
    const bool two = m_table->selectionModel()->selectedRows().size() == 2;
    m_compareAction->setEnabled(two);
    m_compareButton->setEnabled(two);
}

QString HistoryPage::selectedRunId() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(HistoryModel::RunIdRole).toString() : QString();
}

bool HistoryPage::open(const Intent &intent)
{
    const auto *show = std::get_if<ShowRun>(&intent);
    if (show) {
        showRun(show->runId);
    }
    return show;
}

void HistoryPage::showRun(const QString &runId)
{
    const int row = m_model->rowOf(runId);
    if (row >= 0) {
        m_table->selectRow(row);
        m_table->scrollTo(m_model->index(row, 0));
    }
    inspect(runId);
}

void HistoryPage::inspect(const QString &runId)
{
    if (m_follower && m_follower->runId() == runId) {
        return;
    }
    delete m_follower;
    setReplayStatus({}); // it was about the run shown before
    // The feed hands the run whole, then what it gains while it runs.
    m_follower = m_feed.follow(runId, this);
    connect(m_follower, &RunFollower::updated, this, &HistoryPage::onRunUpdated);
    connect(m_follower, &RunFollower::failed, this, [this, runId](const Error &error) {
        m_view->clear();
        setReplayStatus(tr("Cannot read run %1: %2").arg(runId, error.message));
        updateReplayControls();
    });
}

void HistoryPage::onRunUpdated(const JournalRunUpdate &update)
{
    const bool ended =
        update.run.status != RunStatus::Running && (update.whole || m_view->run().status == RunStatus::Running);
    m_view->applyUpdate(update);
    const JournalRun &run = m_view->run();
    if (update.whole && m_comparison) {
        // Shown whole: a comparison for this run is shown with it, one for another is done with.
        if (m_comparison->shownId == run.id) {
            applyComparison(true);
        } else {
            m_comparison.reset();
        }
    }
    if (!run.replayOf.isEmpty() && ended) {
        showDiffFor(run);
    }
    if (update.whole) {
        // Offer the run's own backend first: "replay" most often means "the same again".
        const int own = m_replayBackend->findData(run.backend);
        for (int i = 0; i < m_replayBackend->count(); ++i) {
            const QString backend = m_replayBackend->itemData(i).toString();
            m_replayBackend->setItemText(i,
                                         i == own ? tr("%1 (same)").arg(backendText(backend)) : backendText(backend));
        }
        if (own >= 0) {
            m_replayBackend->setCurrentIndex(own);
        }
    }
    updateReplayControls();
}

void HistoryPage::showDiffFor(const JournalRun &replay)
{
    // The original is read and compared (the pixels of charts too) on the feed's thread.
    m_feed.read<std::optional<Comparison>>(
        this,
        [replay](const JournalReader &reader) -> std::optional<Comparison> {
            Result<JournalRun> original = reader.run(replay.replayOf);
            if (!original) {
                return std::nullopt; // removed by retention: nothing to compare with
            }
            return Comparison{replay.id,
                              RunDiff::compare(*original, replay, comparePixels),
                              *original,
                              replay,
                              PixelComparison::ofRuns(original->artifacts, replay.artifacts),
                              DiffView::Sides::Replay};
        },
        [this, replayId = replay.id](const std::optional<Comparison> &compared) {
            if (!compared || m_view->run().id != replayId) {
                return;
            }
            m_comparison = compared;
            m_comparison->second = m_view->run();
            const bool justFinished = m_replayShown.runId == replayId;
            applyComparison(justFinished);
            if (justFinished) {
                const PendingReplay done = std::exchange(m_replayShown, PendingReplay{});
                setReplayStatus(tr("Replay of run %1 on %2 finished.").arg(done.originalId, backendText(done.backend)));
                emit replayFinished(done.originalId, done.runId);
            }
        });
}

void HistoryPage::compare(const QString &first, const QString &second)
{
    if (first.isEmpty() || second.isEmpty() || first == second) {
        return;
    }
    // Both runs are read whole and compared (the pixels of charts too) on the feed's thread.
    const QString shown = m_view->run().id == first ? first : second;
    m_feed.read<Result<Comparison>>(
        this,
        [first, second, shown](const JournalReader &reader) -> Result<Comparison> {
            Result<JournalRun> a = reader.run(first);
            if (!a) {
                return a.error();
            }
            Result<JournalRun> b = reader.run(second);
            if (!b) {
                return b.error();
            }
            if (b->startedAt < a->startedAt) {
                std::swap(*a, *b); // run A is the older one
            }
            return Comparison{shown,
                              RunDiff::compare(*a, *b, comparePixels),
                              *a,
                              *b,
                              PixelComparison::ofRuns(a->artifacts, b->artifacts),
                              DiffView::Sides::TwoRuns};
        },
        [this, first, second](const Result<Comparison> &compared) {
            if (!compared) {
                setReplayStatus(tr("Cannot compare runs %1 and %2: %3").arg(first, second, compared.error().message));
                return;
            }
            m_comparison = *compared;
            if (m_view->run().id == m_comparison->shownId) {
                applyComparison(true);
            } else {
                showRun(m_comparison->shownId); // shown with it once the run is (onRunUpdated)
            }
        });
}

void HistoryPage::compareWith(const QString &runId)
{
    if (runId.isEmpty()) {
        return;
    }
    auto *dialog = new CompareWithDialog(*m_model, runId, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, runId] { compare(runId, dialog->chosenRunId()); });
    dialog->open();
}

void HistoryPage::applyComparison(bool focus)
{
    if (!m_comparison || m_view->run().id != m_comparison->shownId) {
        return;
    }
    m_diff->setDiff(m_comparison->diff, m_comparison->first, m_comparison->second, m_comparison->sides,
                    m_comparison->images);
    m_view->setTabShown(m_diffTab, true);
    if (focus) {
        m_view->showTab(m_diffTab);
    }
}

void HistoryPage::setReplayStatus(const QString &text)
{
    m_replayStatus->setText(text);
    m_replayStatus->setVisible(!text.isEmpty());
}

void HistoryPage::replay(const QString &runId, const QString &backend)
{
    m_feed.read<Result<JournalRun>>(
        this, [runId](const JournalReader &reader) { return reader.run(runId); },
        [this, runId, backend](const Result<JournalRun> &run) {
            if (!run) {
                setReplayStatus(tr("Cannot replay run %1: %2").arg(runId, run.error().message));
                return;
            }
            RunRequest request;
            request.language = run->language;
            request.code = run->code;
            request.libraries = run->libraries;
            if (run->timeoutMs > 0) {
                request.timeout = std::chrono::milliseconds(run->timeoutMs);
            }
            // A session's state is gone: the replay runs the same code in a fresh sandbox.
            request.source = RunSource::Replay;
            request.replayOf = run->id;
            const quint64 ticket = m_controller.start(request, backend);
            m_replays.insert(ticket, PendingReplay{run->id, backend, {}, false});
            setReplayStatus(tr("Replaying run %1 on %2…").arg(run->id, backendText(backend)));
            updateReplayControls();
        });
}

void HistoryPage::onReplayFinished(quint64 ticket, const QString &runId, const QString &error)
{
    auto it = m_replays.find(ticket);
    if (it == m_replays.end()) {
        return;
    }
    if (!runId.isEmpty()) {
        it->runId = runId;
    }
    it->finished = true;
    if (it->runId.isEmpty()) {
        // Failed before the engine gave it an id: the journal has no run to compare.
        setReplayStatus(
            tr("The replay of run %1 on %2 failed: %3").arg(it->originalId, backendText(it->backend), error));
        m_replays.erase(it);
        updateReplayControls();
        return;
    }
    if (!error.isEmpty()) {
        setReplayStatus(
            tr("The replay of run %1 on %2 failed: %3").arg(it->originalId, backendText(it->backend), error));
    }
    // The journal records the run on its own writer thread: the diff waits until it has the end too (a run that
    // failed after it started is in the journal as Failed, and compared all the same).
    m_feed.read<bool>(
        this,
        [id = it->runId](const JournalReader &reader) {
            auto run = reader.run(id);
            return run && run->status != RunStatus::Running;
        },
        [this, ticket](bool ended) {
            if (ended) {
                completeReplay(ticket);
            }
        });
}

void HistoryPage::completeReplay(quint64 ticket)
{
    const auto it = m_replays.constFind(ticket);
    if (it == m_replays.cend() || !it->finished) {
        return;
    }
    m_replayShown = *it;
    m_replays.remove(ticket);
    if (m_view->run().id == m_replayShown.runId) {
        showDiffFor(m_view->run());
    } else {
        showRun(m_replayShown.runId); // its diff follows the whole run
    }
    updateReplayControls();
}

void HistoryPage::onJournalChanged(const QList<JournalRun> &runs)
{
    m_model->applyChanges(runs);
    for (const JournalRun &run : runs) {
        if (run.status == RunStatus::Running) {
            continue;
        }
        for (auto it = m_replays.cbegin(); it != m_replays.cend(); ++it) {
            if (it->finished && it->runId == run.id) {
                completeReplay(it.key());
                break;
            }
        }
    }
}

void HistoryPage::updateReplayControls()
{
    const JournalRun &run = m_view->run();
    const bool canReplay = !run.id.isEmpty() && !run.code.isEmpty() && !m_backends.isEmpty();
    m_replayButton->setEnabled(canReplay);
    m_replayBackend->setEnabled(canReplay);
    m_compareWithButton->setEnabled(!run.id.isEmpty());
}

void HistoryPage::updateStatus()
{
    const int total = m_model->totalCount();
    // No run to list: say why and how to get some, instead of an empty table.
    const RunFilter &filter = m_model->filter();
    const bool filtered = !filter.language.isEmpty() || filter.status || filter.outcome || !filter.sources.isEmpty() ||
                          filter.from.isValid() || filter.to.isValid() || !filter.text.isEmpty();
    const bool empty = m_model->rowCount() == 0 && (total == 0 || !m_model->lastError().isEmpty());
    if (!m_model->lastError().isEmpty()) {
        m_emptyHint->setText(tr("The run journal cannot be read: %1").arg(m_model->lastError()));
    } else if (filtered) {
        m_emptyHint->setText(tr("No run matches these filters. Clear them to see every run."));
    } else {
        m_emptyHint->setText(tr("No runs yet.\n\nRun code on the Console page, or connect an assistant (File ▸ "
                                "Connect an Assistant…): every run, with its output and charts, is listed here."));
    }
    m_tableStack->setCurrentWidget(empty ? static_cast<QWidget *>(m_emptyHint) : m_table);
    if (!m_model->lastError().isEmpty()) {
        m_status->setText(tr("Cannot read the journal: %1").arg(m_model->lastError()));
        return;
    }
    if (total < 0) {
        m_status->setText(tr("Counting runs…"));
        return;
    }
    const QLocale locale;
    m_status->setText((total == 1 ? tr("1 run") : tr("%L1 runs").arg(total)) +
                      (m_model->rowCount() < total
                           ? tr(" · %1 loaded, more as you scroll").arg(locale.toString(m_model->rowCount()))
                           : QString()));
}

void HistoryPage::showContextMenu(const QPoint &position)
{
    const QModelIndex index = m_table->indexAt(position);
    if (!index.isValid()) {
        return;
    }
    const QString runId = index.data(HistoryModel::RunIdRole).toString();
    QMenu menu(this);
    QMenu *replayMenu = menu.addMenu(tr("Replay on"));
    replayMenu->setEnabled(!m_backends.isEmpty());
    const QString ownBackend = m_model->runAt(index.row()).backend;
    for (const QString &backend : m_backends) {
        QAction *action = replayMenu->addAction(backend == ownBackend ? tr("%1 (same)").arg(backendText(backend))
                                                                      : backendText(backend));
        connect(action, &QAction::triggered, this, [this, runId, backend] { replay(runId, backend); });
    }
    menu.addSeparator();
    menu.addAction(m_compareAction);
    menu.addAction(tr("Compare &With…"), this, [this, runId] { compareWith(runId); });
    menu.addSeparator();
    if (const JournalRun run = m_model->runAt(index.row()); run.status == RunStatus::Running) {
        QAction *stop = menu.addAction(tr("&Stop Run"), this, [this, run] { emit stopRunsRequested({run}); });
        stop->setEnabled(!run.stopRequested);
    }
    menu.addAction(tr("Copy run ID"), this, [runId] { QApplication::clipboard()->setText(runId); });
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

QString HistoryPage::title() const
{
    return tr("History");
}

QIcon HistoryPage::icon() const
{
    return themedIcon(QStringLiteral(":/icons/page-history.svg"), palette());
}

void HistoryPage::saveState(QSettings &settings) const
{
    kSplits.write(settings, m_splitter->saveSplits());
}

void HistoryPage::restoreState(const QSettings &settings)
{
    m_splitter->restoreSplits(kSplits.read(settings));
}

void HistoryPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    placeSplitter();
}

void HistoryPage::resizeEvent(QResizeEvent *event)
{
    Page::resizeEvent(event);
    placeSplitter();
}

void HistoryPage::placeSplitter()
{
    if (!isVisible()) {
        return;
    }
    // Every column at its preferred width (the code's widest first line, up to 40 characters).
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const int columns = m_table->preferredColumnsWidth();
    const QWidget *runPane = m_splitter->widget(1);
    const int runPaneWidth = std::max(runPane->minimumSizeHint().width(), digit * 45);
    const int wide =
        width() - layout()->contentsMargins().left() - layout()->contentsMargins().right() - m_splitter->handleWidth();
    // Too narrow for the columns and the run side by side (a 1024 px window): as mail readers do, the run below the
    // table, both as wide as the page, no column elided; beside it where there is room (1920 px). Decided again as the
    // window is resized; the user's split is kept for each orientation.
    if (wide - columns < runPaneWidth) {
        m_splitter->place(Qt::Vertical, 2, 3);
        return;
    }
    // Some more room for longer code, at most 60 % of the page.
    const int table = std::clamp(columns + digit * 10, m_tableStack->minimumWidth(),
                                 std::max(m_tableStack->minimumWidth(), wide * 3 / 5));
    m_splitter->place(Qt::Horizontal, table, std::max(0, wide - table));
}

void HistoryPage::dropShownRunUnlessItMatches()
{
    const JournalRun &shown = m_view->run();
    if (shown.id.isEmpty()) {
        return;
    }
    // Asked of the journal: the run may match and still be beyond the pages the table reads first. A summary carries
    // no code or output, so the text filter is the journal's to answer (as HistoryModel::applyChanges asks it).
    RunFilter filter = m_model->filter();
    filter.from = filter.to = shown.startedAt;
    m_feed.read<bool>(
        this,
        [filter, id = shown.id](const JournalReader &reader) {
            auto runs = reader.list(filter, 0, 100);
            return !runs || // a failed read takes nothing away
                   std::any_of(runs->cbegin(), runs->cend(), [&id](const JournalRun &run) { return run.id == id; });
        },
        [this, id = shown.id, generation = ++m_filterGeneration](bool matches) {
            if (matches || generation != m_filterGeneration || m_view->run().id != id) {
                return;
            }
            delete m_follower;
            m_follower = nullptr;
            m_comparison.reset();
            m_view->clear();
            setReplayStatus({});
            updateReplayControls();
        });
}

void HistoryPage::goToLastRun()
{
    m_goingToLast = true;
    selectLastRow();
    if (m_model->canFetchMore({})) {
        m_model->fetchMore({});
    }
    m_goingToLast = m_model->isFetching();
}

void HistoryPage::selectLastRow()
{
    const int last = m_model->rowCount() - 1;
    if (last < 0) {
        return;
    }
    const QScopedValueRollback selecting(m_selectingLast, true);
    const int column = std::max(0, m_table->currentIndex().column());
    m_table->selectionModel()->setCurrentIndex(m_model->index(last, column),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollToBottom();
}

} // namespace sandbox::gui
