#include "gui/history/HistoryPage.h"

#include "engine/ExecutionEngine.h"
#include "fakes/FakeBackend.h"
#include "gui/EngineController.h"
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/history/CompareWithDialog.h"
#include "gui/history/DiffView.h"
#include "gui/history/HistoryFilterBar.h"
#include "gui/history/HistoryModel.h"
#include "gui/history/ImageComparisonView.h"
#include "gui/history/PixelComparison.h"
#include "gui/widgets/RunTableView.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"
#include "journal/RunDiff.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

const QStringList kLanguages = {"python", "javascript", "java", "cpp", "go", "r", "ruby"};
const QStringList kSources = {"gui", "cli", "mcp"};
constexpr int kRunCount = 1000;

QString runId(int i)
{
    return QStringLiteral("run-%1").arg(i, 4, 10, QLatin1Char('0'));
}

/// A journal with kRunCount runs: languages, sources and outcomes in fixed rotations, so a test knows how many
/// runs each filter must find. Every 10th run failed (infrastructure), every 5th other one exited with 1.
class HistoryPageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("journal.sqlite"));
        m_recorder = std::make_unique<JournalRecorder>(
            m_path,
            JournalRecorder::Context{QStringLiteral("docker"), QStringLiteral("unix:///var/run/docker.sock"), {}, {}});
        for (int i = 0; i < kRunCount; ++i) {
            record(i);
        }
        m_recorder->flush();
        m_feed = std::make_unique<JournalFeed>(m_path);
    }

    void record(int i, const QString &code = {}, const QByteArray &output = {})
    {
        RunRequest request;
        request.language = kLanguages.at(i % kLanguages.size());
        request.code = code.isEmpty() ? QStringLiteral("print(%1)\n# run number %1").arg(i) : code;
        request.source = *runSourceFromString(kSources.at(i % kSources.size()));
        m_recorder->runStarted(runId(i), request);
        m_recorder->runOutput(runId(i), OutputStream::Stdout,
                              output.isEmpty() ? QStringLiteral("output of %1\n").arg(i).toUtf8() : output);
        RunResult result;
        result.runId = runId(i);
        result.exitCode = i % 5 == 0 ? 1 : 0;
        result.durationMs = 100 + i;
        m_recorder->runFinished(runId(i), i % 10 == 0 ? RunResult{} : result,
                                i % 10 == 0 ? std::optional<Error>(Error{QStringLiteral("engine unreachable"),
                                                                         ErrorCode::EngineUnreachable})
                                            : std::nullopt);
    }

    static int expectedCount(const std::function<bool(int)> &predicate)
    {
        int count = 0;
        for (int i = 0; i < kRunCount; ++i) {
            count += predicate(i) ? 1 : 0;
        }
        return count;
    }

    /// The model's next page, read on the feed's thread, is in.
    void fetchPage(HistoryModel &model)
    {
        model.fetchMore({});
        m_feed->waitForIdle();
    }
    /// Every page is in (a QAbstractItemModelTester may have asked for one itself).
    void fetchAll(HistoryModel &model)
    {
        do {
            fetchPage(model);
        } while (model.canFetchMore({}) || model.isFetching());
    }

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<JournalRecorder> m_recorder;
    std::unique_ptr<JournalFeed> m_feed;
    ThumbnailProvider m_thumbnails;
};

} // namespace

TEST_F(HistoryPageTest, modelLoadsOnePageAtATimeNewestFirst)
{
    HistoryModel model(*m_feed);

    EXPECT_EQ(model.rowCount(), 0);
    ASSERT_TRUE(model.canFetchMore({}));
    fetchPage(model);
    EXPECT_EQ(model.rowCount(), HistoryModel::PageSize);
    EXPECT_TRUE(model.canFetchMore({}));
    fetchPage(model);
    EXPECT_EQ(model.rowCount(), 2 * HistoryModel::PageSize);
    // The tester fetches on its own (canFetchMore), so it comes after the page counts were checked.
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    EXPECT_TRUE(QTest::qWaitFor([&] { return model.totalCount() == kRunCount; }));
    fetchAll(model);
    EXPECT_EQ(model.rowCount(), kRunCount);
    EXPECT_FALSE(model.canFetchMore({}));
    EXPECT_GE(model.runAt(0).startedAt, model.runAt(kRunCount - 1).startedAt);
    EXPECT_EQ(model.runAt(0).id, runId(kRunCount - 1));
}

TEST_F(HistoryPageTest, modelShowsStatusExitAndLanguage)
{
    HistoryModel model(*m_feed);
    fetchAll(model);
    const int failed = model.rowOf(runId(10));
    const int exitedWithOne = model.rowOf(runId(15));
    const int fine = model.rowOf(runId(16));
    ASSERT_GE(failed, 0);
    EXPECT_EQ(model.index(failed, HistoryModel::Status).data().toString(), QStringLiteral("Engine unreachable"));
    EXPECT_EQ(model.index(failed, HistoryModel::Outcome).data().toString(), QStringLiteral("engine unreachable"));
    EXPECT_EQ(model.index(exitedWithOne, HistoryModel::Status).data().toString(), QStringLiteral("Failed (exit 1)"));
    EXPECT_EQ(model.index(fine, HistoryModel::Status).data().toString(), QStringLiteral("Succeeded"));
    // Each outcome in its one colour (issue 37, item 8), the one every page gives it.
    const StateColors colors = StateColors::of(QGuiApplication::palette());
    const auto colorOf = [&](int row) {
        return model.index(row, HistoryModel::Status).data(Qt::ForegroundRole).value<QColor>();
    };
    EXPECT_EQ(colorOf(failed), colors.couldNotRun);
    EXPECT_EQ(colorOf(exitedWithOne), colors.failed);
    EXPECT_EQ(colorOf(fine), colors.succeeded);
    EXPECT_NE(colors.failed, colors.succeeded);
    EXPECT_NE(colors.couldNotRun, colors.failed);
    // Named as people write them, the same on every page.
    JournalRun summary;
    summary.source = runSourceFromString(kSources.at(16 % 3));
    EXPECT_EQ(model.index(fine, HistoryModel::Language).data().toString(),
              languageText(kLanguages.at(16 % 7)).section(QStringLiteral(" ("), 0, 0));
    EXPECT_EQ(model.index(fine, HistoryModel::Language).data(Qt::ToolTipRole).toString(),
              languageText(kLanguages.at(16 % 7)));
    EXPECT_EQ(model.index(fine, HistoryModel::Source).data().toString(), runSourceText(summary));
    EXPECT_NE(languageText(QStringLiteral("javascript")), QStringLiteral("javascript"));
}

TEST_F(HistoryPageTest, filtersByLanguageStatusSourceAndTextNarrowTheRows)
{
    // A model per filter, the tester attached after setFilter: Qt 6.4's tester runs its checks from its own
    // modelReset slot before it marks the reset done, so a lazy model that fetches then looks like nested changes.
    auto rowsFor = [this](const RunFilter &filter) {
        HistoryModel model(*m_feed);
        model.setFilter(filter);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        fetchAll(model);
        QList<JournalRun> runs;
        for (int row = 0; row < model.rowCount(); ++row) {
            runs << model.runAt(row);
        }
        EXPECT_TRUE(QTest::qWaitFor([&] { return model.totalCount() == model.rowCount(); }));
        return runs;
    };

    RunFilter ruby;
    ruby.language = QStringLiteral("ruby");
    const QList<JournalRun> rubyRuns = rowsFor(ruby);
    EXPECT_EQ(rubyRuns.size(), expectedCount([](int i) { return i % 7 == 6; }));
    for (const JournalRun &run : rubyRuns) {
        ASSERT_EQ(run.language, QStringLiteral("ruby"));
    }

    RunFilter failed;
    failed.status = RunStatus::Failed;
    const QList<JournalRun> failedRuns = rowsFor(failed);
    EXPECT_EQ(failedRuns.size(), kRunCount / 10);
    for (const JournalRun &run : failedRuns) {
        ASSERT_EQ(run.status, RunStatus::Failed);
    }

    RunFilter mcp;
    mcp.sources = {RunSource::Mcp};
    EXPECT_EQ(rowsFor(mcp).size(), expectedCount([](int i) { return i % 3 == 2; }));

    RunFilter text;
    text.text = QStringLiteral("run number 777");
    const QList<JournalRun> inCode = rowsFor(text);
    ASSERT_EQ(inCode.size(), 1);
    EXPECT_EQ(inCode.first().id, runId(777));

    RunFilter output;
    output.text = QStringLiteral("output of 42\n");
    const QList<JournalRun> inOutput = rowsFor(output);
    ASSERT_EQ(inOutput.size(), 1);
    EXPECT_EQ(inOutput.first().id, runId(42));
}

TEST_F(HistoryPageTest, filterBarTextSearchReachesTheModelAfterTyping)
{
    HistoryFilterBar bar;
    HistoryModel model(*m_feed);
    QObject::connect(&bar, &HistoryFilterBar::filterChanged, &model, &HistoryModel::setFilter);
    auto *text = bar.findChild<QLineEdit *>(QStringLiteral("historyTextFilter"));
    ASSERT_NE(text, nullptr);

    QTest::keyClicks(text, QStringLiteral("run number 123"));

    EXPECT_TRUE(QTest::qWaitFor([&] { return model.filter().text == QStringLiteral("run number 123"); }));
    fetchAll(model);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.runAt(0).id, runId(123));
}

namespace {

/// A controller whose engine cannot be made: the page's reading side needs no engine.
std::unique_ptr<EngineController> controllerWithoutEngine()
{
    return std::make_unique<EngineController>(
        [](const QString &) -> Result<ExecutionEngine *> {
            return Error{QStringLiteral("no engine in this test"), ErrorCode::Unavailable};
        },
        QStringLiteral("docker"));
}

QTableView *tableOf(HistoryPage &page)
{
    return page.findChild<QTableView *>(QStringLiteral("historyTable"));
}

QString selectedId(HistoryPage &page)
{
    return tableOf(page)->selectionModel()->currentIndex().data(HistoryModel::RunIdRole).toString();
}

} // namespace

TEST_F(HistoryPageTest, selectingARunShowsItsCodeAndOutput)
{
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker"), QStringLiteral("podman")});
    page.resize(1200, 700);
    page.show();
    QTableView *table = tableOf(page);
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));

    table->selectRow(page.model()->rowOf(runId(998)));

    auto *code = page.findChild<QPlainTextEdit *>(QStringLiteral("runCode"));
    auto *stdoutView = page.findChild<QPlainTextEdit *>(QStringLiteral("runOutput"));
    ASSERT_NE(code, nullptr);
    ASSERT_NE(stdoutView, nullptr);
    EXPECT_TRUE(QTest::qWaitFor([&] { return code->toPlainText() == QStringLiteral("print(998)\n# run number 998"); }));
    EXPECT_EQ(stdoutView->toPlainText(), QStringLiteral("output of 998\n"));
    EXPECT_TRUE(code->isReadOnly());
    EXPECT_FALSE(page.runView()->isTabShown(RunView::McpTab));
    auto *status = page.findChild<QLabel *>(QStringLiteral("historyStatus"));
    EXPECT_TRUE(QTest::qWaitFor([&] { return status->text().contains(QLocale().toString(kRunCount)); }));
}

TEST_F(HistoryPageTest, newRunAppearsOnTopWithoutLosingTheSelection)
{
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.show();
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    const int before = page.model()->rowCount();
    tableOf(page)->selectRow(3);
    const QString selected = selectedId(page);
    ASSERT_FALSE(selected.isEmpty());

    record(kRunCount, QStringLiteral("print('new')"));
    m_recorder->flush();

    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() == before + 1; }));
    EXPECT_EQ(page.model()->runAt(0).id, runId(kRunCount));
    EXPECT_EQ(selectedId(page), selected);
    EXPECT_EQ(page.runView()->run().id, selected);
}

TEST_F(HistoryPageTest, narrowingTheFilterKeepsTheSelectedRunWhenItStillMatches)
{
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.show();
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    tableOf(page)->selectRow(page.model()->rowOf(runId(998)));
    auto *language = page.findChild<QComboBox *>(QStringLiteral("historyLanguageFilter"));
    ASSERT_NE(language, nullptr);

    EXPECT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(998); }));
    language->setCurrentIndex(language->findData(kLanguages.at(998 % kLanguages.size())));

    EXPECT_EQ(page.model()->filter().language, kLanguages.at(998 % kLanguages.size()));
    EXPECT_TRUE(QTest::qWaitFor([&] { return selectedId(page) == runId(998); }));
    EXPECT_EQ(page.runView()->run().id, runId(998));
}

TEST_F(HistoryPageTest, aFilterThatHidesTheRunShownLeavesTheDetailPane)
{
    // The run shown stayed in the detail pane after a filter had taken it out of the table.
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.show();
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    tableOf(page)->selectRow(page.model()->rowOf(runId(998)));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(998); }));
    auto *language = page.findChild<QComboBox *>(QStringLiteral("historyLanguageFilter"));
    ASSERT_NE(language, nullptr);

    language->setCurrentIndex(language->findData(kLanguages.at(999 % kLanguages.size())));
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id.isEmpty(); }))
        << qPrintable(page.runView()->run().id);
    m_feed->waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_TRUE(page.runView()->run().id.isEmpty());
    EXPECT_TRUE(selectedId(page).isEmpty());

    // A filter that lets it through again shows it again once it is picked.
    language->setCurrentIndex(language->findData(kLanguages.at(998 % kLanguages.size())));
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowOf(runId(998)) >= 0; }));
    tableOf(page)->selectRow(page.model()->rowOf(runId(998)));
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(998); }));
}

TEST_F(HistoryPageTest, ctrlEndReachesTheOldestRunThoughItIsNotLoadedYet)
{
    // History loads 200 runs at a time: Ctrl+End stopped at the 200th.
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.resize(1200, 700);
    page.show();
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    QTableView *table = tableOf(page);
    table->selectRow(0);
    table->setFocus();
    ASSERT_LT(page.model()->rowCount(), kRunCount);

    QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
    EXPECT_TRUE(QTest::qWaitFor([&] { return selectedId(page) == runId(0); }, 10000))
        << qPrintable(selectedId(page)) << " of " << page.model()->rowCount();
    EXPECT_EQ(page.model()->rowCount(), kRunCount);
    EXPECT_EQ(table->selectionModel()->selectedRows().size(), 1);
    // It stays there: nothing moves it on after the last page.
    QTest::qWait(200);
    EXPECT_EQ(selectedId(page), runId(0));
}

TEST_F(HistoryPageTest, mcpTabShowsTheExchangeOfMcpRunsOnly)
{
    const QString id = runId(kRunCount);
    record(kRunCount, QStringLiteral("print('asked')"));
    const QJsonObject request{
        {"jsonrpc", "2.0"},
        {"id", 7},
        {"method", "tools/call"},
        {"params", QJsonObject{{"name", "execute_code"}, {"arguments", QJsonObject{{"code", "print('asked')"}}}}}};
    const QJsonObject response{{"content", QJsonArray{QJsonObject{{"type", "text"}, {"text", "{\"exit_code\": 0}"}}}}};
    m_recorder->recordExchange(id, request, response, QStringLiteral("2025-06-18"));
    m_recorder->flush();
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.show();
    // Shown with its first rows (a view that gets the focus makes its first row current, and with it the run shown).
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    QTest::qWait(50);

    page.showRun(id);
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == id; }));
    page.runView()->showTab(RunView::McpTab);

    EXPECT_TRUE(page.runView()->isTabShown(RunView::McpTab));
    auto *shownRequest = page.findChild<QPlainTextEdit *>(QStringLiteral("runMcpRequest"));
    auto *shownResponse = page.findChild<QPlainTextEdit *>(QStringLiteral("runMcpResponse"));
    EXPECT_TRUE(shownRequest->toPlainText().contains(QStringLiteral("\"execute_code\"")));
    EXPECT_TRUE(shownResponse->toPlainText().contains(QStringLiteral("exit_code")));

    page.showRun(runId(1));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(1); }));
    EXPECT_FALSE(page.runView()->isTabShown(RunView::McpTab));
}

TEST(DiffView, saysNoDifferenceForIdenticalRuns)
{
    JournalRun original;
    original.id = QStringLiteral("a");
    original.exitCode = 0;
    original.stopReason = StopReason::Exited;
    original.stdoutData = "same\n";
    JournalRun replay = original;
    replay.id = QStringLiteral("b");
    DiffView view;

    view.setDiff(RunDiff::compare(original, replay), original, replay);

    EXPECT_EQ(view.findChild<QLabel *>(QStringLiteral("diffBanner"))->text(), QStringLiteral("No difference"));
    EXPECT_TRUE(view.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"))->isHidden());
}

TEST(DiffView, startsWithWhatWentInLanguageAndCode)
{
    // Issue 46, item 1: a Python print(42) and a JavaScript console.log(6*7) got a green "No difference".
    JournalRun python;
    python.id = QStringLiteral("a");
    python.language = QStringLiteral("python");
    python.code = QStringLiteral("print(42)");
    python.backend = QStringLiteral("docker");
    python.exitCode = 0;
    python.stopReason = StopReason::Exited;
    python.stdoutData = "42\n";
    JournalRun javascript = python;
    javascript.id = QStringLiteral("b");
    javascript.language = QStringLiteral("javascript");
    javascript.code = QStringLiteral("console.log(6*7)");
    javascript.libraries = {QStringLiteral("lodash")};
    DiffView view;

    view.setDiff(RunDiff::compare(python, javascript), python, javascript, DiffView::Sides::TwoRuns);

    EXPECT_EQ(view.findChild<QLabel *>(QStringLiteral("diffBanner"))->text(), QStringLiteral("The runs differ"));
    const QString summary = view.findChild<QLabel *>(QStringLiteral("diffSummary"))->text();
    const qsizetype language = summary.indexOf(QStringLiteral("Language: <b>Python → JavaScript (Node.js)</b>"));
    const qsizetype code = summary.indexOf(QStringLiteral("Code: "));
    const qsizetype libraries = summary.indexOf(QStringLiteral("Libraries: <b>none → lodash</b>"));
    EXPECT_EQ(language, summary.indexOf(QStringLiteral("<li>")) + 4) << summary.toStdString();
    EXPECT_GT(code, language);
    EXPECT_GT(libraries, code);
    EXPECT_EQ(summary.indexOf(QStringLiteral("Standard output")), -1) << "the same output, 42";
    // The code's lines, as a diff, before any output.
    const QString lines = view.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"))->toPlainText();
    EXPECT_TRUE(lines.contains(QStringLiteral("- print(42)"))) << lines.toStdString();
    EXPECT_TRUE(lines.contains(QStringLiteral("+ console.log(6*7)"))) << lines.toStdString();
}

TEST(DiffView, summarisesExitCodeAndShowsChangedLines)
{
    JournalRun original;
    original.exitCode = 0;
    original.stopReason = StopReason::Exited;
    original.stdoutData = "one\ntwo\n";
    JournalRun replay = original;
    replay.exitCode = 1;
    replay.stdoutData = "one\nthree\n";
    DiffView view;

    view.setDiff(RunDiff::compare(original, replay), original, replay);

    EXPECT_EQ(view.findChild<QLabel *>(QStringLiteral("diffBanner"))->text(), QStringLiteral("The replay differs"));
    EXPECT_TRUE(view.findChild<QLabel *>(QStringLiteral("diffSummary"))->text().contains(QStringLiteral("0 → 1")));
    const QString lines = view.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"))->toPlainText();
    EXPECT_TRUE(lines.contains(QStringLiteral("- two")));
    EXPECT_TRUE(lines.contains(QStringLiteral("+ three")));
    EXPECT_TRUE(lines.contains(QStringLiteral("  one")));
}

namespace {

/// The in-memory backend through the controller, the journal recording every run of that engine. The fake runs
/// print what the original printed for the first code, and something else with exit code 3 for the second.
struct ReplayRig
{
    explicit ReplayRig(const QString &journalPath)
    {
        backend->setScript("print('stable')", test::FakeRunScript::printing("stable\n"));
        backend->setScript("import sys\nprint('now')\nsys.exit(3)", test::FakeRunScript::printing("now\n", 3));
        engine = std::make_unique<ExecutionEngine>(backend, SandboxSettings{});
        recorder = std::make_unique<JournalRecorder>(journalPath,
                                                     JournalRecorder::Context{QStringLiteral("docker"), {}, {}, {}});
        subscription = engine->subscribe(recorder.get());
        controller = std::make_unique<EngineController>(
            [this](const QString &) -> Result<ExecutionEngine *> { return engine.get(); }, QStringLiteral("docker"));
    }

    std::shared_ptr<test::FakeBackend> backend = std::make_shared<test::FakeBackend>();
    std::unique_ptr<ExecutionEngine> engine;
    std::unique_ptr<JournalRecorder> recorder;
    Subscription subscription;
    std::unique_ptr<EngineController> controller;
};

} // namespace

TEST_F(HistoryPageTest, replayShowsNoDifferenceThenTheDifference)
{
    // Originals as the journal recorded them: the same code must give the same output and exit code.
    RunRequest same;
    same.language = QStringLiteral("python");
    same.code = QStringLiteral("print('stable')");
    m_recorder->runStarted(QStringLiteral("original-same"), same);
    m_recorder->runOutput(QStringLiteral("original-same"), OutputStream::Stdout, "stable\n");
    RunResult sameResult;
    sameResult.exitCode = 0;
    m_recorder->runFinished(QStringLiteral("original-same"), sameResult, {});
    RunRequest other = same;
    other.code = QStringLiteral("import sys\nprint('now')\nsys.exit(3)");
    m_recorder->runStarted(QStringLiteral("original-other"), other);
    m_recorder->runOutput(QStringLiteral("original-other"), OutputStream::Stdout, "then\n");
    m_recorder->runFinished(QStringLiteral("original-other"), sameResult, {});
    m_recorder->flush();

    ReplayRig rig(m_path);
    HistoryPage page(*m_feed, m_thumbnails, *rig.controller, {QStringLiteral("docker")});
    page.show();
    QString replayId;
    QObject::connect(&page, &HistoryPage::replayFinished, &page,
                     [&](const QString &, const QString &id) { replayId = id; });
    auto *banner = page.findChild<QLabel *>(QStringLiteral("diffBanner"));

    page.replay(QStringLiteral("original-same"), QStringLiteral("docker"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !replayId.isEmpty(); }, 30'000));
    EXPECT_EQ(page.runView()->run().replayOf, QStringLiteral("original-same"));
    EXPECT_TRUE(page.runView()->isTabShown(page.diffTab()));
    EXPECT_EQ(banner->text(), QStringLiteral("No difference"));

    replayId.clear();
    page.replay(QStringLiteral("original-other"), QStringLiteral("docker"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !replayId.isEmpty(); }, 30'000));
    EXPECT_EQ(banner->text(), QStringLiteral("The replay differs"));
    const QString summary = page.findChild<QLabel *>(QStringLiteral("diffSummary"))->text();
    EXPECT_TRUE(summary.contains(QStringLiteral("0 → 3"))) << summary.toStdString();
    const QString lines = page.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"))->toPlainText();
    EXPECT_TRUE(lines.contains(QStringLiteral("- then")));
    EXPECT_TRUE(lines.contains(QStringLiteral("+ now")));
}

TEST(HistoryModel, aJournalThatIsOffSaysSoInsteadOfCountingForever)
{
    JournalFeed off{QString()};
    HistoryModel model(off);
    EXPECT_FALSE(model.canFetchMore({}));
    EXPECT_TRUE(model.lastError().contains(QStringLiteral("LLM_SANDBOX_JOURNAL=off")));
    model.setFilter(RunFilter{.language = QStringLiteral("python")});
    EXPECT_FALSE(model.canFetchMore({}));
    EXPECT_EQ(model.rowCount(), 0);
}

// Issue 37 item 15: History's start times keep their seconds, in the locale's format ("2026/11/5 15:04:05").
TEST_F(HistoryPageTest, startTimesKeepTheirSecondsInTheLocalesFormat)
{
    HistoryModel model(*m_feed);
    fetchPage(model);
    ASSERT_GT(model.rowCount(), 0);
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    const QString started = model.index(0, HistoryModel::Started).data().toString();
    QLocale::setDefault(saved);
    static const QRegularExpression chinese(QStringLiteral("^\\d{4}/\\d{1,2}/\\d{1,2} \\d{2}:\\d{2}:\\d{2}$"));
    EXPECT_TRUE(chinese.match(started).hasMatch()) << started.toStdString();
}

namespace {

/// Clicks the first of `ids` in the page's table and Ctrl+clicks the others, as a person selects runs.
void selectRuns(HistoryPage &page, const QStringList &ids)
{
    QTableView *table = tableOf(page);
    for (const QString &id : ids) {
        const QModelIndex index = page.model()->index(page.model()->rowOf(id), HistoryModel::Language);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, id == ids.first() ? Qt::NoModifier : Qt::ControlModifier,
                          table->visualRect(index).center());
    }
}

} // namespace

TEST_F(HistoryPageTest, twoSelectedRunsAreComparedWithTheOlderAsRunA)
{
    QTest::qWait(5);
    record(kRunCount, QStringLiteral("print('newer')"), "newer\n"); // started after every other run
    m_recorder->flush();
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.resize(1200, 700);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    QTest::qWait(50); // laid out: the rows are where they are clicked
    auto *compare = page.findChild<QPushButton *>(QStringLiteral("compareButton"));
    ASSERT_NE(compare, nullptr);
    EXPECT_FALSE(compare->isEnabled()) << "nothing to compare yet";

    selectRuns(page, {runId(kRunCount), runId(995)});
    EXPECT_TRUE(compare->isEnabled());
    EXPECT_TRUE(page.compareAction()->isEnabled());
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(995); }));
    compare->click();

    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->isTabShown(page.diffTab()); }));
    EXPECT_EQ(page.runView()->run().id, runId(995)) << "shown with the run on show";
    EXPECT_EQ(page.findChild<QLabel *>(QStringLiteral("diffBanner"))->text(), QStringLiteral("The runs differ"));
    const QString runs = page.findChild<QLabel *>(QStringLiteral("diffRuns"))->text();
    EXPECT_LT(runs.indexOf(runId(995)), runs.indexOf(runId(kRunCount))) << "run A is the older: " << runs.toStdString();
    const QString lines = page.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"))->toPlainText();
    EXPECT_TRUE(lines.contains(QStringLiteral("- output of 995"))) << lines.toStdString();
    EXPECT_TRUE(lines.contains(QStringLiteral("+ newer"))) << lines.toStdString();

    // Another run shown: the comparison is of the runs before.
    selectRuns(page, {runId(990)});
    EXPECT_FALSE(compare->isEnabled());
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(990); }));
    EXPECT_FALSE(page.runView()->isTabShown(page.diffTab()));
}

TEST_F(HistoryPageTest, compareWithPicksTheOtherRunInADialog)
{
    QTest::qWait(5);
    record(kRunCount, QStringLiteral("print('newer')"), "newer\n"); // started after every other run
    m_recorder->flush();
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
    page.resize(1200, 700);
    page.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    // The newer run on show, the older one picked: the older is run A all the same.
    page.showRun(runId(kRunCount));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(kRunCount); }));

    page.findChild<QPushButton *>(QStringLiteral("compareWithButton"))->click();
    auto *dialog = page.findChild<CompareWithDialog *>();
    ASSERT_NE(dialog, nullptr);
    auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    dialog->table()->selectRow(page.model()->rowOf(runId(kRunCount)));
    EXPECT_FALSE(ok->isEnabled()) << "a run is not compared with itself";
    dialog->table()->selectRow(page.model()->rowOf(runId(900)));
    ASSERT_TRUE(ok->isEnabled());
    ok->click();

    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->isTabShown(page.diffTab()); }));
    EXPECT_EQ(page.runView()->run().id, runId(kRunCount));
    const QString runs = page.findChild<QLabel *>(QStringLiteral("diffRuns"))->text();
    EXPECT_TRUE(runs.startsWith(QStringLiteral("Run A: ")) && runs.contains(QStringLiteral("Run B: ")));
    ASSERT_TRUE(runs.contains(runId(900)) && runs.contains(runId(kRunCount))) << runs.toStdString();
    EXPECT_LT(runs.indexOf(runId(900)), runs.indexOf(runId(kRunCount))) << "run A is the older: " << runs.toStdString();
}

TEST_F(HistoryPageTest, replayStatusWrapsBelowTheButtonsAndGoesWithTheRun)
{
    auto controller = controllerWithoutEngine();
    HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker"), QStringLiteral("podman")});
    page.resize(820, 600); // the page in a 1024 px wide window
    page.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    page.showRun(runId(998));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(998); }));
    QTest::qWait(20);
    const int tableWidth = tableOf(page)->width();

    const QString missing = QStringLiteral("a-run-that-was-removed-long-ago-").repeated(4);
    page.replay(missing, QStringLiteral("docker"));
    auto *status = page.findChild<QLabel *>(QStringLiteral("replayStatus"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return status->text().contains(missing); }));
    EXPECT_TRUE(status->isVisible());
    QTest::qWait(20);
    EXPECT_GE(tableOf(page)->width(), tableWidth) << "a long message must not squeeze the table";
    auto *backend = page.findChild<QComboBox *>(QStringLiteral("replayBackend"));
    EXPECT_GE(backend->width(), backend->minimumSizeHint().width()) << "the backend combo is not clipped";

    tableOf(page)->selectRow(page.model()->rowOf(runId(997)));
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.runView()->run().id == runId(997); }));
    EXPECT_TRUE(status->isHidden()) << "the message was about another run";
}

TEST_F(HistoryPageTest, everyColumnStaysInViewAt1024And1200PixelsWide)
{
    auto controller = controllerWithoutEngine();
    for (const int width : {820, 1000}) { // the page in a 1024 and a 1200 px wide window
        HistoryPage page(*m_feed, m_thumbnails, *controller, {QStringLiteral("docker")});
        page.resize(width, 700);
        page.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
        ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
        QTableView *table = tableOf(page);
        QHeaderView *header = table->horizontalHeader();
        const QFontMetrics metrics = table->fontMetrics();
        for (int column = 0; column < HistoryModel::ColumnCount; ++column) {
            if (table->isColumnHidden(column)) {
                continue;
            }
            SCOPED_TRACE(QStringLiteral("%1 px, column %2").arg(width).arg(column).toStdString());
            EXPECT_LE(header->sectionViewportPosition(column) + header->sectionSize(column),
                      table->viewport()->width() + 1);
            EXPECT_GE(header->sectionSize(column), metrics.horizontalAdvance(QLatin1Char('0')) * 5);
        }
        // What is elided (or shortened, as a language's name) is in the tooltip whole.
        const QModelIndex language = page.model()->index(0, HistoryModel::Language);
        EXPECT_TRUE(language.data(Qt::ToolTipRole).toString().startsWith(language.data().toString()));
        // Time, status and duration are never cut.
        for (const int column : {int(HistoryModel::Started), int(HistoryModel::Status), int(HistoryModel::Duration)}) {
            for (int row = 0; row < 20; ++row) {
                const QString shown = page.model()->index(row, column).data().toString();
                EXPECT_LE(metrics.horizontalAdvance(shown) + 8, header->sectionSize(column))
                    << width << " px: " << shown.toStdString();
            }
        }
    }
}

TEST(HistoryPageEmpty, anEmptyJournalShowsWhatToDoInsteadOfABlankTable)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}, {}});
    recorder.flush();
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    auto controller = controllerWithoutEngine();
    HistoryPage page(feed, thumbnails, *controller, {QStringLiteral("docker")});
    page.resize(1000, 600);
    page.show();

    auto *hint = page.findChild<QLabel *>(QStringLiteral("historyEmptyHint"));
    ASSERT_NE(hint, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([&] { return hint->isVisible(); }));
    EXPECT_TRUE(hint->text().contains(QStringLiteral("Console"))) << hint->text().toStdString();
    EXPECT_FALSE(tableOf(page)->isVisible());

    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("print(1)");
    recorder.runStarted(QStringLiteral("first"), request);
    RunResult result;
    result.exitCode = 0;
    recorder.runFinished(QStringLiteral("first"), result, {});
    recorder.flush();
    ASSERT_TRUE(QTest::qWaitFor([&] { return tableOf(page)->isVisible(); }));
    EXPECT_FALSE(hint->isVisible());
}

TEST(DiffView, showsTheDifferenceOfTwoChartsAndEachMode)
{
    QTemporaryDir dir;
    auto chart = [&](const QString &name, bool marked) {
        QImage image(60, 40, QImage::Format_RGB32);
        image.fill(Qt::white);
        if (marked) {
            image.setPixel(10, 20, qRgb(0, 0, 255));
        }
        JournalArtifact artifact{.name = QStringLiteral("figure_1.png"), .mimeType = QStringLiteral("image/png")};
        artifact.path = dir.filePath(name);
        EXPECT_TRUE(image.save(artifact.path, "PNG"));
        return artifact;
    };
    JournalRun original;
    original.exitCode = 0;
    original.artifacts = {chart(QStringLiteral("a.png"), false)};
    JournalRun other = original;
    other.artifacts = {chart(QStringLiteral("b.png"), true)};
    const QList<PixelComparison> images = PixelComparison::ofRuns(original.artifacts, other.artifacts);
    ASSERT_EQ(images.size(), 1);
    EXPECT_EQ(images.first().differingPixels, 1);
    DiffView view;
    view.resize(700, 500);
    view.show();

    view.setDiff(RunDiff::compare(original, other, comparePixels), original, other, DiffView::Sides::TwoRuns, images);

    EXPECT_TRUE(
        view.findChild<QLabel *>(QStringLiteral("diffSummary"))->text().contains(QStringLiteral("pixels differ")));
    auto *comparison = view.findChild<ImageComparisonView *>();
    ASSERT_NE(comparison, nullptr) << "pixels that differ are shown, not only said";
    EXPECT_TRUE(QTest::qWaitFor([&] { return comparison->isVisible(); }));
    EXPECT_EQ(comparison->mode(), ImageComparisonView::Mode::Difference);
    EXPECT_EQ(comparison->shownImage().pixel(10, 20), kDifferingPixel);
    EXPECT_NE(comparison->shownImage().pixel(11, 20), kDifferingPixel);
    EXPECT_TRUE(
        view.findChild<QLabel *>(QStringLiteral("imageComparisonCaption"))->text().contains(QStringLiteral("1 of")));
    comparison->findChild<QToolButton *>(QStringLiteral("imageSideBySide"))->click();
    EXPECT_EQ(comparison->shownImage().width(), 2 * 60 + 12);
    comparison->findChild<QToolButton *>(QStringLiteral("imageOverlay"))->click();
    EXPECT_EQ(comparison->shownImage().size(), QSize(60, 40));
    // The line diff is hidden with nothing to show, and the rest sits at the top, not spread over the height.
    EXPECT_TRUE(view.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"))->isHidden());
    auto *summary = view.findChild<QLabel *>(QStringLiteral("diffSummary"));
    auto *banner = view.findChild<QLabel *>(QStringLiteral("diffBanner"));
    EXPECT_LT(summary->geometry().top() - banner->geometry().bottom(), 80);

    // With a few changed lines in a tall view too: no gaps between the parts.
    other.stdoutData = "changed\n";
    view.resize(1400, 1600);
    view.setDiff(RunDiff::compare(original, other, comparePixels), original, other, DiffView::Sides::TwoRuns, images);
    QTest::qWait(20);
    auto *lines = view.findChild<QPlainTextEdit *>(QStringLiteral("diffLines"));
    EXPECT_FALSE(lines->isHidden());
    EXPECT_LT(summary->geometry().top() - banner->geometry().bottom(), 80);
    EXPECT_LT(lines->geometry().top() - summary->geometry().bottom(), 700) << "only the picture between them";
}

TEST(PixelComparison, picturesOfDifferentSizesDifferWhereOnlyOneHasPixels)
{
    QImage small(4, 4, QImage::Format_RGB32);
    small.fill(Qt::white);
    QImage large(6, 4, QImage::Format_ARGB32);
    large.fill(Qt::white);
    qint64 differing = 0;
    const QImage difference = differenceImage(small, large, &differing);
    EXPECT_EQ(difference.size(), QSize(6, 4));
    EXPECT_EQ(differing, 8);
    EXPECT_EQ(difference.pixel(5, 0), kDifferingPixel);
    EXPECT_NE(difference.pixel(0, 0), kDifferingPixel);
}

namespace {

/// A journal of `usual` runs that succeeded, after (newer than) one run that ended each rarer way: stopped by its
/// client after 2 min 5 s, at the CPU-time limit, refused by the code policy, its output cut.
void writeRareAndUsualRuns(const QString &path, int usual)
{
    JournalRecorder recorder(path, JournalRecorder::Context{QStringLiteral("docker"), {}, {}, {}});
    const auto record = [&](const QString &id, RunSource source, const RunResult &result,
                            const std::optional<Error> &error = std::nullopt) {
        RunRequest request;
        request.language = QStringLiteral("python");
        request.code = QStringLiteral("print('%1')").arg(id);
        request.source = source;
        recorder.runStarted(id, request);
        recorder.runFinished(id, result, error);
    };
    RunResult stopped;
    stopped.exitCode = 137;
    stopped.reason = StopReason::Cancelled;
    stopped.durationMs = 125'000;
    record(QStringLiteral("cancelled"), RunSource::Mcp, stopped);
    RunResult cpu = stopped;
    cpu.reason = StopReason::CpuLimit;
    record(QStringLiteral("cpu"), RunSource::Gui, cpu);
    record(QStringLiteral("refused"), RunSource::Cli, RunResult{},
           Error{QStringLiteral("the code policy refused: os.system"), ErrorCode::PolicyRefused});
    RunResult truncated;
    truncated.exitCode = 0;
    truncated.durationMs = 300;
    truncated.outputTruncated = true;
    record(QStringLiteral("truncated"), RunSource::Cli, truncated);
    for (int i = 0; i < usual; ++i) {
        RunResult ok;
        ok.exitCode = 0;
        ok.durationMs = 120;
        record(QStringLiteral("usual-%1").arg(i), RunSource::Gui, ok);
    }
    recorder.flush();
}

} // namespace

// Item 8: the status column is as wide as the longest status of every run loaded, the rare ones further down and a
// run whose status changed too ("Cancelled after 2 min 5 s", not "Cancelled af…"), at 1024 and 1920 px.
TEST(HistoryPageLayout, theStatusColumnFitsEveryLoadedRunsStatusRareOnesToo)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    writeRareAndUsualRuns(path, 150);
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    auto controller = controllerWithoutEngine();
    for (const int width : {820, 1720}) { // the page in a 1024 and a 1920 px wide window
        HistoryPage page(feed, thumbnails, *controller, {QStringLiteral("docker")});
        page.resize(width, 700);
        page.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
        ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
        while (page.model()->canFetchMore({}) || page.model()->isFetching()) {
            page.model()->fetchMore({});
            feed.waitForIdle();
            QCoreApplication::processEvents();
        }
        ASSERT_EQ(page.model()->rowCount(), 154);
        QTableView *table = tableOf(page);
        const int status = table->horizontalHeader()->sectionSize(HistoryModel::Status);
        for (int row = 0; row < page.model()->rowCount(); ++row) {
            const QString shown = page.model()->index(row, HistoryModel::Status).data().toString();
            EXPECT_LE(table->fontMetrics().horizontalAdvance(shown) + 8, status)
                << width << " px: " << qPrintable(shown);
        }
    }
}

// Item 8: History's Result column was empty for nearly every run (it said something only for a run that could not
// start or whose output was cut, both of which the status and its tooltip say): it is gone, and the tooltip of the
// status has what it said.
TEST(HistoryPageLayout, theStatusSaysWhatTheResultColumnDidAndTheColumnIsGone)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    writeRareAndUsualRuns(path, 3);
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    auto controller = controllerWithoutEngine();
    HistoryPage page(feed, thumbnails, *controller, {QStringLiteral("docker")});
    page.resize(1720, 900);
    page.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() == 7; }));
    EXPECT_TRUE(tableOf(page)->isColumnHidden(HistoryModel::Outcome));
    const auto statusTip = [&](const QString &id) {
        // As plain text: the tooltip is the text with its spaces kept (no-break spaces).
        return page.model()
            ->index(page.model()->rowOf(id), HistoryModel::Status)
            .data(Qt::ToolTipRole)
            .toString()
            .replace(QChar(0x00A0), QLatin1Char(' '));
    };
    EXPECT_TRUE(statusTip(QStringLiteral("refused")).contains(QStringLiteral("the code policy refused: os.system")))
        << qPrintable(statusTip(QStringLiteral("refused")));
    EXPECT_TRUE(statusTip(QStringLiteral("truncated")).contains(QStringLiteral("output truncated")))
        << qPrintable(statusTip(QStringLiteral("truncated")));
}

// Item 8: the run is shown beside the table where the page has room for both (a 1920 px window), under it where it
// has not (1024 px), switching as the window is resized, also after a split saved in the other orientation.
TEST(HistoryPageLayout, theRunIsBesideTheTableWhenThereIsRoomAndUnderItWhenNarrow)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    writeRareAndUsualRuns(path, 20);
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    auto controller = controllerWithoutEngine();
    QByteArray saved;
    {
        HistoryPage page(feed, thumbnails, *controller, {QStringLiteral("docker")});
        page.resize(820, 700);
        page.show();
        ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
        auto *splitter = page.findChild<QSplitter *>(QStringLiteral("historySplitter"));
        ASSERT_NE(splitter, nullptr);
        EXPECT_EQ(splitter->orientation(), Qt::Vertical) << "820 px";
        page.resize(1720, 1000);
        QCoreApplication::processEvents();
        EXPECT_EQ(splitter->orientation(), Qt::Horizontal) << "1720 px";
        page.resize(820, 700);
        QCoreApplication::processEvents();
        EXPECT_EQ(splitter->orientation(), Qt::Vertical) << "820 px again";
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        page.saveState(settings);
    }
    // A window opened at 1920 px with the split a 1024 px window saved.
    HistoryPage page(feed, thumbnails, *controller, {QStringLiteral("docker")});
    page.restoreState(QSettings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
    page.resize(1720, 1000);
    page.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() > 0; }));
    QCoreApplication::processEvents();
    auto *splitter = page.findChild<QSplitter *>(QStringLiteral("historySplitter"));
    EXPECT_EQ(splitter->orientation(), Qt::Horizontal) << "1720 px after a 1024 px window's split";
    // Beside it, the table has every column at least as wide as it wants.
    EXPECT_GE(tableOf(page)->width(), static_cast<RunTableView *>(tableOf(page))->preferredColumnsWidth());
}
