#pragma once

#include "engine/RunObserver.h"
#include "engine/RunProgress.h"
#include "folders/SharedFolder.h"
#include "gui/Page.h"
#include "network/NetworkAllowList.h"
#include "util/Result.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QUrl>
#include <chrono>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QToolButton;
class QHBoxLayout;

namespace sandbox {
enum class RunOutcome;
}

namespace sandbox::gui {

class ArtifactStrip;
class CodeEditor;
class EngineController;
class OutputView;
class ThumbnailProvider;

/// The run console: write code in one of the seven languages, run it in a sandbox and watch its output and
/// charts arrive. Runs go through the EngineController; the page never blocks. A folder (or files: their folder)
/// dropped on it is shared, read-only, with the next run (RunRequest::sharedFolders); the hosts in its Network field
/// are what the next run asks to reach (RunRequest::network), within Settings → Network.
class ConsolePage final : public Page
{
    Q_OBJECT

public:
    ConsolePage(EngineController &controller, ThumbnailProvider &thumbnails, QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;

    /// Run (Ctrl+Return) and Stop (Ctrl+.), for the window's menus.
    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }

    void setDefaultTimeout(std::chrono::seconds timeout);
    /// The backends offered; the controller's default is chosen, and chosen again when the default changes.
    void setBackends(const QStringList &backends);
    bool isRunning() const { return m_ticket != 0; }
    /// The code the console holds for `language` (the editor's while it is shown): kept across restarts.
    QString draft(const QString &language) const;
    /// The snippets last run in `language`, newest first (at most kRecentSnippets).
    QStringList recentSnippets(const QString &language) const { return m_recent.value(language); }

    /// The folders every sandbox of the app reads (Settings → Folders): a dropped folder takes none of their names and
    /// is not shared twice.
    void setSharedFolders(const QList<SharedFolder> &folders);
    /// What runs may reach when they ask (Settings → Network, or LLM_SANDBOX_NETWORK_ALLOW): the Network field's
    /// placeholder names it.
    void setNetworkAllow(const NetworkAllowList &allowed);
    /// The hosts of the Network field, as the next run asks for them.
    QStringList nextRunNetwork() const;
    /// The folders dropped for the next run, read-only, each shown with a button that removes it.
    const QList<SharedFolder> &nextRunFolders() const { return m_nextRunFolders; }
    /// Shares the local folders of `urls` (a file's: the folder it is in) with the next run; false, with the reason
    /// shown, when none could be.
    bool shareForNextRun(const QList<QUrl> &urls);

    static constexpr int kRecentSnippets = 8;

public slots:
    void run();
    void stop();
    /// Puts `code` in `language` (and its libraries) into the editor, as "Open in Console" of a recorded run does.
    void openCode(const QString &language, const QString &code, const QStringList &libraries = {});
    /// OpenInConsole: the code, to edit and run; ShareForNextRun: the folders, shared with the next run.
    bool open(const Intent &intent) override;

signals:
    void runningChanged(bool running);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    /// Folders dropped on the editor or the output are shared too (the editor would insert their paths as text).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showNextRunFolders();
    void chooseLanguage();
    void onStarted(quint64 ticket, const QString &runId);
    void onProgress(quint64 ticket, const RunProgress &progress);
    void onOutput(quint64 ticket, OutputStream stream, const QByteArray &chunk);
    void onArtifact(quint64 ticket, const Artifact &artifact);
    void onFinished(quint64 ticket, const RunResult &result);
    void onFailed(quint64 ticket, const Error &error);
    void setRunning(bool running);
    /// `text` (HTML) after a mark in the colour of `outcome`.
    void showSummary(const QString &text, RunOutcome outcome);
    /// What explains the summary at length, behind Show Details; none: no toggle.
    void showDetails(const QString &details);
    void clearResults();
    void rememberSnippet(const QString &language, const QString &code);
    void fillRecentMenu();
    void showArtifactsTitle(int count);

    EngineController &m_controller;
    quint64 m_ticket = 0;
    QString m_shownLanguage;              ///< the language whose code the editor holds
    QHash<QString, QString> m_drafts;     ///< per language, the code of those not shown (edited ones only)
    QHash<QString, QStringList> m_recent; ///< per language, the snippets run, newest first
    QElapsedTimer m_clock;

    QComboBox *m_language = nullptr;
    QPushButton *m_recentButton = nullptr;
    QComboBox *m_backend = nullptr;
    QSpinBox *m_timeout = nullptr;
    QLineEdit *m_libraries = nullptr;
    QLineEdit *m_network = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    CodeEditor *m_editor = nullptr;
    QSplitter *m_splitter = nullptr;
    QWidget *m_progressRow = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_progressText = nullptr;
    /// The progress text says the sandbox is being prepared (started, libraries installed): the first output ends that.
    bool m_preparing = false;
    OutputView *m_output = nullptr;
    QLabel *m_summary = nullptr;
    QToolButton *m_detailsToggle = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QLabel *m_chartsTitle = nullptr;
    ArtifactStrip *m_artifacts = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QList<SharedFolder> m_sharedFolders;  ///< Settings → Folders
    QList<SharedFolder> m_nextRunFolders; ///< dropped for the next run
    QWidget *m_foldersRow = nullptr;      ///< one chip per folder of the next run
    QHBoxLayout *m_foldersLayout = nullptr;
    QLabel *m_dropProblem = nullptr; ///< why a dropped folder is not shared
};

} // namespace sandbox::gui
