#include "journal/JournalFeed.h"

#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

/// A run written by a separate process (journal-writer-tool's stream mode): every line sent is committed as stdout
/// before the tool answers "ok".
class StreamingWriter final
{
public:
    explicit StreamingWriter(const QString &path, const QString &runId)
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral(JOURNAL_WRITER_TOOL), {path, QStringLiteral("stream"), runId});
        expectOk();
    }
    ~StreamingWriter() { m_process.waitForFinished(30000); }
    void write(const QByteArray &line)
    {
        m_process.write(line);
        expectOk();
    }
    void end() { m_process.write("end\n"); }
    void expectOk()
    {
        const QDeadlineTimer deadline(30s);
        while (!m_process.canReadLine() && !deadline.hasExpired() && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(100);
        }
        ASSERT_EQ(m_process.readLine().trimmed(), QByteArray("ok"));
    }
    bool waitForFinished() { return m_process.waitForFinished(30000) && m_process.exitCode() == 0; }

private:
    QProcess m_process;
};

class JournalFeedTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        ASSERT_TRUE(RunJournal::open(path()));
    }
    QString path() const { return m_dir.filePath(QStringLiteral("journal.sqlite")); }

    QTemporaryDir m_dir;
};

} // namespace

TEST_F(JournalFeedTest, handsAFollowerOnlyTheOutputAnotherProcessAppended)
{
    JournalFeed feed(path(), 10ms);
    QStringList changedRuns;
    QObject::connect(&feed, &JournalFeed::runsChanged, &feed, [&](const QList<JournalRun> &runs) {
        for (const JournalRun &run : runs) {
            changedRuns << run.id;
        }
    });
    feed.waitForIdle();

    StreamingWriter writer(path(), QStringLiteral("streamed"));
    writer.write("first line\n");
    feed.waitForIdle();
    EXPECT_TRUE(changedRuns.contains(QStringLiteral("streamed"))) << "a run another process started is reported";

    QList<JournalRunUpdate> updates;
    QObject parent;
    RunFollower *follower = feed.follow(QStringLiteral("streamed"), &parent);
    QObject::connect(follower, &RunFollower::updated, &parent,
                     [&](const JournalRunUpdate &update) { updates.append(update); });
    feed.waitForIdle();
    ASSERT_EQ(updates.size(), 1);
    EXPECT_TRUE(updates[0].whole);
    EXPECT_EQ(updates[0].run.stdoutData, QByteArray("first line\n"));
    EXPECT_EQ(updates[0].run.status, RunStatus::Running);

    writer.write("second line\n");
    feed.waitForIdle();
    ASSERT_EQ(updates.size(), 2);
    EXPECT_FALSE(updates[1].whole);
    EXPECT_EQ(updates[1].stdoutAdded, QByteArray("second line\n")) << "only what was appended, not the run again";
    EXPECT_TRUE(updates[1].run.stdoutData.isEmpty());
    EXPECT_EQ(updates[1].stdoutBytes, qint64(strlen("first line\nsecond line\n")));

    writer.write("third\n");
    writer.write("fourth\n");
    feed.waitForIdle();
    QByteArray appended;
    for (qsizetype i = 2; i < updates.size(); ++i) {
        appended += updates[i].stdoutAdded;
    }
    EXPECT_EQ(appended, QByteArray("third\nfourth\n"));

    writer.end();
    ASSERT_TRUE(writer.waitForFinished());
    feed.waitForIdle();
    EXPECT_EQ(updates.last().run.status, RunStatus::Finished) << "the run's end is handed on";
    EXPECT_EQ(updates.last().run.exitCode, 0);
    EXPECT_TRUE(updates.last().stdoutAdded.isEmpty());

    // A follower that is gone gets nothing more, and a new one starts from the whole run.
    const qsizetype before = updates.size();
    delete follower;
    QList<JournalRunUpdate> later;
    RunFollower *again = feed.follow(QStringLiteral("streamed"), &parent);
    QObject::connect(again, &RunFollower::updated, &parent,
                     [&](const JournalRunUpdate &update) { later.append(update); });
    feed.waitForIdle();
    EXPECT_EQ(updates.size(), before);
    ASSERT_EQ(later.size(), 1);
    EXPECT_TRUE(later[0].whole);
    EXPECT_EQ(later[0].run.stdoutData, QByteArray("first line\nsecond line\nthird\nfourth\n"));
}

TEST_F(JournalFeedTest, readsOffTheThreadThatAsksAndAnswersOnIt)
{
    JournalRecorder recorder(path(), JournalRecorder::Context{});
    RunRequest request;
    request.code = QStringLiteral("print(1)");
    recorder.runStarted(QStringLiteral("one"), request);
    recorder.flush();

    JournalFeed feed(path());
    QThread *readOn = nullptr;
    QThread *answeredOn = nullptr;
    int count = -1;
    QObject context;
    feed.read<int>(
        &context,
        [&](const JournalReader &reader) {
            readOn = QThread::currentThread();
            const Result<int> counted = reader.count(RunFilter{});
            return counted ? *counted : -1;
        },
        [&](int counted) {
            answeredOn = QThread::currentThread();
            count = counted;
        });
    feed.waitForIdle();
    EXPECT_EQ(count, 1);
    EXPECT_NE(readOn, QThread::currentThread());
    EXPECT_EQ(answeredOn, QThread::currentThread());

    // An answer for a context that is gone is dropped.
    bool called = false;
    {
        QObject gone;
        feed.read<int>(
            &gone, [](const JournalReader &) { return 0; }, [&](int) { called = true; });
    }
    feed.waitForIdle();
    EXPECT_FALSE(called);
}

TEST_F(JournalFeedTest, aJournalThatIsOffFeedsNothing)
{
    JournalFeed feed(QString{});
    EXPECT_TRUE(feed.isOff());
    bool called = false;
    QObject context;
    feed.read<int>(
        &context, [](const JournalReader &) { return 0; }, [&](int) { called = true; });
    feed.waitForIdle();
    EXPECT_FALSE(called);
}

TEST_F(JournalFeedTest, anMcpCallsReplyRecordedAfterItsEndReachesTheFollower)
{
    // The engine reports the end first; the MCP layer records the call and the reply once the handler returns.
    JournalRecorder recorder(path(), JournalRecorder::Context{QStringLiteral("docker"), {}, {}, {}});
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("print(1)");
    request.source = RunSource::Mcp;
    recorder.runStarted(QStringLiteral("call"), request);
    RunResult result;
    result.exitCode = 0;
    recorder.runFinished(QStringLiteral("call"), result, {});
    recorder.flush();

    JournalFeed feed(path(), 10ms);
    QObject parent;
    QList<JournalRunUpdate> updates;
    RunFollower *follower = feed.follow(QStringLiteral("call"), &parent);
    QObject::connect(follower, &RunFollower::updated, &parent,
                     [&](const JournalRunUpdate &update) { updates << update; });
    feed.waitForIdle();
    ASSERT_EQ(updates.size(), 1);
    EXPECT_TRUE(updates.first().run.mcpResponse.isEmpty());

    recorder.recordExchange(QStringLiteral("call"),
                            QJsonObject{{QStringLiteral("method"), QStringLiteral("tools/call")}},
                            QJsonObject{{QStringLiteral("result"), QJsonObject{}}}, QStringLiteral("2025-06-18"));
    recorder.flush();
    const QDeadlineTimer deadline(10s);
    while (!deadline.hasExpired() && (updates.size() < 2 || !updates.last().hasExchange)) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        feed.waitForIdle();
    }
    ASSERT_GE(updates.size(), 2);
    EXPECT_TRUE(updates.last().hasExchange);
    EXPECT_TRUE(updates.last().run.mcpResponse.contains(QStringLiteral("result")));
}
