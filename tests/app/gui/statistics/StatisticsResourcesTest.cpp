// The statistics page's resource chart of a run on the real Docker engine: while a CPU-bound program runs, the
// samples the engine's stats API gave reach the journal and the page's CPU series shows the program busy.
#include "GuiTestSupport.h"
#include "gui/statistics/StatisticsPage.h"
#include "journal/JournalFeed.h"
#include "journal/JournalReader.h"
#include "journal/JournalRecorder.h"

#include <QChart>
#include <QLineSeries>
#include <QTemporaryDir>
#include <algorithm>
#include <future>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using namespace std::chrono_literals;

TEST(StatisticsResources, aRunningCpuBoundProgramsCpuSeriesShowsItBusy)
{
    auto engine = guitest::dockerEngine();
    ASSERT_NE(engine, nullptr);
    QTemporaryDir dir;
    const QString journal = dir.filePath(QStringLiteral("journal.sqlite"));
    JournalRecorder recorder(journal, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
    Subscription subscription = engine->subscribe(&recorder);
    JournalFeed feed(journal);
    StatisticsPage page(feed);
    page.show();

    RunRequest request;
    request.code = QStringLiteral("import time\nprint('busy', flush=True)\nend = time.time() + 8\n"
                                  "while time.time() < end:\n    pass\n");
    request.timeout = 60s;
    auto run = std::async(std::launch::async, [&] { return engine->run(request); });
    const auto busy = [&] {
        for (const JournalSample &sample : page.numbers().samples) {
            if (sample.cpuCores > 0.5) {
                return true;
            }
        }
        return false;
    };
    // The page reads the journal again as it changes; the newest run is the one shown.
    EXPECT_TRUE(guitest::waitUntil(
        [&] {
            page.reload();
            page.waitForLoaded();
            return busy();
        },
        40s))
        << "samples: " << page.numbers().samples.size();
    EXPECT_EQ(run.wait_for(0s), std::future_status::timeout) << "seen while the program still runs";
    QList<QPointF> cpu;
    for (QAbstractSeries *series : page.resourcesChart()->series()) {
        if (auto *line = qobject_cast<QLineSeries *>(series); line && line->name().startsWith(QStringLiteral("CPU"))) {
            cpu = line->points();
        }
    }
    EXPECT_FALSE(cpu.isEmpty());
    EXPECT_TRUE(std::any_of(cpu.begin(), cpu.end(), [](const QPointF &point) { return point.y() > 0.5; }))
        << "the chart's series, not only the numbers";
    auto result = run.get();
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0);
    recorder.flush();
    EXPECT_GE(JournalReader(journal).samples(result->runId)->size(), 4) << "kept when the run ended";
}
