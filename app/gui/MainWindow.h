#pragma once

#include "gui/Intent.h"
#include "util/Result.h"

#include <QList>
#include <QMainWindow>

class QActionGroup;
class QLabel;
class QListWidget;
class QMenu;
class QSplitter;
class QStackedWidget;

namespace sandbox {
class AppContext;
struct BackendInfo;
struct JournalRun;
namespace mcp {
class McpHost;
}
} // namespace sandbox

namespace sandbox::gui {

class BackendsPage;
class CommandPalette;
class ConsolePage;
class DesktopApp;
class EngineController;
class Page;
class ServerPage;
class TrayIcon;

/// The desktop app's window: a list of pages on the left (Live log, Console, History, ...), the page on the
/// right, the backend's state in the status bar. It builds no service: they come from the DesktopApp, which
/// outlives it. Pages reach one another only by intents (Page::navigate), which the window routes.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(DesktopApp &app, QWidget *parent = nullptr);
    ~MainWindow() override;

    EngineController &controller() const { return *m_controller; }
    /// The app's MCP server (the MCP server page starts and stops it).
    mcp::McpHost &server() const { return *m_server; }
    /// Adds a page to the navigation (and to the View menu, with Ctrl+<n>); returns its index.
    int addPage(Page *page);
    void showPage(int index);
    /// Quits as the menus' Quit does: asks when runs or the server's clients would be cut off, never only hides the
    /// window in the tray.
    void quit();
    /// Ends the app without asking (SIGTERM, SIGINT, SIGHUP): cancels the runs, stops the MCP server, saves the
    /// window's state and leaves the event loop; the containers go as the engines do.
    void quitFromSignal();
    /// Shows the window in front, from the tray or another `llm-sandbox` started meanwhile (SingleInstance).
    void bringForward();
    /// Stops `runs` that are in progress, whichever process runs them (RunningRuns::requestStop), after asking when
    /// one is not the app's own: an assistant or another program waits for it. False when the person declined.
    bool stopRuns(const QList<sandbox::JournalRun> &runs);

protected:
    void closeEvent(QCloseEvent *event) override;
    /// The first time: fitOnScreen().
    void showEvent(QShowEvent *event) override;
    /// A new palette (the theme): the pages' icons are drawn again in its colours.
    void changeEvent(QEvent *event) override;
    /// A click on the status bar's backend shows its Backends page.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createMenus();
    void createPages();
    void createTray();
    /// Offers `intent` to the pages in turn and shows the one that opens it.
    void navigate(const Intent &intent);
    /// The default backend's answer (EngineController::probe), in the status bar and on its Backends panel.
    void showProbe(const QString &backend, const BackendInfo &info, const QString &error, ErrorCode code);
    void fillRunMenu();
    void createStatusBar();
    /// The command palette (Ctrl+K) over the menus' actions and the current page's.
    void openCommandPalette();
    void openSettings();
    void connectAssistant();
    void showAbout();
    /// Help → Documentation (F1): the user guide inside the app, at the section about the page on screen.
    void showDocumentation();
    void probeBackend();
    /// Takes the default backend from the user settings when they changed it.
    void applyDefaultBackend();
    /// The status bar's runs in progress (every process's, from the journal) and the tray's summary.
    void updateRunningState();
    void updateTray();
    void showJournalProblem(const QString &problem);
    void restoreState();
    /// The restored window no larger than its screen's available area, and wholly on it.
    void fitOnScreen();
    void saveState() const;

    DesktopApp &m_app;
    AppContext &m_context;
    EngineController *m_controller; ///< the app's (DesktopApp::controller)
    mcp::McpHost *m_server;         ///< the app's (DesktopApp::server)
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    QSplitter *m_splitter = nullptr;
    ConsolePage *m_console = nullptr;
    BackendsPage *m_backends = nullptr;
    ServerPage *m_serverPage = nullptr;
    QList<Page *> m_pageList; ///< in the navigation's order
    QMenu *m_runMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_find = nullptr; ///< to the current page's search field (Page::findField)
    CommandPalette *m_palette = nullptr;
    QAction *m_pagesSeparator = nullptr;
    QActionGroup *m_themes = nullptr;
    QLabel *m_backendState = nullptr;
    QLabel *m_runningState = nullptr;
    TrayIcon *m_tray = nullptr; ///< where the desktop has a system tray
    bool m_fittedOnScreen = false;
    bool m_quitAsked = false; ///< the close is a Quit: not into the tray
    /// Shown only while the run journal cannot be written.
    QLabel *m_journalState = nullptr;
    /// Asks the default backend again: an engine that goes away (restarted, stopped) or comes back shows in the
    /// status bar without a run failing first.
    QTimer *m_probeTimer = nullptr;
};

} // namespace sandbox::gui
