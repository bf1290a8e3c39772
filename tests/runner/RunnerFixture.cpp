#include "RunnerFixture.h"

#include "Base64.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace runner::test {

void RunnerFixture::SetUp()
{
    std::string pattern = (std::filesystem::temp_directory_path() / "runner-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    // Canonical, because steps report their working directory with symlinks resolved.
    m_root = std::filesystem::canonical(pattern);
    m_workdir = m_root / "work";
}

void RunnerFixture::TearDown()
{
    m_client.reset();
    std::error_code ignored;
    std::filesystem::remove_all(m_root, ignored);
}

void RunnerFixture::startRunnerAsPid1(const std::vector<std::string> &namespaces, RunnerTestClient *&client)
{
    client = nullptr;
    std::string options;
    for (const std::string &option : namespaces) {
        options += option + " ";
    }
    if (std::system(("unshare " + options + "--fork true >/dev/null 2>&1").c_str()) != 0) {
        if (std::getenv("LLM_SANDBOX_REQUIRE_NAMESPACES")) {
            FAIL() << "cannot create namespaces (" << options << ") here, and LLM_SANDBOX_REQUIRE_NAMESPACES is set";
        }
        GTEST_SKIP() << "cannot create namespaces (" << options << ") here";
    }
    std::vector<std::string> wrapper{"unshare"};
    wrapper.insert(wrapper.end(), namespaces.begin(), namespaces.end());
    wrapper.insert(wrapper.end(), {"--fork", "--kill-child"});
    client = &startRunner({}, wrapper);
}

RunnerTestClient &RunnerFixture::startRunner(const std::vector<std::string> &extraArguments,
                                             const std::vector<std::string> &wrapper)
{
    m_client = std::make_unique<RunnerTestClient>(extraArguments, wrapper);
    const std::optional<nlohmann::json> ready = m_client->next();
    EXPECT_TRUE(ready.has_value()) << "runner did not announce itself";
    if (ready) {
        EXPECT_EQ(ready->value("ev", ""), "ready");
        EXPECT_EQ(ready->value("version", 0), 1);
        EXPECT_TRUE(ready->contains("limits") && (*ready)["limits"].is_object()) << ready->dump();
    }
    return *m_client;
}

nlohmann::json RunnerFixture::runRequest(const std::string &id,
                                         const std::vector<std::vector<std::string>> &argvs) const
{
    nlohmann::json steps = nlohmann::json::array();
    int index = 0;
    for (const std::vector<std::string> &argv : argvs) {
        steps.push_back({{"name", "step" + std::to_string(++index)}, {"argv", argv}});
    }
    return {{"op", "run"},
            {"id", id},
            {"workdir", m_workdir.string()},
            {"files", nlohmann::json::array()},
            {"steps", steps},
            {"env", {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", m_root.string()}}},
            {"timeout_ms", 10000},
            {"max_output_bytes", 1024 * 1024},
            {"output_dir", (m_workdir / "output").string()},
            {"max_artifact_bytes", 1024 * 1024},
            {"max_artifacts", 32}};
}

nlohmann::json RunnerFixture::shellRun(const std::string &id, const std::string &script) const
{
    return runRequest(id, {{"/bin/sh", "-c", script}});
}

nlohmann::json RunnerFixture::file(const std::string &path, const std::string &contents, unsigned mode)
{
    return {{"path", path}, {"data", base64Encode(contents)}, {"mode", mode}};
}

std::string RunnerFixture::readWorkFile(const std::string &name) const
{
    std::ifstream stream(m_workdir / name, std::ios::binary);
    std::ostringstream contents;
    contents << stream.rdbuf();
    return contents.str();
}

bool RunnerFixture::processGone(pid_t pid)
{
    return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

} // namespace runner::test
