#include "gui/widgets/RunTableView.h"

#include "gui/RunText.h"
#include "gui/livelog/LiveLogModel.h"

#include <QHeaderView>
#include <QStyle>
#include <QTest>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

JournalRun timedOut(const QString &id)
{
    JournalRun run;
    run.id = id;
    run.source = RunSource::Mcp;
    run.clientName = QStringLiteral("an assistant with a long name");
    run.language = QStringLiteral("javascript");
    run.startedAt = QDateTime::currentDateTimeUtc();
    run.status = RunStatus::Finished;
    run.exitCode = 137;
    run.stopReason = StopReason::TimedOut;
    run.timeoutMs = 30'000;
    run.durationMs = 30'120;
    return run;
}

int columnsWidth(const RunTableView &view)
{
    int sum = 0;
    for (int column = 0; column < view.model()->columnCount(); ++column) {
        sum += view.columnWidth(column);
    }
    return sum;
}

} // namespace

TEST(RunTableView, fitsItsWidthWithTheStatusWholeAndKeepsAColumnTheUserDragged)
{
    LiveLogModel model;
    RunTableView view(LiveLogModel::Outcome);
    view.setModel(&model);
    model.merge({timedOut(QStringLiteral("a"))});
    view.resize(900, 300);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));

    // Every column in view, the result taking what the others leave.
    EXPECT_EQ(columnsWidth(view), view.viewport()->width());
    // The status is never cut: its text and the dot before it.
    const int dot = view.style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, &view);
    EXPECT_GE(view.columnWidth(LiveLogModel::Status),
              view.fontMetrics().horizontalAdvance(runStatusText(model.runAt(0))) + dot);
    EXPECT_GT(view.columnWidth(LiveLogModel::Outcome), view.columnWidth(LiveLogModel::Status));

    // Narrower: the source gives way, the status does not.
    const int status = view.columnWidth(LiveLogModel::Status);
    const int source = view.columnWidth(LiveLogModel::Source);
    view.resize(560, 300);
    QCoreApplication::processEvents();
    EXPECT_EQ(view.columnWidth(LiveLogModel::Status), status);
    EXPECT_LT(view.columnWidth(LiveLogModel::Source), source);

    // A column the user dragged keeps its width when the table is resized; the result still takes the rest.
    view.horizontalHeader()->resizeSection(LiveLogModel::Language, 150);
    view.resize(1000, 300);
    QCoreApplication::processEvents();
    EXPECT_EQ(view.columnWidth(LiveLogModel::Language), 150);
    EXPECT_EQ(columnsWidth(view), view.viewport()->width());
}
