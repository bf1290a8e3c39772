#include "runnerclient/RunnerMessages.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

template <typename T>
T roundTripEvent(const T &event)
{
    auto parsed = runnerEventFromJson(toJson(RunnerEvent(event)));
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? std::string() : parsed.error().message.toStdString());
    const T *typed = parsed.ok() ? std::get_if<T>(&*parsed) : nullptr;
    EXPECT_NE(typed, nullptr);
    return typed ? *typed : T{};
}

template <typename T>
T roundTripRequest(const T &request)
{
    auto parsed = runnerRequestFromJson(toJson(RunnerRequest(request)));
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? std::string() : parsed.error().message.toStdString());
    const T *typed = parsed.ok() ? std::get_if<T>(&*parsed) : nullptr;
    EXPECT_NE(typed, nullptr);
    return typed ? *typed : T{};
}

} // namespace

TEST(RunnerMessagesTest, runRequestHasTheProtocolsFields)
{
    RunnerRunRequest run;
    run.id = QStringLiteral("r1");
    run.workdir = QStringLiteral("/sandbox");
    run.files = {RunnerFile{QStringLiteral("main.py"), "print(1)", 0644}};
    run.steps = {RunnerStep{QStringLiteral("run"), {QStringLiteral("python3"), QStringLiteral("main.py")}}};
    run.env = {{QStringLiteral("HOME"), QStringLiteral("/tmp")}};
    run.timeout = std::chrono::milliseconds(30000);
    run.cpuLimit = std::chrono::milliseconds(31000);
    run.outputDir = QStringLiteral("/sandbox/output");
    const QJsonObject json = toJson(RunnerRequest(run));
    EXPECT_EQ(json.value("op").toString(), "run");
    EXPECT_EQ(json.value("id").toString(), "r1");
    EXPECT_EQ(json.value("timeout_ms").toInt(), 30000);
    EXPECT_EQ(json.value("cpu_limit_ms").toInt(), 31000);
    EXPECT_EQ(json.value("output_dir").toString(), "/sandbox/output");
    EXPECT_EQ(json.value("env").toObject().value("HOME").toString(), "/tmp");
    const QJsonObject file = json.value("files").toArray().at(0).toObject();
    EXPECT_EQ(file.value("path").toString(), "main.py");
    EXPECT_EQ(file.value("data").toString(), QString::fromLatin1(QByteArray("print(1)").toBase64()));
    EXPECT_EQ(file.value("mode").toInt(), 0644);
    EXPECT_EQ(json.value("steps").toArray().at(0).toObject().value("argv").toArray().size(), 2);
    // Absent means "none" to the runner: no CPU limit, no artifacts, nothing kept.
    EXPECT_FALSE(json.contains("keep_processes"));
    run.cpuLimit = std::chrono::milliseconds(0);
    run.outputDir.clear();
    const QJsonObject bare = toJson(RunnerRequest(run));
    EXPECT_FALSE(bare.contains("cpu_limit_ms"));
    EXPECT_FALSE(bare.contains("output_dir"));
}

TEST(RunnerMessagesTest, requestsRoundTrip)
{
    RunnerRunRequest run;
    run.id = QStringLiteral("r1");
    run.workdir = QStringLiteral("/sandbox");
    run.files = {RunnerFile{QStringLiteral("a/b.txt"), QByteArray("\x00\xff", 2), 0755}};
    run.steps = {RunnerStep{QStringLiteral("compile"), {QStringLiteral("g++"), QStringLiteral("main.cpp")}},
                 RunnerStep{QStringLiteral("run"), {QStringLiteral("./main")}}};
    run.env = {{QStringLiteral("A"), QStringLiteral("1")}, {QStringLiteral("B"), QStringLiteral("2")}};
    run.timeout = std::chrono::milliseconds(1234);
    run.cpuLimit = std::chrono::milliseconds(2000);
    run.maxOutputBytes = 99;
    run.outputDir = QStringLiteral("/sandbox/output");
    run.maxArtifactBytes = 77;
    run.maxArtifacts = 3;
    run.keepFiles = true;
    run.scratchDirs = {QStringLiteral("/tmp"), QStringLiteral("/dev/shm")};
    run.keepProcesses = true;
    run.resultDirs = {RunnerResultDir{QStringLiteral("/data/out"), QStringLiteral("/opt/llm-sandbox/shared/out")}};
    run.maxResultFiles = 5;
    run.maxResultBytes = 6;
    const RunnerRunRequest back = roundTripRequest(run);
    EXPECT_EQ(back.id, run.id);
    EXPECT_EQ(back.workdir, run.workdir);
    ASSERT_EQ(back.files.size(), 1);
    EXPECT_EQ(back.files[0].data, run.files[0].data);
    EXPECT_EQ(back.files[0].mode, 0755);
    ASSERT_EQ(back.steps.size(), 2);
    EXPECT_EQ(back.steps[0].name, QStringLiteral("compile"));
    EXPECT_EQ(back.steps[1].argv, QStringList{QStringLiteral("./main")});
    EXPECT_EQ(back.env, run.env);
    EXPECT_EQ(back.timeout, run.timeout);
    EXPECT_EQ(back.cpuLimit, run.cpuLimit);
    EXPECT_EQ(back.maxOutputBytes, 99);
    EXPECT_EQ(back.outputDir, run.outputDir);
    EXPECT_EQ(back.maxArtifactBytes, 77);
    EXPECT_EQ(back.maxArtifacts, 3);
    EXPECT_TRUE(back.keepFiles);
    EXPECT_EQ(back.scratchDirs, run.scratchDirs);
    EXPECT_TRUE(back.keepProcesses);
    EXPECT_EQ(back.resultDirs, run.resultDirs);
    EXPECT_EQ(back.maxResultFiles, 5);
    EXPECT_EQ(back.maxResultBytes, 6);

    EXPECT_EQ(roundTripRequest(RunnerCancelRequest{QStringLiteral("r9")}).id, QStringLiteral("r9"));
    const RunnerPutFileRequest put = roundTripRequest(RunnerPutFileRequest{
        QStringLiteral("f1"), QStringLiteral("/sandbox"), RunnerFile{QStringLiteral("in.csv"), "a,b\n", 0600}});
    EXPECT_EQ(put.id, QStringLiteral("f1"));
    EXPECT_EQ(put.file.path, QStringLiteral("in.csv"));
    EXPECT_EQ(put.file.data, "a,b\n");
    EXPECT_EQ(put.file.mode, 0600);
    const RunnerGetFileRequest get = roundTripRequest(
        RunnerGetFileRequest{QStringLiteral("f2"), QStringLiteral("/sandbox"), QStringLiteral("out.csv"), 512});
    EXPECT_EQ(get.path, QStringLiteral("out.csv"));
    EXPECT_EQ(get.maxBytes, 512);
    EXPECT_EQ(toJson(RunnerRequest(RunnerPingRequest{})).value("op").toString(), "ping");
}

TEST(RunnerMessagesTest, eventsRoundTrip)
{
    const RunnerResultFileEvent saved = roundTripEvent(RunnerResultFileEvent{
        QStringLiteral("r1"), QStringLiteral("/data/out"), QStringLiteral("a.csv"), QStringLiteral("file"), 2, "a\n"});
    EXPECT_EQ(saved.dir, QStringLiteral("/data/out"));
    EXPECT_EQ(saved.name, QStringLiteral("a.csv"));
    EXPECT_EQ(saved.data, std::optional<QByteArray>("a\n"));
    const RunnerResultFileEvent named = roundTripEvent(RunnerResultFileEvent{
        QStringLiteral("r1"), QStringLiteral("/data/out"), QStringLiteral("link"), QStringLiteral("symlink"), 0, {}});
    EXPECT_EQ(named.type, QStringLiteral("symlink"));
    EXPECT_FALSE(named.data) << "named without bytes";

    EXPECT_EQ(roundTripEvent(RunnerReadyEvent{1}).version, 1);

    const RunnerOutputEvent output =
        roundTripEvent(RunnerOutputEvent{QStringLiteral("r1"), QStringLiteral("run"), OutputStream::Stderr, "err\n"});
    EXPECT_EQ(output.id, QStringLiteral("r1"));
    EXPECT_EQ(output.stream, OutputStream::Stderr);
    EXPECT_EQ(output.data, "err\n");

    const RunnerStepEvent step =
        roundTripEvent(RunnerStepEvent{QStringLiteral("r1"), QStringLiteral("compile"), 1, 812, 640, 81234});
    EXPECT_EQ(step.step, QStringLiteral("compile"));
    EXPECT_EQ(step.exitCode, 1);
    EXPECT_EQ(step.maxRssKb, 81234);

    const RunnerArtifactEvent artifact =
        roundTripEvent(RunnerArtifactEvent{QStringLiteral("r1"), QStringLiteral("figure_1.png"), "\x89PNG"});
    EXPECT_EQ(artifact.name, QStringLiteral("figure_1.png"));
    EXPECT_EQ(artifact.data, "\x89PNG");

    EXPECT_EQ(roundTripEvent(RunnerErrorEvent{QString(), QStringLiteral("bad line")}).message,
              QStringLiteral("bad line"));

    RunnerDoneEvent done;
    done.id = QStringLiteral("r1");
    done.exitCode = 137;
    done.reason = RunnerDoneReason::OutOfMemory;
    done.failedStep = QStringLiteral("compile");
    done.wallMs = 5;
    done.cpuMs = 4;
    done.maxRssKb = 3;
    done.outputTruncated = true;
    done.artifactsDropped = 2;
    done.processesSurvived = true;
    const RunnerDoneEvent doneBack = roundTripEvent(done);
    EXPECT_EQ(doneBack.exitCode, 137);
    EXPECT_EQ(doneBack.reason, RunnerDoneReason::OutOfMemory);
    EXPECT_EQ(doneBack.failedStep, QStringLiteral("compile"));
    EXPECT_EQ(doneBack.wallMs, 5);
    EXPECT_TRUE(doneBack.outputTruncated);
    EXPECT_EQ(doneBack.artifactsDropped, 2);
    EXPECT_TRUE(doneBack.processesSurvived);

    const RunnerFileEvent file =
        roundTripEvent(RunnerFileEvent{QStringLiteral("f2"), QStringLiteral("out.csv"), 4, "1,2\n"});
    EXPECT_EQ(file.size, 4);
    EXPECT_EQ(file.data, "1,2\n");
}

TEST(RunnerMessagesTest, everyDoneReasonOfTheProtocolIsRead)
{
    const std::pair<const char *, RunnerDoneReason> reasons[] = {
        {"exit", RunnerDoneReason::Exit},
        {"timeout", RunnerDoneReason::Timeout},
        {"oom", RunnerDoneReason::OutOfMemory},
        {"cpu_limit", RunnerDoneReason::CpuLimit},
        {"output_limit", RunnerDoneReason::OutputLimit},
        {"cancelled", RunnerDoneReason::Cancelled},
        {"error", RunnerDoneReason::Error},
    };
    for (const auto &[name, reason] : reasons) {
        QJsonObject json{{"ev", "done"},
                         {"id", "r1"},
                         {"exit_code", 0},
                         {"reason", QLatin1String(name)},
                         {"failed_step", QJsonValue()}};
        auto event = runnerEventFromJson(json);
        ASSERT_TRUE(event.ok()) << name;
        EXPECT_EQ(std::get<RunnerDoneEvent>(*event).reason, reason) << name;
        EXPECT_TRUE(std::get<RunnerDoneEvent>(*event).failedStep.isEmpty());
    }
}

TEST(RunnerMessagesTest, theRunnersOwnMessagesAreRead)
{
    auto ready = runnerEventFromJson(parse(R"({"ev":"ready","version":1})"));
    ASSERT_TRUE(ready.ok());
    EXPECT_EQ(std::get<RunnerReadyEvent>(*ready).version, 1);
    auto output =
        runnerEventFromJson(parse(R"({"ev":"output","id":"r1","step":"run","stream":"stdout","data":"aGkK"})"));
    ASSERT_TRUE(output.ok());
    EXPECT_EQ(std::get<RunnerOutputEvent>(*output).data, "hi\n");
    EXPECT_EQ(eventId(*output), QStringLiteral("r1"));
    auto pong = runnerEventFromJson(parse(R"({"ev":"pong"})"));
    ASSERT_TRUE(pong.ok());
    EXPECT_TRUE(eventId(*pong).isEmpty());
}

TEST(RunnerMessagesTest, malformedEventsAreRejectedAsSandboxFailures)
{
    const char *malformed[] = {
        R"({})",
        R"({"ev":"surprise"})",
        R"({"ev":42})",
        R"({"ev":"ready"})",
        R"({"ev":"ready","version":"1"})",
        R"({"ev":"output","id":"r1","stream":"stdout"})",
        R"({"ev":"output","id":"r1","stream":"stdin","data":""})",
        R"({"ev":"output","id":"r1","stream":"stdout","data":"not base64!"})",
        R"({"ev":"output","stream":"stdout","data":""})",
        R"({"ev":"artifact","id":"r1","data":"aGkK"})",
        R"({"ev":"error","id":"r1"})",
        R"({"ev":"done","id":"r1","reason":"exit"})",
        R"({"ev":"done","id":"r1","exit_code":0,"reason":"exploded"})",
        R"({"ev":"done","id":"r1","exit_code":0,"reason":"exit","output_truncated":"yes"})",
        R"({"ev":"file","id":"f1"})",
        R"({"ev":"step","id":"r1","step":"run"})",
    };
    for (const char *json : malformed) {
        auto event = runnerEventFromJson(parse(json));
        ASSERT_FALSE(event.ok()) << json;
        EXPECT_EQ(event.error().code, ErrorCode::SandboxFailed) << json;
    }
}

TEST(RunnerMessagesTest, malformedRequestsAreRejectedAsBadRequests)
{
    const char *malformed[] = {
        R"({"op":"launch"})",
        R"({"op":"run","workdir":"/sandbox","steps":[]})",
        R"({"op":"run","id":"r1","workdir":"/sandbox"})",
        R"({"op":"run","id":"r1","workdir":"/sandbox","steps":[{"name":"run","argv":[1]}]})",
        R"({"op":"cancel"})",
        R"({"op":"put_file","id":"f1","workdir":"/sandbox","path":"x","data":"%%%"})",
        R"({"op":"get_file","id":"f1","workdir":"/sandbox"})",
    };
    for (const char *json : malformed) {
        auto request = runnerRequestFromJson(parse(json));
        ASSERT_FALSE(request.ok()) << json;
        EXPECT_EQ(request.error().code, ErrorCode::BadRequest) << json;
    }
}
