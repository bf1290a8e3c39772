#pragma once

#include "inventory/SandboxInventory.h"
#include "journal/JournalRun.h"

#include <QFutureWatcher>
#include <QHash>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace sandbox::gui {

class BackendPanel;
class SandboxTableModel;

/// The "Sandboxes now" tab of a backend: the sandboxes every llm-sandbox process runs on it, read every few seconds
/// while the tab is shown (off the GUI thread), with the run each one runs, its warm pool, and the leftovers of
/// ended processes.
class SandboxesTab final : public QWidget
{
    Q_OBJECT

public:
    explicit SandboxesTab(BackendPanel &panel);
    ~SandboxesTab() override;

    /// Reads the sandboxes now; sandboxesLoaded() when done.
    void refreshSandboxes();
    /// Removes sandbox `id`; the run `runId` in it (if any) is asked to stop first and given a few seconds to end.
    void stopSandbox(const QString &id, const QString &runId = {});
    /// Removes the containers of llm-sandbox processes that ended (OrphanReaper).
    void removeLeftovers();
    /// Whether the sandboxes refresh by themselves (while shown).
    void setLive(bool live);
    SandboxTableModel *sandboxModel() const { return m_sandboxModel; }

signals:
    void sandboxesLoaded();
    /// Show Run (or a double-click) on a sandbox that runs run `runId` now.
    void showRunRequested(const QString &runId);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct SandboxesNow
    {
        Result<QList<SandboxEntry>> sandboxes = Error{};
        int leftovers = 0;
        QHash<QString, JournalRun> runs; ///< the runs in progress by container (JournalReader::runningByContainer)
    };

    void showSandboxes(const SandboxesNow &now);
    void updateButtons();
    QString selectedSandbox() const;
    /// Stop on the selected sandbox: at once when this process owns it; when another process does (an assistant's
    /// MCP server, the command line), after the user says so.
    void stopSelected();

    BackendPanel &m_panel;
    SandboxTableModel *m_sandboxModel = nullptr;
    QTableView *m_sandboxesView = nullptr;
    QLabel *m_sandboxesSummary = nullptr;
    QLabel *m_warmPool = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_showRun = nullptr;
    QPushButton *m_removeLeftovers = nullptr;
    QFutureWatcher<SandboxesNow> m_sandboxesReading;
    QFutureWatcher<QString> m_removing;
    QTimer *m_timer = nullptr;
    bool m_live = true;
};

} // namespace sandbox::gui
