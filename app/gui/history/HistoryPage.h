#pragma once

#include "gui/Page.h"
#include "journal/JournalReader.h"
#include "journal/JournalRun.h"

#include <QHash>
#include <QStringList>

class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;

namespace sandbox {
class JournalWatcher;
}

namespace sandbox::gui {

class EngineController;
class HistoryFilterBar;
class HistoryModel;
class RunInspector;

/// The History page: every run in the journal, newest first and filterable; the selected run in an
/// inspector; and replays of a run on the same or another backend, each a new journal run whose
/// differences from its original the page shows when it ends.
class HistoryPage final : public Page
{
    Q_OBJECT

public:
    HistoryPage(const QString &journalPath, EngineController &controller, QStringList backends,
                QWidget *parent = nullptr);
    ~HistoryPage() override;

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;

    HistoryModel *model() const { return m_model; }
    RunInspector *inspector() const { return m_inspector; }

    /// Selects run `runId` (when the filter shows it) and inspects it.
    void showRun(const QString &runId);
    /// Runs `runId` again on `backend` through the controller; its ticket, or 0 when the run cannot be read.
    quint64 replay(const QString &runId, const QString &backend);

signals:
    /// A replay started from this page ended and its diff is shown.
    void replayFinished(const QString &originalId, const QString &replayId);

private:
    QSplitter *m_splitter = nullptr;
    struct PendingReplay
    {
        QString originalId;
        QString backend;
        QString runId;
        bool finished = false;
    };

    void inspect(const QString &runId);
    void onJournalChanged(const QList<JournalRun> &runs);
    void onReplayFinished(quint64 ticket, const QString &runId, const QString &error = {});
    bool completeReplay(quint64 ticket);
    void showDiffFor(const JournalRun &replay);
    void updateReplayControls();
    void updateStatus();
    void showContextMenu(const QPoint &position);
    QString selectedRunId() const;

    QString m_journalPath;
    EngineController &m_controller;
    QStringList m_backends;
    JournalReader m_reader;
    JournalWatcher *m_watcher = nullptr;
    HistoryModel *m_model = nullptr;
    HistoryFilterBar *m_filters = nullptr;
    QTableView *m_table = nullptr;
    RunInspector *m_inspector = nullptr;
    QComboBox *m_replayBackend = nullptr;
    QPushButton *m_replayButton = nullptr;
    QLabel *m_replayStatus = nullptr;
    QLabel *m_status = nullptr;
    QHash<quint64, PendingReplay> m_replays;
};

} // namespace sandbox::gui
