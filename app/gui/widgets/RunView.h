#pragma once

#include "journal/JournalRun.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;

namespace sandbox::gui {

class ArtifactStrip;
class CodeEditor;
class McpExchangeView;
class NetworkView;
class OutputView;
class ThumbnailProvider;

/// One run as the journal holds it, the same on every page: its output (streaming while it runs) and charts, its code,
/// the details (how it ended, resource use, backend, settings) and, for runs an assistant made, the exact MCP tool call
/// and result, and for a run with network every connection it made. A running run is fed with what it gained
/// (applyUpdate): output is appended, never shown again whole.
class RunView final : public QWidget
{
    Q_OBJECT

public:
    enum Tab
    {
        OutputTab,
        CodeTab,
        DetailsTab,
        McpTab,
        NetworkTab, ///< only for a run with network
    };

    explicit RunView(ThumbnailProvider &thumbnails, QWidget *parent = nullptr);

    /// Shows `run` whole (as JournalReader::run returns it).
    void showRun(const JournalRun &run);
    /// What the run gained (JournalFeed's RunFollower): appended when it is of the run shown, else shown whole.
    void applyUpdate(const JournalRunUpdate &update);
    /// Shows that nothing is selected.
    void clear();
    /// The run shown with what it gained so far, or an empty run.
    const JournalRun &run() const { return m_run; }

    /// A page's own tab (History's replay diff), hidden until setTabShown().
    int addTab(QWidget *tab, const QString &title);
    void setTabShown(int tab, bool shown);
    void showTab(int tab);
    /// Whether `tab` is the one on show.
    bool isTabShown(int tab) const;

signals:
    /// "Open in Console": the run's code, language and libraries, to be run again or changed.
    void openInConsoleRequested(const QString &language, const QString &code, const QStringList &libraries);
    /// "Stop" on a run in progress, whichever process runs it (the page's window asks and stops it).
    void stopRequested(const sandbox::JournalRun &run);

private:
    void showSavedFiles();
    void showHeader();
    void showDetails();
    void showExchange();
    void showNetwork();
    void appendEndNotes();

    JournalRun m_run;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_subtitle = nullptr;
    QPushButton *m_openInConsole = nullptr;
    QPushButton *m_stop = nullptr;
    QTabWidget *m_tabs = nullptr;
    OutputView *m_output = nullptr;
    ArtifactStrip *m_artifacts = nullptr;
    QLabel *m_savedFiles = nullptr;
    CodeEditor *m_code = nullptr;
    QFormLayout *m_details = nullptr;
    QPlainTextEdit *m_settings = nullptr;
    McpExchangeView *m_exchange = nullptr;
    NetworkView *m_network = nullptr;
};

} // namespace sandbox::gui
