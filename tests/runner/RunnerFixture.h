#pragma once

#include "support/RunnerTestClient.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace runner::test {

// Each test gets a fresh runner process and a private temporary directory holding its workdir, so tests are
// independent and can run in parallel.
class RunnerFixture : public ::testing::Test
{
protected:
    void SetUp() override;
    void TearDown() override;

    // Starts a runner and consumes its `ready` message.
    RunnerTestClient &startRunner(const std::vector<std::string> &extraArguments = {},
                                  const std::vector<std::string> &wrapper = {});

    // Starts a runner as PID 1 of new namespaces (`unshare` options such as "--pid", "--ipc") into `client`. Where
    // this machine cannot create them, `client` stays null and the test is skipped, or fails when
    // LLM_SANDBOX_REQUIRE_NAMESPACES is set (scripts/test sets it: CI runs as root and must run these tests).
    void startRunnerAsPid1(const std::vector<std::string> &namespaces, RunnerTestClient *&client);

    // A run request with one step per argv, in the workdir, with a minimal environment.
    nlohmann::json runRequest(const std::string &id, const std::vector<std::vector<std::string>> &argvs) const;
    // A single-step run of `sh -c script`.
    nlohmann::json shellRun(const std::string &id, const std::string &script) const;
    static nlohmann::json file(const std::string &path, const std::string &contents, unsigned mode = 0644);

    std::string readWorkFile(const std::string &name) const;
    // True if no process with this pid exists any more (not even as a zombie).
    static bool processGone(pid_t pid);

    std::filesystem::path m_root;    // the test's temporary directory
    std::filesystem::path m_workdir; // m_root/work
    std::unique_ptr<RunnerTestClient> m_client;
};

} // namespace runner::test
