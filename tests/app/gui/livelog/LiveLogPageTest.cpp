#include "gui/livelog/LiveLogPage.h"

#include "DragSplitter.h"
#include "GuiTestSupport.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/widgets/RunTableView.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

TEST(LiveLogPage, showsARunAnotherConnectionWritesAsItStartsStreamsAndEnds)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    page.resize(1100, 600);
    page.show();
    EXPECT_EQ(page.model()->rowCount(), 0);
    auto *hint = page.findChild<QLabel *>(QStringLiteral("liveLogEmptyHint"));
    ASSERT_NE(hint, nullptr);
    // The journal is read on the feed's thread: the page says so, then that it has no runs.
    EXPECT_TRUE(hint->isVisible());
    ASSERT_TRUE(waitUntil([&] { return hint->text().startsWith(QStringLiteral("No runs yet")); }, 10s));
    EXPECT_TRUE(hint->isVisible());

    // Another writer (as a separately launched `--mcp` process would be), with its own connection.
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    RunRequest request;
    request.code = QStringLiteral("print('hi')");
    request.source = RunSource::Mcp;
    recorder.runStarted(QStringLiteral("run-1"), request);
    recorder.flush();
    ASSERT_TRUE(waitUntil([&] { return page.model()->rowCount() == 1; }, 10s));
    EXPECT_EQ(page.model()->runAt(0).status, RunStatus::Running);
    EXPECT_FALSE(hint->isVisible());

    // The first run is selected by itself; its output appears while it runs.
    auto *output = page.findChild<QPlainTextEdit *>(QStringLiteral("runOutput"));
    ASSERT_NE(output, nullptr);
    recorder.runOutput(QStringLiteral("run-1"), OutputStream::Stdout, "hi from mcp\n");
    recorder.flush();
    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("hi from mcp")); }, 10s));

    RunResult result;
    result.runId = QStringLiteral("run-1");
    result.exitCode = 0;
    result.stdoutData = "hi from mcp\n";
    result.durationMs = 120;
    recorder.runFinished(QStringLiteral("run-1"), result, {});
    recorder.flush();
    ASSERT_TRUE(waitUntil([&] { return page.model()->runAt(0).status == RunStatus::Finished; }, 10s));
    EXPECT_EQ(page.model()->rowCount(), 1);
}

namespace {

/// The id of the run the live log shows.
QString shownRun(const QTableView &table)
{
    return table.selectionModel()->currentIndex().data(LiveLogModel::RunIdRole).toString();
}

void startRun(JournalRecorder &recorder, const QString &id)
{
    RunRequest request;
    request.code = QStringLiteral("print('%1')").arg(id);
    request.source = RunSource::Mcp;
    recorder.runStarted(id, request);
    recorder.flush();
}

} // namespace

TEST(LiveLogPage, followsTheNewestRunUntilTheUserPicksAnotherAndResumesOnTheButton)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    startRun(recorder, QStringLiteral("run-1")); // before the page: read at its start

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(1100, 600);
    page.show();
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveLogTable"));
    auto *follow = page.findChild<QAbstractButton *>(QStringLiteral("followNewest"));
    ASSERT_NE(table, nullptr);
    ASSERT_NE(follow, nullptr);
    EXPECT_TRUE(follow->isCheckable());
    EXPECT_TRUE(follow->isChecked()) << "on by default";
    ASSERT_TRUE(waitUntil([&] { return shownRun(*table) == QLatin1String("run-1"); }, 10s));

    // A newer run comes into view as it starts, with something else selected before.
    startRun(recorder, QStringLiteral("run-2"));
    ASSERT_TRUE(waitUntil([&] { return shownRun(*table) == QLatin1String("run-2"); }, 10s));
    EXPECT_TRUE(follow->isChecked());

    // The user picks the older one: following ends there, the next run does not take it away.
    QModelIndex older;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        if (table->model()->index(row, 0).data(LiveLogModel::RunIdRole) == QStringLiteral("run-1")) {
            older = table->model()->index(row, 0);
        }
    }
    ASSERT_TRUE(older.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(older).center());
    EXPECT_EQ(shownRun(*table), QStringLiteral("run-1"));
    EXPECT_FALSE(follow->isChecked());
    startRun(recorder, QStringLiteral("run-3"));
    ASSERT_TRUE(waitUntil([&] { return page.model()->rowCount() == 3; }, 10s));
    feed.waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_EQ(shownRun(*table), QStringLiteral("run-1"));
    EXPECT_TRUE(follow->text().contains(QStringLiteral("1 new"))) << qPrintable(follow->text());

    // The button resumes following: the newest at once, then each new one.
    follow->click();
    EXPECT_TRUE(follow->isChecked());
    EXPECT_EQ(shownRun(*table), QStringLiteral("run-3"));
    EXPECT_EQ(follow->text(), QStringLiteral("&Follow newest"));
    startRun(recorder, QStringLiteral("run-4"));
    ASSERT_TRUE(waitUntil([&] { return shownRun(*table) == QLatin1String("run-4"); }, 10s));
    EXPECT_TRUE(follow->isChecked());
}

// Item 9: an assistant's loop starts about 14 runs a second. Following them, each run stays on screen long enough to
// be read (at least a second and a half) instead of the page flipping every journal read to the next empty "Running"
// run; when the burst is over, the newest run is shown.
TEST(LiveLogPage, followingABurstOfRunsHoldsEachRunOnScreenLongEnoughToRead)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    startRun(recorder, QStringLiteral("run-0"));

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(1100, 600);
    page.show();
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveLogTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(waitUntil([&] { return shownRun(*table) == QLatin1String("run-0"); }, 10s));

    // Each run the page shows, and when it came into view.
    QElapsedTimer clock;
    clock.start();
    QList<std::pair<QString, qint64>> shown{{QStringLiteral("run-0"), 0}};
    QObject::connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, &page,
                     [&](const QModelIndex &current) {
                         const QString id = current.data(LiveLogModel::RunIdRole).toString();
                         if (!id.isEmpty() && id != shown.last().first) {
                             shown.append({id, clock.elapsed()});
                         }
                     });
    // Four seconds of runs that start 70 ms apart and end when the next starts.
    int started = 0;
    QTimer burst;
    burst.setInterval(70ms);
    QObject::connect(&burst, &QTimer::timeout, &page, [&] {
        RunResult result;
        result.runId = QStringLiteral("run-%1").arg(started);
        result.exitCode = 0;
        result.stdoutData = "done\n";
        result.durationMs = 60;
        recorder.runOutput(result.runId, OutputStream::Stdout, result.stdoutData);
        recorder.runFinished(result.runId, result, {});
        startRun(recorder, QStringLiteral("run-%1").arg(++started));
        if (started == 56) {
            burst.stop();
        }
    });
    burst.start();
    ASSERT_TRUE(waitUntil([&] { return !burst.isActive(); }, 20s));
    const QString newest = QStringLiteral("run-%1").arg(started);
    ASSERT_TRUE(waitUntil([&] { return shownRun(*table) == newest; }, 5s)) << qPrintable(shownRun(*table));
    EXPECT_TRUE(page.isFollowingNewest());

    QStringList times;
    for (const auto &[id, at] : std::as_const(shown)) {
        times << QStringLiteral("%1 at %2 ms").arg(id).arg(at);
    }
    EXPECT_GE(shown.size(), 3) << "it still follows the burst";
    for (qsizetype i = 1; i + 1 < shown.size(); ++i) {
        EXPECT_GE(shown.at(i + 1).second - shown.at(i).second, 1400)
            << qPrintable(shown.at(i).first) << " was on screen too briefly:\n"
            << qPrintable(times.join(QLatin1Char('\n')));
    }
}

// Item 7: the split between the runs and the run shown stays where the user left it whatever run is selected: a long
// title ("JavaScript (Node.js) run · CPU-time limit reached after 2 min 5 s") wraps inside its pane instead of
// pushing the splitter into the table, whose columns then stay whole.
TEST(LiveLogPage, theSplitStaysWhereTheUserLeftItWhicheverRunIsShown)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    RunRequest request;
    request.code = QStringLiteral("print(1)");
    request.language = QStringLiteral("r");
    request.source = RunSource::Gui;
    recorder.runStarted(QStringLiteral("short"), request);
    RunResult result;
    result.exitCode = 0;
    result.durationMs = 9'750;
    recorder.runFinished(QStringLiteral("short"), result, {});
    request.language = QStringLiteral("javascript");
    request.source = RunSource::Mcp;
    request.clientName = QStringLiteral("claude-ai");
    recorder.runStarted(QStringLiteral("long"), request);
    result.exitCode = 137;
    result.reason = StopReason::CpuLimit;
    result.durationMs = 125'000;
    recorder.runFinished(QStringLiteral("long"), result, {});
    recorder.flush();

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(1100, 640); // the page in a 1280 px window: the run beside the table
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveLogTable"));
    auto *splitter = page.findChild<QSplitter *>(QStringLiteral("liveLogSplitter"));
    ASSERT_NE(table, nullptr);
    ASSERT_NE(splitter, nullptr);
    ASSERT_TRUE(waitUntil([&] { return page.model()->rowCount() == 2 && !page.runView()->run().id.isEmpty(); }, 10s));
    ASSERT_EQ(splitter->orientation(), Qt::Horizontal);
    page.setFollowingNewest(false);

    // The user gives the table three fifths of the page (room for its columns at their least), the run the rest.
    const int total = splitter->sizes().at(0) + splitter->sizes().at(1);
    const int tableWidth = std::max(total * 3 / 5, static_cast<RunTableView *>(table)->minimumColumnsWidth());
    sandbox::gui::guitest::dragSplitter(*splitter, tableWidth);
    QCoreApplication::processEvents();
    const QList<int> left = splitter->sizes();
    for (const char *id : {"short", "long", "short", "long"}) {
        page.selectRun(QString::fromLatin1(id));
        ASSERT_EQ(page.runView()->run().id, QLatin1String(id));
        QCoreApplication::processEvents();
        EXPECT_EQ(splitter->sizes(), left) << "showing run " << id;
        // The title fits its pane (wrapped), and every column of the table is in view, none cut.
        auto *title = page.runView()->findChild<QLabel *>(QStringLiteral("runTitle"));
        ASSERT_NE(title, nullptr);
        EXPECT_LE(title->width(), page.runView()->width());
        EXPECT_LE(title->heightForWidth(title->width()), title->height()) << qPrintable(title->text());
        int columns = 0;
        for (int column = 0; column < table->model()->columnCount(); ++column) {
            columns += table->columnWidth(column);
        }
        EXPECT_LE(columns, table->viewport()->width()) << "showing run " << id;
    }
}

TEST(LiveLogPage, aRunTheSearchHidesLeavesTheDetailPane)
{
    // The run shown stayed in the detail pane after the search had taken it out of the table.
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    startRun(recorder, QStringLiteral("run-1"));
    startRun(recorder, QStringLiteral("run-2"));

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(1100, 600);
    page.show();
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveLogTable"));
    auto *search = page.findChild<QLineEdit *>(QStringLiteral("liveLogSearch"));
    ASSERT_NE(table, nullptr);
    ASSERT_NE(search, nullptr);
    ASSERT_TRUE(waitUntil([&] { return page.model()->rowCount() == 2; }, 10s));
    const QModelIndex older = table->model()->index(1, 0);
    ASSERT_EQ(older.data(LiveLogModel::RunIdRole).toString(), QStringLiteral("run-1"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(older).center());
    ASSERT_TRUE(waitUntil([&] { return page.runView()->run().id == QLatin1String("run-1"); }, 10s));

    search->setText(QStringLiteral("run-2"));
    ASSERT_EQ(table->model()->rowCount(), 1);
    EXPECT_TRUE(page.runView()->run().id.isEmpty()) << qPrintable(page.runView()->run().id);
    EXPECT_FALSE(table->selectionModel()->hasSelection());

    // Cleared again, the run can be picked again.
    search->clear();
    ASSERT_EQ(table->model()->rowCount(), 2);
    table->selectRow(1);
    EXPECT_EQ(page.runView()->run().id, QStringLiteral("run-1"));
}

namespace {

/// Which way the sort arrow drawn at the right of `section` points: -1 up (▲, the widest row at the bottom), 1 down
/// (▼), 0 when there is none.
int arrowDirection(QHeaderView &header, int section)
{
    const QImage image = header.grab().toImage();
    const QColor background = header.palette().color(QPalette::Button);
    const int right = header.sectionViewportPosition(section) + header.sectionSize(section);
    QList<int> widths;
    for (int y = 2; y < image.height() - 2; ++y) {
        int width = 0;
        for (int x = right - 20; x < right - 2; ++x) {
            const QColor pixel = image.pixelColor(x, y);
            width += std::abs(pixel.lightness() - background.lightness()) > 60 ? 1 : 0;
        }
        if (width > 0) {
            widths.append(width);
        }
    }
    if (widths.size() < 2 || widths.first() == widths.last()) {
        return 0;
    }
    return widths.first() > widths.last() ? 1 : -1;
}

} // namespace

TEST(LiveLogPage, theSortArrowPointsTheWayTheRunsAreSorted)
{
    // Newest first (descending) under an arrow that pointed up, which reads as ascending.
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    startRun(recorder, QStringLiteral("run-1"));
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(1100, 600);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    auto *table = page.findChild<QTableView *>(QStringLiteral("liveLogTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(waitUntil([&] { return table->isVisible() && page.model()->rowCount() == 1; }, 10s));
    QHeaderView &header = *table->horizontalHeader();
    ASSERT_EQ(header.sortIndicatorSection(), LiveLogModel::Started);
    ASSERT_EQ(header.sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(arrowDirection(header, LiveLogModel::Started), 1) << "▼ over the newest first";

    table->sortByColumn(LiveLogModel::Started, Qt::AscendingOrder);
    EXPECT_EQ(arrowDirection(header, LiveLogModel::Started), -1) << "▲ over the oldest first";
}

TEST(LiveLogPage, filesDroppedOnItAreSharedWithTheConsolesNextRun)
{
    // Issue 47: as on the Console, a folder dropped on the live log goes to the next run (the window shows the
    // Console, which takes ShareForNextRun); a drag of no local file is not taken.
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    JournalFeed feed(QString{});
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(900, 600);
    page.show();
    QList<Intent> asked;
    QObject::connect(&page, &Page::navigate, &page, [&asked](const Intent &intent) { asked << intent; });

    QMimeData text;
    text.setText(QStringLiteral("print(1)"));
    QDragEnterEvent refused(QPoint(20, 20), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&page, &refused);
    EXPECT_FALSE(refused.isAccepted());

    QMimeData dropped;
    dropped.setUrls({QUrl::fromLocalFile(folder.path()), QUrl(QStringLiteral("https://example.org/x.csv"))});
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&page, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&page, &drop);
    EXPECT_TRUE(drop.isAccepted());
    ASSERT_EQ(asked.size(), 1);
    const auto *share = std::get_if<ShareForNextRun>(&asked.first());
    ASSERT_NE(share, nullptr);
    EXPECT_EQ(share->paths, QStringList{folder.path()}) << "local files only";
}
