// Chart thumbnails in the live log's rows, over a journal written in the test.
#include "gui/livelog/LiveLogThumbnailDelegate.h"

#include "GuiTestSupport.h"
#include "TestImages.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"

#include <QBuffer>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

Artifact png(const QString &name, QColor color)
{
    Artifact made;
    made.name = name;
    made.mimeType = QStringLiteral("image/png");
    made.data = guitest::png(color, {300, 200});
    return made;
}

Artifact csv()
{
    Artifact made;
    made.name = QStringLiteral("table.csv");
    made.mimeType = QStringLiteral("text/csv");
    made.data = "a,b\n1,2\n";
    return made;
}

class LiveLogThumbnailDelegateTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("journal.sqlite"));
        m_recorder = std::make_unique<JournalRecorder>(
            m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
        // The journal exists before the feed reads it.
        start(QStringLiteral("first"));
        finish(QStringLiteral("first"));
        m_feed = std::make_unique<JournalFeed>(m_path);
        m_page = std::make_unique<LiveLogPage>(*m_feed, m_thumbnails);
        m_page->resize(1600, 600);
        m_page->show();
        m_table = m_page->findChild<QTableView *>(QStringLiteral("liveLogTable"));
        ASSERT_NE(m_table, nullptr);
        m_delegate = qobject_cast<LiveLogThumbnailDelegate *>(m_table->itemDelegateForColumn(LiveLogModel::Outcome));
        ASSERT_NE(m_delegate, nullptr) << "the live log's Result column has no thumbnails";
    }

    void start(const QString &runId)
    {
        RunRequest request;
        request.language = QStringLiteral("python");
        request.source = RunSource::Mcp;
        m_recorder->runStarted(runId, request);
        m_recorder->flush();
    }
    void finish(const QString &runId)
    {
        RunResult result;
        result.exitCode = 0;
        m_recorder->runFinished(runId, result, std::nullopt);
        m_recorder->flush();
    }

    /// How many pixels of `color` the run's Result cell shows now.
    int pixelsOf(const QString &runId, QColor color, int column = LiveLogModel::Outcome) const
    {
        const int row = m_page->model()->rowOf(runId);
        if (row < 0) {
            return 0;
        }
        const QModelIndex index = m_table->model()->index(row, column);
        const QRect cell = m_table->visualRect(index);
        const QImage shown = m_table->viewport()->grab(cell).toImage();
        int count = 0;
        for (int y = 0; y < shown.height(); ++y) {
            for (int x = 0; x < shown.width(); ++x) {
                count += shown.pixelColor(x, y) == color ? 1 : 0;
            }
        }
        return count;
    }

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<JournalRecorder> m_recorder;
    std::unique_ptr<JournalFeed> m_feed;
    ThumbnailProvider m_thumbnails;
    std::unique_ptr<LiveLogPage> m_page;
    QTableView *m_table = nullptr;
    LiveLogThumbnailDelegate *m_delegate = nullptr;
};

} // namespace

TEST_F(LiveLogThumbnailDelegateTest, aRunsChartsAppearInItsRowAsTheyAreMadeAndOtherFilesDoNot)
{
    ASSERT_TRUE(waitUntil([&] { return m_page->model()->rowCount() == 1; }, 10s));
    start(QStringLiteral("plots"));
    ASSERT_TRUE(waitUntil([&] { return m_page->model()->rowOf(QStringLiteral("plots")) >= 0; }, 10s));
    // Shown while it runs: no chart yet.
    QTest::qWait(300);
    EXPECT_EQ(pixelsOf(QStringLiteral("plots"), Qt::red), 0);

    // The running run gains a chart and a table: the chart appears in its row, the table does not.
    m_recorder->runArtifact(QStringLiteral("plots"), png(QStringLiteral("red.png"), Qt::red));
    m_recorder->runArtifact(QStringLiteral("plots"), csv());
    m_recorder->runOutput(QStringLiteral("plots"), OutputStream::Stdout, "plotted\n");
    m_recorder->flush();
    ASSERT_TRUE(waitUntil([&] { return pixelsOf(QStringLiteral("plots"), Qt::red) > 100; }, 10s))
        << "the chart's thumbnail is not in its row";
    ASSERT_EQ(m_delegate->imagesOf(QStringLiteral("plots")).size(), 1);
    EXPECT_EQ(m_delegate->imagesOf(QStringLiteral("plots")).first().name, QStringLiteral("red.png"));
    // Small: within the row, its aspect ratio kept.
    const int rowHeight = m_table->rowHeight(0);
    EXPECT_LT(pixelsOf(QStringLiteral("plots"), Qt::red), rowHeight * rowHeight * 2);

    // Another chart before it ends: both, in the run's order.
    m_recorder->runArtifact(QStringLiteral("plots"), png(QStringLiteral("blue.png"), Qt::blue));
    finish(QStringLiteral("plots"));
    ASSERT_TRUE(waitUntil([&] { return pixelsOf(QStringLiteral("plots"), Qt::blue) > 100; }, 10s));
    EXPECT_GT(pixelsOf(QStringLiteral("plots"), Qt::red), 100);
    // The run without charts shows none.
    EXPECT_TRUE(m_delegate->imagesOf(QStringLiteral("first")).isEmpty());
    EXPECT_EQ(pixelsOf(QStringLiteral("first"), Qt::red), 0);
}

TEST_F(LiveLogThumbnailDelegateTest, aRunWithManyChartsShowsThreeAndHowManyMore)
{
    start(QStringLiteral("many"));
    for (int i = 0; i < 5; ++i) {
        m_recorder->runArtifact(QStringLiteral("many"), png(QStringLiteral("chart_%1.png").arg(i), Qt::darkGreen));
    }
    finish(QStringLiteral("many"));
    ASSERT_TRUE(waitUntil([&] { return m_delegate->imagesOf(QStringLiteral("many")).size() == 3; }, 10s));
    m_thumbnails.waitForDone();
    ASSERT_TRUE(waitUntil([&] { return pixelsOf(QStringLiteral("many"), Qt::darkGreen) > 300; }, 10s));
    // Every thumbnail drawn: the first one drawn satisfies the wait while the others are still being made for the
    // column's final width (the page lays its splitter out as the columns are measured).
    int three = 0;
    for (int attempt = 0; attempt < 50; ++attempt) {
        m_thumbnails.waitForDone();
        QTest::qWait(100);
        const int now = pixelsOf(QStringLiteral("many"), Qt::darkGreen);
        if (now == three) {
            break;
        }
        three = now;
    }

    // A narrow column gets fewer, beside the result's text, never over the column beside it. (The user widened the
    // status: a narrower page puts the run under the table, whose columns then have the page's whole width.)
    QHeaderView *header = m_table->horizontalHeader();
    header->resizeSection(LiveLogModel::Status,
                          header->sectionSize(LiveLogModel::Status) + header->sectionSize(LiveLogModel::Outcome) - 40);
    QTest::qWait(100);
    m_thumbnails.waitForDone();
    QTest::qWait(100);
    EXPECT_LT(pixelsOf(QStringLiteral("many"), Qt::darkGreen), three);
    EXPECT_EQ(pixelsOf(QStringLiteral("many"), Qt::darkGreen, LiveLogModel::Status), 0);
    EXPECT_EQ(pixelsOf(QStringLiteral("many"), Qt::darkGreen, LiveLogModel::Language), 0);
}

TEST(LiveLogThumbnailSize, fitsTheRowWithAChartsAspectRatio)
{
    const QSize size = LiveLogThumbnailDelegate::thumbnailSize(30);
    EXPECT_EQ(size.height(), 26);
    EXPECT_EQ(size.width(), 39);
}
