#include "RunnerTestClient.h"

#include "Base64.h"
#include "WaitUntil.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace runner::test {

namespace {

using Clock = std::chrono::steady_clock;

std::string decode(const nlohmann::json &message)
{
    const std::optional<std::string> data = base64Decode(message.value("data", std::string()));
    EXPECT_TRUE(data.has_value()) << "invalid base64 in " << message.dump();
    return data.value_or(std::string());
}

} // namespace

std::string encodeFrame(const nlohmann::json &message)
{
    return message.dump() + "\n";
}

std::optional<std::string> FrameDecoder::nextFrame()
{
    const std::size_t newline = m_buffer.find('\n');
    if (newline == std::string::npos) {
        return std::nullopt;
    }
    std::string line = m_buffer.substr(0, newline);
    m_buffer.erase(0, newline + 1);
    return line;
}

std::optional<nlohmann::json> FrameDecoder::nextMessage()
{
    const std::optional<std::string> line = nextFrame();
    if (!line) {
        return std::nullopt;
    }
    nlohmann::json message = nlohmann::json::parse(*line, nullptr, false);
    EXPECT_FALSE(message.is_discarded()) << "runner wrote invalid JSON: " << *line;
    return message;
}

void addToOutcome(RunOutcome &outcome, const nlohmann::json &message)
{
    outcome.messages.push_back(message);
    const std::string event = message.value("ev", std::string());
    if (event == "output") {
        (message.value("stream", std::string()) == "stdout" ? outcome.stdoutData : outcome.stderrData) +=
            decode(message);
    } else if (event == "step") {
        outcome.steps.push_back(message);
    } else if (event == "error") {
        outcome.errors.push_back(message);
    } else if (event == "artifact") {
        const std::string data = decode(message);
        EXPECT_EQ(message.value("size", std::uint64_t{0}), data.size()) << message.value("name", std::string());
        outcome.artifacts.emplace_back(message.value("name", std::string()), data);
    } else if (event == "done") {
        outcome.done = message;
    }
}

RunnerTestClient::RunnerTestClient(const std::vector<std::string> &extraArguments,
                                   const std::vector<std::string> &wrapper)
{
    std::vector<std::string> command = wrapper;
    command.push_back(runnerPath());
    command.insert(command.end(), extraArguments.begin(), extraArguments.end());
    std::vector<char *> argv;
    for (std::string &argument : command) {
        argv.push_back(argument.data());
    }
    argv.push_back(nullptr);

    int toRunner[2];
    int fromRunner[2];
    if (::pipe2(toRunner, O_CLOEXEC) != 0 || ::pipe2(fromRunner, O_CLOEXEC) != 0) {
        throw std::runtime_error("pipe2 failed");
    }
    m_pid = ::fork();
    if (m_pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (m_pid == 0) {
        ::dup2(toRunner[0], STDIN_FILENO);
        ::dup2(fromRunner[1], STDOUT_FILENO);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(toRunner[0]);
    ::close(fromRunner[1]);
    m_input = toRunner[1];
    m_output = fromRunner[0];
}

RunnerTestClient::~RunnerTestClient()
{
    closeInput();
    if (m_pid > 0 && !waitForExit(std::chrono::seconds(5))) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
    if (m_output >= 0) {
        ::close(m_output);
    }
}

std::string RunnerTestClient::runnerPath()
{
    if (const char *path = std::getenv("LLM_SANDBOX_RUNNER"); path && *path) {
        return path;
    }
    return LLM_SANDBOX_RUNNER_PATH;
}

void RunnerTestClient::send(const nlohmann::json &message)
{
    sendRaw(encodeFrame(message));
}

void RunnerTestClient::sendRaw(std::string_view bytes)
{
    // SIGPIPE would kill the whole test binary if the runner had died; make that a test failure instead.
    std::signal(SIGPIPE, SIG_IGN);
    while (!bytes.empty()) {
        const ssize_t written = ::write(m_input, bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR) {
            continue;
        }
        ASSERT_GT(written, 0) << "writing to the runner failed: " << std::strerror(errno);
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
}

void RunnerTestClient::closeInput()
{
    if (m_input >= 0) {
        ::close(m_input);
        m_input = -1;
    }
}

std::optional<nlohmann::json> RunnerTestClient::next(std::chrono::milliseconds timeout)
{
    const Clock::time_point deadline = Clock::now() + timeout;
    while (true) {
        if (std::optional<nlohmann::json> message = m_decoder.nextMessage()) {
            return message;
        }
        const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (remaining.count() <= 0) {
            return std::nullopt;
        }
        pollfd fd{m_output, POLLIN, 0};
        const int ready = ::poll(&fd, 1, static_cast<int>(remaining.count()));
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready <= 0) {
            return std::nullopt;
        }
        char chunk[65536];
        const ssize_t count = ::read(m_output, chunk, sizeof chunk);
        if (count <= 0) {
            return std::nullopt;
        }
        m_decoder.append(std::string_view(chunk, static_cast<std::size_t>(count)));
    }
}

std::optional<nlohmann::json> RunnerTestClient::waitFor(const std::string &event, std::chrono::milliseconds timeout,
                                                        std::vector<nlohmann::json> *skipped)
{
    const Clock::time_point deadline = Clock::now() + timeout;
    while (true) {
        const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        std::optional<nlohmann::json> message = next(std::max(remaining, std::chrono::milliseconds(0)));
        if (!message) {
            return std::nullopt;
        }
        if (message->value("ev", std::string()) == event) {
            return message;
        }
        if (skipped) {
            skipped->push_back(*message);
        }
    }
}

RunOutcome RunnerTestClient::collectRun(const std::string &id, std::chrono::milliseconds timeout)
{
    RunOutcome outcome;
    const Clock::time_point deadline = Clock::now() + timeout;
    while (true) {
        const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const std::optional<nlohmann::json> message = next(std::max(remaining, std::chrono::milliseconds(0)));
        if (!message) {
            ADD_FAILURE() << "no 'done' for run " << id;
            return outcome;
        }
        addToOutcome(outcome, *message);
        if (message->value("ev", std::string()) == "done" && message->value("id", std::string()) == id) {
            return outcome;
        }
    }
}

RunOutcome RunnerTestClient::run(const nlohmann::json &request, std::chrono::milliseconds timeout)
{
    send(request);
    return collectRun(request.at("id").get<std::string>(), timeout);
}

std::optional<int> RunnerTestClient::waitForExit(std::chrono::milliseconds timeout)
{
    if (m_pid <= 0) {
        return std::nullopt;
    }
    int status = 0;
    pid_t result = 0;
    sandbox::test::waitUntil(
        [&] {
            result = ::waitpid(m_pid, &status, WNOHANG);
            return result != 0;
        },
        timeout);
    if (result != m_pid) {
        return std::nullopt;
    }
    m_pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace runner::test
