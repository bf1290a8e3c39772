#include "DockerTestSupport.h"

#include "backend/DockerBackend.h"
#include "session/ExecutionEngine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace sandbox;

TEST(Cli, printsTheProgramsOutput)
{
    const auto run = test::runCli({"run", "-c", "print(6*7)"});
    EXPECT_EQ(run.exitCode, 0) << run.stderrData.toStdString();
    EXPECT_EQ(run.stdoutData, "42\n");
}

TEST(Cli, exitStatusIsTheProgramsOwn)
{
    const auto run = test::runCli({"run", "-c", "import sys; sys.exit(3)"});
    EXPECT_EQ(run.exitCode, 3);
}

TEST(Cli, stderrPassesThroughSeparately)
{
    const auto run = test::runCli({"run", "-c", "import sys; print('out'); print('err', file=sys.stderr)"});
    EXPECT_EQ(run.stdoutData, "out\n");
    EXPECT_TRUE(run.stderrData.startsWith("err\n")) << run.stderrData.toStdString();
}

TEST(Cli, readsCodeFromStdinAndFromAFile)
{
    const auto fromStdin = test::runCli({"run", "-"}, {}, "print('from stdin')\n");
    EXPECT_EQ(fromStdin.stdoutData, "from stdin\n");

    QTemporaryDir dir;
    QFile file(dir.filePath("script.py"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("print('from file')\n");
    file.close();
    const auto fromFile = test::runCli({"run", file.fileName()});
    EXPECT_EQ(fromFile.stdoutData, "from file\n");
}

TEST(Cli, timeoutReturnsQuicklyAndLeavesNoContainer)
{
    const auto run = test::runCli({"run", "--timeout", "2", "-c", "while True: pass"});
    EXPECT_EQ(run.exitCode, 124);
    EXPECT_LT(run.elapsedMs, 15000);
    EXPECT_TRUE(run.stderrData.contains("timed out")) << run.stderrData.toStdString();

    auto backend = test::dockerBackend();
    auto before = backend->listContainers(ExecutionEngine::containerLabel(), {});
    ASSERT_TRUE(before.ok());
    const auto json = test::runCli({"run", "--json", "--timeout", "2", "-c", "while True: pass"});
    EXPECT_EQ(json.exitCode, 124);
    const QJsonObject result = QJsonDocument::fromJson(json.stdoutData).object();
    EXPECT_TRUE(result["timed_out"].toBool());
    EXPECT_FALSE(result["run_id"].toString().isEmpty());
    auto after = backend->listContainers(ExecutionEngine::containerLabel(), {});
    ASSERT_TRUE(after.ok());
    for (const QString &id : *after) {
        EXPECT_TRUE(before->contains(id)) << "container left behind: " << id.toStdString();
    }
}

TEST(Cli, jsonPrintsOneObjectWithTheResultFields)
{
    const auto run = test::runCli({"run", "--json", "-c", "print(1)"});
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

TEST(Cli, artifactsAreSavedToTheGivenFolderAndListedInJson)
{
    QTemporaryDir dir;
    const auto run = test::runCli({"run", "--json", "--artifacts-dir", dir.path(), "-c",
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

TEST(Cli, wrongSocketPrintsOneClearLineAndFails)
{
    const auto run = test::runCli({"run", "-c", "print(1)"}, {"DOCKER_HOST=unix:///nonexistent"});
    EXPECT_NE(run.exitCode, 0);
    EXPECT_EQ(run.exitCode, 125);
    EXPECT_TRUE(run.stdoutData.isEmpty());
    EXPECT_EQ(run.stderrData.count('\n'), 1) << run.stderrData.toStdString();
    EXPECT_TRUE(run.stderrData.contains("/nonexistent"));
}

TEST(Cli, unknownLanguageIsAUsageError)
{
    const auto run = test::runCli({"run", "--lang", "cobol", "-c", "x"});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.stderrData.contains("Supported languages"));
}

TEST(Cli, doctorReportsDockerAndItsImages)
{
    const auto run = test::runCli({"doctor"});
    EXPECT_EQ(run.exitCode, 0) << run.stdoutData.toStdString() << run.stderrData.toStdString();
    EXPECT_TRUE(run.stdoutData.contains("docker reachable")) << run.stdoutData.toStdString();
    EXPECT_TRUE(run.stdoutData.contains("python")) << run.stdoutData.toStdString();
}

TEST(Cli, doctorFailsWhenTheSelectedBackendIsUnusable)
{
    const auto run = test::runCli({"doctor"}, {"DOCKER_HOST=unix:///nonexistent"});
    EXPECT_NE(run.exitCode, 0);
    EXPECT_TRUE(run.stdoutData.contains("docker unreachable")) << run.stdoutData.toStdString();
}

TEST(Cli, helpDocumentsEveryCommand)
{
    const auto run = test::runCli({"--help"});
    EXPECT_EQ(run.exitCode, 0);
    for (const char *command : {"--mcp", "run", "images build", "images list", "doctor", "--version", "--json",
                                "--artifacts-dir", "--timeout"}) {
        EXPECT_TRUE(run.stdoutData.contains(command)) << command;
    }
}
