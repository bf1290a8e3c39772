#pragma once

#include "journal/JournalRun.h"

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

class QFormLayout;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPlainTextEdit;
class QStackedWidget;
class QTabWidget;

namespace sandbox {
class RunDiff;
}

namespace sandbox::gui {

class DiffView;

/// Everything the journal kept about one run, in tabs: code, output, artifacts, settings, resource usage,
/// the MCP exchange (only for runs an assistant made) and, for a replay, what differs from its original.
class RunInspector final : public QWidget
{
    Q_OBJECT

public:
    enum Tab
    {
        CodeTab,
        OutputTab,
        ArtifactsTab,
        SettingsTab,
        UsageTab,
        McpTab,
        DiffTab
    };

    explicit RunInspector(QWidget *parent = nullptr);
    ~RunInspector() override;

    /// Shows `run` (a full run, as JournalReader::run returns it); hides the diff until setDiff.
    void setRun(const JournalRun &run);
    /// Shows that nothing is selected.
    void clear();
    /// The run shown, or an empty run.
    const JournalRun &run() const { return m_run; }

    /// Shows the Diff tab: `diff` of `original` (left) against the shown run (right).
    void setDiff(const RunDiff &diff, const JournalRun &original);
    void showTab(Tab tab);
    bool isTabShown(Tab tab) const;

    /// The MCP messages as shown: pretty JSON with long base64 strings (image data) shortened.
    static QString prettyJson(const QJsonObject &object);

private:
    QWidget *createCodeTab();
    QWidget *createOutputTab();
    QWidget *createArtifactsTab();
    QWidget *createSettingsTab();
    QWidget *createUsageTab();
    QWidget *createMcpTab();
    void showArtifacts();
    void openArtifact(QListWidgetItem *item);
    static void fillForm(QFormLayout *form, const QList<std::pair<QString, QString>> &rows);

    JournalRun m_run;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_subtitle = nullptr;
    QTabWidget *m_tabs = nullptr;
    QPlainTextEdit *m_code = nullptr;
    QPlainTextEdit *m_stdout = nullptr;
    QPlainTextEdit *m_stderr = nullptr;
    QLabel *m_outputNote = nullptr;
    QListWidget *m_artifacts = nullptr;
    QLabel *m_noArtifacts = nullptr;
    QFormLayout *m_settingsForm = nullptr;
    QPlainTextEdit *m_settingsJson = nullptr;
    QFormLayout *m_usageForm = nullptr;
    QFormLayout *m_mcpForm = nullptr;
    QPlainTextEdit *m_mcpRequest = nullptr;
    QPlainTextEdit *m_mcpResponse = nullptr;
    DiffView *m_diff = nullptr;
    QFutureWatcher<QList<QImage>> m_thumbnails;
};

} // namespace sandbox::gui
