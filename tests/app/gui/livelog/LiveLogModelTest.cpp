#include "gui/livelog/LiveLogModel.h"

#include "gui/RunText.h"
#include "gui/livelog/LiveLogFilterModel.h"

#include <QAbstractItemModelTester>
#include <QTextDocument>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

JournalRun run(const QString &id, const QString &source, int secondsAgo, RunStatus status = RunStatus::Finished)
{
    JournalRun result;
    result.id = id;
    result.source = runSourceFromString(source);
    result.language = QStringLiteral("python");
    result.startedAt = QDateTime::currentDateTimeUtc().addSecs(-secondsAgo);
    result.status = status;
    if (status == RunStatus::Finished) {
        result.exitCode = 0;
        result.stopReason = StopReason::Exited;
        result.durationMs = 1500;
    }
    return result;
}

} // namespace

TEST(LiveLogModel, showsNewestRunsFirstAndUpdatesARunInPlace)
{
    LiveLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.merge(
        {run(QStringLiteral("a"), QStringLiteral("cli"), 30), run(QStringLiteral("b"), QStringLiteral("gui"), 10)});
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, 0).data(LiveLogModel::RunIdRole).toString(), QStringLiteral("b"));

    JournalRun running = run(QStringLiteral("c"), QStringLiteral("mcp"), 1, RunStatus::Running);
    running.clientName = QStringLiteral("claude-ai");
    model.merge({running});
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(0, LiveLogModel::Status).data().toString(), QStringLiteral("Running"));
    EXPECT_EQ(model.index(0, LiveLogModel::Source).data().toString(), QStringLiteral("MCP · claude-ai"));

    JournalRun finished = running;
    finished.status = RunStatus::Finished;
    finished.exitCode = 3;
    finished.stopReason = StopReason::TimedOut;
    finished.durationMs = 30000;
    model.merge({finished});
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(0, LiveLogModel::Status).data().toString(), QStringLiteral("Timed out after 30.0 s"));
    EXPECT_EQ(model.index(0, LiveLogModel::Outcome).data().toString(), QString());
    EXPECT_EQ(model.index(0, LiveLogModel::Duration).data().toString(), QStringLiteral("30.0 s"));
}

TEST(LiveLogModel, keepsOnlyTheNewestRowsWhenFull)
{
    LiveLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setMaximumRows(2);
    model.merge({run(QStringLiteral("old"), QStringLiteral("cli"), 300),
                 run(QStringLiteral("mid"), QStringLiteral("cli"), 200)});
    model.merge({run(QStringLiteral("new"), QStringLiteral("cli"), 100)});
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.rowOf(QStringLiteral("old")), -1);
    EXPECT_EQ(model.rowOf(QStringLiteral("new")), 0);
}

TEST(LiveLogFilterModel, filtersBySourceAndText)
{
    LiveLogModel model;
    LiveLogFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    JournalRun ruby = run(QStringLiteral("r1"), QStringLiteral("mcp"), 5);
    ruby.language = QStringLiteral("ruby");
    model.merge({run(QStringLiteral("p1"), QStringLiteral("gui"), 10), ruby,
                 run(QStringLiteral("p2"), QStringLiteral("mcp"), 1)});

    filter.setSources({RunSource::Mcp});
    EXPECT_EQ(filter.rowCount(), 2);
    filter.setText(QStringLiteral("RUBY"));
    ASSERT_EQ(filter.rowCount(), 1);
    EXPECT_EQ(filter.index(0, 0).data(LiveLogModel::RunIdRole).toString(), QStringLiteral("r1"));
    filter.setSources({});
    filter.setText({});
    EXPECT_EQ(filter.rowCount(), 3);
}

TEST(LiveLogModel, aSandboxsMarkupInAnErrorIsShownAsTextNeverRendered)
{
    // Issue 44, item 11: a run's error ends with up to 2,000 bytes of a package's install output; Qt rendered a
    // tooltip that looked like markup as rich text, so `<img src=...>` drew a host file into it.
    const QString error = QStringLiteral("pip failed: <img src='/usr/share/pixmaps/debian-logo.png'><b>bold</b> & co");
    JournalRun failed = run(QStringLiteral("f"), QStringLiteral("mcp"), 1, RunStatus::Failed);
    failed.error = error;
    failed.clientName = QStringLiteral("<i>client</i>");
    failed.clientVersion = QStringLiteral("1.0");
    LiveLogModel model;
    model.merge({failed});
    for (const int column : {int(LiveLogModel::Outcome), int(LiveLogModel::Source)}) {
        const QString tooltip = model.index(0, column).data(Qt::ToolTipRole).toString();
        // What a tooltip does with it: rich text when it looks like markup, plain otherwise.
        QTextDocument shown;
        if (Qt::mightBeRichText(tooltip)) {
            shown.setHtml(tooltip);
        } else {
            shown.setPlainText(tooltip);
        }
        const QString expected = column == LiveLogModel::Outcome
                                     ? error
                                     : QStringLiteral("<i>client</i> 1.0 via ") + runSourceText(RunSource::Mcp);
        EXPECT_EQ(shown.toPlainText().trimmed(), expected) << tooltip.toStdString();
    }
}
