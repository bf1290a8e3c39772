// The window's status bar and its Quit question without an engine: the engine's address leads nowhere, the journal
// is the test's own, and other processes' runs are written into it as an assistant's `llm-sandbox --mcp` would.
#include "AppContext.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "gui/MainWindow.h"
#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"

#include <QLabel>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

void start(JournalRecorder &recorder, const QString &id, const QString &origin, const QString &client)
{
    RunRequest request;
    request.code = QStringLiteral("import time; time.sleep(60)");
    request.language = QStringLiteral("python");
    request.origin = origin;
    request.clientName = client;
    recorder.runStarted(id, request);
    recorder.flush();
}

} // namespace

TEST(MainWindowStatus, countsTheRunsOfEveryProcessInTheJournalBySource)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString journalPath = folder.filePath(QStringLiteral("journal.sqlite"));
    const test::ScopedEnvironment environment{
        {"LLM_SANDBOX_JOURNAL", journalPath.toUtf8()},
        {"BACKEND", "docker"},
        {"DOCKER_HOST", "unix://" + folder.filePath(QStringLiteral("no-engine.sock")).toUtf8()}};
    auto context = AppContext::create({.source = QStringLiteral("gui")});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    MainWindow window(**context);
    window.show();
    auto *running = window.findChild<QLabel *>(QStringLiteral("runningState"));
    ASSERT_NE(running, nullptr);
    EXPECT_EQ(running->text(), QStringLiteral("No runs in progress"));

    // An assistant's `llm-sandbox --mcp` (its own process and connection) and a client of an app's own server.
    JournalRecorder mcp(journalPath, JournalRecorder::Context{QStringLiteral("mcp"), QStringLiteral("docker"), {}, {}});
    start(mcp, QStringLiteral("mcp-1"), QStringLiteral("mcp"), QStringLiteral("claude-ai"));
    ASSERT_TRUE(waitUntil([&] { return running->text() == QStringLiteral("1 running: 1 MCP · claude-ai"); }, 10s))
        << qPrintable(running->text());
    start(mcp, QStringLiteral("http-1"), QStringLiteral("http"), QStringLiteral("inspector"));
    start(mcp, QStringLiteral("http-2"), QStringLiteral("http"), QStringLiteral("inspector"));
    ASSERT_TRUE(waitUntil(
        [&] { return running->text() == QStringLiteral("3 running: 2 HTTP · inspector, 1 MCP · claude-ai"); }, 10s))
        << qPrintable(running->text());
    EXPECT_TRUE(running->toolTip().contains(QStringLiteral("MCP · claude-ai")));

    RunResult result;
    result.exitCode = 0;
    for (const QString id : {QStringLiteral("mcp-1"), QStringLiteral("http-1"), QStringLiteral("http-2")}) {
        result.runId = id;
        mcp.runFinished(id, result, {});
    }
    mcp.flush();
    ASSERT_TRUE(waitUntil([&] { return running->text() == QStringLiteral("No runs in progress"); }, 10s))
        << qPrintable(running->text());
}
