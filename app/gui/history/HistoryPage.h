#pragma once

#include "gui/Page.h"
#include "journal/JournalRun.h"

#include <QHash>
#include <QStringList>

class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;

namespace sandbox {
class JournalFeed;
class RunDiff;
class RunFollower;
} // namespace sandbox

namespace sandbox::gui {

class EngineController;
class HistoryFilterBar;
class HistoryModel;
class DiffView;
class RunView;
class ThumbnailProvider;

/// The History page: every run in the journal, newest first and filterable; the selected run in a RunView (with
/// a tab of its own for a replay's differences); and replays of a run on the same or another backend, each a new
/// journal run whose differences from its original the page shows when it ends.
class HistoryPage final : public Page
{
    Q_OBJECT

public:
    HistoryPage(JournalFeed &feed, ThumbnailProvider &thumbnails, EngineController &controller, QStringList backends,
                QWidget *parent = nullptr);
    ~HistoryPage() override;

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;

    HistoryModel *model() const { return m_model; }
    RunView *runView() const { return m_view; }
    /// The run view's tab with a replay's differences from its original.
    int diffTab() const { return m_diffTab; }

    /// Selects run `runId` (when the filter shows it) and shows it.
    void showRun(const QString &runId);
    /// Runs `runId` again on `backend` through the controller, once the journal gave its code.
    void replay(const QString &runId, const QString &backend);

signals:
    /// A replay started from this page ended and its diff is shown.
    void replayFinished(const QString &originalId, const QString &replayId);

private:
    struct PendingReplay
    {
        QString originalId;
        QString backend;
        QString runId;
        bool finished = false;
    };

    void inspect(const QString &runId);
    void onRunUpdated(const JournalRunUpdate &update);
    void onJournalChanged(const QList<JournalRun> &runs);
    void onReplayFinished(quint64 ticket, const QString &runId, const QString &error = {});
    void completeReplay(quint64 ticket);
    void showDiffFor(const JournalRun &replay);
    void updateReplayControls();
    void updateStatus();
    void showContextMenu(const QPoint &position);
    QString selectedRunId() const;

    JournalFeed &m_feed;
    EngineController &m_controller;
    QStringList m_backends;
    RunFollower *m_follower = nullptr; ///< of the run shown
    HistoryModel *m_model = nullptr;
    HistoryFilterBar *m_filters = nullptr;
    QTableView *m_table = nullptr;
    QSplitter *m_splitter = nullptr;
    RunView *m_view = nullptr;
    DiffView *m_diff = nullptr;
    int m_diffTab = -1;
    QComboBox *m_replayBackend = nullptr;
    QPushButton *m_replayButton = nullptr;
    QLabel *m_replayStatus = nullptr;
    QLabel *m_status = nullptr;
    QHash<quint64, PendingReplay> m_replays;
    PendingReplay m_replayShown; ///< a replay that ended: its diff is on the way
};

} // namespace sandbox::gui
