// The statistics page over a journal written in the test: the charts' series hold the journal's numbers.
#include "gui/statistics/StatisticsPage.h"

#include "journal/JournalRecorder.h"

#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QComboBox>
#include <QHorizontalBarSeries>
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
                                StopReason reason, qint64 durationMs, const QString &error = {}) {
            RunRequest request;
            request.language = language;
            request.origin = origin;
            request.clientName = client;
            const QString runId = QStringLiteral("run-%1").arg(++id);
            recorder.runStarted(runId, request);
            RunResult result;
            result.exitCode = exitCode;
            result.reason = reason;
            result.durationMs = durationMs;
            recorder.runFinished(runId, error.isEmpty() ? result : RunResult{}, error);
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
};

} // namespace

TEST_F(StatisticsPageTest, theChartsSeriesHoldTheJournalsNumbers)
{
    StatisticsPage page(m_path);
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
    EXPECT_EQ(today.value(QStringLiteral("Succeeded")), 4);
    EXPECT_EQ(today.value(QStringLiteral("Exited with an error")), 1);
    EXPECT_EQ(today.value(QStringLiteral("Timed out")), 1);
    EXPECT_EQ(today.value(QStringLiteral("Could not run")), 1);

    // Durations of the runs that ran, per language.
    auto *boxes = seriesOf<QBoxPlotSeries>(page.durationsChart());
    ASSERT_NE(boxes, nullptr);
    ASSERT_EQ(boxes->count(), 2);
    QBoxSet *python = boxes->boxSets().at(0);
    EXPECT_TRUE(python->label().startsWith(QStringLiteral("Python (5)"))) << python->label().toStdString();
    EXPECT_EQ(python->at(QBoxSet::LowerExtreme), 100);
    EXPECT_EQ(python->at(QBoxSet::Median), 200);
    EXPECT_EQ(python->at(QBoxSet::UpperExtreme), 2000);
    EXPECT_EQ(boxes->boxSets().at(1)->at(QBoxSet::Median), 400);

    // Runs by source and MCP runs by client, most at the top (the last bar of a horizontal series).
    auto *sources = seriesOf<QHorizontalBarSeries>(page.sourcesChart());
    ASSERT_NE(sources, nullptr);
    QBarSet *bySource = sources->barSets().first();
    ASSERT_EQ(bySource->count(), 3);
    EXPECT_EQ(bySource->at(2), 4) << "mcp";
    EXPECT_EQ(bySource->at(1), 2) << "cli";
    EXPECT_EQ(bySource->at(0), 1) << "gui";
    auto *clients = seriesOf<QHorizontalBarSeries>(page.clientsChart());
    ASSERT_NE(clients, nullptr);
    QBarSet *byClient = clients->barSets().first();
    ASSERT_EQ(byClient->count(), 2);
    EXPECT_EQ(byClient->at(1), 3) << "claude-ai";
    EXPECT_EQ(byClient->at(0), 1) << "cursor";
}

TEST_F(StatisticsPageTest, aShorterPeriodHasFewerDaysAndTheSameRuns)
{
    StatisticsPage page(m_path);
    auto *period = page.findChild<QComboBox *>(QStringLiteral("statisticsPeriod"));
    ASSERT_NE(period, nullptr);
    period->setCurrentIndex(period->findData(7));
    page.waitForLoaded();
    ASSERT_EQ(page.numbers().days.size(), 7);
    EXPECT_EQ(page.numbers().days.last().total(), 7);
}

TEST_F(StatisticsPageTest, readsAgainAndAgainBesideAWriterOfThisProcess)
{
    JournalRecorder writer(
        m_path, JournalRecorder::Context{QStringLiteral("gui"), QStringLiteral("docker"), QString(), {}, {}});
    StatisticsPage page(m_path);
    for (int i = 0; i < 20; ++i) {
        page.reload();
        page.waitForLoaded();
        ASSERT_TRUE(page.numbers().error.isEmpty()) << page.numbers().error.toStdString();
    }
}
