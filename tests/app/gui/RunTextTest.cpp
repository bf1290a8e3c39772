// The words and colours every page gives a run's status, and the locale's formats for times, days and sentences.
#include "gui/RunText.h"

#include "gui/StateColors.h"
#include "gui/backends/ImageTableModel.h"
#include "gui/backends/SandboxTableModel.h"
#include "gui/history/HistoryFilterBar.h"
#include "gui/livelog/LiveLogFilterModel.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThumbnailProvider.h"

#include <QComboBox>
#include <QGuiApplication>
#include <QIcon>
#include <QLabel>
#include <QLocale>
#include <QSet>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

/// A run that ended after 3 s as `configure` says.
JournalRun ended(const QString &id, const std::function<void(JournalRun &)> &configure)
{
    JournalRun run;
    run.id = id;
    run.source = RunSource::Gui;
    run.language = QStringLiteral("python");
    run.startedAt = QDateTime::currentDateTimeUtc().addSecs(-60);
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.stopReason = StopReason::Exited;
    run.durationMs = 3000;
    run.timeoutMs = 30'000;
    configure(run);
    return run;
}

/// The runs of every outcome, with the status every page must show for each.
QList<std::pair<JournalRun, QString>> runsOfEveryOutcome()
{
    return {
        {ended(QStringLiteral("ok"), [](JournalRun &) {}), QStringLiteral("Succeeded")},
        {ended(QStringLiteral("exit1"), [](JournalRun &run) { run.exitCode = 1; }), QStringLiteral("Failed (exit 1)")},
        {ended(QStringLiteral("timeout"),
               [](JournalRun &run) {
                   run.exitCode = 137;
                   run.stopReason = StopReason::TimedOut;
                   run.durationMs = 30'050;
               }),
         QStringLiteral("Timed out after 30 s")},
        {ended(QStringLiteral("stop"),
               [](JournalRun &run) {
                   run.exitCode = 137;
                   run.stopReason = StopReason::Cancelled;
               }),
         QStringLiteral("Stopped by you after 3.00 s")},
        {ended(QStringLiteral("unreachable"),
               [](JournalRun &run) {
                   run.status = RunStatus::Failed;
                   run.exitCode.reset();
                   run.stopReason.reset();
                   run.error = QStringLiteral("connect: no such file");
                   run.errorCode = ErrorCode::EngineUnreachable;
               }),
         QStringLiteral("Engine unreachable")},
        {ended(QStringLiteral("interrupted"),
               [](JournalRun &run) {
                   run.status = RunStatus::Interrupted;
                   run.exitCode.reset();
                   run.stopReason.reset();
               }),
         QStringLiteral("Interrupted")},
        {ended(QStringLiteral("running"),
               [](JournalRun &run) {
                   run.status = RunStatus::Running;
                   run.exitCode.reset();
                   run.stopReason.reset();
               }),
         QStringLiteral("Running")},
    };
}

QColor dotColor(const QVariant &decoration)
{
    const QImage image = decoration.value<QIcon>().pixmap(12, 12).toImage();
    return image.pixelColor(image.width() / 2, image.height() / 2);
}

} // namespace

// Item 8: exit 1, a timeout and a stop no longer all read "Finished" in one orange; the live log, the run's title and
// History (same function) name each outcome in one vocabulary and give it its own colour.
TEST(RunText, everyOutcomeHasOneNameAndOneColourOnEveryPage)
{
    LiveLogModel model;
    const auto runs = runsOfEveryOutcome();
    QList<JournalRun> all;
    for (const auto &[run, _] : runs) {
        all << run;
    }
    model.merge(all);
    ThumbnailProvider thumbnails;
    RunView view(thumbnails);
    QSet<QRgb> colours;
    for (const auto &[run, expected] : runs) {
        const int row = model.rowOf(run.id);
        ASSERT_GE(row, 0);
        EXPECT_EQ(model.index(row, LiveLogModel::Status).data().toString(), expected) << run.id.toStdString();
        const QColor dot = dotColor(model.index(row, LiveLogModel::Status).data(Qt::DecorationRole));
        colours.insert(dot.rgb());
        view.showRun(run);
        const QString title = view.findChild<QLabel *>(QStringLiteral("runTitle"))->text();
        EXPECT_TRUE(title.contains(expected)) << title.toStdString();
        EXPECT_TRUE(title.contains(dot.name())) << "the title shows the live log's colour: " << title.toStdString();
    }
    EXPECT_EQ(colours.size(), int(runs.size())) << "one colour per outcome";
}

TEST(RunText, namesStopsByWhoStoppedThemAndLimitsByTheLimit)
{
    JournalRun byClient = ended(QStringLiteral("c"), [](JournalRun &run) {
        run.source = RunSource::Http;
        run.stopReason = StopReason::Cancelled;
        run.durationMs = 1200;
    });
    EXPECT_EQ(runStatusText(byClient), QStringLiteral("Cancelled after 1.20 s"));
    JournalRun memory = ended(QStringLiteral("m"), [](JournalRun &run) { run.stopReason = StopReason::OutOfMemory; });
    EXPECT_EQ(runStatusText(memory), QStringLiteral("Out of memory after 3.00 s"));
    EXPECT_EQ(runOutcomeText(memory), QString()) << "nothing beyond the status: no \"exit 137, out of memory\"";
    JournalRun failed = runsOfEveryOutcome().at(4).first;
    EXPECT_EQ(runOutcomeText(failed), QStringLiteral("connect: no such file")) << "the detail of the status";
}

// Item 8: History's status filter offers the outcomes in the status column's words, not "Finished".
TEST(RunText, historyFiltersByTheOutcomesOfTheStatusColumn)
{
    HistoryFilterBar bar;
    auto *status = bar.findChild<QComboBox *>(QStringLiteral("historyStatusFilter"));
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(status->findText(QStringLiteral("Finished")), -1);
    EXPECT_FALSE(bar.filter().outcome) << "any status at first";
    const int timedOut = status->findText(QStringLiteral("Timed out"));
    ASSERT_GE(timedOut, 0);
    status->setCurrentIndex(timedOut);
    EXPECT_EQ(bar.filter().outcome, RunOutcome::TimedOut);
}

// Item 5: one notion of an MCP client, over stdio or HTTP: every source filter offers them together, and the rows
// they match say which ("MCP · claude-ai", "MCP/HTTP · claude-ai"), in the words the filter offers them
// apart ("HTTP · claude-ai" read as no MCP client at all).
TEST(RunText, sourceFiltersOfferAnyMcpClientOverStdioOrHttp)
{
    HistoryFilterBar bar;
    auto *source = bar.findChild<QComboBox *>(QStringLiteral("historySourceFilter"));
    ASSERT_NE(source, nullptr);
    const int any = source->findText(QStringLiteral("Any MCP client (stdio or HTTP)"));
    ASSERT_GE(any, 0);
    source->setCurrentIndex(any);
    EXPECT_EQ(bar.filter().sources, (QList<RunSource>{RunSource::Mcp, RunSource::Http}));

    LiveLogModel model;
    LiveLogFilterModel filter;
    filter.setSourceModel(&model);
    JournalRun stdio = ended(QStringLiteral("stdio"), [](JournalRun &run) { run.source = RunSource::Mcp; });
    JournalRun http = ended(QStringLiteral("http"), [](JournalRun &run) { run.source = RunSource::Http; });
    stdio.clientName = http.clientName = QStringLiteral("claude-ai");
    model.merge({stdio, http, ended(QStringLiteral("console"), [](JournalRun &) {})});
    filter.setSources(runSourcesFromString(source->currentData().toString()));
    ASSERT_EQ(filter.rowCount(), 2);
    QStringList shown;
    for (int row = 0; row < 2; ++row) {
        shown << filter.index(row, LiveLogModel::Source).data().toString();
    }
    shown.sort();
    EXPECT_EQ(shown, (QStringList{QStringLiteral("MCP · claude-ai"), QStringLiteral("MCP/HTTP · claude-ai")}));
    for (const QString &each : shown) {
        EXPECT_GE(source->findText(each.section(QStringLiteral(" · "), 0, 0)), 0) << qPrintable(each);
    }
}

// Item 15: times, days and joined sentences in the locale's own formats.
class LocaleFormatsTest : public ::testing::Test
{
protected:
    void TearDown() override { QLocale::setDefault(m_saved); }
    QLocale m_saved;
};

TEST_F(LocaleFormatsTest, chineseDaysTimesAndSentences)
{
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    EXPECT_EQ(dayText(QDate(2026, 11, 5)), QStringLiteral("11月5日"));
    EXPECT_EQ(timeText(QTime(15, 4, 5)), QStringLiteral("15:04:05"));
    EXPECT_EQ(dateTimeText(QDateTime(QDate(2026, 11, 5), QTime(15, 4, 5))), QStringLiteral("2026/11/5 15:04:05"));
    EXPECT_EQ(joinSentences({QStringLiteral("仍有 1 个运行在进行中。"), QStringLiteral("MCP 服务器正在运行。")}),
              QStringLiteral("仍有 1 个运行在进行中。MCP 服务器正在运行。"));
}

TEST_F(LocaleFormatsTest, englishDaysTimesAndSentences)
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    EXPECT_EQ(dayText(QDate(2026, 11, 5)), QStringLiteral("Nov 5"));
    EXPECT_EQ(timeText(QTime(15, 4, 5)), QStringLiteral("3:04:05 PM"));
    EXPECT_EQ(dateTimeText(QDateTime(QDate(2026, 11, 5), QTime(15, 4, 5))), QStringLiteral("11/5/26 3:04:05 PM"));
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    EXPECT_EQ(dayText(QDate(2026, 11, 5)), QStringLiteral("5. Nov."));
    EXPECT_EQ(joinSentences({QStringLiteral("One run is in progress."), QString(), QStringLiteral("Stop?")}),
              QStringLiteral("One run is in progress. Stop?"));
}

// Sizes read "MB" (millions of bytes) on the Images tab beside "MiB" everywhere else: binary units throughout.
TEST(RunText, everySizeIsInBinaryUnits)
{
    EXPECT_EQ(ImageTableModel::sizeText(300 * 1024 * 1024), QStringLiteral("300.0 MiB"));
    EXPECT_EQ(ImageTableModel::sizeText(1536 * 1024 * 1024LL), QStringLiteral("1.5 GiB"));
    EXPECT_EQ(ImageTableModel::sizeText(512 * 1024), QStringLiteral("512.0 KiB"));

    // One formatter for every size the app shows: the sandboxes' memory reads as the images' sizes do.
    SandboxTableModel sandboxes;
    SandboxEntry sandbox;
    sandbox.container.id = QStringLiteral("0123456789abcdef");
    sandbox.stats = ContainerStats{.memoryBytes = 24 * 1024 * 1024, .memoryLimitBytes = 512 * 1024 * 1024};
    sandboxes.setSandboxes({sandbox});
    EXPECT_EQ(sandboxes.index(0, SandboxTableModel::MemoryColumn).data().toString(),
              QStringLiteral("24.0 MiB / 512.0 MiB"));
}
