#include "GuiTestSupport.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::McpServerProcess;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

TEST(LiveLogMcp, runOfASeparateMcpServerShowsWhileRunningAndStreamsItsOutput)
{
    ASSERT_FALSE(qEnvironmentVariable("LLM_SANDBOX_BIN").isEmpty()) << "ctest sets LLM_SANDBOX_BIN";
    ASSERT_FALSE(qEnvironmentVariable("LLM_SANDBOX_RUNNER").isEmpty()) << "ctest sets LLM_SANDBOX_RUNNER";
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("journal.sqlite"));

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    page.resize(1100, 600);
    page.show();
    ASSERT_EQ(page.model()->rowCount(), 0);

    McpServerProcess server(path, folder.path());
    ASSERT_TRUE(server.process().waitForStarted(10000)) << qPrintable(server.process().errorString());
    server.sendInitialize(QStringLiteral("live-log-test-client"), QStringLiteral("1.2.3"));
    ASSERT_TRUE(waitUntil([&] { return server.replyTo(1).has_value(); }, 30s))
        << server.process().readAllStandardError().toStdString();
    EXPECT_TRUE(server.replyTo(1)->contains(QStringLiteral("result")));
    server.sendInitialized();
    // The pause is inside the sandbox: it keeps the run going while the page is looked at, not the test.
    server.sendExecuteCode(2, QJsonObject{{QStringLiteral("language"), QStringLiteral("python")},
                                          {QStringLiteral("code"), QStringLiteral("import time\n"
                                                                                  "print('first', flush=True)\n"
                                                                                  "time.sleep(3)\n"
                                                                                  "print('second', flush=True)\n")}});

    // The run shows up while it is still going, attributed to the MCP client that asked for it.
    ASSERT_TRUE(waitUntil([&] { return page.model()->rowCount() == 1; }, 60s))
        << server.process().readAllStandardError().toStdString();
    {
        const JournalRun &run = page.model()->runAt(0);
        EXPECT_EQ(run.status, RunStatus::Running);
        EXPECT_EQ(run.source, RunSource::Mcp);
        EXPECT_EQ(run.clientName, QStringLiteral("live-log-test-client"));
        EXPECT_EQ(run.clientVersion, QStringLiteral("1.2.3"));
    }

    // Its output streams into the detail pane: "first" while the program is still sleeping before "second".
    auto *output = page.findChild<QPlainTextEdit *>(QStringLiteral("runOutput"));
    ASSERT_NE(output, nullptr);
    page.selectRun(page.model()->runAt(0).id);
    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("first")); }, 60s))
        << server.process().readAllStandardError().toStdString();
    EXPECT_FALSE(output->toPlainText().contains(QStringLiteral("second")));
    EXPECT_EQ(page.model()->runAt(0).status, RunStatus::Running);

    // Then the run ends well and the rest of its output arrives.
    ASSERT_TRUE(waitUntil([&] { return page.model()->runAt(0).status != RunStatus::Running; }, 60s));
    EXPECT_EQ(page.model()->runAt(0).status, RunStatus::Finished);
    EXPECT_EQ(page.model()->runAt(0).exitCode, std::optional<int>(0));
    ASSERT_TRUE(waitUntil([&] { return output->toPlainText().contains(QStringLiteral("second")); }, 10s));
    EXPECT_LT(output->toPlainText().indexOf(QStringLiteral("first")),
              output->toPlainText().indexOf(QStringLiteral("second")));

    // The assistant got its answer, and the server ends when its client closes stdin.
    ASSERT_TRUE(waitUntil([&] { return server.replyTo(2).has_value(); }, 60s));
    const QJsonObject reply = *server.replyTo(2);
    ASSERT_TRUE(reply.contains(QStringLiteral("result"))) << QJsonDocument(reply).toJson().toStdString();
    EXPECT_FALSE(reply.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool());
    server.process().closeWriteChannel();
    ASSERT_TRUE(server.process().waitForFinished(30000));
    EXPECT_EQ(server.process().exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(server.process().exitCode(), 0) << server.process().readAllStandardError().toStdString();
}
