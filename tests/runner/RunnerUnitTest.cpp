// Unit tests of the runner's building blocks that do not need a process.
#include "Base64.h"
#include "LineReader.h"
#include "Protocol.h"
#include "StepProcess.h"

#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace runner {

namespace {

TEST(RunnerBase64, encodesWithPadding)
{
    EXPECT_EQ(base64Encode(""), "");
    EXPECT_EQ(base64Encode("f"), "Zg==");
    EXPECT_EQ(base64Encode("fo"), "Zm8=");
    EXPECT_EQ(base64Encode("foo"), "Zm9v");
    EXPECT_EQ(base64Encode("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64Encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(RunnerBase64, roundTripsEveryByteValue)
{
    std::string bytes;
    for (int i = 0; i < 1000; ++i) {
        bytes += static_cast<char>(i * 7 % 256);
        EXPECT_EQ(base64Decode(base64Encode(bytes)), bytes);
    }
}

TEST(RunnerBase64, decodingRejectsInvalidInput)
{
    EXPECT_EQ(base64Decode("Zg"), "f"); // missing padding is tolerated
    EXPECT_FALSE(base64Decode("Z").has_value());
    EXPECT_FALSE(base64Decode("Zm9v!").has_value());
    EXPECT_FALSE(base64Decode("Zg=a").has_value());
    EXPECT_FALSE(base64Decode("====").has_value());
    EXPECT_FALSE(base64Decode("Zm9v\n").has_value());
}

TEST(RunnerProtocol, safeRelativePaths)
{
    for (const char *path : {"main.py", "src/main.cpp", "./a", "a//b", "a/./b", "..a", "a..", ".hidden"}) {
        EXPECT_TRUE(isSafeRelativePath(path)) << path;
    }
    for (const char *path : {"", "/etc/passwd", "..", "../a", "a/../b", "a/..", ".", "./", "a/", "a/."}) {
        EXPECT_FALSE(isSafeRelativePath(path)) << path;
    }
}

TEST(RunnerProtocol, parsesFullRunRequest)
{
    const Request request = parseRequest(
        R"({"op":"run","id":"r1","workdir":"/sandbox","files":[{"path":"main.py","data":"aGk=","mode":493}],
            "steps":[{"name":"run","argv":["python3","main.py"]}],"env":{"PATH":"/bin","HOME":"/tmp"},
            "timeout_ms":1500,"max_output_bytes":10,"output_dir":"/sandbox/output","max_artifact_bytes":20,
            "max_artifacts":3,"keep_files":true})");
    ASSERT_EQ(request.operation, Operation::Run);
    const RunRequest &run = request.run;
    EXPECT_EQ(run.id, "r1");
    EXPECT_EQ(run.workdir, "/sandbox");
    ASSERT_EQ(run.files.size(), 1u);
    EXPECT_EQ(run.files[0].data, "hi");
    EXPECT_EQ(run.files[0].mode, 0755u);
    ASSERT_EQ(run.steps.size(), 1u);
    EXPECT_EQ(run.steps[0].argv, (std::vector<std::string>{"python3", "main.py"}));
    EXPECT_EQ(run.pathVariable, "/bin");
    EXPECT_EQ(run.env.size(), 2u);
    EXPECT_EQ(run.timeoutMs, 1500u);
    EXPECT_EQ(run.maxOutputBytes, 10u);
    EXPECT_EQ(run.outputDir, "/sandbox/output");
    EXPECT_EQ(run.maxArtifactBytes, 20u);
    EXPECT_EQ(run.maxArtifacts, 3u);
    EXPECT_TRUE(run.keepFiles);
}

TEST(RunnerProtocol, cpuLimitIsOptionalAndUnlimitedByDefault)
{
    EXPECT_EQ(parseRequest(R"({"op":"run","id":"r","workdir":"/w","steps":[]})").run.cpuLimitMs, 0u);
    EXPECT_EQ(parseRequest(R"({"op":"run","id":"r","workdir":"/w","steps":[],"cpu_limit_ms":2500})").run.cpuLimitMs,
              2500u);
    EXPECT_EQ(parseRequest(R"({"op":"run","id":"r","workdir":"/w","steps":[],"cpu_limit_ms":3000.0})").run.cpuLimitMs,
              3000u);
    EXPECT_THROW(parseRequest(R"({"op":"run","id":"r","workdir":"/w","steps":[],"cpu_limit_ms":-5})"), ProtocolError);
    EXPECT_THROW(parseRequest(R"({"op":"run","id":"r","workdir":"/w","steps":[],"cpu_limit_ms":"1s"})"), ProtocolError);
}

TEST(RunnerCpuLimit, roundsUpToWholeSeconds)
{
    EXPECT_EQ(cpuLimitSeconds(0), 0u);
    EXPECT_EQ(cpuLimitSeconds(1), 1u);
    EXPECT_EQ(cpuLimitSeconds(1000), 1u);
    EXPECT_EQ(cpuLimitSeconds(1001), 2u);
    EXPECT_EQ(cpuLimitSeconds(30000), 30u);
}

// Wait statuses built the way the kernel encodes them.
int killedBy(int signal)
{
    return signal;
}

int exitedWith(int code)
{
    return code << 8;
}

TEST(RunnerCpuLimit, recognisesSigxcpuAndTheHardLimitsSigkill)
{
    ASSERT_TRUE(WIFSIGNALED(killedBy(SIGXCPU)));
    ASSERT_TRUE(WIFEXITED(exitedWith(0)));
    EXPECT_TRUE(endedByCpuLimit(killedBy(SIGXCPU), 1000, 1000));
    // A program that ignores SIGXCPU is killed at the hard limit, a second later.
    EXPECT_TRUE(endedByCpuLimit(killedBy(SIGKILL), 2010, 1000));
    EXPECT_TRUE(endedByCpuLimit(killedBy(SIGKILL), 2000, 1500));
    // The usage wait4() reports can fall a little short of what the kernel counted.
    EXPECT_TRUE(endedByCpuLimit(killedBy(SIGKILL), 28000, 30000));
    // A SIGKILL before the limit's CPU time was used came from someone else (e.g. the OOM killer).
    EXPECT_FALSE(endedByCpuLimit(killedBy(SIGKILL), 400, 1000));
    // Without a limit nothing is a CPU-limit death, not even a SIGXCPU sent with kill(1).
    EXPECT_FALSE(endedByCpuLimit(killedBy(SIGXCPU), 5000, 0));
    EXPECT_FALSE(endedByCpuLimit(exitedWith(0), 5000, 1000));
    EXPECT_FALSE(endedByCpuLimit(exitedWith(128 + SIGXCPU), 5000, 1000));
    EXPECT_FALSE(endedByCpuLimit(killedBy(SIGTERM), 5000, 1000));
}

TEST(RunnerProtocol, rejectsInvalidRunRequestsWithTheirId)
{
    for (const char *line : {
             R"({"op":"run","id":"x","workdir":"relative","steps":[]})",
             R"({"op":"run","id":"x","workdir":"//","steps":[]})",
             R"({"op":"run","id":"x","workdir":"/w","steps":[{"name":"s","argv":[]}]})",
             R"({"op":"run","id":"x","workdir":"/w","steps":[],"files":[{"path":"../a","data":""}]})",
             R"({"op":"run","id":"x","workdir":"/w","steps":[],"files":[{"path":"a","data":"!!"}]})",
             R"({"op":"run","id":"x","workdir":"/w","steps":[],"timeout_ms":-1})",
             R"({"op":"run","id":"x","workdir":"/w","steps":[],"env":{"A":1}})",
             R"({"op":"run","id":"x","workdir":"/w","steps":[{"name":"s","argv":["a\u0000b"]}]})",
         }) {
        try {
            parseRequest(line);
            ADD_FAILURE() << "accepted: " << line;
        } catch (const ProtocolError &error) {
            EXPECT_EQ(error.id(), "x") << line;
            EXPECT_TRUE(error.isRun()) << line;
        }
    }
}

TEST(RunnerLineReader, splitsLinesAndRejectsOverlongOnes)
{
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    LineReader reader(fds[0], 8);
    const std::string input = "one\r\ntwo\n0123456789abc\nthree\nlast";
    ASSERT_EQ(::write(fds[1], input.data(), input.size()), static_cast<ssize_t>(input.size()));
    ::close(fds[1]);

    std::vector<std::string> lines;
    int tooLong = 0;
    while (!reader.finished()) {
        reader.readAvailable();
        while (const std::optional<LineReader::Line> line = reader.nextLine()) {
            if (line->tooLong) {
                ++tooLong;
            } else {
                lines.push_back(line->text);
            }
        }
    }
    ::close(fds[0]);
    EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "three", "last"}));
    EXPECT_EQ(tooLong, 1);
}

} // namespace

} // namespace runner
