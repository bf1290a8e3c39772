#include "BackendTestSupport.h"
#include "McpServerProcess.h"
#include "engine/ExecutionEngine.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <csignal>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

/// The command line on each engine, selected as a user does: BACKEND in the environment.
class Cli : public ::testing::TestWithParam<std::string>
{
protected:
    test::CliRun runCli(const QStringList &arguments, QStringList environment = {}, const QByteArray &input = {}) const
    {
        environment << QStringLiteral("BACKEND=") + QString::fromStdString(GetParam());
        return test::runCli(arguments, environment, input);
    }
    QString backendName() const { return QString::fromStdString(GetParam()); }
};

} // namespace

TEST_P(Cli, printsTheProgramsOutput)
{
    const auto run = runCli({"run", "-c", "print(6*7)"});
    EXPECT_EQ(run.exitCode, 0) << run.stderrData.toStdString();
    EXPECT_EQ(run.stdoutData, "42\n");
}

TEST_P(Cli, exitStatusIsTheProgramsOwn)
{
    const auto run = runCli({"run", "-c", "import sys; sys.exit(3)"});
    EXPECT_EQ(run.exitCode, 3);
}

TEST_P(Cli, stderrPassesThroughSeparately)
{
    const auto run = runCli({"run", "-c", "import sys; print('out'); print('err', file=sys.stderr)"});
    EXPECT_EQ(run.stdoutData, "out\n");
    EXPECT_TRUE(run.stderrData.startsWith("err\n")) << run.stderrData.toStdString();
}

TEST_P(Cli, readsCodeFromStdinAndFromAFile)
{
    const auto fromStdin = runCli({"run", "-"}, {}, "print('from stdin')\n");
    EXPECT_EQ(fromStdin.stdoutData, "from stdin\n");

    QTemporaryDir dir;
    QFile file(dir.filePath("script.py"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("print('from file')\n");
    file.close();
    const auto fromFile = runCli({"run", file.fileName()});
    EXPECT_EQ(fromFile.stdoutData, "from file\n");
}

TEST_P(Cli, timeoutEndsTheRunAndLeavesNoContainer)
{
    const auto run = runCli({"run", "--timeout", "2", "-c", "while True: pass"});
    EXPECT_EQ(run.exitCode, 124);
    EXPECT_TRUE(run.stderrData.contains("timed out")) << run.stderrData.toStdString();

    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    // Only this CLI process's containers count: other tests' may come and go meanwhile.
    EXPECT_EQ(test::containersOwnedBy(*backend, run.pid), QStringList());
    const auto json = runCli({"run", "--json", "--timeout", "2", "-c", "while True: pass"});
    EXPECT_EQ(json.exitCode, 124);
    const QJsonObject result = QJsonDocument::fromJson(json.stdoutData).object();
    EXPECT_TRUE(result["timed_out"].toBool());
    EXPECT_FALSE(result["run_id"].toString().isEmpty());
    EXPECT_EQ(test::containersOwnedBy(*backend, json.pid), QStringList());
}

TEST_P(Cli, jsonPrintsOneObjectWithTheResultFields)
{
    const auto run = runCli({"run", "--json", "-c", "print(1)"});
    EXPECT_EQ(run.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.stdoutData, &error);
    ASSERT_EQ(error.error, QJsonParseError::NoError) << run.stdoutData.toStdString();
    ASSERT_TRUE(document.isObject());
    const QJsonObject result = document.object();
    EXPECT_EQ(result["exit_code"].toInt(-1), 0);
    EXPECT_EQ(result["stdout"].toString(), "1\n");
    EXPECT_EQ(result["stderr"].toString(), "");
    EXPECT_TRUE(result["duration_ms"].isDouble());
    EXPECT_EQ(result["timed_out"], QJsonValue(false));
    EXPECT_TRUE(result["artifacts"].isArray());
    EXPECT_EQ(run.stdoutData.count('\n'), 1);
}

TEST_P(Cli, artifactsAreSavedToTheGivenFolderAndListedInJson)
{
    QTemporaryDir dir;
    const auto run = runCli({"run", "--json", "--artifacts-dir", dir.path(), "-c",
                             "import matplotlib.pyplot as plt\nplt.plot([1, 2], [2, 1])\nplt.show()\n"});
    ASSERT_EQ(run.exitCode, 0) << run.stderrData.toStdString();
    const QJsonArray artifacts = QJsonDocument::fromJson(run.stdoutData).object()["artifacts"].toArray();
    ASSERT_EQ(artifacts.size(), 1);
    const QJsonObject png = artifacts[0].toObject();
    EXPECT_EQ(png["mime_type"].toString(), "image/png");
    const QString path = png["path"].toString();
    EXPECT_TRUE(path.startsWith(dir.path())) << path.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.size(), png["size"].toInteger());
    EXPECT_TRUE(file.readAll().startsWith("\x89PNG"));
}

TEST_P(Cli, wrongSocketPrintsOneClearLineAndFails)
{
    const auto run = runCli({"run", "-c", "print(1)"}, {test::hostVariable(GetParam()) + "=unix:///nonexistent"});
    EXPECT_NE(run.exitCode, 0);
    EXPECT_EQ(run.exitCode, 125);
    EXPECT_TRUE(run.stdoutData.isEmpty());
    EXPECT_EQ(run.stderrData.count('\n'), 1) << run.stderrData.toStdString();
    EXPECT_TRUE(run.stderrData.contains("/nonexistent"));
}

TEST(CliUsage, unknownLanguageIsAUsageError)
{
    const auto run = test::runCli({"run", "--lang", "cobol", "-c", "x"});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.stderrData.contains("Supported languages"));
}

TEST_P(Cli, doctorReportsTheEngineItsModeAndItsImages)
{
    const auto run = runCli({"doctor"});
    EXPECT_EQ(run.exitCode, 0) << run.stdoutData.toStdString() << run.stderrData.toStdString();
    const QString output = QString::fromUtf8(run.stdoutData);
    const QRegularExpression reachable(QStringLiteral("\\* %1 reachable: version [0-9]").arg(backendName()));
    EXPECT_TRUE(output.contains(reachable)) << run.stdoutData.toStdString();
    EXPECT_TRUE(output.contains(QStringLiteral(", rootful")) || output.contains(QStringLiteral(", rootless")))
        << run.stdoutData.toStdString();
    EXPECT_TRUE(run.stdoutData.contains("python")) << run.stdoutData.toStdString();
}

TEST_P(Cli, doctorFailsWhenTheSelectedBackendIsUnusable)
{
    const auto run = runCli({"doctor"}, {test::hostVariable(GetParam()) + "=unix:///nonexistent"});
    EXPECT_NE(run.exitCode, 0);
    EXPECT_TRUE(run.stdoutData.contains(QByteArray(backendName().toUtf8() + " unreachable")))
        << run.stdoutData.toStdString();
}

TEST(CliUsage, helpDocumentsEveryCommand)
{
    const auto run = test::runCli({"--help"});
    EXPECT_EQ(run.exitCode, 0);
    for (const char *command : {"--mcp", "run", "images build", "images list", "doctor", "ps", "--version", "--json",
                                "--artifacts-dir", "--timeout"}) {
        EXPECT_TRUE(run.stdoutData.contains(command)) << command;
    }
}

TEST_P(Cli, backendOptionSelectsTheEngine)
{
    // --backend wins over BACKEND: the other engine's address is broken, the chosen one works.
    const std::string other = GetParam() == "podman" ? "docker" : "podman";
    const auto run =
        test::runCli({"run", "--backend", backendName(), "-c", "print(6*7)"},
                     {"BACKEND=" + QString::fromStdString(other), test::hostVariable(other) + "=unix:///nonexistent"});
    EXPECT_EQ(run.exitCode, 0) << run.stderrData.toStdString();
    EXPECT_EQ(run.stdoutData, "42\n");
}

TEST_P(Cli, psListsASessionsSandboxWithItsResourceUse)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    SandboxSettings settings = test::settingsFor(GetParam());
    settings.poolSize = 0;
    settings.memoryBytes = 256 * 1024 * 1024;
    ExecutionEngine engine(backend, settings);
    const test::MemoryHoldingSession session = test::openMemoryHoldingSession(engine, 50);
    ASSERT_FALSE(session.containerId.isEmpty());

    const auto run = runCli({"ps", "--json"});
    EXPECT_EQ(run.exitCode, 0) << run.stderrData.toStdString();
    const QJsonObject listing = QJsonDocument::fromJson(run.stdoutData).object();
    EXPECT_EQ(listing["backend"].toString(), backendName());
    QJsonObject ours;
    for (const QJsonValue &each : listing["sandboxes"].toArray()) {
        if (each["id"].toString() == session.containerId) {
            ours = each.toObject();
        }
    }
    ASSERT_FALSE(ours.isEmpty()) << "the session's container is not listed: " << run.stdoutData.toStdString();
    EXPECT_EQ(ours["language"].toString(), QStringLiteral("python"));
    EXPECT_EQ(ours["owner"].toString(), ExecutionEngine::ownerIdentity());
    EXPECT_EQ(ours["owner_pid"].toInteger(), QCoreApplication::applicationPid());
    EXPECT_EQ(ours["state"].toString(), QStringLiteral("running"));
    EXPECT_EQ(ours["session_id"].toString(), session.sessionId);
    EXPECT_GE(ours["age_seconds"].toDouble(), 0);
    const QJsonObject stats = ours["stats"].toObject();
    ASSERT_FALSE(stats.isEmpty()) << run.stdoutData.toStdString();
    EXPECT_GT(stats["memory_bytes"].toDouble(), 50.0 * 1024 * 1024);
    EXPECT_EQ(stats["memory_limit_bytes"].toDouble(), double(settings.memoryBytes));
    EXPECT_GE(stats["pids"].toInteger(), 2);
    EXPECT_GE(stats["cpu_cores"].toDouble(), 0);

    const auto table = runCli({"ps"});
    EXPECT_EQ(table.exitCode, 0) << table.stderrData.toStdString();
    EXPECT_TRUE(table.stdoutData.contains(session.containerId.left(12).toUtf8())) << table.stdoutData.toStdString();
    EXPECT_TRUE(table.stdoutData.contains("MiB / 256.0 MiB")) << table.stdoutData.toStdString();
    EXPECT_TRUE(table.stdoutData.contains(session.sessionId.toUtf8())) << table.stdoutData.toStdString();
    ASSERT_TRUE(engine.closeSession(session.sessionId).ok());
}

INSTANTIATE_TEST_SUITE_P(Backends, Cli, ::testing::ValuesIn(test::backendNames()), test::backendTestName);

namespace {

/// doctor run by an unprivileged user on its own rootless Podman service.
class RootlessDoctor : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(RootlessDoctor, reportsRootlessPodmanItsCgroupVersionAndTheLimitsItCannotEnforce)
{
    const auto run = test::runCli({"doctor", "--backend", "podman"});
    EXPECT_EQ(run.exitCode, 0) << run.stdoutData.toStdString() << run.stderrData.toStdString();
    const QString output = QString::fromUtf8(run.stdoutData);
    const QRegularExpression reachable(
        QStringLiteral("\\* podman reachable: version [0-9][^\\n]* at unix://[^\\n]*/podman/podman.sock, rootless\\n"));
    EXPECT_TRUE(output.contains(reachable)) << output.toStdString();
    const int cgroupVersion = test::hostHasCgroupV2() ? 2 : 1;
    EXPECT_TRUE(output.contains(QStringLiteral("limits: rootless, cgroup v%1\n").arg(cgroupVersion)))
        << output.toStdString();
    if (cgroupVersion == 1) {
        // This test's environment accepts them (tests/CMakeLists.txt): doctor says so beside each.
        for (const char *limit : {"memory", "pids", "cpus"}) {
            const QRegularExpression notEnforced(
                QStringLiteral(
                    "NOT ENFORCED: %1 \\(asked for [^\\n]*\\) - accepted by SANDBOX_ALLOW_UNENFORCED_LIMITS\\n")
                    .arg(QLatin1String(limit)));
            EXPECT_TRUE(output.contains(notEnforced)) << limit << " in:\n" << output.toStdString();
        }
        EXPECT_TRUE(output.contains(QStringLiteral("why: rootless podman cannot set resource limits on cgroup v1: the "
                                                   "host needs cgroup v2 with the memory, pids and cpu controllers "
                                                   "delegated to the user")))
            << output.toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(Rootless, RootlessDoctor, ::testing::Values("podman-rootless"), test::backendTestName);

/// The MCP server over stdio, as an assistant runs it, ended the two ways an assistant ends it.
class McpServerExit : public ::testing::TestWithParam<std::tuple<std::string, std::string>>
{
};

TEST_P(McpServerExit, removesEveryContainerItStartedSessionsIncluded)
{
    const auto &[backendName, ending] = GetParam();
    test::StdioServer stdio(
        {.backend = QString::fromStdString(backendName), .journal = qEnvironmentVariable("LLM_SANDBOX_JOURNAL")});
    QProcess &server = stdio.process();
    ASSERT_TRUE(server.waitForStarted());
    stdio.call(1, "initialize", test::kInitialize);
    ASSERT_FALSE(test::openPythonSession(stdio, 2).isEmpty());

    auto backend = test::backendFor(backendName);
    ASSERT_TRUE(backend);
    EXPECT_FALSE(test::containersOwnedBy(*backend, server.processId()).isEmpty()) << "the session has a container";
    const qint64 pid = server.processId();
    if (ending == "eof") {
        server.closeWriteChannel();
    } else {
        ::kill(pid_t(pid), SIGTERM);
    }
    ASSERT_TRUE(server.waitForFinished(60000));
    EXPECT_EQ(server.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(server.exitCode(), 0);
    EXPECT_EQ(test::containersOwnedBy(*backend, pid), QStringList());
}

INSTANTIATE_TEST_SUITE_P(Backends, McpServerExit,
                         ::testing::Combine(::testing::ValuesIn(test::backendNames()),
                                            ::testing::Values(std::string("eof"), std::string("sigterm"))),
                         [](const auto &info) {
                             // Ends with the backend: CMake labels the tests by that suffix.
                             return std::get<1>(info.param) + "_" + std::get<0>(info.param);
                         });
