// The MCP server page with the real server, the real Docker engine and the official TypeScript SDK as the client.
#include "gui/server/ServerPage.h"

#include "AppContext.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "SdkClient.h"
#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/server/ServerClientsModel.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"
#include "mcp/McpHost.h"
#include "secrets/MemorySecretStore.h"
#include "settings/UserSettings.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <optional>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::freePort;
using sandbox::gui::guitest::SdkClient;
using sandbox::gui::guitest::waitUntil;
using sandbox::mcp::BearerToken;
using sandbox::mcp::McpHost;
using namespace std::chrono_literals;

namespace {

/// The containers of this process on Docker.
QStringList ourContainers()
{
    auto backend = BackendFactory::create(QStringLiteral("docker"));
    EXPECT_TRUE(backend.ok());
    if (!backend) {
        return {};
    }
    auto listed = (*backend)->listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
    EXPECT_TRUE(listed.ok()) << (listed ? "" : listed.error().message.toStdString());
    return listed ? *listed : QStringList();
}

std::optional<JournalRun> runOf(const LiveLogModel &model, const QString &codeFragment)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.runAt(row).code.contains(codeFragment)) {
            return model.runAt(row);
        }
    }
    return std::nullopt;
}

} // namespace

TEST(ServerPage, servesTheSdkClientShowsItsRunsRotatesTheTokenAndStopsWithoutLeavingContainers)
{
    ASSERT_FALSE(QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty()) << "node is needed for the SDK";
    ASSERT_TRUE(qEnvironmentVariableIsEmpty(BearerToken::kEnvironmentVariable));
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString journalPath = folder.filePath(QStringLiteral("journal.sqlite"));
    const test::ScopedEnvironment environment{{"LLM_SANDBOX_JOURNAL", journalPath.toUtf8()}};
    auto context = AppContext::create({.source = RunSource::Gui, .backendName = QStringLiteral("docker")});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    const Result<ExecutionEngine *> engine = (*context)->engine();
    ASSERT_TRUE(engine.ok()) << qPrintable(engine.error().message);
    {
        McpHost host(engine, (*context)->recorder());
        MemorySecretStore secrets;
        ServerPage page(host, secrets, (*context)->userSettings());
        QAbstractItemModelTester clientsTester(page.clients(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        JournalFeed feed(journalPath);
        ThumbnailProvider thumbnails;
        LiveLogPage liveLog(feed, thumbnails);
        page.resize(900, 600);
        page.show();
        auto *startStop = page.findChild<QPushButton *>(QStringLiteral("startStopServer"));
        auto *rotate = page.findChild<QPushButton *>(QStringLiteral("rotateToken"));
        auto *port = page.findChild<QSpinBox *>(QStringLiteral("serverPort"));
        auto *url = page.findChild<QLineEdit *>(QStringLiteral("serverUrl"));
        ASSERT_TRUE(startStop && rotate && port && url);

        // Start from the page: the token is created in the keychain, the URL is the loopback port chosen.
        const quint16 chosenPort = freePort();
        port->setValue(chosenPort);
        QTest::mouseClick(startStop, Qt::LeftButton);
        ASSERT_TRUE(waitUntil([&] { return host.state() == McpHost::State::Running; }, 30s));
        EXPECT_EQ(startStop->text(), QStringLiteral("Stop"));
        EXPECT_EQ(url->text(), QStringLiteral("http://127.0.0.1:%1/mcp").arg(chosenPort));
        const QByteArray firstToken = page.token();
        ASSERT_EQ(firstToken.size(), 43);
        EXPECT_EQ(secrets.get(BearerToken::kSecretKey).result().value(), std::optional<QByteArray>(firstToken));

        // Hidden until revealed; Copy puts it on the clipboard.
        auto *tokenField = page.findChild<QLineEdit *>(QStringLiteral("serverToken"));
        EXPECT_EQ(tokenField->echoMode(), QLineEdit::Password);
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("revealToken")), Qt::LeftButton);
        EXPECT_EQ(tokenField->echoMode(), QLineEdit::Normal);
        EXPECT_EQ(tokenField->text(), QString::fromLatin1(firstToken));
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("copyToken")), Qt::LeftButton);
        EXPECT_EQ(QApplication::clipboard()->text(), QString::fromLatin1(firstToken));

        // The official SDK client connects with the token and shows up among the clients.
        SdkClient client;
        ASSERT_TRUE(client.process().waitForStarted(10000)) << qPrintable(client.process().errorString());
        const QJsonObject connected =
            client.call({{"op", "connect"}, {"url", url->text()}, {"token", QString::fromLatin1(firstToken)}});
        ASSERT_TRUE(connected.value("ok").toBool()) << QJsonDocument(connected).toJson().toStdString();
        ASSERT_TRUE(waitUntil([&] { return page.clients()->rowCount() == 1; }, 10s));
        const QAbstractItemModel &clients = *page.clients();
        EXPECT_EQ(clients.index(0, ServerClientsModel::Client).data().toString(),
                  QStringLiteral("embedded-server-test"));
        EXPECT_EQ(clients.index(0, ServerClientsModel::Version).data().toString(), QStringLiteral("2.0.0"));
        EXPECT_FALSE(clients.index(0, ServerClientsModel::Protocol).data().toString().isEmpty());
        EXPECT_FALSE(clients.index(0, ServerClientsModel::LastActivity).data().toString().isEmpty());
        EXPECT_EQ(clients.index(0, ServerClientsModel::Client).data(ServerClientsModel::SessionIdRole).toString(),
                  connected.value("sessionId").toString());

        // Its run appears in the live log under its name.
        const QJsonObject executed = client.call(
            {{"op", "execute"},
             {"arguments", QJsonObject{{"language", "python"}, {"code", "print('from the embedded server')"}}}},
            120s);
        ASSERT_TRUE(executed.value("ok").toBool()) << QJsonDocument(executed).toJson().toStdString();
        EXPECT_FALSE(executed.value("isError").toBool()) << qPrintable(executed.value("text").toString());
        EXPECT_TRUE(executed.value("text").toString().contains("from the embedded server"));
        ASSERT_TRUE(waitUntil([&] { return runOf(*liveLog.model(), "from the embedded server").has_value(); }, 30s));
        {
            const JournalRun run = *runOf(*liveLog.model(), "from the embedded server");
            EXPECT_EQ(run.source, RunSource::Http);
            EXPECT_EQ(run.clientName, QStringLiteral("embedded-server-test"));
            EXPECT_EQ(run.clientVersion, QStringLiteral("2.0.0"));
            const int row = [&] {
                for (int r = 0; r < liveLog.model()->rowCount(); ++r) {
                    if (liveLog.model()->runAt(r).id == run.id) {
                        return r;
                    }
                }
                return -1;
            }();
            EXPECT_TRUE(liveLog.model()
                            ->index(row, LiveLogModel::Source)
                            .data()
                            .toString()
                            .contains(QStringLiteral("embedded-server-test")));
        }

        // Rotating the token ends the session; the old token gets 401 from now on.
        QTest::mouseClick(rotate, Qt::LeftButton);
        ASSERT_TRUE(waitUntil([&] { return page.token() != firstToken; }, 10s));
        const QByteArray secondToken = page.token();
        EXPECT_EQ(secrets.get(BearerToken::kSecretKey).result().value(), std::optional<QByteArray>(secondToken));
        EXPECT_TRUE(waitUntil([&] { return page.clients()->rowCount() == 0; }, 10s));
        const QJsonObject refused = client.call({{"op", "ping"}});
        EXPECT_FALSE(refused.value("ok").toBool());
        EXPECT_EQ(refused.value("status").toInt(), 401) << QJsonDocument(refused).toJson().toStdString();
        const QJsonObject reconnected =
            client.call({{"op", "connect"}, {"url", url->text()}, {"token", QString::fromLatin1(secondToken)}});
        ASSERT_TRUE(reconnected.value("ok").toBool()) << QJsonDocument(reconnected).toJson().toStdString();

        // A long run in progress, then Stop from the page: the call ends, its container goes.
        const QStringList before = ourContainers();
        const int longCall =
            client.send({{"op", "execute"},
                         {"arguments", QJsonObject{{"language", "python"},
                                                   {"timeout", 300},
                                                   {"code", "import time\nprint('stopped by the page', flush=True)\n"
                                                            "time.sleep(300)"}}}});
        ASSERT_TRUE(waitUntil(
            [&] {
                const auto run = runOf(*liveLog.model(), "stopped by the page");
                return run && run->status == RunStatus::Running;
            },
            60s));
        const QStringList during = ourContainers();
        EXPECT_EQ(host.sessions().value(0).runningCalls, 1);
        // What the page shows while the call runs (it read 0: the change was reported before the call was counted).
        EXPECT_EQ(page.clients()->index(0, ServerClientsModel::RunningCalls).data().toInt(), 1);
        EXPECT_EQ(page.clients()->index(0, ServerClientsModel::State).data().toString(), QStringLiteral("Working"));
        QTest::mouseClick(startStop, Qt::LeftButton);
        ASSERT_TRUE(waitUntil([&] { return host.state() == McpHost::State::Stopped; }, 60s));
        EXPECT_EQ(page.clients()->rowCount(), 0);
        const QJsonObject ended = client.waitFor(longCall, 30s);
        EXPECT_FALSE(ended.value("ok").toBool() && !ended.value("isError").toBool())
            << QJsonDocument(ended).toJson().toStdString();
        ASSERT_TRUE(waitUntil(
            [&] {
                const auto run = runOf(*liveLog.model(), "stopped by the page");
                return run && run->status != RunStatus::Running;
            },
            30s));
        const QStringList after = ourContainers();
        EXPECT_LE(after.size(), before.size()) << qPrintable(after.join(' '));
        for (const QString &container : during) {
            if (!before.contains(container)) {
                EXPECT_FALSE(after.contains(container)) << "the stopped run's container " << qPrintable(container);
            }
        }

        // Started again, the server knows nothing of the session it ended: the client's next request gets 404.
        QTest::mouseClick(startStop, Qt::LeftButton);
        ASSERT_TRUE(waitUntil([&] { return host.state() == McpHost::State::Running; }, 30s));
        EXPECT_EQ(url->text(), QStringLiteral("http://127.0.0.1:%1/mcp").arg(chosenPort));
        const QJsonObject gone = client.call({{"op", "ping"}});
        EXPECT_FALSE(gone.value("ok").toBool());
        EXPECT_EQ(gone.value("status").toInt(), 404) << QJsonDocument(gone).toJson().toStdString();
    }
    // With the engine gone, nothing of this process is left on Docker.
    context->reset();
    EXPECT_TRUE(ourContainers().isEmpty()) << qPrintable(ourContainers().join(' '));
}

TEST(ServerPage, aKeychainThatCannotBeReadKeepsTheServerStoppedAndSaysWhy)
{
    ASSERT_TRUE(qEnvironmentVariableIsEmpty(BearerToken::kEnvironmentVariable));
    McpHost host(Result<ExecutionEngine *>(Error{QStringLiteral("no engine in this test")}), nullptr);
    MemorySecretStore secrets;
    secrets.setUnavailable(QStringLiteral("no Secret Service on the session bus"));
    UserSettings settings;
    ServerPage page(host, secrets, settings);
    page.show();
    QString failure;
    QObject::connect(&page, &ServerPage::failed, [&failure](const QString &message) { failure = message; });

    QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("startStopServer")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return !failure.isEmpty(); }, 10s));
    EXPECT_TRUE(failure.contains(QStringLiteral("no Secret Service on the session bus"))) << qPrintable(failure);
    EXPECT_TRUE(failure.contains(QLatin1String(BearerToken::kEnvironmentVariable))) << "says what to do instead";
    EXPECT_TRUE(page.findChild<QLabel *>(QStringLiteral("serverError"))->isVisible());
    EXPECT_EQ(host.state(), McpHost::State::Stopped);
    EXPECT_TRUE(page.token().isEmpty());
}
