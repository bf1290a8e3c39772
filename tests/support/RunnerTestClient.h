#pragma once

// The runner test client: the real `llm-sandbox-runner` as a child process, spoken to with its framed protocol.

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace runner::test {

// The runner's framing (runner/PROTOCOL.md): one JSON message per line, both ways.

// `message` as the runner reads it: one line of JSON.
std::string encodeFrame(const nlohmann::json &message);

// Splits what the runner wrote into its messages: bytes go in as they come, whole messages come out.
class FrameDecoder final
{
public:
    void append(std::string_view bytes) { m_buffer.append(bytes); }
    // The next whole line, without its newline; nullopt until one arrived.
    std::optional<std::string> nextFrame();
    // The next whole line parsed; a line that is no JSON is a test failure (and a discarded value).
    std::optional<nlohmann::json> nextMessage();

private:
    std::string m_buffer;
};

// Everything the runner reported for one run, with output and artifacts already base64-decoded.
struct RunOutcome final
{
    std::vector<nlohmann::json> messages; // every message received until `done`, in order
    std::string stdoutData;
    std::string stderrData;
    std::vector<nlohmann::json> steps;
    std::vector<nlohmann::json> errors;
    std::vector<std::pair<std::string, std::string>> artifacts; // name, bytes
    nlohmann::json done;                                        // null if no `done` arrived in time
};

// Starts the real runner binary as a child process connected through pipes and speaks the protocol with it,
// the way the engine does over a container's attached stdin/stdout.
class RunnerTestClient final
{
public:
    // `wrapper` is prepended to the command line (e.g. `unshare --pid --fork` to make the runner PID 1).
    explicit RunnerTestClient(const std::vector<std::string> &extraArguments = {},
                              const std::vector<std::string> &wrapper = {});
    ~RunnerTestClient();

    RunnerTestClient(const RunnerTestClient &) = delete;
    RunnerTestClient &operator=(const RunnerTestClient &) = delete;

    // LLM_SANDBOX_RUNNER from the environment (set by ctest), else the path the build baked in.
    static std::string runnerPath();

    void send(const nlohmann::json &message);
    void sendRaw(std::string_view bytes);
    void closeInput();

    // The next message, or nullopt when none arrived within `timeout` or the runner closed its stdout.
    std::optional<nlohmann::json> next(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Skips messages until one with the given `ev` arrives; the skipped ones are appended to `skipped` if given.
    std::optional<nlohmann::json> waitFor(const std::string &event,
                                          std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                          std::vector<nlohmann::json> *skipped = nullptr);
    // Reads until the `done` of run `id`.
    RunOutcome collectRun(const std::string &id, std::chrono::milliseconds timeout = std::chrono::seconds(15));
    RunOutcome run(const nlohmann::json &request, std::chrono::milliseconds timeout = std::chrono::seconds(15));

    // The runner's exit status (or 128+signal), nullopt if it did not exit within `timeout`.
    std::optional<int> waitForExit(std::chrono::milliseconds timeout = std::chrono::seconds(5));

private:
    pid_t m_pid = -1;
    int m_input = -1;
    int m_output = -1;
    FrameDecoder m_decoder;
};

// Accumulates a decoded message into `outcome` (shared by collectRun() and tests that read messages themselves).
void addToOutcome(RunOutcome &outcome, const nlohmann::json &message);

} // namespace runner::test
