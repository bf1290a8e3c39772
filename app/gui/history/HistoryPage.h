#pragma once

#include "gui/Page.h"
#include "gui/history/DiffView.h"
#include "gui/history/HistoryModel.h"
#include "gui/history/PixelComparison.h"
#include "journal/JournalRun.h"
#include "journal/RunDiff.h"

#include <QHash>
#include <QStringList>

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace sandbox {
class JournalFeed;
class RunFollower;
} // namespace sandbox

namespace sandbox::gui {

class AdaptiveSplitter;
class EngineController;
class HistoryFilterBar;
class HistoryModel;
class RunTableView;
class RunView;
class ThumbnailProvider;

/// The History page: every run in the journal, newest first and filterable (a hint instead when there is none); the
/// selected run in a RunView, with a tab of its own for differences: a replay's from its original, or those of any two
/// runs compared (two selected and Compare, or Compare with… and the other picked); and replays of a run on the same
/// or another backend, each a new journal run whose differences from its original the page shows when it ends.
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
    /// The run view's tab with a replay's differences from its original, or two compared runs' differences.
    int diffTab() const { return m_diffTab; }
    /// Compares the two selected runs (Ctrl+D): enabled when two are.
    QAction *compareAction() const { return m_compareAction; }

    /// Selects run `runId` (when the filter shows it) and shows it.
    void showRun(const QString &runId);
    /// ShowRun: shows the run.
    bool open(const Intent &intent) override;
    /// Runs `runId` again on `backend` through the controller, once the journal gave its code.
    void replay(const QString &runId, const QString &backend);
    /// Compares two runs (the older one is run A) and shows the differences with the one of them on show, or `second`.
    void compare(const QString &first, const QString &second);
    /// Asks which run to compare `runId` with (CompareWithDialog), then compares them.
    void compareWith(const QString &runId);

signals:
    /// A replay started from this page ended and its diff is shown.
    void replayFinished(const QString &originalId, const QString &replayId);

private:
    /// Differences to show in the diff tab with the run `shownId`, once the view shows it.
    struct Comparison
    {
        QString shownId;
        RunDiff diff;
        JournalRun first, second;
        QList<PixelComparison> images;
        DiffView::Sides sides = DiffView::Sides::Replay;
    };

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
    /// Shows m_comparison when the view shows its run; `focus`: and brings its tab to the front.
    void applyComparison(bool focus);
    void setReplayStatus(const QString &text);
    void updateReplayControls();
    void updateCompareAction();
    void updateStatus();
    void showContextMenu(const QPoint &position);
    QString selectedRunId() const;
    QStringList selectedRunIds() const;
    /// The run beside the table where the page has room for both, under it where it has not. Without a saved or moved
    /// split (in that orientation): beside, the table as wide as its columns want (at most 60 %), the run the rest;
    /// under, the table two fifths of the height.
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    /// Turns the splitter for the page's width, and places it for the columns' widths unless it was restored or the
    /// user moved it (in the orientation it has).
    void placeSplitter();
    /// After a new filter: the run shown leaves the run pane when the filter no longer lets it through.
    void dropShownRunUnlessItMatches();
    /// Ctrl+End: the last run, though the model holds only the pages read so far; the rest are read on the way.
    void goToLastRun();
    void selectLastRow();

    JournalFeed &m_feed;
    EngineController &m_controller;
    QStringList m_backends;
    RunFollower *m_follower = nullptr; ///< of the run shown
    HistoryModel *m_model = nullptr;
    HistoryFilterBar *m_filters = nullptr;
    RunTableView *m_table = nullptr;
    QLabel *m_emptyHint = nullptr;
    QStackedWidget *m_tableStack = nullptr; ///< the table, or the hint while there is no run to list
    AdaptiveSplitter *m_splitter = nullptr;
    RunView *m_view = nullptr;
    DiffView *m_diff = nullptr;
    int m_diffTab = -1;
    QComboBox *m_replayBackend = nullptr;
    QPushButton *m_replayButton = nullptr;
    QPushButton *m_compareWithButton = nullptr;
    QPushButton *m_compareButton = nullptr;
    QAction *m_compareAction = nullptr;
    QLabel *m_replayStatus = nullptr;
    QLabel *m_status = nullptr;
    std::optional<Comparison> m_comparison;
    QHash<quint64, PendingReplay> m_replays;
    PendingReplay m_replayShown; ///< a replay that ended: its diff is on the way
    int m_filterGeneration = 0;  ///< a check of the run shown answers only for the filter it was asked for
    bool m_goingToLast = false;  ///< Ctrl+End: each page that arrives moves the selection to its last run
    bool m_selectingLast = false;
};

} // namespace sandbox::gui
