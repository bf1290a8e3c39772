// The MCP server page's list of clients without an engine: which clients are still there, and ending a session.
#include "GuiTestSupport.h"
#include "gui/RunText.h"
#include "gui/server/ServerClientsModel.h"
#include "gui/server/ServerPage.h"
#include "mcp/McpHost.h"
#include "mcp/McpTestSupport.h"
#include "secrets/MemorySecretStore.h"
#include "settings/UserSettings.h"
#include "support/HttpTestClient.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using sandbox::mcp::HttpSessionInfo;
using sandbox::mcp::McpHost;
using sandbox::test::HttpResponse;
using sandbox::test::HttpTestClient;
using namespace std::chrono_literals;
using ClientState = ServerClientsModel::ClientState;

namespace {

HttpSessionInfo session(const QString &id, const QDateTime &lastActivity)
{
    HttpSessionInfo info;
    info.id = id;
    info.clientName = QStringLiteral("client ") + id;
    info.lastActivity = lastActivity;
    return info;
}

QString stateShown(const ServerClientsModel &model, int row)
{
    return model.index(row, ServerClientsModel::State).data().toString();
}

} // namespace

TEST(ServerClientsModel, saysWhichClientsAreWorkingConnectedIdleOrGone)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    HttpSessionInfo working = session(QStringLiteral("a"), now.addSecs(-3600));
    working.runningCalls = 1;
    const HttpSessionInfo recent = session(QStringLiteral("b"), now.addSecs(-30));
    HttpSessionInfo listening = session(QStringLiteral("c"), now.addSecs(-1200));
    listening.streamOpen = true;
    const HttpSessionInfo idle = session(QStringLiteral("d"), now.addSecs(-7 * 60));
    HttpSessionInfo gone = session(QStringLiteral("e"), now.addSecs(-10));
    gone.clientGone = true;

    EXPECT_EQ(ServerClientsModel::clientState(working, now), ClientState::Working);
    EXPECT_EQ(ServerClientsModel::clientState(recent, now), ClientState::Connected);
    EXPECT_EQ(ServerClientsModel::clientState(listening, now), ClientState::Connected);
    EXPECT_EQ(ServerClientsModel::clientState(idle, now), ClientState::Idle);
    EXPECT_EQ(ServerClientsModel::clientState(gone, now), ClientState::Gone);
    // Quitting cuts off the first three; the other two have most likely exited.
    EXPECT_EQ(ServerClientsModel::presentClients({working, recent, listening, idle, gone}, now), 3);

    ServerClientsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSessions({working, recent, listening, idle, gone}, now);
    EXPECT_EQ(stateShown(model, 0), QStringLiteral("Working"));
    EXPECT_EQ(stateShown(model, 1), QStringLiteral("Connected"));
    EXPECT_EQ(stateShown(model, 3), QStringLiteral("Idle for 7 min"));
    EXPECT_EQ(stateShown(model, 4), QStringLiteral("Disconnected"));
    EXPECT_FALSE(model.index(4, ServerClientsModel::State).data(Qt::ToolTipRole).toString().isEmpty());
    // The time of day as every page shows it, in the locale's format (12 hours in English), not always 24 hours.
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QDateTime afternoon(QDate(2026, 12, 7), QTime(15, 4, 5));
    model.setSessions({session(QStringLiteral("f"), afternoon.toUTC())}, afternoon.toUTC().addSecs(10));
    EXPECT_EQ(model.index(0, ServerClientsModel::LastActivity).data().toString(), timeText(QTime(15, 4, 5)));
    EXPECT_TRUE(model.index(0, ServerClientsModel::LastActivity).data().toString().contains(QStringLiteral("PM")));
    QLocale::setDefault(before);
}

TEST(ServerPage, aClientThatExitsShowsDisconnectedAndEndSessionRemovesIt)
{
    McpHost host(Result<ExecutionEngine *>(Error{QStringLiteral("no engine in this test")}), nullptr);
    MemorySecretStore secrets;
    UserSettings settings;
    const int port = settings.serverPort();
    ServerPage page(host, secrets, settings);
    page.findChild<QSpinBox *>(QStringLiteral("serverPort"))->setValue(guitest::freePort());
    page.resize(1000, 700);
    page.show();
    page.start();
    ASSERT_TRUE(waitUntil([&] { return host.state() == McpHost::State::Running; }, 10s));
    const quint16 serverPort = quint16(host.url().port());

    // An assistant connects and listens on its event stream, as the SDK's clients do.
    const QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", "Bearer " + page.token()},
                                                           {"Content-Type", "application/json"},
                                                           {"Accept", "application/json, text/event-stream"}};
    HttpTestClient initializer(serverPort);
    initializer.send(HttpTestClient::request(
        "POST", headers, mcp::test::initializeRequest(1, QStringLiteral("2025-06-18"), QStringLiteral("inspector"))));
    const std::optional<HttpResponse> initialized = initializer.readResponse();
    ASSERT_TRUE(initialized.has_value());
    const QByteArray sessionId = initialized->header("Mcp-Session-Id");
    ASSERT_FALSE(sessionId.isEmpty());
    auto withSession = headers;
    withSession.append({"Mcp-Session-Id", sessionId});
    ServerClientsModel *clients = page.clients();
    {
        HttpTestClient listener(serverPort);
        listener.send(HttpTestClient::request("GET", withSession));
        ASSERT_TRUE(listener.peekResponse([](const HttpResponse &r) { return r.status == 200; }).has_value());
        ASSERT_TRUE(waitUntil([&] { return clients->rowCount() == 1 && stateShown(*clients, 0) == "Connected"; }, 10s));
    } // it exits
    ASSERT_TRUE(waitUntil([&] { return stateShown(*clients, 0) == QStringLiteral("Disconnected"); }, 10s));
    EXPECT_EQ(ServerClientsModel::presentClients(host.sessions(), QDateTime::currentDateTimeUtc()), 0)
        << "no reason to warn when quitting";

    auto *end = page.findChild<QPushButton *>(QStringLiteral("endSession"));
    ASSERT_NE(end, nullptr);
    EXPECT_FALSE(end->isEnabled()) << "nothing selected";
    auto *view = page.findChild<QTableView *>(QStringLiteral("serverClients"));
    view->selectRow(0);
    ASSERT_TRUE(end->isEnabled());
    QTest::mouseClick(end, Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return clients->rowCount() == 0; }, 10s));
    EXPECT_TRUE(host.sessions().isEmpty());
    EXPECT_FALSE(end->isEnabled());

    host.stopHttpAndWait();
    settings.setServerPort(port);
}
