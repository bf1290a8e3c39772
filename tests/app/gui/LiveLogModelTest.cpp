#include "gui/livelog/LiveLogModel.h"

#include "gui/livelog/LiveLogFilterModel.h"

#include <QAbstractItemModelTester>
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
