#include "journal/RunJournal.h"

#include "ScopedEnvironment.h"
#include "WaitUntil.h"
#include "journal/JournalConnection.h"
#include "journal/JournalReader.h"
#include "journal/JournalRecorder.h"
#include "journal/JournalRunJson.h"
#include "journal/JournalSchema.h"
#include "journal/JournalStatistics.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimeZone>
#include <gtest/gtest.h>
#include <mutex>
#include <sys/stat.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class RunJournalTest : public ::testing::Test
{
protected:
    QString path() const { return m_dir.filePath(QStringLiteral("data/journal.sqlite")); }

    static JournalRecorder::Context context()
    {
        return JournalRecorder::Context{
            .backend = QStringLiteral("docker"),
            .endpoint = QStringLiteral("unix:///var/run/docker.sock"),
            .settings = QJsonObject{{QStringLiteral("memory_bytes"), 536870912},
                                    {QStringLiteral("network_mode"), QStringLiteral("none")}},
            .imageForLanguage =
                [](const QString &language) { return QStringLiteral("llm-sandbox-%1:1").arg(language); },
        };
    }

    static RunRequest request(const QString &language, const QString &code,
                              const QString &origin = QStringLiteral("cli"))
    {
        RunRequest request;
        request.language = language;
        request.code = code;
        request.source = *runSourceFromString(origin);
        return request;
    }

    static RunResult result(int exitCode, StopReason reason = StopReason::Exited)
    {
        RunResult result;
        result.exitCode = exitCode;
        result.reason = reason;
        return result;
    }

    /// Records one finished run with `out` on stdout.
    void recordRun(JournalRecorder &recorder, const QString &id, const RunRequest &runRequest, const QByteArray &out,
                   int exitCode = 0)
    {
        recorder.runStarted(id, runRequest);
        recorder.runOutput(id, OutputStream::Stdout, out);
        recorder.runFinished(id, result(exitCode), std::nullopt);
    }

    /// Moves run `id`'s start to `startedAt` (the recorder always stamps the current time).
    void setStartedAt(const QString &id, const QDateTime &startedAt)
    {
        JournalConnection connection(path());
        ASSERT_TRUE(connection.open());
        ASSERT_TRUE(connection.exec(QStringLiteral("UPDATE runs SET started_at = ? WHERE id = ?"),
                                    {startedAt.toMSecsSinceEpoch(), id}));
    }

    QTemporaryDir m_dir;
};

Artifact chart(const QString &name, const QByteArray &data)
{
    Artifact artifact;
    artifact.name = name;
    artifact.mimeType = QStringLiteral("image/png");
    artifact.data = data;
    artifact.width = 640;
    artifact.height = 480;
    return artifact;
}

QByteArray expectedOutput(const QString &runId, const char *stream, int chunks)
{
    QByteArray out;
    for (int index = 0; index < chunks; ++index) {
        out += QStringLiteral("%1 %2 chunk %3\n").arg(runId, QLatin1String(stream)).arg(index).toUtf8();
    }
    return out;
}

QStringList ids(const QList<JournalRun> &runs)
{
    QStringList ids;
    for (const JournalRun &run : runs) {
        ids << run.id;
    }
    return ids;
}

} // namespace

TEST_F(RunJournalTest, recordedRunRoundTripsWithOutputArtifactsStopReasonAndUsage)
{
    const QByteArray binary("\x00\xff\x01 binary\n", 11);
    {
        JournalRecorder recorder(path(), context());
        RunRequest run =
            request(QStringLiteral("python"), QStringLiteral("print('hello world')"), QStringLiteral("mcp"));
        run.libraries = {QStringLiteral("numpy"), QStringLiteral("pandas")};
        run.timeout = 10s;
        run.clientName = QStringLiteral("claude-ai");
        run.clientVersion = QStringLiteral("0.1.0");
        run.sessionId = QStringLiteral("session-1");
        run.replayOf = QStringLiteral("earlier");
        recorder.runStarted(QStringLiteral("run1"), run);
        recorder.runOutput(QStringLiteral("run1"), OutputStream::Stdout, "hello ");
        recorder.runOutput(QStringLiteral("run1"), OutputStream::Stderr, "warning\n");
        recorder.runOutput(QStringLiteral("run1"), OutputStream::Stdout, "world\n");
        recorder.runOutput(QStringLiteral("run1"), OutputStream::Stdout, binary);
        recorder.runArtifact(QStringLiteral("run1"), chart(QStringLiteral("plot.png"), "PNG bytes"));
        RunResult finished = result(3, StopReason::TimedOut);
        finished.durationMs = 1300;
        finished.wallMs = 1200;
        finished.cpuMs = 900;
        finished.peakMemoryKb = 40960;
        recorder.runFinished(QStringLiteral("run1"), finished, std::nullopt);
    }

    JournalReader reader(path());
    auto run = reader.run(QStringLiteral("run1"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->source, RunSource::Mcp);
    EXPECT_EQ(run->clientName, QStringLiteral("claude-ai"));
    EXPECT_EQ(run->clientVersion, QStringLiteral("0.1.0"));
    EXPECT_EQ(run->backend, QStringLiteral("docker"));
    EXPECT_EQ(run->endpoint, QStringLiteral("unix:///var/run/docker.sock"));
    EXPECT_EQ(run->image, QStringLiteral("llm-sandbox-python:1"));
    EXPECT_EQ(run->language, QStringLiteral("python"));
    EXPECT_EQ(run->code, QStringLiteral("print('hello world')"));
    EXPECT_EQ(run->libraries, (QStringList{QStringLiteral("numpy"), QStringLiteral("pandas")}));
    EXPECT_EQ(run->timeoutMs, 10000);
    EXPECT_EQ(run->settings.value(QStringLiteral("network_mode")).toString(), QStringLiteral("none"));
    EXPECT_EQ(run->sessionId, QStringLiteral("session-1"));
    EXPECT_EQ(run->replayOf, QStringLiteral("earlier"));
    EXPECT_EQ(run->status, RunStatus::Finished);
    EXPECT_EQ(run->exitCode, 3);
    EXPECT_EQ(run->stopReason, StopReason::TimedOut);
    EXPECT_TRUE(run->error.isEmpty());
    EXPECT_EQ(run->durationMs, 1300);
    EXPECT_EQ(run->wallMs, 1200);
    EXPECT_EQ(run->cpuMs, 900);
    EXPECT_EQ(run->peakMemoryKb, 40960);
    EXPECT_TRUE(run->startedAt.isValid());
    EXPECT_GE(run->finishedAt, run->startedAt);
    EXPECT_EQ(run->stdoutData, QByteArray("hello world\n") + binary);
    EXPECT_EQ(run->stderrData, QByteArray("warning\n"));
    EXPECT_EQ(run->outputCap, 1024 * 1024);
    EXPECT_FALSE(run->outputTruncated);
    ASSERT_EQ(run->artifacts.size(), 1);
    const JournalArtifact &artifact = run->artifacts.first();
    EXPECT_EQ(artifact.name, QStringLiteral("plot.png"));
    EXPECT_EQ(artifact.mimeType, QStringLiteral("image/png"));
    EXPECT_EQ(artifact.size, 9);
    EXPECT_EQ(artifact.width, 640);
    EXPECT_EQ(artifact.height, 480);
    EXPECT_TRUE(artifact.path.startsWith(RunJournal::artifactsDirFor(path()) + QLatin1Char('/')));
    QFile stored(artifact.path);
    ASSERT_TRUE(stored.open(QIODevice::ReadOnly)) << artifact.path.toStdString();
    EXPECT_EQ(stored.readAll(), QByteArray("PNG bytes"));
}

TEST_F(RunJournalTest, outputBeyondTheCapIsDroppedAndTheCapRecorded)
{
    {
        JournalRecorder recorder(path(), context(), 10);
        recorder.runStarted(QStringLiteral("loud"), request(QStringLiteral("python"), QStringLiteral("spam()")));
        recorder.runOutput(QStringLiteral("loud"), OutputStream::Stdout, "0123456");
        recorder.runOutput(QStringLiteral("loud"), OutputStream::Stdout, "789abcdef");
        recorder.runOutput(QStringLiteral("loud"), OutputStream::Stdout, "more");
        recorder.runOutput(QStringLiteral("loud"), OutputStream::Stderr, "short");
        recorder.runFinished(QStringLiteral("loud"), result(0), std::nullopt);
    }
    auto run = JournalReader(path()).run(QStringLiteral("loud"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->stdoutData, QByteArray("0123456789"));
    EXPECT_EQ(run->stderrData, QByteArray("short"));
    EXPECT_EQ(run->outputCap, 10);
    EXPECT_TRUE(run->outputTruncated);
}

TEST_F(RunJournalTest, infrastructureFailureIsAFailedRunWithItsError)
{
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("broken"), request(QStringLiteral("ruby"), QStringLiteral("puts 1")));
        recorder.runFinished(QStringLiteral("broken"), RunResult{},
                             Error{QStringLiteral("The Docker engine did not answer."), ErrorCode::EngineUnreachable});
    }
    auto run = JournalReader(path()).run(QStringLiteral("broken"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->status, RunStatus::Failed);
    EXPECT_EQ(run->error, QStringLiteral("The Docker engine did not answer."));
    EXPECT_EQ(run->errorCode, ErrorCode::EngineUnreachable) << "the code, not only the English text";
    EXPECT_FALSE(run->exitCode.has_value());
}

// The container's CPU and memory while the run ran, kept as a series for the statistics page (samples after the
// run's end are not recorded), and whether the run waited for a container to start.
TEST_F(RunJournalTest, aRunsResourceSamplesAreKeptAsASeries)
{
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("busy"), request(QStringLiteral("python"), QStringLiteral("while 1: pass")));
        const QDateTime now = QDateTime::currentDateTimeUtc();
        recorder.runSample(QStringLiteral("busy"), ContainerStats{.memoryBytes = 20 << 20,
                                                                  .memoryLimitBytes = 512 << 20,
                                                                  .cpuCores = 0.25,
                                                                  .pids = 3,
                                                                  .sampledAt = now.addMSecs(400)});
        recorder.runSample(QStringLiteral("busy"), ContainerStats{.memoryBytes = 24 << 20,
                                                                  .memoryLimitBytes = 512 << 20,
                                                                  .cpuCores = 0.998,
                                                                  .pids = 3,
                                                                  .sampledAt = now.addMSecs(900)});
        RunResult finished = result(0);
        finished.coldStart = true;
        recorder.runFinished(QStringLiteral("busy"), finished, std::nullopt);
        recorder.runSample(QStringLiteral("busy"), ContainerStats{.cpuCores = 1, .sampledAt = now.addMSecs(1500)});
    }
    const JournalReader reader(path());
    auto samples = reader.samples(QStringLiteral("busy"));
    ASSERT_TRUE(samples) << samples.error().message.toStdString();
    ASSERT_EQ(samples->size(), 2) << "none after the run ended";
    EXPECT_LT(samples->at(0).atMs, samples->at(1).atMs);
    EXPECT_NEAR(samples->at(0).atMs, 400, 200);
    EXPECT_DOUBLE_EQ(samples->at(0).cpuCores, 0.25);
    EXPECT_DOUBLE_EQ(samples->at(1).cpuCores, 0.998);
    EXPECT_EQ(samples->at(1).memoryBytes, 24 << 20);
    EXPECT_EQ(samples->at(1).memoryLimitBytes, 512 << 20);
    EXPECT_EQ(samples->at(1).pids, 3);
    EXPECT_TRUE(reader.run(QStringLiteral("busy"))->coldStart);
    EXPECT_TRUE(reader.samples(QStringLiteral("unknown"))->isEmpty());
}

TEST_F(RunJournalTest, unknownRunIsNotFound)
{
    {
        JournalRecorder recorder(path(), context());
    }
    auto run = JournalReader(path()).run(QStringLiteral("nope"));
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().code, ErrorCode::NotFound);
}

TEST_F(RunJournalTest, aStopRequestReachesTheRecorderOfTheProcessThatRunsTheRunOnce)
{
    std::mutex mutex;
    QStringList asked;
    JournalRecorder::Context stopping = context();
    stopping.onStopRequested = [&](const QString &runId) {
        const std::lock_guard lock(mutex);
        asked << runId;
    };
    JournalRecorder recorder(path(), stopping);
    recorder.runStarted(QStringLiteral("mine"),
                        request(QStringLiteral("python"), QStringLiteral("sleep()"), QStringLiteral("mcp")));
    recorder.runStarted(QStringLiteral("done"), request(QStringLiteral("python"), QStringLiteral("1")));
    recorder.runFinished(QStringLiteral("done"), result(0), std::nullopt);
    recorder.flush();
    auto journal = RunJournal::open(path());
    ASSERT_TRUE(journal) << journal.error().message.toStdString();
    // A run of another process in progress: its own recorder is told, not this one.
    JournalConnection other(path());
    ASSERT_TRUE(other.open());
    ASSERT_TRUE(other.exec(QStringLiteral("INSERT INTO runs (id, seq, status, owner, started_at) VALUES "
                                          "('theirs', 0, 'running', 'elsewhere:1:1', 0)")));

    // A finished run and one that does not exist are not asked.
    auto requested = (*journal)->requestStop(
        {QStringLiteral("mine"), QStringLiteral("theirs"), QStringLiteral("done"), QStringLiteral("nope")});
    ASSERT_TRUE(requested) << requested.error().message.toStdString();
    EXPECT_EQ(*requested, 2);
    EXPECT_EQ(*(*journal)->requestStop({QStringLiteral("mine")}), 0) << "asked once";
    auto mine = JournalReader(path()).run(QStringLiteral("mine"));
    ASSERT_TRUE(mine);
    EXPECT_TRUE(mine->stopRequested) << "every window shows it being stopped";

    const auto askedNow = [&] {
        const std::lock_guard lock(mutex);
        return asked;
    };
    ASSERT_TRUE(test::waitUntil([&] { return !askedNow().isEmpty(); }, 10s));
    // A later request on a later run: by the time it is told, the recorder has looked again since the first, and was
    // still told of "mine" once, never of the other process's run.
    recorder.runStarted(QStringLiteral("later"), request(QStringLiteral("python"), QStringLiteral("sleep()")));
    recorder.flush();
    ASSERT_EQ(*(*journal)->requestStop({QStringLiteral("later")}), 1);
    ASSERT_TRUE(test::waitUntil([&] { return askedNow().contains(QStringLiteral("later")); }, 10s));
    EXPECT_EQ(askedNow(), (QStringList{QStringLiteral("mine"), QStringLiteral("later")}));
    recorder.runFinished(QStringLiteral("mine"), result(137, StopReason::StoppedByUser), std::nullopt);
    recorder.flush();
    EXPECT_EQ(JournalReader(path()).run(QStringLiteral("mine"))->stopReason, StopReason::StoppedByUser);
}

TEST_F(RunJournalTest, mcpExchangeIsKeptAsSentAndAsReturned)
{
    const QJsonObject call{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), 7},
        {QStringLiteral("method"), QStringLiteral("tools/call")},
        {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("execute_code")},
                                               {QStringLiteral("arguments"),
                                                QJsonObject{{QStringLiteral("code"), QStringLiteral("print(1)")}}}}}};
    const QJsonObject reply{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), 7},
        {QStringLiteral("result"),
         QJsonObject{{QStringLiteral("content"),
                      QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                             {QStringLiteral("text"), QStringLiteral("{\"exit_code\":0}")}},
                                 QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                             {QStringLiteral("mimeType"), QStringLiteral("image/png")},
                                             {QStringLiteral("data"), QStringLiteral("iVBORw0KGgo=")}}}}}}};
    {
        JournalRecorder recorder(path(), context());
        recordRun(recorder, QStringLiteral("mcp1"), request(QStringLiteral("python"), QStringLiteral("print(1)")),
                  "1\n");
        recorder.recordExchange(QStringLiteral("mcp1"), call, reply, QStringLiteral("2025-06-18"));
    }
    auto run = JournalReader(path()).run(QStringLiteral("mcp1"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->mcpRequest, call);
    EXPECT_EQ(run->mcpResponse, reply);
    EXPECT_EQ(run->protocolVersion, QStringLiteral("2025-06-18"));
}

TEST_F(RunJournalTest, aRunsStoredArtifactsAreServedOnlyToTheMcpConnectionThatAskedForIt)
{
    JournalRecorder recorder(path(), context());
    RunRequest asked = request(QStringLiteral("python"), QStringLiteral("plot()"), QStringLiteral("mcp"));
    asked.connection = QStringLiteral("connection-a");
    recorder.runStarted(QStringLiteral("charted"), asked);
    recorder.runArtifact(QStringLiteral("charted"), chart(QStringLiteral("figure_1.png"), "png bytes"));
    recorder.runFinished(QStringLiteral("charted"), result(0), std::nullopt);
    recorder.runStarted(QStringLiteral("console"), request(QStringLiteral("python"), QStringLiteral("plot()")));
    recorder.runArtifact(QStringLiteral("console"), chart(QStringLiteral("figure_1.png"), "other bytes"));
    recorder.runFinished(QStringLiteral("console"), result(0), std::nullopt);

    // Read back at once: the recorder hands the journal what it holds before answering.
    auto mine = recorder.storedArtifact(QStringLiteral("charted"), QStringLiteral("figure_1.png"),
                                        QStringLiteral("connection-a"));
    ASSERT_TRUE(mine) << mine.error().message.toStdString();
    EXPECT_EQ(mine->data, QByteArray("png bytes"));
    EXPECT_EQ(mine->mimeType, QStringLiteral("image/png"));
    for (const auto &[run, connection] : {std::pair{"charted", "connection-b"}, std::pair{"charted", ""},
                                          std::pair{"console", ""}, std::pair{"console", "connection-a"}}) {
        auto refused =
            recorder.storedArtifact(QLatin1String(run), QStringLiteral("figure_1.png"), QLatin1String(connection));
        ASSERT_FALSE(refused) << run << " read by \"" << connection << '"';
        EXPECT_EQ(refused.error().code, ErrorCode::NotFound);
    }
}

TEST_F(RunJournalTest, filesSavedIntoSharedFoldersAreKeptWithTheirRunInOrder)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(1'780'000'000'000, QTimeZone::utc());
    const SavedResult summary{.folderName = QStringLiteral("sales"),
                              .folderPath = QStringLiteral("/home/ada/Sales"),
                              .fileName = QStringLiteral("summary (2).csv"),
                              .bytes = 42,
                              .sha256 = QStringLiteral("ab12"),
                              .savedAt = at};
    const SavedResult chart{.folderName = QStringLiteral("sales"),
                            .folderPath = QStringLiteral("/home/ada/Sales"),
                            .fileName = QStringLiteral("chart.png"),
                            .bytes = 7,
                            .sha256 = QStringLiteral("cd34"),
                            .savedAt = at.addSecs(1)};
    qint64 seqBefore = 0;
    {
        JournalRecorder recorder(path(), context());
        recordRun(recorder, QStringLiteral("charted"), request(QStringLiteral("python"), QStringLiteral("plot()")), {});
        recorder.flush();
        seqBefore = JournalReader(path()).run(QStringLiteral("charted"))->seq;
        // After the run ended, as save_to_folder saves; and one of a run the journal does not have, which must not
        // stop the batch it is in.
        recorder.recordSavedResult(QStringLiteral("charted"), summary);
        recorder.recordSavedResult(QStringLiteral("unknown"), summary);
        recorder.recordSavedResult(QStringLiteral("charted"), chart);
        auto saved = recorder.savedResults(QStringLiteral("charted"));
        ASSERT_TRUE(saved) << saved.error().message.toStdString();
        EXPECT_EQ(*saved, (QList<SavedResult>{summary, chart}));

        // What a run wrote to a writable folder comes with its result.
        RunResult wrote = result(0);
        wrote.savedResults = {summary};
        wrote.sharedFolders = {SharedFolderUse{QStringLiteral("sales"), true, 3, 42, 1}};
        recorder.runStarted(QStringLiteral("wrote"), request(QStringLiteral("python"), QStringLiteral("save()")));
        recorder.runFinished(QStringLiteral("wrote"), wrote, std::nullopt);
        auto written = recorder.savedResults(QStringLiteral("wrote"));
        ASSERT_TRUE(written) << written.error().message.toStdString();
        EXPECT_EQ(*written, QList<SavedResult>{summary});
    }
    JournalReader reader(path());
    auto run = reader.run(QStringLiteral("charted"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->savedResults, (QList<SavedResult>{summary, chart}));
    EXPECT_EQ(run->savedResults[0].sandboxPath(), QStringLiteral("/data/sales/summary (2).csv"));
    EXPECT_GT(run->seq, seqBefore) << "a window's feed sees the run change";
    EXPECT_TRUE(reader.savedResults(QStringLiteral("unknown"))->isEmpty());
    auto wrote = reader.run(QStringLiteral("wrote"));
    ASSERT_TRUE(wrote) << wrote.error().message.toStdString();
    EXPECT_EQ(wrote->sharedFolders, QList<SharedFolderUse>{(SharedFolderUse{QStringLiteral("sales"), true, 3, 42, 1})})
        << "the folders a run could read are on record";
    EXPECT_TRUE(run->sharedFolders.isEmpty());
    EXPECT_EQ(journalRunToJson(*wrote, true).value(QStringLiteral("shared_folders")).toArray().size(), 1);

    const QJsonArray json = journalRunToJson(*run, true).value(QStringLiteral("saved_results")).toArray();
    ASSERT_EQ(json.size(), 2);
    EXPECT_EQ(json[0].toObject().value(QStringLiteral("sandbox_path")).toString(),
              QStringLiteral("/data/sales/summary (2).csv"));
    EXPECT_EQ(json[0].toObject().value(QStringLiteral("path")).toString(),
              QStringLiteral("/home/ada/Sales/summary (2).csv"));
    EXPECT_EQ(json[1].toObject().value(QStringLiteral("bytes")).toInteger(), 7);

    // They go with their run; the files themselves are the user's and stay.
    setStartedAt(QStringLiteral("charted"), QDateTime::currentDateTimeUtc().addDays(-40));
    auto journal = RunJournal::open(path());
    ASSERT_TRUE(journal);
    ASSERT_TRUE((*journal)->applyRetention(RunJournal::Retention{}));
    JournalConnection connection(path());
    ASSERT_TRUE(connection.open());
    auto left = connection.exec(QStringLiteral("SELECT COUNT(*) FROM saved_results WHERE run_id = 'charted'"));
    ASSERT_TRUE(left);
    ASSERT_TRUE(left->next());
    EXPECT_EQ(left->value(0).toInt(), 0);
}

TEST_F(RunJournalTest, artifactNamesCannotLeaveTheirRunsFolder)
{
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("sneaky"), request(QStringLiteral("python"), QString()));
        recorder.runArtifact(QStringLiteral("sneaky"), chart(QStringLiteral("../../escaped.png"), "a"));
        recorder.runArtifact(QStringLiteral("sneaky"), chart(QStringLiteral("../../escaped.png"), "b"));
        recorder.runArtifact(QStringLiteral("sneaky"), chart(QStringLiteral(".hidden"), "c"));
        recorder.runFinished(QStringLiteral("sneaky"), result(0), std::nullopt);
    }
    auto run = JournalReader(path()).run(QStringLiteral("sneaky"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    ASSERT_EQ(run->artifacts.size(), 3);
    const QString runFolder = QDir(RunJournal::artifactsDirFor(path())).filePath(QStringLiteral("sneaky"));
    QSet<QString> paths;
    for (const JournalArtifact &artifact : run->artifacts) {
        EXPECT_EQ(QFileInfo(artifact.path).absolutePath(), runFolder) << artifact.path.toStdString();
        EXPECT_FALSE(QFileInfo(artifact.path).fileName().startsWith(QLatin1Char('.')));
        EXPECT_TRUE(QFileInfo::exists(artifact.path));
        paths.insert(artifact.path);
    }
    EXPECT_EQ(paths.size(), 3) << "artifacts with the same name must not overwrite each other";
    EXPECT_EQ(run->artifacts[0].name, QStringLiteral("../../escaped.png")) << "the name is kept as the run gave it";
    EXPECT_FALSE(QFileInfo::exists(m_dir.filePath(QStringLiteral("escaped.png"))));
    EXPECT_FALSE(QFileInfo::exists(m_dir.filePath(QStringLiteral("data/escaped.png"))));
}

TEST_F(RunJournalTest, journalAndArtifactFilesAreTheUsersAloneUnderUmask022)
{
    const mode_t savedUmask = ::umask(022);
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("private"), request(QStringLiteral("python"), QStringLiteral("secret()")));
        recorder.runArtifact(QStringLiteral("private"), chart(QStringLiteral("plot.png"), "PNG bytes"));
        recorder.runFinished(QStringLiteral("private"), result(0), std::nullopt);
    }
    // An open connection keeps the -wal and -shm files.
    JournalConnection connection(path());
    ASSERT_TRUE(connection.open());
    ASSERT_TRUE(connection.exec(QStringLiteral("SELECT COUNT(*) FROM runs")));
    auto run = JournalReader(path()).run(QStringLiteral("private"));
    ::umask(savedUmask);
    ASSERT_TRUE(run) << run.error().message.toStdString();
    ASSERT_EQ(run->artifacts.size(), 1);

    const auto mode = [](const QString &file) {
        struct stat status
        {
        };
        return ::stat(QFile::encodeName(file).constData(), &status) == 0 ? int(status.st_mode & 07777) : -1;
    };
    const QString artifact = run->artifacts[0].path;
    for (const QString &folder : QStringList{QFileInfo(path()).absolutePath(), RunJournal::artifactsDirFor(path()),
                                             QFileInfo(artifact).absolutePath()}) {
        EXPECT_EQ(mode(folder), 0700) << folder.toStdString();
    }
    for (const QString &file :
         QStringList{path(), path() + QStringLiteral("-wal"), path() + QStringLiteral("-shm"), artifact}) {
        EXPECT_EQ(mode(file), 0600) << file.toStdString();
    }
}

TEST_F(RunJournalTest, anExistingWorldReadableJournalIsMadePrivateWhenOpened)
{
    ASSERT_TRUE(QDir().mkpath(QFileInfo(path()).absolutePath()));
    {
        JournalConnection first(path());
        ASSERT_TRUE(first.open());
    }
    ASSERT_TRUE(QFile::setPermissions(path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                  QFileDevice::ReadGroup | QFileDevice::ReadOther));
    JournalConnection again(path());
    ASSERT_TRUE(again.open());
    EXPECT_FALSE(QFileInfo(path()).permissions().testAnyFlags(QFileDevice::ReadGroup | QFileDevice::ReadOther));
}

// A reader open in this process while another connection of the process opens the journal (every read of the app's
// pages does) and a writer process comes and goes: closing a descriptor of the database would drop every POSIX lock
// this process holds on it, so the writer, alone as it then thinks, would delete the WAL files under the reader's feet
// ("disk I/O error"). Opening never opens the database outside SQLite.
TEST_F(RunJournalTest, aReaderOfThisProcessKeepsReadingWhileOthersOpenTheJournalAndAWriterComesAndGoes)
{
    ASSERT_TRUE(RunJournal::open(path()));
    JournalReader reader(path());
    ASSERT_TRUE(reader.count(RunFilter{}));
    for (int round = 0; round < 3; ++round) {
        {
            JournalReader another(path());
            ASSERT_TRUE(another.count(RunFilter{}));
        }
        QProcess writer;
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start(QStringLiteral(JOURNAL_WRITER_TOOL),
                     {path(), QStringLiteral("write"), QStringLiteral("round%1").arg(round), QStringLiteral("1"),
                      QStringLiteral("1")});
        ASSERT_TRUE(writer.waitForFinished(60000));
        ASSERT_EQ(writer.exitCode(), 0);
        auto count = reader.count(RunFilter{});
        ASSERT_TRUE(count) << count.error().message.toStdString();
        EXPECT_EQ(*count, round + 1);
        auto fresh = JournalReader(path()).count(RunFilter{});
        ASSERT_TRUE(fresh) << fresh.error().message.toStdString();
        EXPECT_EQ(*fresh, round + 1);
    }
}

TEST_F(RunJournalTest, threeProcessesWritingAtOnceLoseNoRunAndNoOutput)
{
    constexpr int kRuns = 15;
    constexpr int kChunks = 60;
    // The journal exists before they start, as it does when the GUI has it open.
    ASSERT_TRUE(RunJournal::open(path()));
    QList<QProcess *> writers;
    const QStringList tags = {QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma")};
    for (const QString &tag : tags) {
        auto *writer = new QProcess;
        writer->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer->start(QStringLiteral(JOURNAL_WRITER_TOOL),
                      {path(), QStringLiteral("write"), tag, QString::number(kRuns), QString::number(kChunks)});
        writers << writer;
    }
    for (QProcess *writer : writers) {
        ASSERT_TRUE(writer->waitForFinished(120000)) << writer->errorString().toStdString();
        EXPECT_EQ(writer->exitStatus(), QProcess::NormalExit);
        EXPECT_EQ(writer->exitCode(), 0);
        delete writer;
    }

    JournalReader reader(path());
    auto count = reader.count(RunFilter{});
    ASSERT_TRUE(count);
    EXPECT_EQ(*count, kRuns * int(tags.size()));
    for (const QString &tag : tags) {
        for (int index = 0; index < kRuns; ++index) {
            const QString id = QStringLiteral("%1-%2").arg(tag).arg(index);
            auto run = reader.run(id);
            ASSERT_TRUE(run) << id.toStdString() << ": " << run.error().message.toStdString();
            EXPECT_EQ(run->status, RunStatus::Finished) << id.toStdString();
            EXPECT_EQ(run->stdoutData, expectedOutput(id, "out", kChunks)) << id.toStdString();
            EXPECT_EQ(run->stderrData, expectedOutput(id, "err", kChunks)) << id.toStdString();
        }
    }
}

TEST_F(RunJournalTest, writerKilledMidRunLeavesAReadableJournalAndTheRunInterrupted)
{
    QProcess writer;
    writer.setProcessChannelMode(QProcess::SeparateChannels);
    writer.start(QStringLiteral(JOURNAL_WRITER_TOOL), {path(), QStringLiteral("hold"), QStringLiteral("doomed")});
    ASSERT_TRUE(writer.waitForStarted()) << writer.errorString().toStdString();
    const QDeadlineTimer deadline(60s);
    while (!writer.canReadLine() && !deadline.hasExpired() && writer.state() == QProcess::Running) {
        writer.waitForReadyRead(int(deadline.remainingTime()));
    }
    ASSERT_EQ(writer.readLine().trimmed(), QByteArray("mid-run"));
    writer.kill(); // SIGKILL: no destructor, no flush
    ASSERT_TRUE(writer.waitForFinished());

    JournalReader before(path());
    auto running = before.run(QStringLiteral("doomed"));
    ASSERT_TRUE(running) << running.error().message.toStdString();
    EXPECT_EQ(running->status, RunStatus::Running) << "nobody has looked at the journal since the kill";

    auto journal = RunJournal::open(path());
    ASSERT_TRUE(journal) << journal.error().message.toStdString();
    JournalConnection check(path());
    ASSERT_TRUE(check.open());
    auto integrity = check.exec(QStringLiteral("PRAGMA integrity_check"));
    ASSERT_TRUE(integrity);
    ASSERT_TRUE(integrity->next());
    EXPECT_EQ(integrity->value(0).toString(), QStringLiteral("ok"));

    auto run = JournalReader(path()).run(QStringLiteral("doomed"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->status, RunStatus::Interrupted);
    EXPECT_EQ(run->stdoutData, QByteArray("started\n"));
    EXPECT_FALSE(run->error.isEmpty());
}

TEST_F(RunJournalTest, runsOfALiveProcessStayRunningWhenTheJournalIsOpened)
{
    JournalRecorder recorder(path(), context());
    recorder.runStarted(QStringLiteral("ongoing"), request(QStringLiteral("python"), QStringLiteral("input()")));
    recorder.flush();
    ASSERT_TRUE(RunJournal::open(path()));
    auto run = JournalReader(path()).run(QStringLiteral("ongoing"));
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::Running);
}

TEST_F(RunJournalTest, journalOfTheFirstSchemaVersionIsMigrated)
{
    {
        JournalConnection old(path());
        ASSERT_TRUE(old.open(1));
        ASSERT_EQ(*JournalSchema::version(old), 1);
        ASSERT_TRUE(old.exec(QStringLiteral("INSERT INTO runs (id, seq, status, source, language, started_at, code, "
                                            "stdout) VALUES ('old', 1, 'finished', 'cli', 'python', ?, 'print(1)', ?)"),
                             {QDateTime::currentDateTimeUtc().toMSecsSinceEpoch(), QByteArray("1\n")}));
    }
    auto journal = RunJournal::open(path());
    ASSERT_TRUE(journal) << journal.error().message.toStdString();
    EXPECT_EQ((*journal)->schemaVersion(), JournalSchema::latestVersion());
    EXPECT_GE(JournalSchema::latestVersion(), 2);

    {
        JournalRecorder recorder(path(), context());
        recorder.recordExchange(QStringLiteral("old"), QJsonObject{{QStringLiteral("id"), 1}},
                                QJsonObject{{QStringLiteral("id"), 1}}, QStringLiteral("2025-03-26"));
    }
    auto run = JournalReader(path()).run(QStringLiteral("old"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    EXPECT_EQ(run->code, QStringLiteral("print(1)"));
    EXPECT_EQ(run->stdoutData, QByteArray("1\n"));
    EXPECT_EQ(run->protocolVersion, QStringLiteral("2025-03-26"));
}

TEST_F(RunJournalTest, journalFromANewerVersionIsRefused)
{
    {
        JournalConnection newer(path());
        ASSERT_TRUE(newer.open());
        ASSERT_TRUE(newer.exec(QStringLiteral("PRAGMA user_version = %1").arg(JournalSchema::latestVersion() + 1)));
    }
    auto journal = RunJournal::open(path());
    ASSERT_FALSE(journal);
    EXPECT_TRUE(journal.error().message.contains(QLatin1String("newer")));
}

TEST_F(RunJournalTest, retentionByAgeRemovesOldRunsAndTheirArtifactFiles)
{
    {
        JournalRecorder recorder(path(), context());
        for (const QString &id : {QStringLiteral("old"), QStringLiteral("recent")}) {
            recorder.runStarted(id, request(QStringLiteral("python"), QStringLiteral("plot()")));
            recorder.runArtifact(id, chart(QStringLiteral("plot.png"), "png"));
            recorder.runFinished(id, result(0), std::nullopt);
        }
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setStartedAt(QStringLiteral("old"), now.addDays(-40));
    JournalReader reader(path());
    const QString oldArtifact = reader.run(QStringLiteral("old"))->artifacts.value(0).path;
    ASSERT_TRUE(QFileInfo::exists(oldArtifact));

    auto journal = RunJournal::open(path());
    ASSERT_TRUE(journal);
    auto removed = (*journal)->applyRetention(RunJournal::Retention{.maxAge = std::chrono::days(30)}, now);
    ASSERT_TRUE(removed) << removed.error().message.toStdString();
    EXPECT_EQ(*removed, 1);
    EXPECT_EQ(reader.run(QStringLiteral("old")).error().code, ErrorCode::NotFound);
    EXPECT_FALSE(QFileInfo::exists(oldArtifact));
    EXPECT_FALSE(QFileInfo::exists(QFileInfo(oldArtifact).absolutePath()));
    auto recent = reader.run(QStringLiteral("recent"));
    ASSERT_TRUE(recent);
    EXPECT_TRUE(QFileInfo::exists(recent->artifacts.value(0).path));
}

TEST_F(RunJournalTest, retentionBySizeRemovesTheOldestRunsFirst)
{
    {
        JournalRecorder recorder(path(), context());
        for (const QString &id : {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}) {
            recordRun(recorder, id, request(QStringLiteral("python"), QString()), QByteArray(1000, 'x'));
        }
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setStartedAt(QStringLiteral("a"), now.addSecs(-30));
    setStartedAt(QStringLiteral("b"), now.addSecs(-20));
    setStartedAt(QStringLiteral("c"), now.addSecs(-10));
    auto journal = RunJournal::open(path());
    ASSERT_TRUE(journal);
    auto removed = (*journal)->applyRetention(RunJournal::Retention{.maxTotalBytes = 2500}, now);
    ASSERT_TRUE(removed) << removed.error().message.toStdString();
    EXPECT_EQ(*removed, 1);
    auto left = JournalReader(path()).list(RunFilter{}, 0, 10);
    ASSERT_TRUE(left);
    EXPECT_EQ(ids(*left), (QStringList{QStringLiteral("c"), QStringLiteral("b")}));
}

TEST_F(RunJournalTest, listIsNewestFirstAndPages)
{
    {
        JournalRecorder recorder(path(), context());
        for (int index = 0; index < 5; ++index) {
            recordRun(recorder, QStringLiteral("r%1").arg(index), request(QStringLiteral("python"), QString()), "x");
        }
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (int index = 0; index < 5; ++index) {
        setStartedAt(QStringLiteral("r%1").arg(index), now.addSecs(index - 10));
    }
    JournalReader reader(path());
    auto first = reader.list(RunFilter{}, 0, 2);
    auto second = reader.list(RunFilter{}, 2, 2);
    auto third = reader.list(RunFilter{}, 4, 2);
    ASSERT_TRUE(first && second && third);
    EXPECT_EQ(ids(*first), (QStringList{QStringLiteral("r4"), QStringLiteral("r3")}));
    EXPECT_EQ(ids(*second), (QStringList{QStringLiteral("r2"), QStringLiteral("r1")}));
    EXPECT_EQ(ids(*third), (QStringList{QStringLiteral("r0")}));
    EXPECT_LE(first->first().code.size(), 200) << "list() returns summaries: the start of the code only";
    EXPECT_TRUE(first->first().stdoutData.isEmpty());
}

TEST_F(RunJournalTest, readerFiltersByLanguageStatusSourceDateAndText)
{
    {
        JournalRecorder recorder(path(), context());
        recordRun(recorder, QStringLiteral("py-cli"),
                  request(QStringLiteral("python"), QStringLiteral("print('apple')"), QStringLiteral("cli")),
                  "apple\n");
        recorder.runStarted(QStringLiteral("js-mcp"),
                            request(QStringLiteral("javascript"), QStringLiteral("x()"), QStringLiteral("mcp")));
        recorder.runFinished(QStringLiteral("js-mcp"), RunResult{},
                             Error{QStringLiteral("engine down"), ErrorCode::EngineUnreachable});
        recordRun(recorder, QStringLiteral("py-mcp"),
                  request(QStringLiteral("python"), QStringLiteral("fruit()"), QStringLiteral("mcp")), "banana 100%\n",
                  1);
        recorder.runStarted(QStringLiteral("go-gui"), request(QStringLiteral("go"), QString(), QStringLiteral("gui")));
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setStartedAt(QStringLiteral("py-cli"), now.addDays(-3));

    JournalReader reader(path());
    auto matching = [&](const RunFilter &filter) {
        auto runs = reader.list(filter, 0, 100);
        EXPECT_TRUE(runs);
        QStringList found = runs ? ids(*runs) : QStringList();
        found.sort();
        EXPECT_EQ(reader.count(filter).value(), found.size());
        return found;
    };
    EXPECT_EQ(matching(RunFilter{.language = QStringLiteral("python")}),
              (QStringList{QStringLiteral("py-cli"), QStringLiteral("py-mcp")}));
    EXPECT_EQ(matching(RunFilter{.status = RunStatus::Failed}), QStringList{QStringLiteral("js-mcp")});
    EXPECT_EQ(matching(RunFilter{.status = RunStatus::Running}), QStringList{QStringLiteral("go-gui")});
    // By outcome, as every page names it: the SQL agrees with JournalRun::outcome().
    EXPECT_EQ(matching(RunFilter{.outcome = RunOutcome::Succeeded}), QStringList{QStringLiteral("py-cli")});
    EXPECT_EQ(matching(RunFilter{.outcome = RunOutcome::ExitedWithError}), QStringList{QStringLiteral("py-mcp")});
    EXPECT_EQ(matching(RunFilter{.outcome = RunOutcome::Failed}), QStringList{QStringLiteral("js-mcp")});
    EXPECT_EQ(matching(RunFilter{.outcome = RunOutcome::Running}), QStringList{QStringLiteral("go-gui")});
    EXPECT_EQ(matching(RunFilter{.outcome = RunOutcome::TimedOut}), QStringList());
    EXPECT_EQ(matching(RunFilter{.sources = {RunSource::Mcp}}),
              (QStringList{QStringLiteral("js-mcp"), QStringLiteral("py-mcp")}));
    EXPECT_EQ(matching(RunFilter{.sources = runSourcesFromString(QStringLiteral("mcp,gui"))}),
              (QStringList{QStringLiteral("go-gui"), QStringLiteral("js-mcp"), QStringLiteral("py-mcp")}))
        << "any of several sources (an assistant's runs: mcp,http)";
    EXPECT_EQ(matching(RunFilter{.from = now.addDays(-4), .to = now.addDays(-2)}),
              QStringList{QStringLiteral("py-cli")});
    EXPECT_EQ(matching(RunFilter{.text = QStringLiteral("apple")}), QStringList{QStringLiteral("py-cli")});
    EXPECT_EQ(matching(RunFilter{.text = QStringLiteral("BANANA")}), QStringList{QStringLiteral("py-mcp")})
        << "text matches output, ignoring case";
    EXPECT_EQ(matching(RunFilter{.text = QStringLiteral("100%")}), QStringList{QStringLiteral("py-mcp")});
    EXPECT_EQ(matching(RunFilter{.text = QStringLiteral("1_0")}), QStringList()) << "LIKE wildcards are literal";
    EXPECT_EQ(matching(RunFilter{.language = QStringLiteral("python"), .sources = {RunSource::Mcp}}),
              QStringList{QStringLiteral("py-mcp")});
}

// Issue 50: History's search finds a run by its charts' titles and axis labels, not by the words of the chart data's
// own structure.
TEST_F(RunJournalTest, textFindsARunByItsChartsTitleAndAxisLabels)
{
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("charted"),
                            request(QStringLiteral("python"), QStringLiteral("plot()"), QStringLiteral("mcp")));
        Artifact drawn = chart(QStringLiteral("figure_1.png"), "png bytes");
        drawn.chart = QJsonDocument::fromJson(R"({"library": "matplotlib", "kind": "line", "title": "Quarterly revenue",
            "axes": [{"title": "", "x": {"label": "quarter", "scale": "linear"}, "y": {"label": "euros"},
                      "series": [{"name": "Nordics", "kind": "line", "x": [1, 2], "y": [3, 4]}]}]})")
                          .object();
        recorder.runArtifact(QStringLiteral("charted"), drawn);
        RunResult finished = result(0);
        finished.artifacts = {drawn}; // a chart's data is recorded with the run's end
        recorder.runFinished(QStringLiteral("charted"), finished, std::nullopt);
        recordRun(recorder, QStringLiteral("plain"),
                  request(QStringLiteral("python"), QStringLiteral("print(1)"), QStringLiteral("cli")), "1\n");
    }
    JournalReader reader(path());
    const auto matching = [&](const QString &text) {
        auto runs = reader.list(RunFilter{.text = text}, 0, 100);
        EXPECT_TRUE(runs) << (runs ? std::string() : runs.error().message.toStdString());
        return runs ? ids(*runs) : QStringList();
    };
    EXPECT_EQ(matching(QStringLiteral("quarterly REVENUE")), QStringList{QStringLiteral("charted")});
    EXPECT_EQ(matching(QStringLiteral("euro")), QStringList{QStringLiteral("charted")}) << "an axis label";
    EXPECT_EQ(matching(QStringLiteral("matplotlib")), QStringList()) << "not what drew it";
    EXPECT_EQ(matching(QStringLiteral("label")), QStringList()) << "nor the data's own keys";
}

TEST_F(RunJournalTest, changedSinceReturnsTheRunsChangedAfterASequenceNumber)
{
    JournalRecorder recorder(path(), context());
    recorder.flush();
    JournalReader reader(path());
    const qint64 start = reader.latestSeq().value();

    recorder.runStarted(QStringLiteral("first"), request(QStringLiteral("python"), QString()));
    recorder.flush();
    const qint64 afterStart = reader.latestSeq().value();
    EXPECT_GT(afterStart, start);
    auto changed = reader.changedSince(start);
    ASSERT_TRUE(changed);
    ASSERT_EQ(ids(*changed), QStringList{QStringLiteral("first")});
    EXPECT_EQ(changed->first().seq, afterStart);
    EXPECT_EQ(changed->first().status, RunStatus::Running);
    EXPECT_TRUE(reader.changedSince(afterStart)->isEmpty());

    recorder.runStarted(QStringLiteral("second"), request(QStringLiteral("python"), QString()));
    recorder.flush();
    recorder.runOutput(QStringLiteral("first"), OutputStream::Stdout, "more");
    recorder.flush();
    changed = reader.changedSince(afterStart);
    ASSERT_TRUE(changed);
    EXPECT_EQ(ids(*changed), (QStringList{QStringLiteral("second"), QStringLiteral("first")})) << "seq ascending";
    EXPECT_EQ(changed->last().seq, reader.latestSeq().value());
}

TEST_F(RunJournalTest, changedSinceNeverSplitsOneCommit)
{
    {
        JournalRecorder recorder(path(), context());
        // Queued together and committed in one batch: they share a sequence number.
        for (int index = 0; index < 5; ++index) {
            recorder.runStarted(QStringLiteral("batch%1").arg(index), request(QStringLiteral("python"), QString()));
        }
    }
    auto changed = JournalReader(path()).changedSince(0, 2);
    ASSERT_TRUE(changed);
    EXPECT_EQ(changed->size(), 5);
}

TEST_F(RunJournalTest, environmentChoosesTheJournalFileOrTurnsItOff)
{
    {
        test::ScopedEnvironment environment{{"LLM_SANDBOX_JOURNAL", "off"}};
        EXPECT_FALSE(RunJournal::configuredPath().has_value());
    }
    {
        test::ScopedEnvironment environment{{"LLM_SANDBOX_JOURNAL", "OFF"}};
        EXPECT_FALSE(RunJournal::configuredPath().has_value());
    }
    {
        test::ScopedEnvironment environment{{"LLM_SANDBOX_JOURNAL", path().toUtf8()}};
        EXPECT_EQ(RunJournal::configuredPath(), path());
    }
    {
        test::ScopedEnvironment environment{{"LLM_SANDBOX_JOURNAL", QByteArray()}};
        EXPECT_EQ(RunJournal::configuredPath(), QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                                    QStringLiteral("/journal.sqlite"));
    }
}

TEST_F(RunJournalTest, readerOfAMissingJournalSeesNoRunsAndCreatesNoFile)
{
    JournalReader reader(path());
    auto runs = reader.list(RunFilter{}, 0, 10);
    ASSERT_TRUE(runs);
    EXPECT_TRUE(runs->isEmpty());
    EXPECT_EQ(reader.latestSeq().value(), 0);
    EXPECT_FALSE(QFileInfo::exists(path()));
}

TEST_F(RunJournalTest, artifactsOfEveryRunNewestRunFirstFilteredByRunLanguageSourceAndType)
{
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("old-py"),
                            request(QStringLiteral("python"), QString(), QStringLiteral("mcp")));
        recorder.runArtifact(QStringLiteral("old-py"), chart(QStringLiteral("a.png"), "a"));
        Artifact page = chart(QStringLiteral("b.html"), "<p>");
        page.mimeType = QStringLiteral("text/html");
        recorder.runArtifact(QStringLiteral("old-py"), page);
        recorder.runFinished(QStringLiteral("old-py"), result(0), std::nullopt);
        recordRun(recorder, QStringLiteral("no-charts"), request(QStringLiteral("python"), QString()), "1\n");
        recorder.runStarted(QStringLiteral("new-r"), request(QStringLiteral("r"), QString(), QStringLiteral("gui")));
        recorder.runArtifact(QStringLiteral("new-r"), chart(QStringLiteral("c.png"), "c"));
    }
    setStartedAt(QStringLiteral("old-py"), QDateTime::currentDateTimeUtc().addSecs(-60));

    JournalReader reader(path());
    const auto names = [&](const ArtifactFilter &filter, int limit = 100) {
        auto entries = reader.artifacts(filter, limit);
        EXPECT_TRUE(entries) << entries.error().message.toStdString();
        QStringList found;
        for (const JournalArtifactEntry &entry : entries ? *entries : QList<JournalArtifactEntry>()) {
            found << entry.runId + QLatin1Char('/') + entry.artifact.name;
        }
        return found;
    };
    EXPECT_EQ(names({}), (QStringList{QStringLiteral("new-r/c.png"), QStringLiteral("old-py/a.png"),
                                      QStringLiteral("old-py/b.html")}))
        << "a running run's artifacts are there too";
    EXPECT_EQ(names({}, 1), QStringList{QStringLiteral("new-r/c.png")});
    EXPECT_EQ(names({.runs = {.language = QStringLiteral("python")}}),
              (QStringList{QStringLiteral("old-py/a.png"), QStringLiteral("old-py/b.html")}));
    EXPECT_EQ(names({.runs = {.sources = {RunSource::Gui}}}), QStringList{QStringLiteral("new-r/c.png")});
    EXPECT_EQ(names({.runId = QStringLiteral("old-py")}),
              (QStringList{QStringLiteral("old-py/a.png"), QStringLiteral("old-py/b.html")}));
    EXPECT_EQ(names({.mimeType = QStringLiteral("image/")}),
              (QStringList{QStringLiteral("new-r/c.png"), QStringLiteral("old-py/a.png")}));
    EXPECT_EQ(names({.mimeType = QStringLiteral("text/html")}), QStringList{QStringLiteral("old-py/b.html")});

    const auto entries = reader.artifacts({.runId = QStringLiteral("new-r")}, 10);
    ASSERT_TRUE(entries && entries->size() == 1);
    const JournalArtifactEntry &entry = entries->first();
    EXPECT_EQ(entry.language, QStringLiteral("r"));
    EXPECT_EQ(entry.source, RunSource::Gui);
    EXPECT_EQ(entry.artifact.mimeType, QStringLiteral("image/png"));
    EXPECT_EQ(entry.artifact.width, 640);
    EXPECT_TRUE(entry.startedAt.isValid());
    QFile file(entry.artifact.path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), "c");
}

TEST_F(RunJournalTest, aChartsDataIsKeptWithItsArtifactAndItsTitleListedWithIt)
{
    // Issue 50: the data arrives with the result, after the artifact was recorded.
    const QJsonObject data{{QStringLiteral("library"), QStringLiteral("matplotlib")},
                           {QStringLiteral("kind"), QStringLiteral("line")},
                           {QStringLiteral("title"), QStringLiteral("Sales per month")},
                           {QStringLiteral("axes"), QJsonArray()}};
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("drawn"), request(QStringLiteral("python"), QStringLiteral("plot()")));
        Artifact figure = chart(QStringLiteral("figure_1.png"), "png");
        recorder.runArtifact(QStringLiteral("drawn"), figure);
        RunResult finished = result(0);
        figure.chart = data;
        finished.artifacts = {figure, chart(QStringLiteral("photo.png"), "png")};
        recorder.runArtifact(QStringLiteral("drawn"), finished.artifacts[1]);
        recorder.runFinished(QStringLiteral("drawn"), finished, std::nullopt);
        recorder.flush();
    }
    JournalReader reader(path());
    auto run = reader.run(QStringLiteral("drawn"));
    ASSERT_TRUE(run) << run.error().message.toStdString();
    ASSERT_EQ(run->artifacts.size(), 2);
    EXPECT_EQ(run->artifacts[0].chart, data);
    EXPECT_EQ(run->artifacts[0].chartTitle, QStringLiteral("Sales per month"));
    EXPECT_TRUE(run->artifacts[1].chart.isEmpty());
    EXPECT_EQ(journalRunToJson(*run, true)
                  .value(QStringLiteral("artifacts"))
                  .toArray()[0]
                  .toObject()
                  .value(QStringLiteral("chart")),
              data);
    const auto listed = reader.artifacts({.runId = QStringLiteral("drawn")}, 10);
    ASSERT_TRUE(listed);
    ASSERT_EQ(listed->size(), 2);
    QStringList titles;
    for (const JournalArtifactEntry &entry : *listed) {
        titles << entry.artifact.chartTitle;
    }
    EXPECT_TRUE(titles.contains(QStringLiteral("Sales per month"))) << "the gallery names the chart by its title";
}

TEST_F(RunJournalTest, aRunsNetworkIsOnRecordAndItsHostsListedWithIt)
{
    // Issue 48: what the run was allowed and each request its proxy logged; the lists see the hosts it asked for.
    NetworkConnection fetched{.startedMs = 1000,
                              .method = "CONNECT",
                              .host = "api.test",
                              .port = 443,
                              .allowed = true,
                              .address = "203.0.113.10",
                              .status = 200,
                              .bytesOut = 500,
                              .bytesIn = 4000,
                              .durationMs = 12};
    NetworkConnection refused{
        .method = "GET", .host = "other.test", .port = 80, .reason = "not an allowed host", .status = 403};
    {
        JournalRecorder recorder(path(), context());
        recorder.runStarted(QStringLiteral("online"), request(QStringLiteral("python"), QStringLiteral("fetch()")));
        RunResult finished = result(0);
        finished.networkGranted = NetworkAllowList({NetworkHost{"api.test", {443}}});
        finished.network = {fetched, refused, fetched};
        recorder.runFinished(QStringLiteral("online"), finished, std::nullopt);
        recorder.runStarted(QStringLiteral("offline"), request(QStringLiteral("python"), QStringLiteral("print()")));
        recorder.runFinished(QStringLiteral("offline"), result(0), std::nullopt);
        recorder.flush();
    }
    JournalReader reader(path());
    auto online = reader.run(QStringLiteral("online"));
    ASSERT_TRUE(online) << online.error().message.toStdString();
    EXPECT_EQ(online->networkHosts, (QStringList{"api.test", "other.test"}));
    const QJsonObject network = journalRunToJson(*online, true).value(QStringLiteral("network")).toObject();
    EXPECT_EQ(network.value(QStringLiteral("allowed")).toArray(), QJsonArray{QStringLiteral("api.test:443")});
    const QList<NetworkConnection> connections =
        NetworkConnection::listFromJson(network.value(QStringLiteral("connections")).toArray());
    ASSERT_EQ(connections.size(), 3);
    EXPECT_EQ(connections[1].toJson(), refused.toJson());
    auto listed = reader.list({}, 0, 10);
    ASSERT_TRUE(listed);
    for (const JournalRun &run : *listed) {
        EXPECT_EQ(run.networkHosts.isEmpty(), run.id == QStringLiteral("offline")) << run.id.toStdString();
    }
    auto offline = reader.run(QStringLiteral("offline"));
    ASSERT_TRUE(offline);
    EXPECT_FALSE(journalRunToJson(*offline, true).contains(QStringLiteral("network")))
        << "a run without network says nothing of one";
}

TEST_F(RunJournalTest, theHostsRunsReachedAreCountedOncePerRunTopFirstAndAFollowerSeesARunsNetwork)
{
    // Issue 48: Statistics counts runs per host (runs.network_hosts), a live view gets the network as a run ends.
    const auto connection = [](const char *host, bool allowed) {
        return NetworkConnection{.method = "CONNECT", .host = host, .port = 443, .allowed = allowed, .status = 200};
    };
    {
        JournalRecorder recorder(path(), context());
        const QList<QList<NetworkConnection>> runs{
            {connection("api.test", true), connection("api.test", true), connection("pypi.org", true)},
            {connection("api.test", true)},
            {connection("evil.test", false)},
        };
        for (int i = 0; i < runs.size(); ++i) {
            const QString id = QStringLiteral("net-%1").arg(i);
            recorder.runStarted(id, request(QStringLiteral("python"), QStringLiteral("fetch()")));
            RunResult finished = result(0);
            finished.networkGranted =
                NetworkAllowList({NetworkHost{"api.test", {443}}, NetworkHost{"pypi.org", {443}}});
            finished.network = runs.at(i);
            recorder.runFinished(id, finished, std::nullopt);
        }
        recorder.runStarted(QStringLiteral("offline"), request(QStringLiteral("python"), QStringLiteral("print()")));
        recorder.runFinished(QStringLiteral("offline"), result(0), std::nullopt);
        recorder.flush();
    }
    const QDateTime from = QDateTime::currentDateTime().addDays(-1);
    const QDateTime to = QDateTime::currentDateTime().addDays(1);
    const JournalStatistics statistics(path());
    auto hosts = statistics.runsByHost(from, to);
    ASSERT_TRUE(hosts) << hosts.error().message.toStdString();
    ASSERT_EQ(hosts->size(), 3);
    EXPECT_EQ(hosts->at(0).key, QStringLiteral("api.test"));
    EXPECT_EQ(hosts->at(0).count, 2) << "twice in one run counts once";
    EXPECT_EQ(hosts->at(1).key, QStringLiteral("evil.test")) << "as many runs: by name";
    EXPECT_EQ(hosts->at(1).count, 1);
    EXPECT_EQ(hosts->at(2).key, QStringLiteral("pypi.org"));
    auto top = statistics.runsByHost(from, to, 1);
    ASSERT_TRUE(top);
    ASSERT_EQ(top->size(), 1);
    EXPECT_EQ(top->first().key, QStringLiteral("api.test"));
    auto before = statistics.runsByHost(from.addDays(-10), from);
    ASSERT_TRUE(before);
    EXPECT_TRUE(before->isEmpty()) << "only the period's runs";

    JournalReader reader(path());
    auto update = reader.runSince(QStringLiteral("net-0"), 0, 0, 0, false);
    ASSERT_TRUE(update) << update.error().message.toStdString();
    EXPECT_TRUE(update->run.hasNetwork());
    EXPECT_EQ(update->run.networkAllowed(),
              (QStringList{QStringLiteral("api.test:443"), QStringLiteral("pypi.org:443")}));
    const QList<NetworkConnection> connections = update->run.networkConnections();
    ASSERT_EQ(connections.size(), 3);
    EXPECT_EQ(connections.at(2).host, QStringLiteral("pypi.org"));
    auto offline = reader.runSince(QStringLiteral("offline"), 0, 0, 0, false);
    ASSERT_TRUE(offline);
    EXPECT_FALSE(offline->run.hasNetwork());
    EXPECT_TRUE(offline->run.networkConnections().isEmpty());
}

// A reader's snapshot (JournalConnection::Snapshot) sees the journal as one state while another connection commits:
// what JournalReader::run reads of a run — its row, its saved results, its exchange — always agrees, even while the
// run's end is being written (a run read half before and half after its end showed saved results without the folders
// it had, once in the SDK's shared-folder test).
TEST_F(RunJournalTest, aSnapshotReadsOneStateWhileAnotherConnectionCommits)
{
    JournalConnection writer(path());
    ASSERT_TRUE(writer.open());
    ASSERT_TRUE(writer.exec(QStringLiteral("INSERT INTO runs (id, seq, status, owner, started_at) VALUES "
                                           "('r', 0, 'running', 'elsewhere:1:1', 0)")));
    JournalConnection reader(path());
    ASSERT_TRUE(reader.open());
    const auto status = [&] {
        auto query = reader.exec(QStringLiteral("SELECT status FROM runs WHERE id = 'r'"));
        return query && query->next() ? query->value(0).toString() : QString();
    };
    {
        const JournalConnection::Snapshot snapshot(reader);
        EXPECT_EQ(status(), QStringLiteral("running"));
        ASSERT_TRUE(writer.write([&]() -> Result<void> {
            auto updated = writer.exec(QStringLiteral("UPDATE runs SET status = 'finished' WHERE id = 'r'"));
            return updated ? Result<void>{} : Result<void>(updated.error());
        }));
        EXPECT_EQ(status(), QStringLiteral("running")) << "the snapshot's state, not the commit after it";
    }
    EXPECT_EQ(status(), QStringLiteral("finished"));
}
