// Files and directories: writing request files, path checks, cleaning the workdir, collecting artifacts.
#include "RunnerFixture.h"

#include <fstream>
#include <sys/stat.h>

namespace runner::test {

namespace {

class RunnerFilesTest : public RunnerFixture
{
};

std::string allBytes()
{
    std::string bytes;
    for (int byte = 0; byte < 256; ++byte) {
        bytes += static_cast<char>(byte);
    }
    return bytes;
}

TEST_F(RunnerFilesTest, requestFilesAreWrittenWithModeAndParents)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"./bin/hello.sh"}});
    request["files"] = {file("bin/hello.sh", "#!/bin/sh\necho hello from script\n", 0755),
                        file("data/deep/blob.bin", allBytes(), 0600)};
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData, "hello from script\n");
    EXPECT_EQ(readWorkFile("data/deep/blob.bin"), allBytes());
    struct stat info
    {
    };
    ASSERT_EQ(::stat((m_workdir / "data/deep/blob.bin").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0600u);
    ASSERT_EQ(::stat((m_workdir / "bin/hello.sh").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0755u);
}

TEST_F(RunnerFilesTest, pathsEscapingTheWorkdirAreRefused)
{
    RunnerTestClient &client = startRunner();
    for (const std::string &path : {std::string("../escaped.txt"), std::string("a/../../escaped.txt"),
                                    (m_root / "escaped.txt").string(), std::string("")}) {
        nlohmann::json request = shellRun("r1", "touch step-ran");
        request["files"] = {file(path, "nope")};
        const RunOutcome outcome = client.run(request);

        ASSERT_EQ(outcome.errors.size(), 1u) << path;
        EXPECT_EQ(outcome.errors[0]["id"], "r1");
        EXPECT_EQ(outcome.done["reason"], "error") << path;
        EXPECT_TRUE(outcome.steps.empty());
    }
    EXPECT_FALSE(std::filesystem::exists(m_root / "escaped.txt"));
    EXPECT_FALSE(std::filesystem::exists(m_workdir / "step-ran"));
}

TEST_F(RunnerFilesTest, filesAreNotWrittenThroughSymlinksLeftByEarlierRuns)
{
    RunnerTestClient &client = startRunner();
    const std::filesystem::path outside = m_root / "outside";
    std::filesystem::create_directory(outside);
    client.run(shellRun("r1", "ln -s " + outside.string() + " link"));

    nlohmann::json request = shellRun("r2", "true");
    request["keep_files"] = true;
    request["files"] = {file("link/planted.txt", "nope")};
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.done["reason"], "error");
    EXPECT_FALSE(std::filesystem::exists(outside / "planted.txt"));
}

TEST_F(RunnerFilesTest, leftoverSymlinkIsReplacedInsteadOfWrittenThrough)
{
    RunnerTestClient &client = startRunner();
    const std::filesystem::path target = m_root / "target.txt";
    std::ofstream(target) << "original";
    client.run(shellRun("r1", "ln -s " + target.string() + " main.py"));

    nlohmann::json request = shellRun("r2", "cat main.py");
    request["keep_files"] = true;
    request["files"] = {file("main.py", "fresh")};
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData, "fresh");
    EXPECT_FALSE(std::filesystem::is_symlink(m_workdir / "main.py"));
    std::ifstream stream(target);
    std::string contents;
    std::getline(stream, contents);
    EXPECT_EQ(contents, "original");
}

TEST_F(RunnerFilesTest, workdirIsEmptiedBetweenRunsWithoutFollowingSymlinks)
{
    RunnerTestClient &client = startRunner();
    const std::filesystem::path outside = m_root / "outside";
    std::filesystem::create_directory(outside);
    std::ofstream(outside / "precious.txt") << "keep me";

    nlohmann::json first = shellRun("r1", "mkdir -p d/e && touch d/e/f .hidden && chmod 000 d/e && "
                                          "ln -s " +
                                              outside.string() + " escape");
    first["files"] = {file("given.txt", "x")};
    EXPECT_EQ(client.run(first).done["exit_code"], 0);

    const RunOutcome second = client.run(shellRun("r2", "ls -A"));
    // Only the (recreated, empty) output directory is left.
    EXPECT_EQ(second.stdoutData, "output\n");
    EXPECT_TRUE(std::filesystem::exists(outside / "precious.txt"));
    EXPECT_TRUE(std::filesystem::exists(m_workdir)) << "the workdir itself must stay";
}

TEST_F(RunnerFilesTest, keepFilesPreservesEarlierFiles)
{
    RunnerTestClient &client = startRunner();
    client.run(shellRun("r1", "echo remembered > state.txt"));
    nlohmann::json request = shellRun("r2", "cat state.txt");
    request["keep_files"] = true;
    EXPECT_EQ(client.run(request).stdoutData, "remembered\n");
}

TEST_F(RunnerFilesTest, artifactsAreReturnedInModificationOrderWithExactBytes)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"python3", "make.py"}});
    request["files"] = {file("make.py", "import os\n"
                                        "def put(name, data, when):\n"
                                        "    path = os.path.join('output', name)\n"
                                        "    os.makedirs(os.path.dirname(path), exist_ok=True)\n"
                                        "    open(path, 'wb').write(data)\n"
                                        "    os.utime(path, (when, when))\n"
                                        "put('sub/c.txt', b'third', 3000)\n"
                                        "put('z.txt', b'tie, later name', 2000)\n"
                                        "put('a.txt', b'tie, earlier name', 2000)\n"
                                        "put('b.bin', bytes(range(256)), 1000)\n"
                                        "os.symlink('/etc/passwd', 'output/link')\n"
                                        "os.mkfifo('output/fifo')\n")};
    const RunOutcome outcome = client.run(request);

    ASSERT_EQ(outcome.done["exit_code"], 0) << outcome.stderrData;
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"b.bin", allBytes()}, {"a.txt", "tie, earlier name"}, {"z.txt", "tie, later name"}, {"sub/c.txt", "third"}};
    EXPECT_EQ(outcome.artifacts, expected);
    EXPECT_EQ(outcome.done["artifacts_dropped"], 0);
    // Artifacts come after the last step and before `done`.
    EXPECT_EQ(outcome.messages.back()["ev"], "done");
}

TEST_F(RunnerFilesTest, artifactLimitsDropExcessFiles)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"python3", "make.py"}});
    request["max_artifacts"] = 2;
    request["max_artifact_bytes"] = 5;
    request["files"] = {file("make.py", "import os\n"
                                        "for i, (name, data) in enumerate([('one', b'1'), ('big', b'x' * 100),\n"
                                        "                                  ('two', b'22'), ('three', b'333')]):\n"
                                        "    open('output/' + name, 'wb').write(data)\n"
                                        "    os.utime('output/' + name, (1000 + i, 1000 + i))\n")};
    const RunOutcome outcome = client.run(request);

    const std::vector<std::pair<std::string, std::string>> expected = {{"one", "1"}, {"two", "22"}};
    EXPECT_EQ(outcome.artifacts, expected);
    EXPECT_EQ(outcome.done["artifacts_dropped"], 2);
}

TEST_F(RunnerFilesTest, artifactsOfEarlierRunsAreNotReturnedAgain)
{
    RunnerTestClient &client = startRunner();
    EXPECT_EQ(client.run(shellRun("r1", "echo old > output/old.txt")).artifacts.size(), 1u);

    nlohmann::json request = shellRun("r2", "echo new > output/new.txt");
    request["keep_files"] = true;
    const RunOutcome outcome = client.run(request);
    ASSERT_EQ(outcome.artifacts.size(), 1u);
    EXPECT_EQ(outcome.artifacts[0].first, "new.txt");
}

TEST_F(RunnerFilesTest, failedRunStillReturnsArtifacts)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "echo partial > output/log.txt; exit 1"));

    EXPECT_EQ(outcome.done["exit_code"], 1);
    ASSERT_EQ(outcome.artifacts.size(), 1u);
    EXPECT_EQ(outcome.artifacts[0].second, "partial\n");
}

TEST_F(RunnerFilesTest, scratchDirectoriesAreEmptiedBeforeEachRun)
{
    RunnerTestClient &client = startRunner();
    const std::filesystem::path scratch = m_root / "scratch";
    std::filesystem::create_directory(scratch);
    nlohmann::json first =
        shellRun("r1", "mkdir -p " + scratch.string() + "/sub && echo secret > " + scratch.string() + "/sub/left.txt");
    first["scratch_dirs"] = nlohmann::json::array({scratch.string()});
    EXPECT_EQ(client.run(first).done["exit_code"], 0);

    nlohmann::json second = shellRun("r2", "ls -A " + scratch.string());
    second["scratch_dirs"] = nlohmann::json::array({scratch.string(), (m_root / "missing").string()});
    const RunOutcome outcome = client.run(second);
    EXPECT_EQ(outcome.done["exit_code"], 0);
    EXPECT_EQ(outcome.stdoutData, "");
    EXPECT_TRUE(std::filesystem::exists(scratch)) << "the directory itself stays";
}

TEST_F(RunnerFilesTest, treeNestedDeeperThanTheDescriptorLimitIsStillRemoved)
{
    // With 64 descriptors, removal that held one per level would fail on this tree, and with it every later
    // run in the same (pooled) container.
    RunnerTestClient &client = startRunner({}, {"/bin/sh", "-c", "ulimit -n 64 && exec \"$@\"", "sh"});
    std::string level100;
    for (int i = 0; i < 100; ++i) {
        level100 += "d/";
    }
    const std::string script = "for i in 1 2 3 4 5; do mkdir -p " + level100 + " && cd " + level100 +
                               " || exit 1; done; echo secret > left.txt && mkdir locked && chmod 0 locked";
    const RunOutcome first = client.run(shellRun("r1", script));
    ASSERT_EQ(first.done["exit_code"], 0) << first.stderrData;

    const RunOutcome second = client.run(shellRun("r2", "ls -A"));
    EXPECT_EQ(second.done["reason"], "exit") << nlohmann::json(second.errors).dump();
    EXPECT_EQ(second.stdoutData, "output\n");
}

TEST_F(RunnerFilesTest, aKeptDirectoryInScratchSpaceIsRestoredInsteadOfEmptied)
{
    // Not PID 1, the runner cannot know every process of a run is gone: it keeps no record, and each run starts
    // from the seed's links again (KeptDirectoryTest covers what a record keeps).
    RunnerTestClient &client = startRunner();
    const std::filesystem::path scratch = m_root / "scratch", seed = m_root / "seed";
    std::filesystem::create_directories(seed / "ab");
    std::ofstream(seed / "ab" / "fmt-d") << "compiled";
    const nlohmann::json kept =
        nlohmann::json::array({{{"path", (scratch / "cache").string()}, {"seed", seed.string()}}});
    nlohmann::json first = shellRun("r1", "cat " + (scratch / "cache/ab/fmt-d").string() + " && touch " +
                                              (scratch / "cache/added").string() + " " + (scratch / "other").string());
    first["scratch_dirs"] = nlohmann::json::array({scratch.string()});
    first["kept_dirs"] = kept;
    const RunOutcome outcome = client.run(first);
    EXPECT_EQ(outcome.done["exit_code"], 0) << outcome.stderrData;
    EXPECT_EQ(outcome.stdoutData, "compiled");

    nlohmann::json second = shellRun("r2", "cd " + scratch.string() + " && find . | sort");
    second["scratch_dirs"] = nlohmann::json::array({scratch.string()});
    second["kept_dirs"] = kept;
    EXPECT_EQ(client.run(second).stdoutData, ".\n./cache\n./cache/ab\n./cache/ab/fmt-d\n");
}

TEST_F(RunnerFilesTest, keptDirectoriesMustBeCleanAbsolutePaths)
{
    RunnerTestClient &client = startRunner();
    for (const char *path : {"relative", "/", "/tmp/../etc", "/tmp//cache", "/tmp/cache/"}) {
        nlohmann::json request = shellRun("r1", "true");
        request["kept_dirs"] = nlohmann::json::array({{{"path", path}}});
        EXPECT_EQ(client.run(request).done["reason"], "error") << path;
    }
}

TEST_F(RunnerFilesTest, scratchDirectoriesMustBeAbsolute)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "true");
    request["scratch_dirs"] = nlohmann::json::array({"relative/tmp"});
    EXPECT_EQ(client.run(request).done["reason"], "error");
}

} // namespace

TEST_F(RunnerFilesTest, putFileAndGetFileRoundTripBelowTheWorkdirAndKeepOtherFiles)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json first = shellRun("r1", "echo kept > kept.txt");
    client.run(first);

    nlohmann::json put = file("data/in.bin", allBytes(), 0600);
    put["op"] = "put_file";
    put["id"] = "p1";
    put["workdir"] = m_workdir.string();
    client.send(put);
    const auto written = client.waitFor("file");
    ASSERT_TRUE(written);
    EXPECT_EQ((*written)["id"], "p1");
    EXPECT_EQ((*written)["size"], 256);
    EXPECT_EQ(readWorkFile("data/in.bin"), allBytes());
    EXPECT_EQ(readWorkFile("kept.txt"), "kept\n");

    client.send({{"op", "get_file"}, {"id", "g1"}, {"workdir", m_workdir.string()}, {"path", "data/in.bin"}});
    const auto read = client.waitFor("file");
    ASSERT_TRUE(read);
    EXPECT_EQ((*read)["id"], "g1");
    EXPECT_EQ((*read)["data"], file("x", allBytes())["data"]);
}

TEST_F(RunnerFilesTest, getFileRefusesEscapesSymlinksDirectoriesAndOversizedFiles)
{
    RunnerTestClient &client = startRunner();
    const std::filesystem::path secret = m_root / "secret.txt";
    std::ofstream(secret) << "host secret";
    nlohmann::json setup = shellRun("r1", "ln -s " + secret.string() + " link; ln -s " + m_root.string() +
                                              " dirlink; mkdir sub; head -c 2000 /dev/zero > big");
    client.run(setup);

    const std::vector<std::pair<std::string, std::string>> cases = {{"../secret.txt", "relative"},
                                                                    {secret.string(), "relative"},
                                                                    {"link", "symlink"},
                                                                    {"dirlink/secret.txt", "cannot open parent"},
                                                                    {"sub", "not a regular file"},
                                                                    {"big", "more than the limit"},
                                                                    {"missing.txt", "No such file"}};
    for (const auto &[path, expected] : cases) {
        client.send(
            {{"op", "get_file"}, {"id", "g"}, {"workdir", m_workdir.string()}, {"path", path}, {"max_bytes", 1000}});
        const auto reply = client.next();
        ASSERT_TRUE(reply) << path;
        EXPECT_EQ((*reply)["ev"], "error") << path;
        EXPECT_NE((*reply)["message"].get<std::string>().find(expected), std::string::npos)
            << path << ": " << (*reply)["message"];
    }
}

TEST_F(RunnerFilesTest, putFileDoesNotWriteThroughSymlinks)
{
    RunnerTestClient &client = startRunner();
    const std::filesystem::path outside = m_root / "outside";
    std::filesystem::create_directory(outside);
    client.run(shellRun("r1", "ln -s " + outside.string() + " link"));

    nlohmann::json put = file("link/planted.txt", "nope");
    put["op"] = "put_file";
    put["id"] = "p1";
    put["workdir"] = m_workdir.string();
    client.send(put);
    const auto reply = client.next();
    ASSERT_TRUE(reply);
    EXPECT_EQ((*reply)["ev"], "error");
    EXPECT_FALSE(std::filesystem::exists(outside / "planted.txt"));
}

TEST_F(RunnerFilesTest, putFileRefusesAFifoTheCodeMadeInsteadOfWaitingForAReader)
{
    // Issue 44, item 13: opening the FIFO for writing blocked the runner until the session died.
    RunnerTestClient &client = startRunner();
    client.run(shellRun("r1", "mkfifo trap.csv"));

    nlohmann::json put = file("trap.csv", "a,b\n1,2\n");
    put["op"] = "put_file";
    put["id"] = "p1";
    put["workdir"] = m_workdir.string();
    client.send(put);
    const auto reply = client.next();
    ASSERT_TRUE(reply) << "no answer: the runner waits for a reader";
    EXPECT_EQ((*reply)["ev"], "error");
    EXPECT_NE((*reply)["message"].get<std::string>().find("not a regular file"), std::string::npos)
        << (*reply)["message"];
    // The runner still serves.
    EXPECT_EQ(client.run(shellRun("r2", "echo alive")).stdoutData, "alive\n");
}

} // namespace runner::test
