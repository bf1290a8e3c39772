// The window's status bar and its Quit question without an engine: the engine's address leads nowhere, the journal
// is the test's own, and other processes' runs are written into it as an assistant's `llm-sandbox --mcp` would.
#include "AppContext.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/server/ServerPage.h"
#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"
#include "mcp/McpHost.h"
#include "mcp/McpTestSupport.h"
#include "support/HttpTestClient.h"

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using sandbox::test::HttpResponse;
using sandbox::test::HttpTestClient;
using namespace std::chrono_literals;

namespace {

void start(JournalRecorder &recorder, const QString &id, const QString &origin, const QString &client)
{
    RunRequest request;
    request.code = QStringLiteral("import time; time.sleep(60)");
    request.language = QStringLiteral("python");
    request.source = *runSourceFromString(origin);
    request.clientName = client;
    recorder.runStarted(id, request);
    recorder.flush();
}

/// The window's settings (its geometry, splitters, pages) in `folder`: QSettings finds its folder once a process, so
/// a window saved here would otherwise be restored by the next test's window (ClippedTextTest's, say) at its sizes.
void isolateSettings(const QTemporaryDir &folder)
{
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, folder.filePath(QStringLiteral("config")));
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder.filePath(QStringLiteral("config")));
}

} // namespace

TEST(MainWindowStatus, countsTheRunsOfEveryProcessInTheJournalBySource)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    isolateSettings(folder);
    const QString journalPath = folder.filePath(QStringLiteral("journal.sqlite"));
    const test::ScopedEnvironment environment{
        {"LLM_SANDBOX_JOURNAL", journalPath.toUtf8()},
        {"BACKEND", "docker"},
        {"DOCKER_HOST", "unix://" + folder.filePath(QStringLiteral("no-engine.sock")).toUtf8()}};
    auto context = AppContext::create({.source = RunSource::Gui});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    DesktopApp desktop(**context);
    MainWindow window(desktop);
    window.show();
    auto *running = window.findChild<QLabel *>(QStringLiteral("runningState"));
    ASSERT_NE(running, nullptr);
    EXPECT_EQ(running->text(), QStringLiteral("No runs in progress"));

    // An assistant's `llm-sandbox --mcp` (its own process and connection) and a client of an app's own server.
    JournalRecorder mcp(journalPath, JournalRecorder::Context{QStringLiteral("docker"), {}, {}});
    start(mcp, QStringLiteral("mcp-1"), QStringLiteral("mcp"), QStringLiteral("claude-ai"));
    ASSERT_TRUE(waitUntil([&] { return running->text() == QStringLiteral("1 running: 1 MCP · claude-ai"); }, 10s))
        << qPrintable(running->text());
    start(mcp, QStringLiteral("http-1"), QStringLiteral("http"), QStringLiteral("inspector"));
    start(mcp, QStringLiteral("http-2"), QStringLiteral("http"), QStringLiteral("inspector"));
    ASSERT_TRUE(waitUntil(
        [&] { return running->text() == QStringLiteral("3 running: 2 MCP/HTTP · inspector, 1 MCP · claude-ai"); }, 10s))
        << qPrintable(running->text());
    EXPECT_TRUE(running->toolTip().contains(QStringLiteral("MCP · claude-ai")));

    RunResult result;
    result.exitCode = 0;
    for (const QString &id : {QStringLiteral("mcp-1"), QStringLiteral("http-1"), QStringLiteral("http-2")}) {
        result.runId = id;
        mcp.runFinished(id, result, {});
    }
    mcp.flush();
    ASSERT_TRUE(waitUntil([&] { return running->text() == QStringLiteral("No runs in progress"); }, 10s))
        << qPrintable(running->text());
}

TEST(MainWindowStatus, quittingDoesNotCountAClientThatHasExited)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    isolateSettings(folder);
    const test::ScopedEnvironment environment{
        {"LLM_SANDBOX_JOURNAL", QByteArray("off")},
        {"LLM_SANDBOX_HTTP_TOKEN", QByteArray("a-test-token-of-enough-length-0123456789")},
        {"BACKEND", "docker"},
        {"DOCKER_HOST", "unix://" + folder.filePath(QStringLiteral("no-engine.sock")).toUtf8()}};
    auto context = AppContext::create({.source = RunSource::Gui});
    ASSERT_TRUE(context.ok()) << qPrintable(context.error().message);
    DesktopApp desktop(**context);
    MainWindow window(desktop);
    window.show();
    auto *server = window.findChild<ServerPage *>();
    server->findChild<QSpinBox *>(QStringLiteral("serverPort"))->setValue(guitest::freePort());
    server->start();
    ASSERT_TRUE(waitUntil([&] { return window.server().state() == mcp::McpHost::State::Running; }, 10s));
    const quint16 port = quint16(window.server().url().port());

    // A client connects, listens on its event stream, and exits.
    const QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", "Bearer " + server->token()},
                                                           {"Content-Type", "application/json"},
                                                           {"Accept", "application/json, text/event-stream"}};
    HttpTestClient initializer(port);
    initializer.send(HttpTestClient::request(
        "POST", headers, mcp::test::initializeRequest(1, QStringLiteral("2025-06-18"), QStringLiteral("inspector"))));
    const std::optional<HttpResponse> initialized = initializer.readResponse();
    ASSERT_TRUE(initialized.has_value());
    auto withSession = headers;
    withSession.append({"Mcp-Session-Id", initialized->header("Mcp-Session-Id")});
    {
        HttpTestClient listener(port);
        listener.send(HttpTestClient::request("GET", withSession));
        ASSERT_TRUE(listener.peekResponse([](const HttpResponse &r) { return r.status == 200; }).has_value());
    }
    ASSERT_TRUE(waitUntil(
        [&] { return !window.server().sessions().isEmpty() && window.server().sessions().first().clientGone; }, 10s));

    // The Quit question speaks of the server, not of a client that is gone.
    QString question;
    QTimer answer;
    answer.setInterval(20);
    QObject::connect(&answer, &QTimer::timeout, [&] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            question = box->text();
            box->button(QMessageBox::Cancel)->click();
        }
    });
    answer.start();
    window.quit();
    EXPECT_TRUE(question.contains(QStringLiteral("The MCP server is running; assistants will no longer reach it.")))
        << qPrintable(question);
    EXPECT_FALSE(question.contains(QStringLiteral("client"))) << qPrintable(question);
    EXPECT_TRUE(window.isVisible()) << "cancelled";
    window.server().stopHttpAndWait();
}
