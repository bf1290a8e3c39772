// The run journal taken away from a running `llm-sandbox --mcp`: its disk full (a small tmpfs as its folder), its
// file locked by another program, its file damaged. Runs still execute and return their results; the failure is said
// once on stderr, not per run; nothing already in the journal is lost; and once the journal can be written again the
// runs it missed are in it.
#include "BackendTestSupport.h"
#include "McpServerProcess.h"
#include "journal/JournalReader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

constexpr QLatin1StringView kCannotWrite("cannot be written");
constexpr QLatin1StringView kWrittenAgain("is written again");

class JournalFaultTest : public ::testing::TestWithParam<std::string>
{
protected:
    /// Runs print(`word`) through `server` and checks that its result came back.
    static void expectRunPrints(test::ServerProcess &server, int id, const QString &word)
    {
        const QJsonObject answer = server.execute(id, QStringLiteral("print('%1')").arg(word));
        EXPECT_FALSE(answer.value("result").toObject().value("isError").toBool(true))
            << QJsonDocument(answer).toJson().toStdString();
        EXPECT_TRUE(test::toolText(answer).contains(word)) << test::toolText(answer).toStdString();
    }
    /// A copy of the journal in folder `from` (SQLite resolves /proc/PID/root to this process's own root, so the
    /// server's tmpfs is read from a copy), valid until the next call.
    QString copyOf(const QString &from)
    {
        for (const char *suffix : {"", "-wal", "-shm"}) {
            const QString name = QStringLiteral("journal.sqlite") + QLatin1String(suffix);
            QFile::remove(m_copies.filePath(name));
            QFile::copy(from + QLatin1Char('/') + name, m_copies.filePath(name));
        }
        return m_copies.filePath(QStringLiteral("journal.sqlite"));
    }
    /// The stdout of the journal's finished runs, oldest first.
    static QStringList recordedOutputs(const QString &journalPath)
    {
        const JournalReader journal(journalPath);
        RunFilter finished;
        finished.status = RunStatus::Finished;
        const auto runs = journal.list(finished, 0, 100);
        QStringList outputs;
        if (!runs) {
            return outputs;
        }
        for (const JournalRun &run : *runs) {
            if (auto full = journal.run(run.id)) {
                outputs.prepend(QString::fromUtf8(full->stdoutData).trimmed());
            }
        }
        return outputs;
    }

    /// The options of a server whose journal is in `data`, a tmpfs of `size` ("4m") of the server's own (a mount
    /// namespace: no root needed); the test reaches it through /proc/PID/root.
    test::ServerOptions onTmpfs(const QString &data, const QString &size) const
    {
        return {.backend = QString::fromStdString(GetParam()),
                .journal = data + QStringLiteral("/journal.sqlite"),
                .wrapper = {QStringLiteral("unshare"), QStringLiteral("--user"), QStringLiteral("--map-root-user"),
                            QStringLiteral("--mount"), QStringLiteral("sh"), QStringLiteral("-c"),
                            QStringLiteral("mount -t tmpfs -o size=%1 tmpfs \"$0\" && exec \"$@\"").arg(size), data}};
    }
    /// Fills the disk of folder `seen` with a file `filler` in blocks of `blockBytes`.
    static void fill(const QString &seen, qsizetype blockBytes)
    {
        QFile filler(seen + QStringLiteral("/filler"));
        ASSERT_TRUE(filler.open(QIODevice::WriteOnly)) << filler.errorString().toStdString();
        const QByteArray block(blockBytes, 'x');
        while (filler.write(block) == block.size() && filler.flush()) {
        }
    }

private:
    QTemporaryDir m_copies;
};

} // namespace

TEST_P(JournalFaultTest, aFullDiskLosesNoRunAndIsSaidOnce)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString data = folder.filePath(QStringLiteral("data"));
    ASSERT_TRUE(QDir().mkpath(data));
    test::StdioServer server(onTmpfs(data, QStringLiteral("4m")));
    ASSERT_TRUE(server.process().waitForStarted());
    ASSERT_TRUE(server.call(1, "initialize", test::kInitialize).contains("result"))
        << server.stderrText().toStdString();
    const QString seen = QStringLiteral("/proc/%1/root%2").arg(server.process().processId()).arg(data);
    const auto recorded = [&] {
        return recordedOutputs(copyOf(seen));
    };
    expectRunPrints(server, 2, QStringLiteral("before"));
    ASSERT_TRUE(test::waitUntil([&] { return recorded() == QStringList{"before"}; }, 30s, 100ms))
        << recorded().join(' ').toStdString();

    // The disk fills up.
    ASSERT_NO_FATAL_FAILURE(fill(seen, 64 * 1024));

    for (int i = 0; i < 3; ++i) {
        expectRunPrints(server, 10 + i, QStringLiteral("during-%1").arg(i));
    }
    EXPECT_TRUE(test::waitUntil([&] { return server.stderrText().contains(kCannotWrite); }, 30s, 100ms))
        << server.stderrText().toStdString();
    EXPECT_EQ(server.stderrText().count(kCannotWrite), 1) << server.stderrText().toStdString();

    // Space comes back: the runs it missed go in, after the one it had.
    ASSERT_TRUE(QFile::remove(seen + QStringLiteral("/filler")));
    expectRunPrints(server, 20, QStringLiteral("after"));
    EXPECT_TRUE(test::waitUntil(
        [&] {
            return recorded() == QStringList{"before", "during-0", "during-1", "during-2", "after"};
        },
        30s, 200ms))
        << recorded().join(' ').toStdString();
    EXPECT_TRUE(test::waitUntil([&] { return server.stderrText().contains(kWrittenAgain); }, 30s, 100ms));
    EXPECT_EQ(server.stderrText().count(kWrittenAgain), 1) << server.stderrText().toStdString();
    EXPECT_EQ(server.stderrText().count(kCannotWrite), 1) << server.stderrText().toStdString();

    server.process().closeWriteChannel();
    EXPECT_TRUE(server.process().waitForFinished(60000));
    EXPECT_EQ(server.process().exitCode(), 0) << server.stderrText().toStdString();
}

TEST_P(JournalFaultTest, aBacklogBeyondWhatIsKeptLosesWholeRunsAndTheJournalRecovers)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString data = folder.filePath(QStringLiteral("data"));
    ASSERT_TRUE(QDir().mkpath(data));
    // Room for what is kept (16 MiB) once the filler goes.
    test::StdioServer server(onTmpfs(data, QStringLiteral("64m")));
    ASSERT_TRUE(server.process().waitForStarted());
    ASSERT_TRUE(server.call(1, "initialize", test::kInitialize).contains("result"))
        << server.stderrText().toStdString();
    const QString seen = QStringLiteral("/proc/%1/root%2").arg(server.process().processId()).arg(data);
    // The first line of each finished run's output, oldest first.
    const auto recorded = [&] {
        QStringList firstLines;
        for (const QString &output : recordedOutputs(copyOf(seen))) {
            firstLines << output.section(QLatin1Char('\n'), 0, 0);
        }
        return firstLines;
    };
    expectRunPrints(server, 2, QStringLiteral("before"));
    ASSERT_TRUE(test::waitUntil([&] { return recorded() == QStringList{"before"}; }, 30s, 100ms))
        << recorded().join(' ').toStdString();

    ASSERT_NO_FATAL_FAILURE(fill(seen, 1024 * 1024));

    // Eight runs of 1 MiB of output each (and their replies, which carry it again): more than the 16 MiB kept.
    for (int i = 0; i < 8; ++i) {
        const QJsonObject answer =
            server.execute(10 + i, QStringLiteral("print('during-%1'); print('y' * 1000000)").arg(i));
        ASSERT_FALSE(answer.value("result").toObject().value("isError").toBool(true))
            << QJsonDocument(answer).toJson().left(2000).toStdString();
    }
    EXPECT_TRUE(test::waitUntil([&] { return server.stderrText().contains(kCannotWrite); }, 30s, 100ms))
        << server.stderrText().toStdString();

    ASSERT_TRUE(QFile::remove(seen + QStringLiteral("/filler")));
    expectRunPrints(server, 20, QStringLiteral("after"));
    EXPECT_TRUE(test::waitUntil([&] { return server.stderrText().contains(kWrittenAgain); }, 30s, 100ms))
        << server.stderrText().right(3000).toStdString();
    ASSERT_TRUE(test::waitUntil([&] { return recorded().endsWith(QStringLiteral("after")); }, 30s, 200ms))
        << recorded().join(' ').toStdString();
    // What was lost is the oldest runs, whole: the rest are in order, each with all its output.
    const QStringList runs = recorded();
    ASSERT_GE(runs.size(), 3) << runs.join(' ').toStdString();
    ASSERT_LT(runs.size(), 10) << "nothing was lost: the test kept too little back";
    const int kept = int(runs.size()) - 2;
    for (int i = 0; i < kept; ++i) {
        EXPECT_EQ(runs[1 + i], QStringLiteral("during-%1").arg(8 - kept + i)) << runs.join(' ').toStdString();
    }
    EXPECT_EQ(runs.first(), QStringLiteral("before"));
    for (const QString &output : recordedOutputs(copyOf(seen))) {
        if (output.startsWith(QStringLiteral("during-"))) {
            EXPECT_EQ(output.size(), QStringLiteral("during-0\n").size() + 1000000);
        }
    }
    EXPECT_TRUE(server.stderrText().contains(QStringLiteral("except the %1 oldest").arg(8 - kept)))
        << server.stderrText().right(3000).toStdString();

    server.process().closeWriteChannel();
    EXPECT_TRUE(server.process().waitForFinished(60000));
    EXPECT_EQ(server.process().exitCode(), 0) << server.stderrText().right(3000).toStdString();
}

TEST_P(JournalFaultTest, aJournalLockedByAnotherProgramCatchesUpWhenReleased)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString journal = folder.filePath(QStringLiteral("journal.sqlite"));
    test::StdioServer server({.backend = QString::fromStdString(GetParam()), .journal = journal});
    ASSERT_TRUE(server.process().waitForStarted());
    ASSERT_TRUE(server.call(1, "initialize", test::kInitialize).contains("result"))
        << server.stderrText().toStdString();
    expectRunPrints(server, 2, QStringLiteral("before"));
    ASSERT_TRUE(test::waitUntil([&] { return recordedOutputs(journal) == QStringList{"before"}; }, 30s, 100ms))
        << recordedOutputs(journal).join(' ').toStdString();

    {
        // Another program holds the write lock (sqlite3's BEGIN EXCLUSIVE) while two runs go, until told to let go.
        QProcess other;
        other.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        other.start(QStringLiteral("python3"),
                    {QStringLiteral("-c"),
                     QStringLiteral("import sqlite3, sys\n"
                                    "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                                    "db.execute('BEGIN EXCLUSIVE')\n"
                                    "print('locked', flush=True)\n"
                                    "sys.stdin.readline()\n"
                                    "db.execute('ROLLBACK')\n"),
                     journal});
        ASSERT_TRUE(other.waitForReadyRead(30000));
        ASSERT_EQ(other.readLine().trimmed(), "locked");
        for (int i = 0; i < 2; ++i) {
            expectRunPrints(server, 10 + i, QStringLiteral("during-%1").arg(i));
        }
        EXPECT_TRUE(test::waitUntil([&] { return server.stderrText().contains(kCannotWrite); }, 90s, 100ms))
            << server.stderrText().toStdString();
        other.write("\n");
        EXPECT_TRUE(other.waitForFinished(30000));
    }

    EXPECT_TRUE(test::waitUntil(
        [&] {
            return recordedOutputs(journal) == QStringList{"before", "during-0", "during-1"};
        },
        60s, 200ms))
        << recordedOutputs(journal).join(' ').toStdString();
    EXPECT_EQ(server.stderrText().count(kCannotWrite), 1) << server.stderrText().toStdString();
    EXPECT_TRUE(test::waitUntil([&] { return server.stderrText().contains(kWrittenAgain); }, 30s, 100ms));
    server.process().closeWriteChannel();
    EXPECT_TRUE(server.process().waitForFinished(60000));
}

TEST_P(JournalFaultTest, aDamagedJournalIsLeftAsItIsAndRunsGoOn)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString journal = folder.filePath(QStringLiteral("journal.sqlite"));
    QByteArray damaged;
    for (int i = 0; i < 4096; ++i) {
        damaged += "not a database ";
    }
    {
        QFile file(journal);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(damaged);
    }
    test::StdioServer server({.backend = QString::fromStdString(GetParam()), .journal = journal});
    ASSERT_TRUE(server.process().waitForStarted());
    ASSERT_TRUE(server.call(1, "initialize", test::kInitialize).contains("result"))
        << server.stderrText().toStdString();
    for (int i = 0; i < 3; ++i) {
        expectRunPrints(server, 10 + i, QStringLiteral("run-%1").arg(i));
    }
    server.process().closeWriteChannel();
    EXPECT_TRUE(server.process().waitForFinished(60000));
    EXPECT_EQ(server.process().exitCode(), 0);
    EXPECT_EQ(server.stderrText().count(kCannotWrite), 1) << server.stderrText().toStdString();
    // The user's file is theirs to mend or move: not overwritten, not replaced.
    QFile file(journal);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), damaged);
}

// The journal is the engine's neighbour, not its part: Docker only.
INSTANTIATE_TEST_SUITE_P(Backends, JournalFaultTest, ::testing::Values(std::string("docker")), test::backendTestName);
