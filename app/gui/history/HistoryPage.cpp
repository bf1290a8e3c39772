#include "gui/history/HistoryPage.h"

#include "gui/EngineController.h"
#include "gui/RunText.h"
#include "gui/history/DiffView.h"
#include "gui/history/HistoryFilterBar.h"
#include "gui/history/HistoryModel.h"
#include "gui/history/PixelComparison.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThemedIcon.h"
#include "journal/JournalFeed.h"
#include "journal/RunDiff.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {
const SettingsKey<QByteArray> kSplitterState{"splitter"};
} // namespace

HistoryPage::HistoryPage(JournalFeed &feed, ThumbnailProvider &thumbnails, EngineController &controller,
                         QStringList backends, QWidget *parent)
    : Page(parent), m_feed(feed), m_controller(controller), m_backends(std::move(backends))
{
    setObjectName(QStringLiteral("historyPage"));
    m_filters = new HistoryFilterBar(this);
    m_model = new HistoryModel(feed, this);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_table->setColumnWidth(HistoryModel::StartedColumn, digit * 21);
    m_table->setColumnWidth(HistoryModel::SourceColumn, digit * 14);
    m_table->setColumnWidth(HistoryModel::LanguageColumn, digit * 12);
    m_table->setColumnWidth(HistoryModel::StatusColumn, digit * 12);
    m_table->setColumnWidth(HistoryModel::OutcomeColumn, digit * 14);
    m_table->setColumnWidth(HistoryModel::DurationColumn, digit * 10);

    m_view = new RunView(thumbnails, this);
    m_view->setObjectName(QStringLiteral("historyRunView"));
    m_diff = new DiffView;
    m_diffTab = m_view->addTab(m_diff, tr("Replay diff"));

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
    m_replayStatus = new QLabel(this);
    m_replayStatus->setObjectName(QStringLiteral("replayStatus"));
    m_replayStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("historyStatus"));

    auto *replayBar = new QHBoxLayout;
    replayBar->addWidget(m_replayStatus, 1);
    replayBar->addWidget(new QLabel(tr("Replay on:"), this));
    replayBar->addWidget(m_replayBackend);
    replayBar->addWidget(m_replayButton);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(replayBar);
    rightLayout->addWidget(m_view, 1);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("historySplitter"));
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filters);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_status);

    connect(m_filters, &HistoryFilterBar::filterChanged, this, [this](const RunFilter &filter) {
        m_model->setFilter(filter);
        // The reset emptied the table: ask for the first page now (not at the view's next layout).
        if (m_model->canFetchMore({})) {
            m_model->fetchMore({});
        }
        updateStatus();
    });
    // The run shown stays selected when the rows that arrive have it (after a new filter, say).
    connect(m_model, &HistoryModel::rowsInserted, this, [this] {
        const int row = m_model->rowOf(m_view->run().id);
        if (row >= 0 && selectedRunId() != m_view->run().id) {
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
    connect(m_table, &QTableView::customContextMenuRequested, this, &HistoryPage::showContextMenu);
    connect(m_replayButton, &QPushButton::clicked, this,
            [this] { replay(m_view->run().id, m_replayBackend->currentData().toString()); });

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
    updateStatus();
}

HistoryPage::~HistoryPage() = default;

QString HistoryPage::selectedRunId() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(HistoryModel::RunIdRole).toString() : QString();
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
    // The feed hands the run whole, then what it gains while it runs.
    m_follower = m_feed.follow(runId, this);
    connect(m_follower, &RunFollower::updated, this, &HistoryPage::onRunUpdated);
    connect(m_follower, &RunFollower::failed, this, [this, runId](const Error &error) {
        m_view->clear();
        m_replayStatus->setText(tr("Cannot read run %1: %2").arg(runId, error.message));
        updateReplayControls();
    });
}

void HistoryPage::onRunUpdated(const JournalRunUpdate &update)
{
    const bool ended =
        update.run.status != RunStatus::Running && (update.whole || m_view->run().status == RunStatus::Running);
    m_view->applyUpdate(update);
    const JournalRun &run = m_view->run();
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
    using Compared = std::optional<std::pair<RunDiff, JournalRun>>;
    m_feed.read<Compared>(
        this,
        [replay](const JournalReader &reader) -> Compared {
            Result<JournalRun> original = reader.run(replay.replayOf);
            if (!original) {
                return std::nullopt; // removed by retention: nothing to compare with
            }
            return std::pair{RunDiff::compare(*original, replay, comparePixels), *original};
        },
        [this, replayId = replay.id](const Compared &compared) {
            if (!compared || m_view->run().id != replayId) {
                return;
            }
            m_diff->setDiff(compared->first, compared->second, m_view->run());
            m_view->setTabShown(m_diffTab, true);
            if (m_replayShown.runId == replayId) {
                const PendingReplay done = std::exchange(m_replayShown, PendingReplay{});
                m_view->showTab(m_diffTab);
                m_replayStatus->setText(
                    tr("Replay of run %1 on %2 finished.").arg(done.originalId, backendText(done.backend)));
                emit replayFinished(done.originalId, done.runId);
            }
        });
}

void HistoryPage::replay(const QString &runId, const QString &backend)
{
    m_feed.read<Result<JournalRun>>(
        this, [runId](const JournalReader &reader) { return reader.run(runId); },
        [this, runId, backend](const Result<JournalRun> &run) {
            if (!run) {
                m_replayStatus->setText(tr("Cannot replay run %1: %2").arg(runId, run.error().message));
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
            request.origin = QStringLiteral("replay");
            request.replayOf = run->id;
            const quint64 ticket = m_controller.start(request, backend);
            m_replays.insert(ticket, PendingReplay{run->id, backend, {}, false});
            m_replayStatus->setText(tr("Replaying run %1 on %2…").arg(run->id, backend));
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
        m_replayStatus->setText(tr("The replay of run %1 on %2 failed: %3").arg(it->originalId, it->backend, error));
        m_replays.erase(it);
        updateReplayControls();
        return;
    }
    if (!error.isEmpty()) {
        m_replayStatus->setText(tr("The replay of run %1 on %2 failed: %3").arg(it->originalId, it->backend, error));
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
}

void HistoryPage::updateStatus()
{
    if (!m_model->lastError().isEmpty()) {
        m_status->setText(tr("Cannot read the journal: %1").arg(m_model->lastError()));
        return;
    }
    const int total = m_model->totalCount();
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
    const QString ownBackend = m_model->run(index.row()).backend;
    for (const QString &backend : m_backends) {
        QAction *action = replayMenu->addAction(backend == ownBackend ? tr("%1 (same)").arg(backendText(backend))
                                                                      : backendText(backend));
        connect(action, &QAction::triggered, this, [this, runId, backend] { replay(runId, backend); });
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
    kSplitterState.write(settings, m_splitter->saveState());
}

void HistoryPage::restoreState(const QSettings &settings)
{
    m_splitter->restoreState(kSplitterState.read(settings));
}

} // namespace sandbox::gui
