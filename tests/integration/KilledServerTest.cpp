// An MCP server killed with SIGKILL in the middle of a run, while it keeps a warm container and an open sandbox
// session: it cannot clean up, so the next llm-sandbox process must. Its containers are gone once that process has
// started, and the journal shows the run as interrupted, never "running" forever. For `llm-sandbox --mcp` (stdio)
// and `llm-sandbox serve --http`; the desktop app's own case is AppSignalTest's SIGKILL.
#include "BackendTestSupport.h"
#include "McpServerProcess.h"
#include "journal/JournalReader.h"

#include <QTemporaryDir>
#include <csignal>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<test::ServerProcess> startServer(const std::string &face, const test::ServerOptions &options)
{
    if (face == "stdio") {
        return std::make_unique<test::StdioServer>(options);
    }
    return std::make_unique<test::HttpServer>(options);
}

class KilledServerTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>>
{
};

} // namespace

TEST_P(KilledServerTest, nextStartRemovesItsContainersAndMarksItsRunInterrupted)
{
    const auto &[backendName, face] = GetParam();
    const QString backend = QString::fromStdString(backendName);
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString journalPath = folder.filePath(QStringLiteral("journal.sqlite"));
    auto engine = test::backendFor(backendName);
    ASSERT_TRUE(engine);

    const test::ServerOptions options{.backend = backend, .journal = journalPath};
    auto server = startServer(face, options);
    ASSERT_TRUE(server->process().waitForStarted());
    const qint64 pid = server->process().processId();
    ASSERT_TRUE(server->call(1, "initialize", test::kInitialize).contains("result"));
    ASSERT_FALSE(test::openPythonSession(*server, 2).isEmpty());

    // A run in progress beside the session's container and the warm one.
    server->send(4, "tools/call",
                 {{"name", "execute_code"},
                  {"arguments", QJsonObject{{"code", "import time\nprint('started', flush=True)\ntime.sleep(600)"},
                                            {"timeout", 300}}}});
    JournalReader journal(journalPath);
    // In progress: its program has printed its first line.
    ASSERT_TRUE(test::waitUntil(
        [&] {
            RunFilter running;
            running.status = RunStatus::Running;
            const auto runs = journal.list(running, 0, 10);
            if (!runs || runs->size() != 1) {
                return false;
            }
            const auto run = journal.run(runs->first().id);
            return run && run->stdoutData == "started\n";
        },
        120s, 200ms))
        << "the run did not start";
    ASSERT_TRUE(test::waitUntil([&] { return test::containersOwnedBy(*engine, pid).size() >= 2; }, 120s, 500ms));

    ASSERT_EQ(::kill(pid_t(pid), SIGKILL), 0);
    ASSERT_TRUE(server->process().waitForFinished(30000));
    EXPECT_FALSE(test::containersOwnedBy(*engine, pid).isEmpty()) << "a killed process cannot remove its containers";

    // The next llm-sandbox process to start — the same server started again, as an assistant does.
    auto next = startServer(face, options);
    ASSERT_TRUE(next->process().waitForStarted());
    EXPECT_TRUE(next->call(1, "initialize", test::kInitialize).contains("result"));
    EXPECT_TRUE(test::waitUntil([&] { return test::containersOwnedBy(*engine, pid).isEmpty(); }, 60s, 500ms))
        << "left behind: " << test::containersOwnedBy(*engine, pid).join(' ').toStdString();
    const auto runs = journal.list({}, 0, 10);
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 2);
    EXPECT_EQ(runs->at(0).status, RunStatus::Interrupted) << "the run in progress when the server was killed";
    EXPECT_EQ(runs->at(1).status, RunStatus::Finished);

    const qint64 nextPid = next->process().processId();
    next->process().terminate();
    EXPECT_TRUE(next->process().waitForFinished(60000));
    EXPECT_TRUE(test::containersOwnedBy(*engine, nextPid).isEmpty());
}

INSTANTIATE_TEST_SUITE_P(Backends, KilledServerTest,
                         ::testing::Combine(::testing::ValuesIn(test::backendNames()),
                                            ::testing::Values(std::string("stdio"), std::string("http"))),
                         [](const auto &info) {
                             // Ends with the backend: CMake labels the tests by that suffix.
                             return std::get<1>(info.param) + "_" + std::get<0>(info.param);
                         });
