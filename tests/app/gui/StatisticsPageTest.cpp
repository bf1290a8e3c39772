// The statistics page over a journal written in the test: the charts' series hold the journal's numbers.
#include "gui/statistics/StatisticsPage.h"

#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"

#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QComboBox>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

class StatisticsPageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("journal.sqlite"));
        JournalRecorder recorder(
            m_path, JournalRecorder::Context{QStringLiteral("gui"), QStringLiteral("docker"), QString(), {}, {}});
        int id = 0;
        const auto record = [&](const QString &language, const QString &origin, const QString &client, int exitCode,
                                StopReason reason, qint64 durationMs, const QString &error = {}, bool cold = false,
                                const QList<double> &cpuSamples = {}) {
            RunRequest request;
            request.language = language;
            request.origin = origin;
            request.clientName = client;
            const QString runId = QStringLiteral("run-%1").arg(++id);
            recorder.runStarted(runId, request);
            const QDateTime start = QDateTime::currentDateTimeUtc();
            for (qsizetype i = 0; i < cpuSamples.size(); ++i) {
                recorder.runSample(runId, ContainerStats{.memoryBytes = (10 + i) << 20,
                                                         .memoryLimitBytes = 512 << 20,
                                                         .cpuCores = cpuSamples[i],
                                                         .pids = 2,
                                                         .sampledAt = start.addMSecs(500 * (i + 1))});
            }
            RunResult result;
            result.exitCode = exitCode;
            result.reason = reason;
            result.durationMs = durationMs;
            result.coldStart = cold;
            recorder.runFinished(runId, error.isEmpty() ? result : RunResult{},
                                 error.isEmpty() ? std::nullopt
                                                 : std::optional<Error>(Error{error, ErrorCode::EngineFailed}));
        };
        // Today: three Python runs that succeeded (100, 200, 300 ms), one that exited with 1, one timed out; an R
        // run that succeeded; one run that could not start.
        record(QStringLiteral("python"), QStringLiteral("mcp"), QStringLiteral("claude-ai"), 0, StopReason::Exited,
               100);
        record(QStringLiteral("python"), QStringLiteral("mcp"), QStringLiteral("claude-ai"), 0, StopReason::Exited,
               300);
        record(QStringLiteral("python"), QStringLiteral("mcp"), QStringLiteral("cursor"), 0, StopReason::Exited, 200);
        record(QStringLiteral("python"), QStringLiteral("cli"), QString(), 1, StopReason::Exited, 150);
        record(QStringLiteral("python"), QStringLiteral("cli"), QString(), -1, StopReason::TimedOut, 2000);
        record(QStringLiteral("r"), QStringLiteral("gui"), QString(), 0, StopReason::Exited, 400);
        record(QStringLiteral("go"), QStringLiteral("mcp"), QStringLiteral("claude-ai"), 0, StopReason::Exited, 0,
               QStringLiteral("engine unreachable"));
        // A Python run that waited for its container to start (the newest run), busy for two seconds.
        record(QStringLiteral("python"), QStringLiteral("cli"), QString(), 0, StopReason::Exited, 2500, {}, true,
               {0.2, 0.99, 1.0, 0.97});
        recorder.flush();
    }

    template <typename Series>
    static Series *seriesOf(QChart *chart)
    {
        EXPECT_EQ(chart->series().size(), 1);
        return chart->series().isEmpty() ? nullptr : qobject_cast<Series *>(chart->series().first());
    }

    QTemporaryDir m_dir;
    QString m_path;
    JournalFeed m_feed{m_dir.filePath(QStringLiteral("journal.sqlite"))};
};

} // namespace

TEST_F(StatisticsPageTest, theChartsSeriesHoldTheJournalsNumbers)
{
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();

    // Runs per day by outcome: 30 days, today last.
    auto *outcomes = seriesOf<QStackedBarSeries>(page.outcomesChart());
    ASSERT_NE(outcomes, nullptr);
    QMap<QString, double> today;
    for (QBarSet *set : outcomes->barSets()) {
        ASSERT_EQ(set->count(), 30);
        today.insert(set->label(), set->at(29));
        EXPECT_EQ(set->sum(), set->at(29)) << "every run started today";
    }
    EXPECT_EQ(today.value(QStringLiteral("Succeeded")), 5);
    EXPECT_EQ(today.value(QStringLiteral("Exited with an error")), 1);
    EXPECT_EQ(today.value(QStringLiteral("Timed out")), 1);
    EXPECT_EQ(today.value(QStringLiteral("Could not run")), 1);

    // Durations of the runs that ran, per language, warm runs and cold starts apart.
    auto *boxes = seriesOf<QBoxPlotSeries>(page.durationsChart());
    ASSERT_NE(boxes, nullptr);
    ASSERT_EQ(boxes->count(), 3);
    QBoxSet *python = boxes->boxSets().at(0);
    EXPECT_TRUE(python->label().startsWith(QStringLiteral("Python (5)"))) << python->label().toStdString();
    EXPECT_EQ(python->at(QBoxSet::LowerExtreme), 100);
    EXPECT_EQ(python->at(QBoxSet::Median), 200);
    EXPECT_EQ(python->at(QBoxSet::UpperExtreme), 2000);
    QBoxSet *pythonCold = boxes->boxSets().at(1);
    EXPECT_EQ(pythonCold->label(), QStringLiteral("Python, cold start (1)"));
    EXPECT_EQ(pythonCold->at(QBoxSet::Median), 2500);
    EXPECT_EQ(boxes->boxSets().at(2)->at(QBoxSet::Median), 400);

    // Runs by source and MCP runs by client, most at the top (the last bar of a horizontal series).
    auto *sources = seriesOf<QHorizontalBarSeries>(page.sourcesChart());
    ASSERT_NE(sources, nullptr);
    QBarSet *bySource = sources->barSets().first();
    ASSERT_EQ(bySource->count(), 3);
    EXPECT_EQ(bySource->at(2), 4) << "mcp";
    EXPECT_EQ(bySource->at(1), 3) << "cli";
    EXPECT_EQ(bySource->at(0), 1) << "gui";
    auto *clients = seriesOf<QHorizontalBarSeries>(page.clientsChart());
    ASSERT_NE(clients, nullptr);
    QBarSet *byClient = clients->barSets().first();
    ASSERT_EQ(byClient->count(), 2);
    EXPECT_EQ(byClient->at(1), 3) << "claude-ai";
    EXPECT_EQ(byClient->at(0), 1) << "cursor";
}

// The resource chart shows the newest run's samples at first, another run's when chosen, and says when a run has
// none.
TEST_F(StatisticsPageTest, theResourceChartHoldsTheChosenRunsSamples)
{
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();
    EXPECT_EQ(page.numbers().sampledRun, QStringLiteral("run-8")) << "the newest run";
    auto *choice = page.findChild<QComboBox *>(QStringLiteral("statisticsRun"));
    ASSERT_NE(choice, nullptr);
    EXPECT_EQ(choice->count(), 8);
    EXPECT_EQ(choice->currentData().toString(), QStringLiteral("run-8"));
    QList<QLineSeries *> lines;
    for (QAbstractSeries *series : page.resourcesChart()->series()) {
        lines << qobject_cast<QLineSeries *>(series);
    }
    ASSERT_EQ(lines.size(), 2);
    ASSERT_NE(lines[0], nullptr);
    ASSERT_NE(lines[1], nullptr);
    EXPECT_EQ(lines[0]->name(), QStringLiteral("CPU (cores)"));
    const QList<QPointF> cpu = lines[0]->points();
    ASSERT_EQ(cpu.size(), 4);
    EXPECT_DOUBLE_EQ(cpu[1].y(), 0.99);
    EXPECT_NEAR(cpu[3].x(), 2.0, 0.3) << "seconds since the run started";
    const QList<QPointF> memory = lines[1]->points();
    ASSERT_EQ(memory.size(), 4);
    EXPECT_DOUBLE_EQ(memory[3].y(), 13.0) << "MiB";

    page.selectRun(QStringLiteral("run-1"));
    page.waitForLoaded();
    EXPECT_EQ(page.numbers().sampledRun, QStringLiteral("run-1"));
    EXPECT_TRUE(page.numbers().samples.isEmpty());
    EXPECT_TRUE(page.resourcesChart()->title().contains(QStringLiteral("no samples")));
    EXPECT_EQ(choice->currentData().toString(), QStringLiteral("run-1"));
}

TEST_F(StatisticsPageTest, aShorterPeriodHasFewerDaysAndTheSameRuns)
{
    StatisticsPage page(m_feed);
    auto *period = page.findChild<QComboBox *>(QStringLiteral("statisticsPeriod"));
    ASSERT_NE(period, nullptr);
    period->setCurrentIndex(period->findData(7));
    page.waitForLoaded();
    ASSERT_EQ(page.numbers().days.size(), 7);
    EXPECT_EQ(page.numbers().days.last().total(), 8);
}

TEST_F(StatisticsPageTest, readsAgainAndAgainBesideAWriterOfThisProcess)
{
    JournalRecorder writer(
        m_path, JournalRecorder::Context{QStringLiteral("gui"), QStringLiteral("docker"), QString(), {}, {}});
    StatisticsPage page(m_feed);
    for (int i = 0; i < 20; ++i) {
        page.reload();
        page.waitForLoaded();
        ASSERT_TRUE(page.numbers().error.isEmpty()) << page.numbers().error.toStdString();
    }
}
