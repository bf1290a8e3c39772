// The statistics page over a journal written in the test: the charts' series hold the journal's numbers.
#include "gui/statistics/StatisticsPage.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QComboBox>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QRegularExpression>
#include <QStackedBarSeries>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
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
        JournalRecorder recorder(m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
        int id = 0;
        const auto record = [&](const QString &language, const QString &origin, const QString &client, int exitCode,
                                StopReason reason, qint64 durationMs, const QString &error = {}, bool cold = false,
                                const QList<double> &cpuSamples = {}) {
            RunRequest request;
            request.language = language;
            request.source = *runSourceFromString(origin);
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

    /// Records `count` runs of `language` from `origin` and client `client` that exited with 0, the memory of each
    /// sampled at `mebibytes` when given.
    void recordMore(const QString &origin, const QString &client, int count, double mebibytes = 0)
    {
        JournalRecorder recorder(m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
        for (int i = 0; i < count; ++i) {
            RunRequest request;
            request.language = QStringLiteral("javascript");
            request.source = *runSourceFromString(origin);
            request.clientName = client;
            const QString runId = QStringLiteral("%1-%2-%3").arg(origin, client).arg(i);
            recorder.runStarted(runId, request);
            if (mebibytes > 0) {
                for (int sample = 1; sample <= 3; ++sample) {
                    recorder.runSample(
                        runId, ContainerStats{.memoryBytes = qint64(mebibytes * sample / 3 * (1 << 20)),
                                              .memoryLimitBytes = 512 << 20,
                                              .cpuCores = 0.5,
                                              .pids = 2,
                                              .sampledAt = QDateTime::currentDateTimeUtc().addMSecs(500 * sample)});
                }
            }
            RunResult result;
            result.exitCode = 0;
            result.reason = StopReason::Exited;
            result.durationMs = 50;
            recorder.runFinished(runId, result, std::nullopt);
        }
        recorder.flush();
    }

    static QStringList categories(QChart *chart, Qt::Orientation orientation = Qt::Vertical)
    {
        for (QAbstractAxis *axis : chart->axes(orientation)) {
            if (auto *names = qobject_cast<QBarCategoryAxis *>(axis)) {
                return names->categories();
            }
        }
        return {};
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
    EXPECT_EQ(today.value(QStringLiteral("Failed")), 1);
    EXPECT_EQ(today.value(QStringLiteral("Timed out")), 1);
    EXPECT_EQ(today.value(QStringLiteral("Could not run")), 1);

    // Durations of the runs that ran, per language, warm runs and cold starts apart: a series each, a box per
    // language in each (an empty one where a language has no cold start).
    ASSERT_EQ(page.durationsChart()->series().size(), 2);
    auto *warm = qobject_cast<QBoxPlotSeries *>(page.durationsChart()->series().at(0));
    auto *cold = qobject_cast<QBoxPlotSeries *>(page.durationsChart()->series().at(1));
    ASSERT_NE(warm, nullptr);
    ASSERT_NE(cold, nullptr);
    ASSERT_EQ(warm->count(), 2);
    ASSERT_EQ(cold->count(), 2);
    QBoxSet *python = warm->boxSets().at(0);
    EXPECT_EQ(python->label(), QStringLiteral("Python"));
    EXPECT_EQ(python->at(QBoxSet::LowerExtreme), 100);
    EXPECT_EQ(python->at(QBoxSet::Median), 200);
    EXPECT_EQ(python->at(QBoxSet::UpperExtreme), 2000);
    EXPECT_EQ(cold->boxSets().at(0)->at(QBoxSet::Median), 2500);
    EXPECT_EQ(warm->boxSets().at(1)->at(QBoxSet::Median), 400);
    EXPECT_EQ(cold->boxSets().at(1)->pen().style(), Qt::NoPen) << "R has no cold start: nothing drawn";

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
    EXPECT_EQ(categories(page.clientsChart()),
              (QStringList{QStringLiteral("cursor · stdio"), QStringLiteral("claude-ai · stdio")}));
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
    EXPECT_EQ(choice->count(), 1) << "only the run that has samples";
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
    JournalRecorder writer(m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
    StatisticsPage page(m_feed);
    for (int i = 0; i < 20; ++i) {
        page.reload();
        page.waitForLoaded();
        ASSERT_TRUE(page.numbers().error.isEmpty()) << page.numbers().error.toStdString();
    }
}

// Item 5: the app's own server's clients (HTTP) are MCP clients as much as stdio ones; each bar says how it came.
TEST_F(StatisticsPageTest, mcpRunsByClientCountStdioAndHttpClients)
{
    recordMore(QStringLiteral("http"), QStringLiteral("claude-ai"), 4);
    recordMore(QStringLiteral("http"), QStringLiteral("inspector"), 2);
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();
    auto *clients = seriesOf<QHorizontalBarSeries>(page.clientsChart());
    ASSERT_NE(clients, nullptr);
    QBarSet *byClient = clients->barSets().first();
    ASSERT_EQ(byClient->count(), 4);
    EXPECT_EQ(categories(page.clientsChart()),
              (QStringList{QStringLiteral("cursor · stdio"), QStringLiteral("inspector · HTTP"),
                           QStringLiteral("claude-ai · stdio"), QStringLiteral("claude-ai · HTTP")}))
        << "most at the top";
    EXPECT_EQ(byClient->at(3), 4);
    EXPECT_EQ(byClient->at(2), 3);
}

// Item 10: one label per language (not "JavaSc…" twice), a legend for warm and cold, numbers in tooltips.
TEST_F(StatisticsPageTest, theDurationPlotHasOneLabelPerLanguageALegendAndTooltips)
{
    StatisticsPage page(m_feed);
    page.resize(1000, 800);
    page.show();
    page.reload();
    page.waitForLoaded();
    QChart *chart = page.durationsChart();
    ASSERT_EQ(chart->axes(Qt::Horizontal).size(), 1);
    auto *languages = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal).first());
    ASSERT_NE(languages, nullptr);
    EXPECT_EQ(languages->categories(), (QStringList{QStringLiteral("Python"), QStringLiteral("R")}));
    EXPECT_FALSE(languages->truncateLabels());
    EXPECT_TRUE(chart->legend()->isVisible());
    QStringList legend;
    for (QLegendMarker *marker : chart->legend()->markers()) {
        legend << marker->label();
    }
    EXPECT_EQ(legend.size(), 2);
    EXPECT_TRUE(legend.first().contains(QStringLiteral("Warm"))) << legend.join(u'|').toStdString();
    EXPECT_TRUE(legend.last().contains(QStringLiteral("Cold"))) << legend.join(u'|').toStdString();

    auto *warm = qobject_cast<QBoxPlotSeries *>(chart->series().first());
    ASSERT_NE(warm, nullptr);
    emit warm->hovered(true, warm->boxSets().first());
    EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("Python, warm container: 5 run")))
        << QToolTip::text().toStdString();
    EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("median 200 ms"))) << QToolTip::text().toStdString();
    auto *sources = seriesOf<QHorizontalBarSeries>(page.sourcesChart());
    ASSERT_NE(sources, nullptr);
    emit sources->hovered(true, 2, sources->barSets().first());
    EXPECT_TRUE(QToolTip::text().startsWith(QStringLiteral("MCP: 4 run"))) << QToolTip::text().toStdString();
    QToolTip::hideText();
}

// Item 10: a colour means one thing on the page: the outcomes' colours are for outcomes only (a cold start is not
// purple like a stopped run, a source is not blue like a running one).
TEST_F(StatisticsPageTest, onlyOutcomesWearTheOutcomesColours)
{
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();
    const StateColors states = StateColors::of(page.palette());
    QList<QColor> outcomeColours;
    for (int outcome = 0; outcome < kRunOutcomeCount; ++outcome) {
        outcomeColours << states.forOutcome(RunOutcome(outcome));
    }
    QList<std::pair<QString, QColor>> others;
    for (QAbstractSeries *series : page.durationsChart()->series()) {
        auto *boxes = qobject_cast<QBoxPlotSeries *>(series);
        others.append({boxes->name(), boxes->pen().color()});
    }
    for (QChart *chart : {page.sourcesChart(), page.clientsChart()}) {
        others.append({chart->title(), seriesOf<QHorizontalBarSeries>(chart)->barSets().first()->color()});
    }
    for (QAbstractSeries *series : page.resourcesChart()->series()) {
        auto *line = qobject_cast<QLineSeries *>(series);
        others.append({line->name(), line->pen().color()});
    }
    ASSERT_EQ(others.size(), 6);
    for (const auto &[name, colour] : others) {
        EXPECT_FALSE(outcomeColours.contains(colour)) << name.toStdString() << " wears an outcome's colour";
    }
    auto *outcomes = seriesOf<QStackedBarSeries>(page.outcomesChart());
    ASSERT_NE(outcomes, nullptr);
    for (QBarSet *set : outcomes->barSets()) {
        EXPECT_TRUE(outcomeColours.contains(set->color())) << set->label().toStdString();
    }
}

// Item 10: the resource chart starts on a run that has samples, not on the newest (too short to have any); its title
// stays a title; its MiB axis has no label twice.
TEST_F(StatisticsPageTest, theResourceChartStartsOnASampledRunWithDistinctMebibyteLabels)
{
    recordMore(QStringLiteral("gui"), QStringLiteral("small"), 1, 1.2);
    recordMore(QStringLiteral("gui"), QString(), 3);
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();
    EXPECT_EQ(page.numbers().sampledRun, QStringLiteral("gui-small-0")) << "the newest run that has samples";
    ASSERT_EQ(page.numbers().samples.size(), 3);
    QValueAxis *mib = nullptr;
    for (QAbstractAxis *axis : page.resourcesChart()->axes(Qt::Vertical)) {
        if (axis->alignment() == Qt::AlignRight) {
            mib = qobject_cast<QValueAxis *>(axis);
        }
    }
    ASSERT_NE(mib, nullptr);
    QStringList labels;
    if (mib->tickType() == QValueAxis::TicksDynamic) {
        for (double value = mib->tickAnchor(); value <= mib->max() + 1e-9; value += mib->tickInterval()) {
            labels << QString::asprintf(mib->labelFormat().toLatin1().constData(), int(value));
        }
    } else {
        for (int tick = 0; tick < mib->tickCount(); ++tick) {
            const double value = mib->min() + tick * (mib->max() - mib->min()) / (mib->tickCount() - 1);
            labels << QString::asprintf(mib->labelFormat().toLatin1().constData(), int(value));
        }
    }
    EXPECT_EQ(QSet<QString>(labels.begin(), labels.end()).size(), labels.size()) << labels.join(u' ').toStdString();
    EXPECT_LE(page.resourcesChart()->title().size(), 50) << page.resourcesChart()->title().toStdString();
    page.selectRun(QStringLiteral("run-1"));
    page.waitForLoaded();
    EXPECT_LE(page.resourcesChart()->title().size(), 50) << page.resourcesChart()->title().toStdString();
}

// Issue 46, item 4: after a burst of short runs, the resource chart still finds the older runs that have samples.
TEST_F(StatisticsPageTest, theResourceChartFindsSampledRunsBehindABurstOfShortOnes)
{
    recordMore(QStringLiteral("gui"), QStringLiteral("sampled"), 1, 3.0);
    recordMore(QStringLiteral("mcp"), QStringLiteral("burst"), 600);
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();
    EXPECT_EQ(page.numbers().sampledRun, QStringLiteral("gui-sampled-0"));
    EXPECT_EQ(page.numbers().samples.size(), 3);
    EXPECT_EQ(page.resourcesChart()->title(), QStringLiteral("CPU and memory of the run's container"));
}

// Item 10: a period without runs shows a hint, not five empty charts.
TEST(StatisticsPageEmptyTest, anEmptyJournalShowsAHintInsteadOfBlankCharts)
{
    QTemporaryDir dir;
    JournalFeed feed(dir.filePath(QStringLiteral("journal.sqlite")));
    StatisticsPage page(feed);
    page.resize(1000, 800);
    page.show();
    page.reload();
    page.waitForLoaded();
    auto *hint = page.findChild<QLabel *>(QStringLiteral("statisticsHint"));
    ASSERT_NE(hint, nullptr);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().contains(QStringLiteral("Console"))) << hint->text().toStdString();
    EXPECT_FALSE(page.findChild<QWidget *>(QStringLiteral("outcomesChart"))->isVisible());
}

// Item 15: the day axis in the locale's order ("11月5日", not "5 11月").
TEST_F(StatisticsPageTest, theDayAxisWritesDaysInTheLocalesOrder)
{
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    StatisticsPage page(m_feed);
    page.reload();
    page.waitForLoaded();
    QLocale::setDefault(saved);
    QStringList labelled = categories(page.outcomesChart(), Qt::Horizontal);
    labelled.removeIf([](const QString &label) { return label.trimmed().isEmpty(); });
    ASSERT_FALSE(labelled.isEmpty());
    static const QRegularExpression chinese(QStringLiteral("^\\d{1,2}月\\d{1,2}日$"));
    for (const QString &label : std::as_const(labelled)) {
        EXPECT_TRUE(chinese.match(label).hasMatch()) << label.toStdString();
    }
}

// Issue 48: the hosts runs reached, runs per host, the top ten, most at the top; no chart while no run had network.
TEST_F(StatisticsPageTest, theHostsRunsReachedAreBarsOfRunsPerHostOnlyWhenSomeRunHadNetwork)
{
    {
        StatisticsPage page(m_feed);
        page.show();
        page.reload();
        page.waitForLoaded();
        EXPECT_TRUE(page.numbers().hosts.isEmpty());
        EXPECT_FALSE(page.hostsChartShown()) << "no run had network";
    }
    {
        JournalRecorder recorder(m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
        // api.test in 3 runs (twice in one), pypi.org in 2, and eleven hosts once each: 13 hosts.
        QList<QStringList> runs{{"api.test", "pypi.org", "api.test"}, {"api.test", "pypi.org"}, {"api.test"}};
        QStringList once;
        for (int i = 0; i < 11; ++i) {
            once << QStringLiteral("host-%1.test").arg(i, 2, 10, QLatin1Char('0'));
        }
        runs << once;
        for (int i = 0; i < runs.size(); ++i) {
            const QString runId = QStringLiteral("net-%1").arg(i);
            RunRequest request;
            request.language = QStringLiteral("python");
            request.source = RunSource::Mcp;
            recorder.runStarted(runId, request);
            RunResult result;
            result.exitCode = 0;
            result.networkGranted = NetworkAllowList({NetworkHost{QStringLiteral("*"), {443}}});
            for (const QString &host : runs.at(i)) {
                result.network << NetworkConnection{.method = "CONNECT", .host = host, .port = 443, .allowed = true};
            }
            recorder.runFinished(runId, result, std::nullopt);
        }
        recorder.flush();
    }
    StatisticsPage page(m_feed);
    page.show();
    page.reload();
    page.waitForLoaded();
    EXPECT_TRUE(page.hostsChartShown());
    EXPECT_EQ(page.hostsChart()->title(), QStringLiteral("Runs by host reached"));
    auto *hosts = seriesOf<QHorizontalBarSeries>(page.hostsChart());
    ASSERT_NE(hosts, nullptr);
    QBarSet *byHost = hosts->barSets().first();
    ASSERT_EQ(byHost->count(), 10) << "the top ten of 13 hosts";
    const QStringList names = categories(page.hostsChart());
    ASSERT_EQ(names.size(), 10);
    EXPECT_EQ(names.last(), QStringLiteral("api.test")) << "most at the top";
    EXPECT_EQ(byHost->at(9), 3) << "a host twice in one run counts once";
    EXPECT_EQ(names.at(8), QStringLiteral("pypi.org"));
    EXPECT_EQ(byHost->at(8), 2);
    EXPECT_EQ(names.at(7), QStringLiteral("host-00.test")) << "as many runs: by name";
    EXPECT_EQ(byHost->at(0), 1);
    EXPECT_FALSE(names.contains(QStringLiteral("host-10.test")));
}
