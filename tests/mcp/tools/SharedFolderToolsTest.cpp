// Issue 47: a model learns from the tools which folders the user shared, at /data/NAME, and what they hold (names,
// counts, sizes), never the host's path; a server that shares nothing lists the tools it always did.
#include "mcp/tools/SharedFolderTools.h"

#include "engine/ExecutionEngine.h"
#include "fakes/FakeBackend.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;

namespace {

CodeExecutor idleExecutor()
{
    return CodeExecutor(
        [](const RunRequest &, const std::stop_token &, RunObserver *) -> Result<RunResult> { return RunResult{}; });
}

QStringList toolNames(const ToolRegistry &tools)
{
    QStringList names;
    for (const Tool &tool : tools.tools()) {
        names << tool.name;
    }
    return names;
}

} // namespace

TEST(SharedFolderTools, theModelLearnsTheFoldersNamesAndFilesButNotTheHostPath)
{
    QTemporaryDir host;
    ASSERT_TRUE(host.isValid());
    ASSERT_TRUE(QDir(host.path()).mkpath(QStringLiteral("Sales Data/2026")));
    QFile csv(host.filePath(QStringLiteral("Sales Data/2026/sales.csv")));
    ASSERT_TRUE(csv.open(QIODevice::WriteOnly));
    csv.write("region,total\nnorth,12\n");
    csv.close();
    ASSERT_TRUE(QFile::link(QStringLiteral("/etc/passwd"), host.filePath(QStringLiteral("Sales Data/passwd"))));
    auto folder = SharedFolder::parse(host.filePath(QStringLiteral("Sales Data")) + QStringLiteral(":sales:rw"));
    ASSERT_TRUE(folder);

    auto backend = std::make_shared<sandbox::test::FakeBackend>();
    SandboxSettings settings;
    settings.sharedFolders = {*folder};
    ExecutionEngine engine(backend, settings);
    const ToolRegistry tools = SandboxTools::tools(idleExecutor(), &engine);
    ASSERT_TRUE(toolNames(tools).contains(QStringLiteral("list_shared_folders")));
    const QString description = tools.find(QStringLiteral("execute_code"))->description;
    EXPECT_TRUE(description.contains(QStringLiteral("The user shared folders the code can read: /data/sales")))
        << qPrintable(description);
    EXPECT_FALSE(description.contains(host.path()));
    EXPECT_TRUE(description.contains(QStringLiteral("new files the code writes directly in it are saved")))
        << "the model learns where results go";

    const QJsonObject answer = tools.find(QStringLiteral("list_shared_folders"))->handler(ToolCall{});
    const QString text = answer.value(QStringLiteral("content")).toArray().first()[QStringLiteral("text")].toString();
    EXPECT_FALSE(text.contains(host.path())) << "never the host's path";
    const QJsonArray folders = QJsonDocument::fromJson(text.toUtf8()).array();
    ASSERT_EQ(folders.size(), 1) << qPrintable(text);
    const QJsonObject sales = folders.first().toObject();
    EXPECT_EQ(sales.value(QStringLiteral("path")).toString(), QStringLiteral("/data/sales"));
    EXPECT_TRUE(sales.value(QStringLiteral("results_may_be_saved")).toBool());
    EXPECT_EQ(sales.value(QStringLiteral("files")).toInt(), 1);
    EXPECT_EQ(sales.value(QStringLiteral("bytes")).toInt(), 22);
    EXPECT_EQ(sales.value(QStringLiteral("listed")).toArray(),
              (QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("2026/sales.csv")},
                                      {QStringLiteral("size"), 22}}}));
    EXPECT_EQ(sales.value(QStringLiteral("left_out")).toInt(), 1) << "the link is not in the sandbox";
}

TEST(SharedFolderTools, aServerThatSharesNothingListsTheToolsItAlwaysDid)
{
    auto backend = std::make_shared<sandbox::test::FakeBackend>();
    ExecutionEngine engine(backend, SandboxSettings{});
    const ToolRegistry tools = SandboxTools::tools(idleExecutor(), &engine);
    EXPECT_FALSE(toolNames(tools).contains(QStringLiteral("list_shared_folders")));
    EXPECT_FALSE(tools.find(QStringLiteral("execute_code"))->description.contains(QStringLiteral("/data")));
    EXPECT_TRUE(SharedFolderTools::executeCodeSentence({}).isEmpty());
}
