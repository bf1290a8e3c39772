// The artifact gallery over a journal written in the test: thumbnails, the preview, the clipboard, the way to the
// run, and files a sandbox named or shaped to harm the desktop.
#include "gui/gallery/GalleryPage.h"

#include "TestImages.h"
#include "gui/gallery/GalleryModel.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "gui/widgets/SafeImage.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using namespace std::chrono_literals;

namespace {

QByteArray png(QColor color, QSize size = {64, 48})
{
    return guitest::png(color, size);
}

quint32 crc32(const QByteArray &data)
{
    quint32 crc = 0xffffffffU;
    for (const char byte : data) {
        crc ^= quint8(byte);
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1U)));
        }
    }
    return ~crc;
}

QByteArray chunk(const QByteArray &type, const QByteArray &data)
{
    QByteArray out(4, '\0');
    qToBigEndian(quint32(data.size()), out.data());
    QByteArray crc(4, '\0');
    qToBigEndian(crc32(type + data), crc.data());
    return out + type + data + crc;
}

/// A valid PNG header of a 20000 × 20000 image (1.6 GB decoded) followed by a little data: a decompression bomb.
QByteArray hugePng()
{
    QByteArray header(13, '\0');
    qToBigEndian(quint32(20000), header.data());
    qToBigEndian(quint32(20000), header.data() + 4);
    header[8] = 8; // bit depth
    header[9] = 6; // RGBA
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", header) + chunk("IDAT", QByteArray(64, '\0')) +
           chunk("IEND", {});
}

/// An SVG whose <use> elements refer each to the one before, 10,000 deep.
QByteArray nestedSvg()
{
    QByteArray svg = "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
                     "width='100' height='100'><defs><rect id='u0' width='10' height='10'/>";
    for (int i = 1; i <= 10000; ++i) {
        svg += QStringLiteral("<use id='u%1' xlink:href='#u%2'/>").arg(i).arg(i - 1).toUtf8();
    }
    return svg + "</defs><use xlink:href='#u10000'/></svg>";
}

Artifact artifact(const QString &name, const QString &mimeType, const QByteArray &data)
{
    Artifact made;
    made.name = name;
    made.mimeType = mimeType;
    made.data = data;
    return made;
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

class GalleryPageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("journal.sqlite"));
        m_recorder = std::make_unique<JournalRecorder>(
            m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
        m_feed = std::make_unique<JournalFeed>(m_path);
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

    void record(const QString &runId, const QList<Artifact> &artifacts, const QString &origin = QStringLiteral("mcp"),
                const QString &clientName = {})
    {
        RunRequest request;
        request.language = QStringLiteral("python");
        request.source = *runSourceFromString(origin);
        request.clientName = clientName;
        m_recorder->runStarted(runId, request);
        for (const Artifact &made : artifacts) {
            m_recorder->runArtifact(runId, made);
        }
        RunResult result;
        result.exitCode = 0;
        m_recorder->runFinished(runId, result, std::nullopt);
        m_recorder->flush();
    }

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<JournalRecorder> m_recorder;
    std::unique_ptr<JournalFeed> m_feed;
    ThumbnailProvider m_thumbnails;
    LaunchCounter m_launches;
};

} // namespace

TEST_F(GalleryPageTest, showsTheChartsOfARunOpensOneLargeCopiesItAndGoesToItsRun)
{
    record(QStringLiteral("two-charts"),
           {artifact(QStringLiteral("red.png"), QStringLiteral("image/png"), png(Qt::red)),
            artifact(QStringLiteral("blue.png"), QStringLiteral("image/png"), png(Qt::blue, {320, 240}))});
    GalleryPage page(*m_feed, m_thumbnails);
    page.resize(900, 600);
    page.show();
    page.waitForLoaded();
    GalleryModel *model = page.model();
    ASSERT_EQ(model->rowCount(), 2);
    EXPECT_TRUE(model->index(0).data().toString().startsWith(QStringLiteral("red.png · run two-ch\n")))
        << qPrintable(model->index(0).data().toString());

    m_thumbnails.waitForDone();
    const QImage red = model->index(0).data(Qt::DecorationRole).value<QImage>();
    EXPECT_EQ(red.size(), QSize(64, 48)) << "a small chart is not blown up";
    EXPECT_EQ(red.pixelColor(10, 10), QColor(Qt::red));
    const QImage blue = model->index(1).data(Qt::DecorationRole).value<QImage>();
    EXPECT_EQ(blue.size(), GalleryModel::ThumbnailSize) << "a larger one is fitted into the thumbnail";
    EXPECT_EQ(blue.pixelColor(80, 60), QColor(Qt::blue));

    ArtifactPreviewDialog *dialog = page.openArtifact(1);
    ASSERT_NE(dialog, nullptr);
    dialog->waitForDecoded();
    EXPECT_EQ(dialog->image().size(), QSize(320, 240)) << "the preview is the chart at full size";
    QApplication::clipboard()->clear();
    dialog->findChild<QPushButton *>(QStringLiteral("copyImage"))->click();
    const QImage copied = QApplication::clipboard()->image();
    ASSERT_EQ(copied.size(), QSize(320, 240));
    EXPECT_EQ(copied.pixelColor(5, 5), QColor(Qt::blue));

    dialog->setCurrent(0); // previous
    dialog->waitForDecoded();
    EXPECT_EQ(dialog->image().size(), QSize(64, 48));

    QStringList wanted;
    QObject::connect(&page, &Page::navigate, &page,
                     [&wanted](const Intent &intent) { wanted << std::get<ShowRun>(intent).runId; });
    dialog->findChild<QPushButton *>(QStringLiteral("showRun"))->click();
    EXPECT_EQ(wanted, QStringList{QStringLiteral("two-charts")});
}

TEST_F(GalleryPageTest, chartsOfRunsRecordedByAnotherProcessAppearWithoutARefresh)
{
    GalleryPage page(*m_feed, m_thumbnails);
    page.show(); // a page on show reads again when the journal changed; a hidden one when it is shown next
    page.waitForLoaded();
    EXPECT_EQ(page.model()->rowCount(), 0);
    // Another connection to the journal, as an assistant's `--mcp` server has.
    record(QStringLiteral("later"),
           {artifact(QStringLiteral("late.png"), QStringLiteral("image/png"), png(Qt::green))});
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() == 1; }, 10000));
}

TEST_F(GalleryPageTest, anEmptyGallerySaysWhatAppearsThereAndHowOrThatTheFiltersHideIt)
{
    // Issue 37, item 12: an empty gallery was a blank area with "0 artifacts".
    GalleryPage page(*m_feed, m_thumbnails);
    page.resize(900, 600);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    page.waitForLoaded();
    auto *hint = page.findChild<QLabel *>(QStringLiteral("galleryEmptyHint"));
    ASSERT_NE(hint, nullptr);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_FALSE(page.view()->isVisible());
    EXPECT_TRUE(hint->text().contains(QLatin1String("Charts and files that runs write appear here")))
        << qPrintable(hint->text());
    EXPECT_TRUE(hint->text().contains(QLatin1String("Console"))) << qPrintable(hint->text());
    EXPECT_TRUE(hint->text().contains(QLatin1String("assistant"))) << qPrintable(hint->text());

    record(QStringLiteral("a-chart"),
           {artifact(QStringLiteral("sales.png"), QStringLiteral("image/png"), png(Qt::red))});
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() == 1; }, 10000));
    EXPECT_TRUE(page.view()->isVisible());
    EXPECT_FALSE(hint->isVisible());

    // A filter that hides every chart says so, not that there are none.
    page.findChild<QLineEdit *>(QStringLiteral("gallerySearch"))->setText(QStringLiteral("nothing-is-named-so"));
    EXPECT_EQ(page.model()->rowCount(), 0);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().contains(QLatin1String("filters"))) << qPrintable(hint->text());
    EXPECT_FALSE(hint->text().contains(QLatin1String("Console"))) << qPrintable(hint->text());
    page.findChild<QLineEdit *>(QStringLiteral("gallerySearch"))->clear();
    auto *type = page.findChild<QComboBox *>(QStringLiteral("galleryTypeFilter"));
    type->setCurrentIndex(type->findData(QStringLiteral("text/html")));
    page.waitForLoaded();
    EXPECT_EQ(page.model()->rowCount(), 0);
    EXPECT_TRUE(hint->text().contains(QLatin1String("filters"))) << qPrintable(hint->text());
    type->setCurrentIndex(0);
    page.waitForLoaded();
    EXPECT_TRUE(page.view()->isVisible());
}

TEST_F(GalleryPageTest, aTilesNameRunAndClientFitUnderItsThumbnail)
{
    // Seen in the screenshots: the tile's text had one line's room under the thumbnail, and "figure_1.png · run
    // 3c14dd / MCP · claude-ai · 8:04 PM" was elided to "figure_1.p…un 3c14dd…".
    GalleryPage page(*m_feed, m_thumbnails);
    page.resize(900, 600);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    record(QStringLiteral("3c14dd0e9b84a77f"),
           {artifact(QStringLiteral("figure_1.png"), QStringLiteral("image/png"), png(Qt::red))}, QStringLiteral("mcp"),
           QStringLiteral("claude-ai"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() == 1; }, 10000));
    const QModelIndex tile = page.model()->index(0, 0);
    const QString text = tile.data().toString();
    ASSERT_TRUE(text.contains(QLatin1String("claude-ai"))) << qPrintable(text);
    const QListView *view = page.view();
    // The text's room: the tile less the thumbnail above it and a few pixels of the style's margins.
    const QRect rect = view->visualRect(tile);
    const int room = rect.height() - GalleryModel::ThumbnailSize.height() - 8;
    const QRect needed = view->fontMetrics().boundingRect(QRect(0, 0, rect.width() - 8, 10000),
                                                          Qt::TextWordWrap | Qt::AlignHCenter, text);
    EXPECT_LE(needed.height(), room) << qPrintable(text) << " in a tile of " << rect.width() << " x " << rect.height();
}

TEST_F(GalleryPageTest, filtersBySourceAndType)
{
    record(QStringLiteral("from-mcp"), {artifact(QStringLiteral("a.png"), QStringLiteral("image/png"), png(Qt::red)),
                                        artifact(QStringLiteral("plot.html"), QStringLiteral("text/html"), "<html>")});
    record(QStringLiteral("from-cli"), {artifact(QStringLiteral("b.png"), QStringLiteral("image/png"), png(Qt::red))},
           QStringLiteral("cli"));
    GalleryPage page(*m_feed, m_thumbnails);
    page.waitForLoaded();
    EXPECT_EQ(page.model()->rowCount(), 3);
    auto *source = page.findChild<QComboBox *>(QStringLiteral("gallerySourceFilter"));
    source->setCurrentIndex(source->findData(QStringLiteral("cli")));
    page.waitForLoaded();
    ASSERT_EQ(page.model()->rowCount(), 1);
    EXPECT_EQ(page.model()->entry(0).runId, QStringLiteral("from-cli"));
    source->setCurrentIndex(0);
    auto *type = page.findChild<QComboBox *>(QStringLiteral("galleryTypeFilter"));
    type->setCurrentIndex(type->findData(QStringLiteral("image/")));
    page.waitForLoaded();
    EXPECT_EQ(page.model()->rowCount(), 2);
}

TEST_F(GalleryPageTest, aTextFiltersWhatWasReadByNameRunAndTheOpenedPreviewShowsTheMatchingOnes)
{
    record(QStringLiteral("sales-run"),
           {artifact(QStringLiteral("sales.png"), QStringLiteral("image/png"), png(Qt::red)),
            artifact(QStringLiteral("costs.png"), QStringLiteral("image/png"), png(Qt::blue))});
    record(QStringLiteral("other-run"), {artifact(QStringLiteral("sales.csv"), QStringLiteral("text/csv"), "a,b\n")});
    GalleryPage page(*m_feed, m_thumbnails);
    page.waitForLoaded();
    ASSERT_EQ(page.model()->rowCount(), 3);
    auto *search = page.findChild<QLineEdit *>(QStringLiteral("gallerySearch"));
    ASSERT_NE(search, nullptr);
    EXPECT_EQ(page.findField(), search) << "Ctrl+F goes there";
    auto *count = page.findChild<QLabel *>(QStringLiteral("galleryCount"));

    search->setText(QStringLiteral("SALES."));
    ASSERT_EQ(page.model()->rowCount(), 2);
    EXPECT_EQ(page.model()->entry(0).artifact.name, QStringLiteral("sales.csv"));
    EXPECT_EQ(page.model()->entry(1).artifact.name, QStringLiteral("sales.png"));
    EXPECT_TRUE(count->text().startsWith(QStringLiteral("2 "))) << qPrintable(count->text());
    // The preview steps through what is shown.
    ArtifactPreviewDialog *dialog = page.openArtifact(1);
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->windowTitle(), QStringLiteral("sales.png"));
    dialog->close();

    search->setText(QStringLiteral("sales-run"));
    EXPECT_EQ(page.model()->rowCount(), 2);
    search->clear();
    EXPECT_EQ(page.model()->rowCount(), 3);
}

TEST_F(GalleryPageTest, aPngNamedChartJarIsPreviewedAsAnImageAndNothingIsLaunched)
{
    record(QStringLiteral("disguised"),
           {artifact(QStringLiteral("chart.jar"), QStringLiteral("application/java-archive"), png(Qt::red)),
            artifact(QStringLiteral("plot.html"), QStringLiteral("text/html"), "<script>fetch('http://x')</script>"),
            artifact(QStringLiteral("run.sh"), QStringLiteral("application/x-sh"),
                     QByteArray("\x7f"
                                "ELF\0\1",
                                6))});
    GalleryPage page(*m_feed, m_thumbnails);
    page.waitForLoaded();
    ASSERT_EQ(page.model()->rowCount(), 3);
    (void)page.model()->index(0).data(Qt::DecorationRole); // asks for it
    m_thumbnails.waitForDone();
    EXPECT_EQ(page.model()->index(0).data(Qt::DecorationRole).value<QImage>().pixelColor(5, 5), QColor(Qt::red))
        << "its thumbnail is the image its bytes are";

    // Activated as a user would (Enter on the item): previewed inside the app, never launched.
    page.view()->setCurrentIndex(page.model()->index(0));
    emit page.view()->activated(page.model()->index(0));
    auto *dialog = page.window()->findChild<ArtifactPreviewDialog *>();
    ASSERT_NE(dialog, nullptr);
    dialog->waitForDecoded();
    EXPECT_EQ(dialog->image().size(), QSize(64, 48));
    EXPECT_EQ(dialog->findChild<QStackedWidget *>()->currentWidget()->objectName(), QStringLiteral("previewImageView"))
        << "shown as an image";

    dialog->setCurrent(1);
    EXPECT_EQ(dialog->findChild<QStackedWidget *>()->currentWidget()->objectName(), QStringLiteral("previewText"))
        << "HTML is shown as its source";
    dialog->setCurrent(2);
    EXPECT_EQ(dialog->findChild<QStackedWidget *>()->currentWidget()->objectName(), QStringLiteral("previewMessage"))
        << "anything else can only be saved";
}

TEST_F(GalleryPageTest, aDecompressionBombAndADeeplyNestedSvgGetAPlaceholderWithoutHoldingTheGuiThread)
{
    record(QStringLiteral("hostile"),
           {artifact(QStringLiteral("bomb.png"), QStringLiteral("image/png"), hugePng()),
            artifact(QStringLiteral("nested.svg"), QStringLiteral("image/svg+xml"), nestedSvg())});
    GalleryPage page(*m_feed, m_thumbnails);
    page.waitForLoaded();
    ASSERT_EQ(page.model()->rowCount(), 2);

    // What the GUI thread does for them: ask for the thumbnails and open the previews. Each returns at once.
    QElapsedTimer gui;
    gui.start();
    for (int row = 0; row < 2; ++row) {
        (void)page.model()->index(row).data(Qt::DecorationRole);
    }
    ArtifactPreviewDialog *dialog = page.openArtifact(0);
    dialog->setCurrent(1);
    dialog->setCurrent(0);
    EXPECT_LT(gui.elapsed(), 100) << "the GUI thread decoded something";

    m_thumbnails.waitForDone();
    for (int row = 0; row < 2; ++row) {
        const auto thumbnail =
            m_thumbnails.thumbnail(page.model()->entry(row).artifact.path, page.model()->entry(row).artifact.mimeType,
                                   GalleryModel::ThumbnailSize);
        ASSERT_TRUE(thumbnail.has_value());
        EXPECT_TRUE(thumbnail->image.isNull()) << "row " << row << " was decoded";
        EXPECT_FALSE(thumbnail->why.isEmpty());
    }
    dialog->waitForDecoded();
    EXPECT_TRUE(dialog->image().isNull());
    EXPECT_TRUE(dialog->findChild<QLabel *>(QStringLiteral("previewMessage"))->text().contains(QStringLiteral("20000")))
        << dialog->findChild<QLabel *>(QStringLiteral("previewMessage"))->text().toStdString();
    QString why;
    EXPECT_TRUE(SafeImage::decode(nestedSvg(), QStringLiteral("image/svg+xml"), {}, &why).isNull());
    EXPECT_TRUE(why.contains(QStringLiteral("nested"))) << why.toStdString();
}

TEST(GalleryModelTest, tilesOfChartsWithTheSameNameSayTheirRunAndClient)
{
    // Issue 37, item 16: every tile was "figure_1.png".
    ThumbnailProvider thumbnails;
    GalleryModel model(thumbnails);
    JournalArtifactEntry first;
    first.runId = QStringLiteral("3fa2c1d0e9b84a77");
    first.source = RunSource::Mcp;
    first.clientName = QStringLiteral("claude-ai");
    first.language = QStringLiteral("python");
    first.startedAt = QDateTime::currentDateTimeUtc();
    first.artifact.name = QStringLiteral("figure_1.png");
    first.artifact.mimeType = QStringLiteral("image/png");
    JournalArtifactEntry second = first;
    second.runId = QStringLiteral("77b0aa1c2d3e4f50");
    second.source = RunSource::Gui;
    second.clientName.clear();
    model.setEntries({first, second});
    const QString one = model.index(0).data().toString();
    const QString two = model.index(1).data().toString();
    EXPECT_NE(one, two);
    EXPECT_TRUE(one.contains(QLatin1String("run 3fa2c1"))) << qPrintable(one);
    EXPECT_TRUE(one.contains(QLatin1String("claude-ai"))) << qPrintable(one);
    EXPECT_TRUE(two.contains(QLatin1String("run 77b0aa"))) << qPrintable(two);
}

#include "GalleryPageTest.moc"

TEST(GalleryModel, aTileIsNamedByItsChartsTitleWhereItHasOne)
{
    // Issue 46: every run's first chart is figure_1.png; its title tells it apart.
    ThumbnailProvider thumbnails;
    GalleryModel model(thumbnails);
    JournalArtifactEntry titled{.runId = QStringLiteral("abcdef123"),
                                .startedAt = QDateTime::currentDateTimeUtc(),
                                .artifact = JournalArtifact{.name = QStringLiteral("figure_1.png"),
                                                            .mimeType = QStringLiteral("image/png"),
                                                            .chartTitle = QStringLiteral("Sales per month")}};
    JournalArtifactEntry plain = titled;
    plain.artifact.chartTitle.clear();
    model.setEntries({titled, plain});
    EXPECT_TRUE(model.index(0).data().toString().startsWith(QStringLiteral("Sales per month · run abcdef")))
        << qPrintable(model.index(0).data().toString());
    EXPECT_TRUE(model.index(1).data().toString().startsWith(QStringLiteral("figure_1.png · run abcdef")));
    EXPECT_TRUE(model.index(0).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("figure_1.png")))
        << "the tooltip keeps the file's name";
}
