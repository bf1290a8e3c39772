#pragma once

#include "gui/Page.h"
#include "journal/JournalRun.h"

#include <QElapsedTimer>
#include <functional>

class QComboBox;
class QLabel;
class QPushButton;
class QLineEdit;
class QStackedWidget;
class QTimer;

namespace sandbox {
class JournalFeed;
class RunFollower;
} // namespace sandbox

namespace sandbox::gui {

class AdaptiveSplitter;
class LiveLogFilterModel;
class LiveLogModel;
class RunTableView;
class RunView;
class ThumbnailProvider;

/// Every run as it starts, from any process that writes the journal (this window, the command line, an MCP
/// server an assistant launched), and the selected run's code, output and charts as they arrive.
class LiveLogPage final : public Page
{
    Q_OBJECT

public:
    /// A feed of a journal that is off: the page says so.
    LiveLogPage(JournalFeed &feed, ThumbnailProvider &thumbnails, QWidget *parent = nullptr);
    ~LiveLogPage() override;

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;

    LiveLogModel *model() const { return m_model; }
    RunView *runView() const { return m_detail; }
    /// Selects the run (when it is shown), e.g. one the console just started.
    void selectRun(const QString &runId);
    /// FollowRun: selects the run.
    bool open(const Intent &intent) override;
    /// Whether each run that starts is selected as it comes (on at start; off once the user picks another run).
    bool isFollowingNewest() const;
    void setFollowingNewest(bool follow);

    static constexpr int InitialRuns = 500;

private:
    void onRunsChanged(const QList<JournalRun> &runs);
    /// Selects the newest run the filter lets through.
    void selectNewest();
    /// selectNewest() for runs that arrived while following: once the run shown has been on screen for a moment.
    void followNewest();
    /// Selects `row` of the filter without ending the following.
    void selectRow(int row);
    void updateFollowButton();
    void showSelected();
    void updateEmptyState();
    /// The run beside the table where the page has room for both, under it where it has not. Without a saved or moved
    /// split (in that orientation): beside, the table three fifths of the width (at least its columns at their
    /// least, the splitter's stretch factors), the run the rest; under, the table two fifths of the height.
    void showEvent(QShowEvent *event) override;
    /// Files and folders dropped on the page are shared with the Console's next run (ShareForNextRun), as if dropped
    /// there.
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void placeSplitter();
    /// Applies `change` to the filter; a run it hides leaves the run pane (without following: with it, the newest
    /// that passes is shown).
    void refilter(const std::function<void()> &change);

    JournalFeed &m_feed;
    RunFollower *m_follower = nullptr; ///< of the run shown
    LiveLogModel *m_model = nullptr;
    LiveLogFilterModel *m_filter = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_source = nullptr;
    QPushButton *m_follow = nullptr;
    bool m_selecting = false;       ///< the page changes the selection itself: not the user picking a run
    int m_unseen = 0;               ///< runs that started since following stopped
    QElapsedTimer m_shownFor;       ///< since the run shown came into view
    QTimer *m_followHold = nullptr; ///< a newer run waits for it while the run shown is held (followNewest)
    QStackedWidget *m_listStack = nullptr;
    QLabel *m_emptyHint = nullptr;
    RunTableView *m_table = nullptr;
    RunView *m_detail = nullptr;
    AdaptiveSplitter *m_splitter = nullptr;
    QLabel *m_journalError = nullptr;
};

} // namespace sandbox::gui
