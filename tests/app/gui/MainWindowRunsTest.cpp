#include "AppContext.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "SdkClient.h"
#include "gui/DesktopApp.h"
#include "gui/MainWindow.h"
#include "gui/StateColors.h"
#include "gui/console/ConsolePage.h"
#include "gui/history/HistoryModel.h"
#include "gui/history/HistoryPage.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/widgets/CodeEditor.h"
#include "gui/widgets/RunView.h"

#include <QApplication>
#include <QComboBox>
#include <QGuiApplication>
#include <QIcon>
#include <QImage>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::SdkClient;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

/// The newest run in the live log whose code contains `fragment`.
std::optional<JournalRun> runOf(const LiveLogModel &model, const QString &fragment)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.runAt(row).code.contains(fragment)) {
            return model.runAt(row);
        }
    }
    return std::nullopt;
}

/// The table's index of run `runId` in `column`.
QModelIndex indexOf(const QTableView &table, const QString &runId, int column)
{
    const QAbstractItemModel &model = *table.model();
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data(LiveLogModel::RunIdRole).toString() == runId) {
            return model.index(row, column);
        }
    }
    return {};
}

/// The colour at the middle of a status dot.
QColor dotColour(const QVariant &decoration)
{
    return decoration.value<QIcon>().pixmap(12, 12).toImage().pixelColor(6, 6);
}

} // namespace

// Issue 37's items that are about runs, on the real engine: a window over a journal, its own console runs and an
// assistant's through a separate `llm-sandbox --mcp` driven by the official SDK client.
TEST(MainWindowRuns, followsCountsShowsAndStopsRealRunsOfTheConsoleAndOfAnAssistantsMcpServer)
{
    ASSERT_FALSE(qEnvironmentVariable("LLM_SANDBOX_BIN").isEmpty()) << "ctest sets LLM_SANDBOX_BIN";
    ASSERT_FALSE(QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty()) << "node is needed for the SDK";
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString assistant = QStringLiteral("window-test-assistant");
    const test::ScopedEnvironment environment{
        {"LLM_SANDBOX_JOURNAL", folder.filePath(QStringLiteral("journal.sqlite")).toUtf8()},
        {"BACKEND", QByteArray("docker")},
        {"MCP_CLIENT_NAME", assistant.toUtf8()}};
    auto made = AppContext::create({.source = RunSource::Gui, .backendName = QStringLiteral("docker")});
    ASSERT_TRUE(made.ok()) << qPrintable(made.error().message);
    DesktopApp desktop(**made);
    MainWindow window(desktop);
    window.resize(1400, 900);
    window.show();
    window.showPage(0);
    auto *liveLog = window.findChild<LiveLogPage *>(QStringLiteral("liveLogPage"));
    auto *console = window.findChild<ConsolePage *>(QStringLiteral("consolePage"));
    auto *history = window.findChild<HistoryPage *>(QStringLiteral("historyPage"));
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    auto *runningState = window.findChild<QLabel *>(QStringLiteral("runningState"));
    ASSERT_TRUE(liveLog && console && history && pages && runningState);
    auto *table = liveLog->findChild<QTableView *>(QStringLiteral("liveLogTable"));
    auto *follow = liveLog->findChild<QPushButton *>(QStringLiteral("followNewest"));
    auto *runButton = console->findChild<QPushButton *>(QStringLiteral("runButton"));
    auto *stopButton = console->findChild<QPushButton *>(QStringLiteral("stopButton"));
    auto *editor = console->findChild<CodeEditor *>(QStringLiteral("codeEditor"));
    auto *language = console->findChild<QComboBox *>(QStringLiteral("languagePicker"));
    ASSERT_TRUE(table && follow && runButton && stopButton && editor && language);
    RunView *detail = liveLog->runView();
    const LiveLogModel &runs = *liveLog->model();
    const StateColors colours = StateColors::of(QGuiApplication::palette());

    // The assistant's client and its `llm-sandbox --mcp` start while the console runs (node is slow to start on a busy
    // machine).
    SdkClient client;
    ASSERT_TRUE(client.process().waitForStarted(10000)) << qPrintable(client.process().errorString());
    const int launch = client.send({{"op", "launch"},
                                    {"command", qEnvironmentVariable("LLM_SANDBOX_BIN")},
                                    {"env", QJsonObject{{"XDG_CONFIG_HOME", folder.filePath(QStringLiteral("config"))},
                                                        {"XDG_DATA_HOME", folder.filePath(QStringLiteral("data"))}}}});

    // Whether the console's run whose code holds `fragment` has ended, in the live log and in the console.
    const auto consoleRunEnded = [&](const QString &fragment) {
        return waitUntil(
            [&] {
                const auto run = runOf(runs, fragment);
                return run && run->status != RunStatus::Running && !console->isRunning();
            },
            60s);
    };

    // A first console run, to go back to later.
    console->openCode(QStringLiteral("python"), QStringLiteral("print('the older run')\n"));
    QTest::mouseClick(runButton, Qt::LeftButton);
    ASSERT_TRUE(consoleRunEnded(QStringLiteral("the older run")));
    const JournalRun older = *runOf(runs, QStringLiteral("the older run"));
    ASSERT_EQ(older.outcome(), RunOutcome::Succeeded) << qPrintable(older.error);

    // Item 8: a console run stopped with the console's Stop says "Stopped by you after N s", in the live log and in
    // History, in the one colour of that outcome.
    console->openCode(QStringLiteral("python"),
                      QStringLiteral("import time\nprint('until stopped', flush=True)\ntime.sleep(60)\n"));
    QTest::mouseClick(runButton, Qt::LeftButton);
    // Following the newest run, the live log shows it: stopped once its program runs.
    ASSERT_TRUE(waitUntil(
        [&] {
            return detail->run().code.contains(QStringLiteral("until stopped")) &&
                   detail->run().stdoutData.contains("until stopped");
        },
        60s));
    QTest::mouseClick(stopButton, Qt::LeftButton);
    ASSERT_TRUE(consoleRunEnded(QStringLiteral("until stopped")));
    const JournalRun stopped = *runOf(runs, QStringLiteral("until stopped"));
    EXPECT_EQ(stopped.outcome(), RunOutcome::Stopped);
    const QModelIndex stoppedStatus = indexOf(*table, stopped.id, LiveLogModel::Status);
    ASSERT_TRUE(stoppedStatus.isValid());
    const QString stoppedText = stoppedStatus.data().toString();
    EXPECT_TRUE(QRegularExpression(QStringLiteral("^Stopped by you after [0-9.]+ m?s$")).match(stoppedText).hasMatch())
        << qPrintable(stoppedText);
    EXPECT_EQ(dotColour(stoppedStatus.data(Qt::DecorationRole)), colours.stopped);
    ASSERT_TRUE(waitUntil([&] { return detail->run().status != RunStatus::Running; }, 10s));
    const QString title = detail->findChild<QLabel *>(QStringLiteral("runTitle"))->text();
    EXPECT_TRUE(title.contains(stoppedText)) << qPrintable(title);
    EXPECT_TRUE(title.contains(colours.stopped.name())) << qPrintable(title);
    EXPECT_TRUE(console->findChild<QLabel *>(QStringLiteral("runSummary"))->text().contains(stoppedText));
    window.showPage(pages->indexOf(history));
    ASSERT_TRUE(waitUntil([&] { return history->model()->rowOf(stopped.id) >= 0; }, 10s));
    {
        const QModelIndex status = history->model()->index(history->model()->rowOf(stopped.id), HistoryModel::Status);
        EXPECT_EQ(status.data().toString(), stoppedText);
        EXPECT_EQ(status.data(Qt::ForegroundRole).value<QColor>(), colours.stopped);
    }
    window.showPage(pages->indexOf(liveLog));

    // Item 1: an older run picked by hand stays in view while an assistant's run starts.
    const QModelIndex olderCell = indexOf(*table, older.id, LiveLogModel::Language);
    ASSERT_TRUE(olderCell.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(olderCell).center());
    EXPECT_FALSE(liveLog->isFollowingNewest());
    EXPECT_FALSE(follow->isChecked());
    EXPECT_EQ(detail->run().id, older.id);

    const QJsonObject launched = client.waitFor(launch, 90s);
    ASSERT_TRUE(launched.value("ok").toBool()) << QJsonDocument(launched).toJson().toStdString();
    // The pause is inside the sandbox: it keeps the call going while the window is looked at.
    const QString longCode = QStringLiteral("import time\n"
                                            "print('the assistant waits', flush=True)\n"
                                            "time.sleep(8)\n"
                                            "print('the assistant is done')\n");
    const int longCall =
        client.send({{"op", "execute"}, {"arguments", QJsonObject{{"language", "python"}, {"code", longCode}}}});
    ASSERT_TRUE(waitUntil([&] { return runOf(runs, QStringLiteral("the assistant waits")).has_value(); }, 60s))
        << client.process().readAllStandardError().toStdString();
    const JournalRun call = *runOf(runs, QStringLiteral("the assistant waits"));
    EXPECT_EQ(call.source, RunSource::Mcp);
    EXPECT_EQ(call.clientName, assistant);
    QTest::qWait(300); // what a new run may change in the view has happened
    EXPECT_EQ(detail->run().id, older.id) << "the run picked by hand was replaced by the new one";
    EXPECT_FALSE(follow->isChecked());
    EXPECT_TRUE(follow->text().contains(QStringLiteral("1 new"))) << qPrintable(follow->text());

    // Item 3: the status bar counts the assistant's run in progress by where it comes from.
    EXPECT_TRUE(
        waitUntil([&] { return runningState->text() == QStringLiteral("1 running: 1 MCP · ") + assistant; }, 10s))
        << qPrintable(runningState->text());
    EXPECT_TRUE(runningState->toolTip().contains(QStringLiteral("MCP · ") + assistant))
        << qPrintable(runningState->toolTip());

    // Item 1: Follow newest shows it.
    QTest::mouseClick(follow, Qt::LeftButton);
    EXPECT_TRUE(follow->isChecked());
    EXPECT_EQ(detail->run().id, call.id);

    // Item 13: while the call runs, its MCP exchange tab is there, with the code argument's real line breaks.
    ASSERT_TRUE(waitUntil([&] { return detail->run().code == longCode; }, 10s));
    auto *tabs = detail->findChild<QTabWidget *>(QStringLiteral("runTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_TRUE(tabs->isTabVisible(RunView::McpTab));
    tabs->setCurrentIndex(RunView::McpTab);
    auto *argumentCode = detail->findChild<CodeEditor *>(QStringLiteral("mcpArgumentCode"));
    ASSERT_NE(argumentCode, nullptr);
    EXPECT_EQ(argumentCode->toPlainText(), longCode);
    EXPECT_EQ(argumentCode->document()->blockCount(), 5); // four lines and the empty one after the last break
    EXPECT_FALSE(argumentCode->toPlainText().contains(QStringLiteral("\\n")));
    EXPECT_TRUE(argumentCode->isVisibleTo(detail));
    EXPECT_TRUE(detail->findChild<QLabel *>(QStringLiteral("mcpState"))->text().contains("running"));
    EXPECT_EQ(runOf(runs, QStringLiteral("the assistant waits"))->status, RunStatus::Running)
        << "the call ended before the window was looked at";

    // Item 3: once it ends, none are running.
    const QJsonObject longAnswer = client.waitFor(longCall, 60s);
    EXPECT_TRUE(longAnswer.value("ok").toBool() && !longAnswer.value("isError").toBool())
        << QJsonDocument(longAnswer).toJson().toStdString();
    EXPECT_TRUE(waitUntil([&] { return runningState->text() == QStringLiteral("No runs in progress"); }, 10s))
        << qPrintable(runningState->text());

    // Item 1: following, the next run is shown by itself.
    const QString nextCode = QStringLiteral("greeting = 'the next call'\nprint(greeting)\n");
    const QJsonObject nextAnswer =
        client.call({{"op", "execute"}, {"arguments", QJsonObject{{"language", "python"}, {"code", nextCode}}}});
    EXPECT_TRUE(nextAnswer.value("ok").toBool() && !nextAnswer.value("isError").toBool())
        << QJsonDocument(nextAnswer).toJson().toStdString();
    ASSERT_TRUE(waitUntil([&] { return detail->run().code == nextCode; }, 10s))
        << "the live log still shows " << qPrintable(detail->run().code);
    EXPECT_TRUE(follow->isChecked());

    // Item 11: "Open in Console" puts that run's code and language into the console, and shows it.
    language->setCurrentIndex(language->findData(QStringLiteral("javascript")));
    ASSERT_NE(language->currentData().toString(), QStringLiteral("python"));
    QTest::mouseClick(detail->findChild<QPushButton *>(QStringLiteral("openInConsole")), Qt::LeftButton);
    EXPECT_EQ(pages->currentWidget(), console);
    EXPECT_EQ(language->currentData().toString(), QStringLiteral("python"));
    EXPECT_EQ(editor->toPlainText(), nextCode);

    // Issue 46, item 2: an assistant's run is stopped from the live log. The window asks first (the assistant waits for
    // it); the run then reads "Stopped by you after N s" here, and the assistant's answer says so too.
    window.showPage(pages->indexOf(liveLog));
    const QString endlessCode = QStringLiteral("import time\nprint('stop me', flush=True)\ntime.sleep(120)\n");
    const int endlessCall =
        client.send({{"op", "execute"}, {"arguments", QJsonObject{{"language", "python"}, {"code", endlessCode}}}});
    ASSERT_TRUE(waitUntil(
        [&] { return detail->run().code == endlessCode && detail->run().stdoutData.contains("stop me"); }, 60s));
    auto *stopRun = detail->findChild<QPushButton *>(QStringLiteral("stopRun"));
    ASSERT_NE(stopRun, nullptr);
    EXPECT_TRUE(stopRun->isVisible() && stopRun->isEnabled());
    QString asked;
    QTimer::singleShot(0, [&asked] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            asked = box->text() + u' ' + box->informativeText();
            box->defaultButton()->click();
        }
    });
    QTest::mouseClick(stopRun, Qt::LeftButton);
    EXPECT_TRUE(asked.contains(QStringLiteral("MCP · ") + assistant + QStringLiteral(" started this run")))
        << qPrintable(asked);
    EXPECT_TRUE(asked.contains(QStringLiteral("Stop 1 run"))) << qPrintable(asked);
    const QJsonObject endlessAnswer = client.waitFor(endlessCall, 60s);
    const QJsonObject stoppedCall = QJsonDocument::fromJson(endlessAnswer.value("text").toString().toUtf8()).object();
    EXPECT_EQ(stoppedCall.value("stop_reason").toString(), QStringLiteral("stopped_by_user"))
        << QJsonDocument(endlessAnswer).toJson().toStdString();
    EXPECT_TRUE(stoppedCall.value("stderr").toString().contains(QStringLiteral("the user stopped this run")));
    const auto endless = [&] {
        return runOf(runs, QStringLiteral("stop me"));
    };
    ASSERT_TRUE(waitUntil([&] { return endless() && endless()->status != RunStatus::Running; }, 30s));
    const QString endedText = indexOf(*table, endless()->id, LiveLogModel::Status).data().toString();
    EXPECT_TRUE(QRegularExpression(QStringLiteral("^Stopped by you after [0-9.]+ m?s$")).match(endedText).hasMatch())
        << qPrintable(endedText);
    EXPECT_TRUE(waitUntil([&] { return !stopRun->isVisible(); }, 10s)) << "no Stop on a run that ended";
}
