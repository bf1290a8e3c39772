#include "gui/MainWindow.h"

#include "AppContext.h"
#include "ErrorText.h"
#include "gui/AppTheme.h"
#include "gui/DesktopApp.h"
#include "gui/EngineController.h"
#include "gui/GuiSettings.h"
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/activity/RunningRuns.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/BackendsPage.h"
#include "gui/backends/ConnectionTab.h"
#include "gui/connect/ConnectAssistantDialog.h"
#include "gui/console/ConsolePage.h"
#include "gui/gallery/GalleryPage.h"
#include "gui/help/DocumentationDialog.h"
#include "gui/history/HistoryPage.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/server/ServerClientsModel.h"
#include "gui/server/ServerPage.h"
#include "gui/settings/SettingsDialog.h"
#include "gui/statistics/StatisticsPage.h"
#include "gui/tray/TrayIcon.h"
#include "gui/widgets/CommandPalette.h"
#include "journal/JournalFeed.h"
#include "mcp/McpHost.h"
#include "settings/UserSettings.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QGuiApplication>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QTimer>

namespace sandbox::gui {

namespace {

/// How often the status bar asks the default backend again while it answers, and while it does not.
constexpr std::chrono::seconds kProbeWhileReady{15};
constexpr std::chrono::seconds kProbeWhileAway{3};

/// The window's own state in the GUI settings (guiSettings); each page keeps its own under kPagesGroup.
const SettingsKey<QByteArray> kGeometry{"gui/geometry"};
const SettingsKey<QByteArray> kWindowState{"gui/windowState"};
const SettingsKey<QByteArray> kNavigationSplitter{"gui/navigationSplitter"};
const SettingsKey<int> kCurrentPage{"gui/currentPage", 0};
const SettingsKey<QString> kTheme{"gui/theme", QStringLiteral("system")};
constexpr QLatin1String kPagesGroup("gui/pages/");

QString dot(const QString &color)
{
    return QStringLiteral("<span style='color:%1'>●</span>").arg(color);
}

} // namespace

MainWindow::MainWindow(DesktopApp &app, QWidget *parent)
    : QMainWindow(parent), m_app(app), m_context(app.context()), m_controller(&app.controller()),
      m_server(&app.server())
{
    setWindowTitle(tr("LLM Sandbox"));
    setObjectName(QStringLiteral("mainWindow"));
    resize(1200, 780);

    m_navigation = new QListWidget;
    m_navigation->setObjectName(QStringLiteral("navigation"));
    m_navigation->setIconSize(QSize(20, 20));
    m_navigation->setSpacing(2);
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setMinimumWidth(150);
    m_navigation->setMaximumWidth(260);
    // The side bar reads as chrome, not content: the window's colour behind it.
    m_navigation->setAutoFillBackground(false);
    m_navigation->viewport()->setAutoFillBackground(false);
    m_pages = new QStackedWidget;
    m_pages->setObjectName(QStringLiteral("pages"));

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("navigationSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_navigation);
    m_splitter->addWidget(m_pages);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({180, 1020});
    setCentralWidget(m_splitter);

    createMenus();
    createPages();
    fillRunMenu();
    connect(m_navigation, &QListWidget::currentRowChanged, this, [this](int row) {
        m_pages->setCurrentIndex(row);
        auto *page = qobject_cast<Page *>(m_pages->currentWidget());
        m_find->setEnabled(page && page->findField());
        if (page) {
            page->shown();
        }
    });
    createStatusBar();
    connect(m_controller, &EngineController::runningCountChanged, this, &MainWindow::updateRunningState);
    connect(&m_app.running(), &RunningRuns::changed, this, &MainWindow::updateRunningState);
    createTray();
    connect(m_controller, &EngineController::backendProbed, this, &MainWindow::showProbe);
    connect(m_controller, &EngineController::runFailed, this, [this](quint64, const Error &error) {
        if (error.code == ErrorCode::EngineUnreachable) {
            probeBackend();
        }
    });
    connect(&m_context.userSettings(), &UserSettings::changed, this, [this] {
        m_console->setDefaultTimeout(m_context.userSettings().defaultTimeout());
        applyDefaultBackend();
        // Settings → Folders and Network: the next sandboxes get the new folders and ceiling (the engines made so far
        // are retired).
        m_context.reloadSandboxSettings();
        const SandboxSettings settings = m_context.settings();
        m_console->setSharedFolders(settings.sharedFolders);
        m_console->setNetworkAllow(settings.networkAllow);
    });

    restoreState();
    probeBackend();
    m_serverPage->startIfWanted();
}

MainWindow::~MainWindow()
{
    m_context.onJournalProblem({});
    // The pages before the services they use (the DesktopApp outlives the window).
    delete takeCentralWidget();
}

void MainWindow::createPages()
{
    auto *liveLog = new LiveLogPage(m_app.journal(), m_app.thumbnails());
    m_console = new ConsolePage(*m_controller, m_app.thumbnails());
    m_console->setDefaultTimeout(m_context.userSettings().defaultTimeout());
    m_console->setSharedFolders(m_context.settings().sharedFolders);
    m_console->setNetworkAllow(m_context.settings().networkAllow);
    m_backends = new BackendsPage(m_context, m_app.secrets());
    m_serverPage = new ServerPage(*m_server, m_app.secrets(), m_context.userSettings());
    // In the navigation's order (Ctrl+1 …).
    for (Page *page : std::initializer_list<Page *>{
             liveLog, m_console, new HistoryPage(m_app.journal(), m_app.thumbnails(), *m_controller, m_app.backends()),
             new GalleryPage(m_app.journal(), m_app.thumbnails()), new StatisticsPage(m_app.journal()), m_backends,
             m_serverPage}) {
        addPage(page);
    }
    // A saved connection applies at once (BackendPanel::save): the status bar asks the default backend again.
    connect(m_backends, &BackendsPage::connectionApplied, this, [this](const QString &backend) {
        if (backend == m_context.defaultBackend()) {
            probeBackend();
        }
    });
}

void MainWindow::createTray()
{
    if (!QSystemTrayIcon::isSystemTrayAvailable()) {
        return;
    }
    m_tray = new TrayIcon(this);
    // The app may live on in the tray with no window: it ends by quit() (closeEvent), not with its last window.
    QApplication::setQuitOnLastWindowClosed(false);
    connect(m_tray, &TrayIcon::showWindowRequested, this, &MainWindow::bringForward);
    connect(m_tray, &TrayIcon::quitRequested, this, &MainWindow::quit);
    connect(m_server, &mcp::McpHost::stateChanged, this, &MainWindow::updateTray);
    connect(m_server, &mcp::McpHost::sessionsChanged, this, &MainWindow::updateTray);
    connect(&m_app.running(), &RunningRuns::runEnded, this, [this](const JournalRun &run) {
        if (const auto notification = TrayStatus::notificationFor(run, isActiveWindow())) {
            m_tray->notify(*notification);
        }
    });
    updateTray();
}

void MainWindow::showProbe(const QString &backend, const BackendInfo &info, const QString &error, ErrorCode code)
{
    if (error.isEmpty()) {
        m_backendState->setText(
            tr("%1 %2 %3 · ready")
                .arg(dot(StateColors::of(palette()).succeeded.name()), backendText(backend), info.version));
        m_backendState->setToolTip(tr("%1 at %2\nAPI %3, %4%5")
                                       .arg(backendText(backend), info.endpoint, info.apiVersion, info.os,
                                            info.rootless ? tr(", rootless") : QString()));
    } else {
        m_backendState->setText(
            tr("%1 %2 · unavailable").arg(dot(StateColors::of(palette()).failed.name()), backendText(backend)));
        m_backendState->setToolTip(QStringLiteral("<p>%1</p>").arg(htmlWithCode(errorText(Error{error, code}))));
    }
    // The Backends page says the same until its own test says more (not "not tested yet").
    if (BackendPanel *panel = m_backends->panel(backend)) {
        panel->connectionTab()->showReachable(info, error);
    }
    // Soon again while it is away (to say when it is back), now and then while it answers.
    m_probeTimer->start(error.isEmpty() ? kProbeWhileReady : kProbeWhileAway);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_backendState && event->type() == QEvent::MouseButtonRelease) {
        navigate(ShowBackend{m_controller->defaultBackend()});
        return true;
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::navigate(const Intent &intent)
{
    for (int index = 0; index < m_pageList.size(); ++index) {
        if (m_pageList.at(index)->open(intent)) {
            showPage(index);
            return;
        }
    }
}

int MainWindow::addPage(Page *page)
{
    const int index = m_pages->addWidget(page);
    m_pageList.append(page);
    auto *item = new QListWidgetItem(page->icon(), page->title(), m_navigation);
    item->setSizeHint(QSize(0, m_navigation->fontMetrics().height() + 18));
    // Its number as the View menu's mnemonic: a page's title has no letter free in every language.
    auto *action = new QAction(page->icon(), tr("&%1 %2").arg(index + 1).arg(page->title()), this);
    if (index < 9) {
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + index)));
    }
    action->setProperty(CommandPalette::kCommandTextProperty, tr("Go to %1").arg(page->title()));
    connect(action, &QAction::triggered, this, [this, index] { showPage(index); });
    m_viewMenu->insertAction(m_pagesSeparator, action);
    connect(page, &Page::navigate, this, &MainWindow::navigate);
    connect(page, &Page::stopRunsRequested, this, &MainWindow::stopRuns);
    if (m_navigation->currentRow() < 0) {
        m_navigation->setCurrentRow(0);
    }
    return index;
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() != QEvent::PaletteChange && event->type() != QEvent::ApplicationPaletteChange) {
        return;
    }
    // Once every widget has the new palette (the pages may get theirs after the window).
    QMetaObject::invokeMethod(
        this,
        [this] {
            const QList<QAction *> menu = m_viewMenu->actions(); // the pages' actions first, in their order
            for (int index = 0; index < m_pageList.size(); ++index) {
                const QIcon icon = m_pageList.at(index)->icon();
                m_navigation->item(index)->setIcon(icon);
                menu.at(index)->setIcon(icon);
            }
        },
        Qt::QueuedConnection);
}

void MainWindow::showPage(int index)
{
    m_navigation->setCurrentRow(index);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *settings = file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
    settings->setObjectName(QStringLiteral("settingsAction"));
    settings->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settings->setMenuRole(QAction::PreferencesRole);
    QAction *connectAssistant = file->addAction(tr("Connect an &Assistant…"), this, &MainWindow::connectAssistant);
    connectAssistant->setObjectName(QStringLiteral("connectAssistantAction"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &MainWindow::quit);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    // Filled with the console's actions once it exists (fillRunMenu).
    m_runMenu = menuBar()->addMenu(tr("&Run"));
    m_runMenu->setObjectName(QStringLiteral("runMenu"));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_pagesSeparator = m_viewMenu->addSeparator();
    m_find = m_viewMenu->addAction(tr("&Find in Page"), this, [this] {
        if (auto *page = qobject_cast<Page *>(m_pages->currentWidget()); page && page->findField()) {
            page->findField()->setFocus(Qt::ShortcutFocusReason);
            if (auto *field = qobject_cast<QLineEdit *>(page->findField())) {
                field->selectAll();
            }
        }
    });
    m_find->setObjectName(QStringLiteral("findAction"));
    m_find->setShortcut(QKeySequence::Find);
    m_palette = new CommandPalette(this);
    m_viewMenu->addAction(m_palette->openAction());
    connect(m_palette->openAction(), &QAction::triggered, this, &MainWindow::openCommandPalette);
    m_viewMenu->addSeparator();
    QMenu *theme = m_viewMenu->addMenu(tr("&Theme"));
    m_themes = new QActionGroup(this);
    const auto addTheme = [&](const QString &title, AppTheme::Mode mode) {
        QAction *action = theme->addAction(title);
        action->setCheckable(true);
        action->setData(AppTheme::toString(mode));
        m_themes->addAction(action);
        connect(action, &QAction::triggered, this, [mode] { AppTheme::apply(mode); });
    };
    addTheme(tr("&System"), AppTheme::Mode::System);
    addTheme(tr("&Light"), AppTheme::Mode::Light);
    addTheme(tr("&Dark"), AppTheme::Mode::Dark);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *documentation = help->addAction(tr("&Documentation"), this, &MainWindow::showDocumentation);
    documentation->setObjectName(QStringLiteral("documentationAction"));
    documentation->setShortcut(QKeySequence::HelpContents);
    help->addSeparator();
    help->addAction(tr("&About LLM Sandbox"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::fillRunMenu()
{
    m_runMenu->addAction(m_console->runAction());
    m_runMenu->addAction(m_console->stopAction());
    m_runMenu->addSeparator();
    // Every run in progress, the Console's, the app's server's and those of other processes.
    QAction *stopAll = m_runMenu->addAction(tr("Stop &All Runs"), this, [this] {
        if (stopRuns(m_app.running().runs())) {
            m_controller->cancelAll();
        }
    });
    stopAll->setObjectName(QStringLiteral("stopAllRunsAction"));
    stopAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Period));
    stopAll->setToolTip(tr("Stop every run in progress: the Console's, assistants' and other programs'"));
    const auto updateStopAll = [this, stopAll] {
        stopAll->setEnabled(m_app.running().count() > 0 || m_controller->runningCount() > 0);
    };
    connect(&m_app.running(), &RunningRuns::changed, stopAll, updateStopAll);
    connect(m_controller, &EngineController::runningCountChanged, stopAll, updateStopAll);
    updateStopAll();
    connect(&m_app.running(), &RunningRuns::stopFailed, this, [this](const QString &problem) {
        statusBar()->showMessage(tr("The run could not be asked to stop: %1").arg(problem), 10000);
    });
    // Run and Stop work wherever the focus is in the window; Run brings the console forward.
    addAction(m_console->runAction());
    addAction(m_console->stopAction());
    connect(m_console->runAction(), &QAction::triggered, this, [this] { showPage(m_pages->indexOf(m_console)); });
}

void MainWindow::createStatusBar()
{
    m_backendState = new QLabel;
    m_backendState->setObjectName(QStringLiteral("backendState"));
    // A click shows the backend's page: its connection, images and sandboxes.
    m_backendState->setCursor(Qt::PointingHandCursor);
    m_backendState->installEventFilter(this);
    m_backendState->setText(
        tr("%1 %2 · connecting…")
            .arg(dot(palette().color(QPalette::PlaceholderText).name()), backendText(m_context.defaultBackend())));
    m_runningState = new QLabel;
    m_runningState->setObjectName(QStringLiteral("runningState"));
    m_journalState = new QLabel;
    m_journalState->setObjectName(QStringLiteral("journalState"));
    m_journalState->hide();
    statusBar()->addPermanentWidget(m_journalState);
    statusBar()->addPermanentWidget(m_runningState);
    statusBar()->addPermanentWidget(m_backendState);
    updateRunningState();
    m_probeTimer = new QTimer(this);
    m_probeTimer->setSingleShot(true);
    connect(m_probeTimer, &QTimer::timeout, this, &MainWindow::probeBackend);
    // The recorders say it on their threads, once per change.
    QPointer<MainWindow> window(this);
    m_context.onJournalProblem([window](const QString &problem) {
        QMetaObject::invokeMethod(
            window, [window, problem] { window->showJournalProblem(problem); }, Qt::QueuedConnection);
    });
    showJournalProblem(m_context.journalProblem());
}

void MainWindow::showJournalProblem(const QString &problem)
{
    const bool wasShown = !m_journalState->isHidden();
    m_journalState->setVisible(!problem.isEmpty());
    if (!problem.isEmpty()) {
        m_journalState->setText(tr("%1 Journal not written").arg(dot(StateColors::of(palette()).failed.name())));
        m_journalState->setToolTip(tr("The run journal cannot be written: %1\nRuns go on; what they record waits "
                                      "until it can be written again.")
                                       .arg(problem));
    } else if (wasShown) {
        statusBar()->showMessage(tr("The run journal is written again, with the runs it missed meanwhile."), 8000);
    }
}

void MainWindow::probeBackend()
{
    m_controller->probe();
}

void MainWindow::applyDefaultBackend()
{
    // The Backends page's Default box changes it while the window runs: runs, replays and MCP sessions that name no
    // backend use the new one from now on; runs in progress finish where they are.
    if (!m_context.reloadDefaultBackend()) {
        return;
    }
    const QString backend = m_context.defaultBackend();
    m_controller->setDefaultBackend(backend);
    probeBackend();
    statusBar()->showMessage(
        tr("Runs now use %1 unless they name a backend; runs in progress finish where they started.")
            .arg(backendText(backend)),
        8000);
}

void MainWindow::updateRunningState()
{
    if (m_app.journal().isOff()) {
        // Only this window's own runs are known.
        const int count = m_controller->runningCount();
        m_runningState->setText(count == 0 ? RunningRuns::summary({}) : tr("%n run(s) in progress", nullptr, count));
    } else {
        const QList<JournalRun> runs = m_app.running().runs();
        m_runningState->setText(RunningRuns::summary(runs));
        m_runningState->setToolTip(RunningRuns::details(runs));
    }
    updateTray();
}

void MainWindow::updateTray()
{
    if (!m_tray) {
        return;
    }
    const bool serving = m_server->state() == mcp::McpHost::State::Running;
    const int clients = ServerClientsModel::presentClients(m_server->sessions(), QDateTime::currentDateTimeUtc());
    const int running = m_app.journal().isOff() ? m_controller->runningCount() : m_app.running().count();
    m_tray->setStatus(serving, m_server->url(), clients, running);
}

void MainWindow::openCommandPalette()
{
    // The menus' actions, then what the current page offers besides (History's Compare, the Gallery's Copy Image).
    QList<QAction *> more = actions();
    if (QWidget *page = m_pages->currentWidget()) {
        more += page->actions();
    }
    m_palette->popup(menuBar(), more, QRect(m_splitter->mapToGlobal(QPoint(0, 0)), m_splitter->size()));
}

void MainWindow::openSettings()
{
    SettingsDialog dialog(m_context.userSettings(), m_app.secrets(), this);
    connect(&dialog, &SettingsDialog::backendsPageRequested, this, [this] { showPage(m_pages->indexOf(m_backends)); });
    dialog.exec();
}

void MainWindow::connectAssistant()
{
    ConnectAssistantDialog dialog(m_app.secrets(), m_context.defaultBackend(), this);
    dialog.setServerRunning(m_server->state() == mcp::McpHost::State::Running);
    dialog.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About LLM Sandbox"),
                       tr("<h3>LLM Sandbox %1</h3>"
                          "<p>Runs code that a language model wrote, safely, in isolated containers, and shows "
                          "its output and charts.</p>"
                          "<p>The same engine serves assistants through <code>llm-sandbox --mcp</code>; every "
                          "run appears in the live log.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::showDocumentation()
{
    const QString folder = DocumentationDialog::guideFolder();
    if (folder.isEmpty()) {
        QMessageBox::information(this, tr("Documentation"),
                                 tr("The user guide is not installed: it is docs/user of LLM Sandbox's sources, "
                                    "installed as %1.")
                                     .arg(QStringLiteral(LLM_SANDBOX_GUIDE_INSTALLED)));
        return;
    }
    // The section of the guide's page about the app that tells of the page on screen.
    static const QHash<QString, QString> sections{
        {QStringLiteral("liveLogPage"), QStringLiteral("Live log")},
        {QStringLiteral("consolePage"), QStringLiteral("Console")},
        {QStringLiteral("historyPage"), QStringLiteral("History")},
        {QStringLiteral("galleryPage"), QStringLiteral("Gallery")},
        {QStringLiteral("statisticsPage"), QStringLiteral("Statistics")},
        {QStringLiteral("backendsPage"), QStringLiteral("Backends")},
        {QStringLiteral("serverPage"), QStringLiteral("MCP server")},
    };
    const QWidget *page = m_pages->currentWidget();
    auto *dialog = new DocumentationDialog(folder, QStringLiteral("desktop-app.md"),
                                           page ? sections.value(page->objectName()) : QString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::restoreState()
{
    QSettings settings = guiSettings();
    restoreGeometry(kGeometry.read(settings));
    QMainWindow::restoreState(kWindowState.read(settings));
    m_splitter->restoreState(kNavigationSplitter.read(settings));
    for (Page *page : std::as_const(m_pageList)) {
        settings.beginGroup(kPagesGroup + page->objectName());
        page->restoreState(settings);
        settings.endGroup();
    }
    showPage(qBound(0, kCurrentPage.read(settings), m_pages->count() - 1));
    const QString theme = kTheme.read(settings);
    for (QAction *action : m_themes->actions()) {
        if (action->data().toString() == theme) {
            action->setChecked(true);
        }
    }
    if (theme != QLatin1String("system")) {
        AppTheme::apply(AppTheme::fromString(theme));
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // Once laid out, before it is first seen.
    if (!m_fittedOnScreen) {
        m_fittedOnScreen = true;
        fitOnScreen();
    }
}

void MainWindow::fitOnScreen()
{
    // Saved on a larger display, or on one no longer there: no larger than this one, and wholly on it.
    QScreen *screen = QGuiApplication::screenAt(geometry().center());
    const QRect available = (screen ? screen : this->screen())->availableGeometry();
    const QRect frameRect = frameGeometry();
    const QMargins frame(geometry().left() - frameRect.left(), geometry().top() - frameRect.top(),
                         frameRect.right() - geometry().right(), frameRect.bottom() - geometry().bottom());
    const QRect inside = available.marginsRemoved(frame);
    if (isMaximized() || isFullScreen() || inside.isEmpty()) {
        return;
    }
    QRect shown(geometry().topLeft(), geometry().size().boundedTo(inside.size()));
    shown.moveLeft(std::clamp(shown.left(), inside.left(), inside.right() - shown.width() + 1));
    shown.moveTop(std::clamp(shown.top(), inside.top(), inside.bottom() - shown.height() + 1));
    setGeometry(shown);
}

void MainWindow::saveState() const
{
    QSettings settings = guiSettings();
    kGeometry.write(settings, saveGeometry());
    kWindowState.write(settings, QMainWindow::saveState());
    kNavigationSplitter.write(settings, m_splitter->saveState());
    for (const Page *page : m_pageList) {
        settings.beginGroup(kPagesGroup + page->objectName());
        page->saveState(settings);
        settings.endGroup();
    }
    kCurrentPage.write(settings, m_pages->currentIndex());
    if (QAction *theme = m_themes->checkedAction()) {
        kTheme.write(settings, theme->data().toString());
    }
}

void MainWindow::quit()
{
    m_quitAsked = true;
    close();
    m_quitAsked = false;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    const int running = m_controller->runningCount();
    const bool serving = m_server->state() == mcp::McpHost::State::Running;
    if (TrayStatus::closeAction(m_tray != nullptr, m_context.userSettings().serverKeepsRunningInTray(), serving,
                                m_quitAsked) == TrayStatus::CloseAction::HideToTray) {
        saveState();
        hide();
        m_tray->tellHidden();
        event->ignore();
        return;
    }
    if (running > 0 || serving) {
        QStringList reasons;
        if (running > 0) {
            reasons << tr("%n run(s) still in progress.", nullptr, running);
        }
        if (serving) {
            // Clients that have exited (their sessions linger until they expire) are no reason to ask.
            const int clients =
                ServerClientsModel::presentClients(m_server->sessions(), QDateTime::currentDateTimeUtc());
            reasons << (clients > 0 ? tr("The MCP server is running with %n client(s) connected; their calls are "
                                         "cancelled and their sessions end.",
                                         nullptr, clients)
                                    : tr("The MCP server is running; assistants will no longer reach it."));
        }
        QMessageBox question(QMessageBox::Question, tr("Quit LLM Sandbox"),
                             joinSentences(reasons) + QLatin1Char('\n') + tr("Stop and quit?"), QMessageBox::NoButton,
                             this);
        question.setObjectName(QStringLiteral("quitQuestion"));
        QPushButton *stop = question.addButton(tr("Stop and Quit"), QMessageBox::AcceptRole);
        question.addButton(QMessageBox::Cancel);
        question.setDefaultButton(stop);
        question.exec();
        if (question.clickedButton() != stop) {
            event->ignore();
            return;
        }
        m_controller->cancelAll();
        m_server->stopHttp();
    }
    saveState();
    event->accept();
    if (m_tray) {
        QCoreApplication::quit(); // not with the last window (see the constructor)
    }
}

void MainWindow::bringForward()
{
    showNormal();
    raise();
    activateWindow();
}

bool MainWindow::stopRuns(const QList<JournalRun> &runs)
{
    QStringList ids;
    QStringList elsewhere; // where the runs the app did not start come from
    for (const JournalRun &run : runs) {
        if (run.status != RunStatus::Running || run.stopRequested) {
            continue;
        }
        ids << run.id;
        if (run.source != RunSource::Gui && run.source != RunSource::Replay) {
            elsewhere << runSourceText(run);
        }
    }
    if (ids.isEmpty()) {
        return true;
    }
    if (!elsewhere.isEmpty()) {
        elsewhere.removeDuplicates();
        const QString text =
            ids.size() == 1
                ? tr("%1 started this run and waits for its result. It will be told that you stopped the run.")
                      .arg(elsewhere.first())
                : tr("Some of these runs were started elsewhere (%1), which wait for their results. They will be told "
                     "that you stopped the runs.")
                      .arg(elsewhere.join(QStringLiteral(", ")));
        QMessageBox question(QMessageBox::Question, tr("Stop Runs"), text, QMessageBox::NoButton, this);
        question.setObjectName(QStringLiteral("stopRunsQuestion"));
        question.setInformativeText(tr("Stop %n run(s)?", nullptr, int(ids.size())));
        QPushButton *stop = question.addButton(tr("Stop", "runs"), QMessageBox::AcceptRole);
        question.addButton(QMessageBox::Cancel);
        question.setDefaultButton(stop);
        question.exec();
        if (question.clickedButton() != stop) {
            return false;
        }
    }
    m_app.running().requestStop(ids);
    return true;
}

void MainWindow::quitFromSignal()
{
    m_controller->cancelAll();
    m_server->stopHttp();
    saveState();
    // Every event loop ends, a dialog's too; the destructors then wait for the runs and remove the containers.
    QCoreApplication::exit(0);
}

} // namespace sandbox::gui
