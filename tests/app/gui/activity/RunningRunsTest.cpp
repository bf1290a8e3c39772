// The runs in progress as the status bar and the tray count them: every process's, from the journal.
#include "gui/activity/RunningRuns.h"

#include "GuiTestSupport.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

JournalRun runOf(RunSource source, const QString &client = {})
{
    JournalRun run;
    run.id = QStringLiteral("run-%1").arg(int(source));
    run.source = source;
    run.clientName = client;
    return run;
}

void start(JournalRecorder &recorder, const QString &id, const QString &origin, const QString &client = {})
{
    RunRequest request;
    request.code = QStringLiteral("print(1)");
    request.language = QStringLiteral("python");
    request.source = *runSourceFromString(origin);
    request.clientName = client;
    recorder.runStarted(id, request);
    recorder.flush();
}

void finish(JournalRecorder &recorder, const QString &id, int exitCode)
{
    RunResult result;
    result.runId = id;
    result.exitCode = exitCode;
    result.durationMs = 50;
    recorder.runFinished(id, result, {});
    recorder.flush();
}

} // namespace

TEST(RunningRuns, summaryCountsTheRunsBySource)
{
    EXPECT_EQ(RunningRuns::summary({}), QStringLiteral("No runs in progress"));
    EXPECT_EQ(RunningRuns::summary({runOf(RunSource::Gui)}), QStringLiteral("1 running: 1 Console"));
    EXPECT_EQ(RunningRuns::summary({runOf(RunSource::Gui), runOf(RunSource::Mcp, QStringLiteral("claude-ai")),
                                    runOf(RunSource::Http, QStringLiteral("inspector")),
                                    runOf(RunSource::Http, QStringLiteral("inspector"))}),
              QStringLiteral("4 running: 2 MCP/HTTP · inspector, 1 Console, 1 MCP · claude-ai"));
}

TEST(RunningRuns, countsEveryProcesssRunsInTheJournalAndReportsEachEndOnce)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));
    auto journal = RunJournal::open(path);
    ASSERT_TRUE(journal) << qPrintable(journal.error().message);
    // An assistant's `llm-sandbox --mcp`, its own process and connection, with a run already going.
    JournalRecorder mcp(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    start(mcp, QStringLiteral("before"), QStringLiteral("mcp"), QStringLiteral("claude-ai"));

    JournalFeed feed(path);
    RunningRuns running(feed);
    QSignalSpy ended(&running, &RunningRuns::runEnded);
    ASSERT_TRUE(waitUntil([&] { return running.count() == 1; }, 10s)) << "the run in progress when the app starts";
    EXPECT_EQ(RunningRuns::summary(running.runs()), QStringLiteral("1 running: 1 MCP · claude-ai"));

    // The app's own server and the console.
    JournalRecorder app(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    start(app, QStringLiteral("http-1"), QStringLiteral("http"), QStringLiteral("inspector"));
    start(app, QStringLiteral("console-1"), QStringLiteral("gui"));
    ASSERT_TRUE(waitUntil([&] { return running.count() == 3; }, 10s));
    EXPECT_TRUE(RunningRuns::summary(running.runs()).startsWith(QStringLiteral("3 running: ")));
    EXPECT_TRUE(RunningRuns::details(running.runs()).contains(QStringLiteral("MCP/HTTP · inspector")));

    finish(mcp, QStringLiteral("before"), 1);
    ASSERT_TRUE(waitUntil([&] { return running.count() == 2; }, 10s));
    ASSERT_EQ(ended.size(), 1);
    const auto endedRun = ended.first().first().value<JournalRun>();
    EXPECT_EQ(endedRun.id, QStringLiteral("before"));
    EXPECT_EQ(endedRun.exitCode, 1);
    // A run that starts and ends between two looks is reported too, once.
    start(app, QStringLiteral("quick"), QStringLiteral("gui"));
    finish(app, QStringLiteral("quick"), 0);
    finish(app, QStringLiteral("console-1"), 0);
    ASSERT_TRUE(waitUntil([&] { return ended.size() == 3; }, 10s));
    feed.waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_EQ(ended.size(), 3);
    EXPECT_EQ(running.count(), 1);
    EXPECT_EQ(RunningRuns::summary(running.runs()), QStringLiteral("1 running: 1 MCP/HTTP · inspector"));
}
