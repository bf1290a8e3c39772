// The real desktop app (`llm-sandbox`, offscreen) ends cleanly on a termination signal: its runs are cancelled, its
// MCP server stops and no container of it is left on Docker. Killed (SIGKILL), it cannot: its next start removes its
// containers and marks its run interrupted.
#include "BackendTestSupport.h"
#include "SdkClient.h"
#include "backend/BackendFactory.h"
#include "journal/JournalReader.h"
#include "mcp/http/BearerToken.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <csignal>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::gui::guitest::freePort;
using sandbox::gui::guitest::SdkClient;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

class AppSignalTest : public ::testing::TestWithParam<int>
{
};

} // namespace

TEST_P(AppSignalTest, endsWithoutLeavingAContainerWhileAWarmContainerWaitsAndARunIsInProgress)
{
    const int signal = GetParam();
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    auto backend = BackendFactory::create(QStringLiteral("docker"));
    ASSERT_TRUE(backend.ok()) << qPrintable(backend.error().message);

    // The app starts its MCP server with it (the setting), with a token from the environment: the run in progress
    // comes from an SDK client, as an assistant's would.
    const quint16 port = freePort();
    const QByteArray token = mcp::BearerToken::generate();
    ASSERT_TRUE(QDir().mkpath(folder.filePath(QStringLiteral("config/llm-sandbox"))));
    QFile settings(folder.filePath(QStringLiteral("config/llm-sandbox/llm-sandbox.ini")));
    ASSERT_TRUE(settings.open(QIODevice::WriteOnly));
    settings.write(QStringLiteral("[server]\nstartWithApp=true\nport=%1\n").arg(port).toUtf8());
    settings.close();
    const QString journalPath = folder.filePath(QStringLiteral("journal.sqlite"));

    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), folder.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), journalPath);
    environment.insert(QStringLiteral("BACKEND"), QStringLiteral("docker"));
    environment.insert(QString::fromLatin1(mcp::BearerToken::kEnvironmentVariable), QString::fromLatin1(token));
    app.setProcessEnvironment(environment);
    app.setProcessChannelMode(QProcess::ForwardedChannels);
    app.start(qEnvironmentVariable("LLM_SANDBOX_BIN"), {});
    ASSERT_TRUE(app.waitForStarted(10000)) << qPrintable(app.errorString());
    const qint64 pid = app.processId();

    // Its warm container (the app prewarms Python).
    ASSERT_TRUE(waitUntil([&] { return !test::containersOwnedBy(**backend, pid).isEmpty(); }, 120s))
        << "the app warmed no container";

    // A run in progress, from a client of its MCP server.
    SdkClient client;
    ASSERT_TRUE(client.process().waitForStarted(10000)) << qPrintable(client.process().errorString());
    QJsonObject connected;
    ASSERT_TRUE(waitUntil(
        [&] {
            connected = client.call({{"op", "connect"},
                                     {"url", QStringLiteral("http://127.0.0.1:%1/mcp").arg(port)},
                                     {"token", QString::fromLatin1(token)}});
            return connected.value("ok").toBool();
        },
        60s))
        << QJsonDocument(connected).toJson().toStdString();
    client.send({{"op", "execute"},
                 {"arguments", QJsonObject{{"language", "python"},
                                           {"timeout", 300},
                                           {"code", "import time\nprint('running', flush=True)\ntime.sleep(300)"}}}});
    JournalReader journal(journalPath);
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto runs = journal.list({}, 0, 10);
            return runs && !runs->isEmpty() && runs->first().status == RunStatus::Running;
        },
        60s));
    ASSERT_FALSE(test::containersOwnedBy(**backend, pid).isEmpty());

    ASSERT_EQ(::kill(pid_t(pid), signal), 0);
    ASSERT_TRUE(app.waitForFinished(60000)) << "the app did not end after signal " << signal;
    if (signal == SIGKILL) {
        // Killed, it could clean nothing up: the next start of the app does.
        EXPECT_EQ(app.exitStatus(), QProcess::CrashExit);
        EXPECT_FALSE(test::containersOwnedBy(**backend, pid).isEmpty());
        // Started again without its server (whose running would make quitting ask first).
        ASSERT_TRUE(settings.open(QIODevice::WriteOnly | QIODevice::Truncate));
        settings.write("[server]\nstartWithApp=false\n");
        settings.close();
        QProcess next;
        next.setProcessEnvironment(environment);
        next.setProcessChannelMode(QProcess::ForwardedChannels);
        next.start(qEnvironmentVariable("LLM_SANDBOX_BIN"), {QStringLiteral("--quit-after-start")});
        ASSERT_TRUE(next.waitForFinished(120000));
        EXPECT_EQ(next.exitCode(), 0);
    } else {
        // The app ends on its own, with status 0, and takes its containers with it.
        EXPECT_EQ(app.exitStatus(), QProcess::NormalExit);
        EXPECT_EQ(app.exitCode(), 0);
    }
    EXPECT_TRUE(test::containersOwnedBy(**backend, pid).isEmpty())
        << qPrintable(test::containersOwnedBy(**backend, pid).join(' '));
    // The run was cancelled or marked interrupted, not left "running" in the journal.
    const auto runs = journal.list({}, 0, 10);
    ASSERT_TRUE(runs && !runs->isEmpty());
    EXPECT_NE(runs->first().status, RunStatus::Running);
}

INSTANTIATE_TEST_SUITE_P(Signals, AppSignalTest, ::testing::Values(SIGTERM, SIGINT, SIGHUP, SIGKILL),
                         [](const ::testing::TestParamInfo<int> &info) {
                             return std::string(info.param == SIGTERM  ? "SIGTERM"
                                                : info.param == SIGINT ? "SIGINT"
                                                : info.param == SIGHUP ? "SIGHUP"
                                                                       : "SIGKILL");
                         });
