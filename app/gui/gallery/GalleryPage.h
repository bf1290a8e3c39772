#pragma once

#include "gui/JournalRefresh.h"
#include "gui/Page.h"
#include "journal/JournalRun.h"
#include "util/Result.h"

#include <QFutureWatcher>
#include <QTimer>

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QStackedWidget;

namespace sandbox::gui {

class GalleryModel;
class ThumbnailProvider;

/// Every chart and file any run captured, from the journal, as a grid of thumbnails: filtered by language, source
/// and type (in the journal) and by a text in their name, client or run id (in what was read), opened large inside the
/// app (ArtifactPreviewDialog: next and previous, fit and zoom, copy, save as), and a way to the run that made it. Runs
/// of any process (an assistant's `--mcp` server too) appear as they are recorded. The journal is read off the GUI
/// thread.
class GalleryPage final : public Page
{
    Q_OBJECT

public:
    GalleryPage(JournalFeed &feed, ThumbnailProvider &thumbnails, QWidget *parent = nullptr);
    ~GalleryPage() override;

    QString title() const override;
    QIcon icon() const override;
    /// The filters.
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;
    void shown() override;

    /// Reads the journal again (at once; the page also does when it changes).
    void reload();
    /// Waits until the current read is done and shown (tests).
    void waitForLoaded();
    GalleryModel *model() const { return m_model; }
    QListView *view() const { return m_view; }
    /// Opens the artifact of `row` in the preview; returns the dialog (owned by the page's window).
    class ArtifactPreviewDialog *openArtifact(int row);
    void copyImage(int row);

private:
    ArtifactFilter filter() const;
    void showContextMenu(const QPoint &position);
    void saveAs(int row);
    /// The entries read that match the text filter, into the model.
    void showMatching();
    void updateCount();

    JournalFeed &m_feed;
    ThumbnailProvider &m_thumbnails;
    GalleryModel *m_model = nullptr;
    QListView *m_view = nullptr;
    QComboBox *m_language = nullptr;
    QComboBox *m_source = nullptr;
    QComboBox *m_type = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_emptyHint = nullptr;         ///< in place of the grid when it is empty
    QStackedWidget *m_viewStack = nullptr; ///< the grid or the hint
    QLineEdit *m_search = nullptr;
    QList<JournalArtifactEntry> m_loaded; ///< as read from the journal, before the text filter
    std::unique_ptr<JournalRefresh<Result<QList<JournalArtifactEntry>>>> m_refresh;
};

} // namespace sandbox::gui
