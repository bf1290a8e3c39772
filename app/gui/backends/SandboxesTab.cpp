#include "gui/backends/SandboxesTab.h"

#include "AppContext.h"
#include "ErrorText.h"
#include "engine/ContainerSpecFactory.h"
#include "engine/OrphanReaper.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/SandboxTableModel.h"
#include "journal/JournalReader.h"
#include "journal/RunJournal.h"
#include "lang/LanguageRegistry.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

constexpr auto kSandboxRefresh = std::chrono::seconds(3);
/// How long a run in a sandbox being stopped has to end through its own process before the sandbox is removed.
constexpr auto kRunStopGrace = std::chrono::seconds(5);

} // namespace

SandboxesTab::SandboxesTab(BackendPanel &panel) : m_panel(panel)
{
    setObjectName(QStringLiteral("sandboxesTab"));
    m_sandboxModel = new SandboxTableModel(this);
    m_sandboxesView = BackendPanel::makeTable(m_sandboxModel, QStringLiteral("sandboxesView"));
    m_sandboxesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The numbers stay next to each other; the free width is left over at the right.
    m_sandboxesView->horizontalHeader()->setStretchLastSection(false);
    connect(m_sandboxesView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SandboxesTab::updateButtons);
    m_sandboxesSummary = new QLabel;
    m_sandboxesSummary->setObjectName(QStringLiteral("sandboxesSummary"));
    m_sandboxesSummary->setWordWrap(true);
    m_warmPool = new QLabel;
    m_warmPool->setObjectName(QStringLiteral("warmPool"));
    m_warmPool->setWordWrap(true);
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName(QStringLiteral("stopSandbox"));
    m_stop->setToolTip(tr("Remove the selected sandbox container (a run in it ends as stopped)."));
    connect(m_stop, &QPushButton::clicked, this, &SandboxesTab::stopSelected);
    m_showRun = new QPushButton(tr("Show &Run"));
    m_showRun->setObjectName(QStringLiteral("showSandboxRun"));
    m_showRun->setToolTip(tr("Open the run the selected sandbox runs now in the live log."));
    const auto showRun = [this] {
        if (const JournalRun *run = m_sandboxModel->runIn(selectedSandbox())) {
            emit showRunRequested(run->id);
        }
    };
    connect(m_showRun, &QPushButton::clicked, this, showRun);
    connect(m_sandboxesView, &QAbstractItemView::doubleClicked, this, showRun);
    m_removeLeftovers = new QPushButton(tr("Remove leftovers"));
    m_removeLeftovers->setObjectName(QStringLiteral("removeLeftovers"));
    m_removeLeftovers->setToolTip(tr("Remove the containers of llm-sandbox processes of this computer that ended "
                                     "without removing them (crashed or killed)."));
    connect(m_removeLeftovers, &QPushButton::clicked, this, &SandboxesTab::removeLeftovers);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_stop);
    buttons->addWidget(m_showRun);
    buttons->addStretch();
    buttons->addWidget(m_removeLeftovers);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_sandboxesView, 1);
    layout->addWidget(m_warmPool);
    layout->addWidget(m_sandboxesSummary);
    layout->addLayout(buttons);

    connect(&m_sandboxesReading, &QFutureWatcherBase::finished, this, [this] {
        showSandboxes(m_sandboxesReading.result());
        emit sandboxesLoaded();
    });
    connect(&m_removing, &QFutureWatcherBase::finished, this, [this] {
        m_sandboxesSummary->setText(m_removing.result());
        updateButtons();
        refreshSandboxes();
    });
    m_timer = new QTimer(this);
    m_timer->setInterval(kSandboxRefresh);
    connect(m_timer, &QTimer::timeout, this, &SandboxesTab::refreshSandboxes);
    updateButtons();
}

SandboxesTab::~SandboxesTab()
{
    for (QFutureWatcherBase *watcher : std::initializer_list<QFutureWatcherBase *>{&m_sandboxesReading, &m_removing}) {
        watcher->disconnect(this);
        watcher->waitForFinished();
    }
}

void SandboxesTab::refreshSandboxes()
{
    if (m_sandboxesReading.isRunning()) {
        return;
    }
    if (!m_panel.backend()) {
        m_sandboxesSummary->setText(errorText(m_panel.backend().error()));
        return;
    }
    m_sandboxesReading.setFuture(QtConcurrent::run([backend = *m_panel.backend(), app = &m_panel.app()] {
        const ImageCatalog catalog = app->catalog();
        const SandboxInventory inventory(*backend, catalog);
        SandboxesNow now{.sandboxes = inventory.list()};
        if (auto leftovers = inventory.leftovers()) {
            now.leftovers = int(leftovers->size());
        }
        // Which sandbox runs which run: the journal, where every process records the container of its runs.
        if (!app->journalPath().isEmpty()) {
            if (auto runs = JournalReader(app->journalPath()).runningByContainer()) {
                now.runs = *runs;
            }
        }
        return now;
    }));
}

void SandboxesTab::showSandboxes(const SandboxesNow &now)
{
    if (!now.sandboxes) {
        m_sandboxModel->setSandboxes({});
        m_sandboxesSummary->setText(errorText(now.sandboxes.error()));
        m_warmPool->clear();
        updateButtons();
        return;
    }
    m_sandboxModel->setSandboxes(*now.sandboxes, now.runs);
    QMap<QString, int> warm;
    for (const SandboxEntry &sandbox : *now.sandboxes) {
        // A busy sandbox is not in the pool: only those waiting for a run are.
        if (sandbox.session.isEmpty() && !sandbox.language.isEmpty() && !now.runs.contains(sandbox.container.id)) {
            ++warm[sandbox.language];
        }
    }
    QStringList pool;
    for (auto it = warm.cbegin(); it != warm.cend(); ++it) {
        const auto language = LanguageRegistry::instance().find(it.key());
        pool << QStringLiteral("%1 %2").arg(language ? language->displayName : it.key()).arg(it.value());
    }
    m_warmPool->setText(
        pool.isEmpty() ? tr("Warm pool: empty")
                       : tr("Warm pool (idle sandboxes without a session): %1").arg(pool.join(QStringLiteral(" · "))));
    QString summary = tr("%n sandbox(es) running, of every llm-sandbox process.", nullptr, int(now.sandboxes->size()));
    summary += u' ' + (now.leftovers == 0 ? tr("No leftovers of ended processes.")
                                          : tr("%n leftover(s) of ended processes.", nullptr, now.leftovers));
    m_sandboxesSummary->setText(summary);
    m_removeLeftovers->setProperty("leftovers", now.leftovers);
    updateButtons();
}

void SandboxesTab::stopSandbox(const QString &id, const QString &runId)
{
    if (id.isEmpty() || !m_panel.backend() || m_removing.isRunning()) {
        return;
    }
    m_removing.setFuture(
        QtConcurrent::run([backend = *m_panel.backend(), id, runId, journalPath = m_panel.app().journalPath()] {
            // A run in it is stopped first, by the process that runs it: the run then reads "Stopped by you after
            // N s" (the journal, the assistant's answer), not "the sandbox stopped unexpectedly".
            if (!runId.isEmpty() && !journalPath.isEmpty()) {
                if (auto journal = RunJournal::open(journalPath); journal && (*journal)->requestStop({runId})) {
                    const JournalReader reader(journalPath);
                    QDeadlineTimer deadline(kRunStopGrace);
                    for (;;) {
                        const auto running = reader.runningByContainer();
                        if (!running || !running->contains(id) || deadline.hasExpired()) {
                            break;
                        }
                        QThread::msleep(100);
                    }
                }
            }
            const auto removed = backend->removeContainer(id);
            return removed ? tr("Stopped %1.").arg(id.left(12)) : errorText(removed.error());
        }));
    updateButtons();
}

void SandboxesTab::stopSelected()
{
    const QModelIndexList rows = m_sandboxesView->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return;
    }
    const QString id = rows.first().data(Qt::UserRole).toString();
    const qint64 owner = rows.first().data(SandboxTableModel::OwnerPidRole).toLongLong();
    if (owner != QCoreApplication::applicationPid()) {
        const QString ownerText = rows.first().siblingAtColumn(SandboxTableModel::OwnerColumn).data().toString();
        const JournalRun *run = m_sandboxModel->runIn(id);
        QMessageBox question(QMessageBox::Question, tr("Stop a Sandbox of Another Process"),
                             run ? tr("%1 owns this sandbox, and a run is in it now: stopping the sandbox ends that "
                                      "run.")
                                       .arg(ownerText)
                                 : tr("%1 owns this sandbox: it starts another when it needs one.").arg(ownerText),
                             QMessageBox::NoButton, this);
        question.setObjectName(QStringLiteral("stopSandboxQuestion"));
        question.setInformativeText(tr("Stop sandbox %1?").arg(id.left(12)));
        QPushButton *stop = question.addButton(tr("Stop Sandbox"), QMessageBox::AcceptRole);
        question.addButton(QMessageBox::Cancel);
        question.setDefaultButton(QMessageBox::Cancel);
        question.exec();
        // The sandbox asked about, whatever the refresh did meanwhile.
        if (question.clickedButton() != stop) {
            return;
        }
    }
    stopSandbox(id, rows.first().data(SandboxTableModel::RunIdRole).toString());
}

void SandboxesTab::removeLeftovers()
{
    if (!m_panel.backend() || m_removing.isRunning()) {
        return;
    }
    m_removing.setFuture(QtConcurrent::run([backend = *m_panel.backend()] {
        const int removed = OrphanReaper(*backend, ContainerSpecFactory::ownerLabel()).removeOrphans();
        return tr("Removed %n leftover container(s).", nullptr, removed);
    }));
    updateButtons();
}

void SandboxesTab::setLive(bool live)
{
    m_live = live;
    if (!live) {
        m_timer->stop();
    } else if (isVisible()) {
        m_timer->start();
    }
}

QString SandboxesTab::selectedSandbox() const
{
    const QModelIndexList rows = m_sandboxesView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(Qt::UserRole).toString();
}

void SandboxesTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refreshSandboxes();
    if (m_live) {
        m_timer->start();
    }
}

void SandboxesTab::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

void SandboxesTab::updateButtons()
{
    m_stop->setEnabled(!m_removing.isRunning() && !selectedSandbox().isEmpty());
    m_showRun->setEnabled(m_sandboxModel->runIn(selectedSandbox()) != nullptr);
    m_removeLeftovers->setEnabled(!m_removing.isRunning() && m_removeLeftovers->property("leftovers").toInt() > 0);
}

} // namespace sandbox::gui
