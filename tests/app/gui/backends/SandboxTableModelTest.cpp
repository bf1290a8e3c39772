// The Backends page's sandboxes (issue 37, item 7): which sandbox runs a run (the engine tells the journal the
// container of each run, so every process's runs are found), which are warm, which keep a session, and the owner
// process by name.
#include "gui/backends/SandboxTableModel.h"

#include "engine/ExecutionEngine.h"
#include "fakes/FakeBackend.h"
#include "gui/widgets/SelectionKeeper.h"
#include "journal/JournalReader.h"
#include "journal/JournalRecorder.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QTableView>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

/// Remembers the container the engine named for each run.
class ContainerObserver final : public RunObserver
{
public:
    void runContainer(const QString &runId, const QString &containerId) override
    {
        std::lock_guard lock(m_mutex);
        m_containers.insert(runId, containerId);
    }
    QHash<QString, QString> containers() const
    {
        std::lock_guard lock(m_mutex);
        return m_containers;
    }

private:
    mutable std::mutex m_mutex;
    QHash<QString, QString> m_containers;
};

SandboxEntry sandboxOf(const QString &id, const QString &session = {})
{
    SandboxEntry entry;
    entry.container.id = id;
    entry.container.created = QDateTime::currentDateTimeUtc();
    entry.language = QStringLiteral("python");
    entry.session = session;
    entry.ownerPid = QCoreApplication::applicationPid();
    entry.ownerName = SandboxInventory::processName(entry.ownerPid);
    return entry;
}

} // namespace

TEST(SandboxTableModelTest, theEngineNamesTheContainerARunExecutesIn)
{
    auto backend = std::make_shared<test::FakeBackend>();
    backend->setScript("print(1)", test::FakeRunScript::printing("1\n"));
    ExecutionEngine engine(backend, SandboxSettings{});
    ContainerObserver observer;
    const Subscription subscription = engine.subscribe(&observer);
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("print(1)");
    request.timeout = std::chrono::seconds(30);
    const Result<RunResult> result = engine.run(request);
    ASSERT_TRUE(result.ok()) << qPrintable(result.error().message);
    const QHash<QString, QString> containers = observer.containers();
    ASSERT_TRUE(containers.contains(result->runId));
    EXPECT_FALSE(containers.value(result->runId).isEmpty());
}

TEST(SandboxTableModelTest, theJournalKnowsWhichContainerRunsWhichRunWhileItRuns)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    JournalRecorder recorder(path, JournalRecorder::Context{.backend = QStringLiteral("docker")});
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("print(1)");
    request.clientName = QStringLiteral("claude-ai");
    recorder.runStarted(QStringLiteral("run-1"), request);
    recorder.runContainer(QStringLiteral("run-1"), QStringLiteral("container-a"));
    recorder.runStarted(QStringLiteral("run-2"), request); // still starting its container
    recorder.flush();
    Result<QHash<QString, JournalRun>> running = JournalReader(path).runningByContainer();
    ASSERT_TRUE(running.ok()) << qPrintable(running.error().message);
    ASSERT_EQ(running->size(), 1);
    EXPECT_EQ(running->value(QStringLiteral("container-a")).id, QStringLiteral("run-1"));
    EXPECT_EQ(running->value(QStringLiteral("container-a")).clientName, QStringLiteral("claude-ai"));

    RunResult result;
    result.runId = QStringLiteral("run-1");
    recorder.runFinished(QStringLiteral("run-1"), result, std::nullopt);
    recorder.flush();
    running = JournalReader(path).runningByContainer();
    ASSERT_TRUE(running.ok());
    EXPECT_TRUE(running->isEmpty()) << "a finished run's container is warm again";
}

TEST(SandboxTableModelTest, aBusySandboxReadsAsRunningWithItsRunAndTheOwnerByName)
{
    SandboxTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    JournalRun run;
    run.id = QStringLiteral("run-1");
    run.source = RunSource::Mcp;
    run.clientName = QStringLiteral("claude-ai");
    run.startedAt = QDateTime::currentDateTimeUtc();
    model.setSandboxes({sandboxOf(QStringLiteral("busy")), sandboxOf(QStringLiteral("warm")),
                        sandboxOf(QStringLiteral("kept"), QStringLiteral("session-1"))},
                       {{QStringLiteral("busy"), run}});
    const auto text = [&](int row, int column) {
        return model.index(row, column).data().toString();
    };
    EXPECT_TRUE(text(0, SandboxTableModel::StateColumn).startsWith(QLatin1String("Running a run")))
        << qPrintable(text(0, SandboxTableModel::StateColumn));
    EXPECT_TRUE(text(0, SandboxTableModel::StateColumn).contains(QLatin1String("claude-ai")));
    EXPECT_EQ(model.index(0, 0).data(SandboxTableModel::RunIdRole).toString(), QStringLiteral("run-1"));
    EXPECT_EQ(text(1, SandboxTableModel::StateColumn), QStringLiteral("Warm, idle"));
    EXPECT_TRUE(model.index(1, 0).data(SandboxTableModel::RunIdRole).toString().isEmpty());
    EXPECT_EQ(text(2, SandboxTableModel::StateColumn), QStringLiteral("Session, idle"));

    // This test's own process, by its name.
    const QString owner = text(0, SandboxTableModel::OwnerColumn);
    EXPECT_TRUE(owner.startsWith(QLatin1String("gui_logic_tests"))) << qPrintable(owner);
    EXPECT_TRUE(owner.endsWith(QStringLiteral("(pid %1)").arg(QCoreApplication::applicationPid())))
        << qPrintable(owner);

    // The run ended: the sandbox is warm again.
    model.setSandboxes(model.sandboxes(), {});
    EXPECT_EQ(text(0, SandboxTableModel::StateColumn), QStringLiteral("Warm, idle"));
}

TEST(SandboxTableModelTest, aSelectionStaysWithItsSandboxAcrossRefreshesAndGoesWithIt)
{
    // Issue 46, item 3: after a refresh the highlight moved by row onto another process's sandbox. The Backends
    // page's tables keep their selection with setModelKeepingSelection (BackendPanel::makeTable).
    SandboxTableModel model;
    QTableView view;
    view.setSelectionBehavior(QAbstractItemView::SelectRows);
    view.setSelectionMode(QAbstractItemView::SingleSelection);
    setModelKeepingSelection(&view, &model);
    model.setSandboxes(
        {sandboxOf(QStringLiteral("a")), sandboxOf(QStringLiteral("b")), sandboxOf(QStringLiteral("c"))});
    view.selectRow(1);
    const auto selected = [&view] {
        QStringList ids;
        for (const QModelIndex &row : view.selectionModel()->selectedRows()) {
            ids << row.data(Qt::UserRole).toString();
        }
        return ids;
    };
    ASSERT_EQ(selected(), QStringList{QStringLiteral("b")});

    // Another sandbox before it goes, a new one comes: still b.
    model.setSandboxes(
        {sandboxOf(QStringLiteral("b")), sandboxOf(QStringLiteral("c")), sandboxOf(QStringLiteral("d"))});
    EXPECT_EQ(selected(), QStringList{QStringLiteral("b")});
    // b goes: nothing is selected, not the sandbox that took its row.
    model.setSandboxes({sandboxOf(QStringLiteral("c")), sandboxOf(QStringLiteral("d"))});
    EXPECT_EQ(selected(), QStringList());
    EXPECT_FALSE(view.selectionModel()->currentIndex().isValid());
}
