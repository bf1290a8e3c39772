#pragma once

#include "UniqueFd.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

namespace runner {

// The step could not be started (fork failure, bad workdir, exec failure); the message is meant for the host.
class SpawnError final : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct SpawnOptions final
{
    std::vector<std::string> argv;
    std::vector<std::string> env; // "KEY=VALUE"; the child gets exactly this environment
    std::string searchPath;       // PATH used to find argv[0] when it contains no slash
    std::string workdir;
    std::uint64_t cpuLimitMs = 0; // RLIMIT_CPU of the child, rounded up to whole seconds; 0: unlimited
};

// The RLIMIT_CPU soft limit, in seconds, that spawn() gives a child for `cpuLimitMs` (0: none). The kernel counts
// whole seconds, so the limit is rounded up; the hard limit is one second more, for programs that ignore SIGXCPU.
std::uint64_t cpuLimitSeconds(std::uint64_t cpuLimitMs);

// Whether a step that ended with wait status `status` after `cpuMs` of CPU time was ended by its CPU-time limit:
// SIGXCPU at the soft limit, or SIGKILL at the hard limit when it ignored SIGXCPU. A SIGKILL that the runner sent
// or the OOM killer's must be ruled out by the caller.
bool endedByCpuLimit(int status, std::int64_t cpuMs, std::uint64_t cpuLimitMs);

// One running step: a child in its own session and process group (so the whole tree can be killed at once),
// stdin from /dev/null, stdout and stderr connected to non-blocking pipes read by the runner.
class StepProcess final
{
public:
    enum Stream
    {
        Stdout = 0,
        Stderr = 1,
    };

    // Returns only once execve() succeeded; exec failures are reported as SpawnError (the failed child has
    // already been reaped then).
    static StepProcess spawn(const SpawnOptions &options);

    // The runner lowers its own OOM score so the OOM killer prefers user code; children get this value back.
    static void setChildOomScoreAdj(const std::string &value);
    static const std::string &childOomScoreAdj();
    // A step started another way (ForkServer): `pid` in its own session, its output on these non-blocking pipes.
    static StepProcess adopt(pid_t pid, UniqueFd stdoutPipe, UniqueFd stderrPipe)
    {
        return StepProcess(pid, std::move(stdoutPipe), std::move(stderrPipe));
    }

    StepProcess(StepProcess &&) noexcept = default;
    StepProcess &operator=(StepProcess &&) noexcept = default;

    pid_t pid() const { return m_pid; }
    int fd(Stream stream) const { return m_pipes[stream].get(); }
    void closeStream(Stream stream) { m_pipes[stream].reset(); }
    bool hasOpenStreams() const { return m_pipes[Stdout].valid() || m_pipes[Stderr].valid(); }

    // SIGKILL to the step's process group. The child called setsid() before spawn() returned, so the group id
    // equals its pid.
    void killGroup() const;

private:
    StepProcess(pid_t pid, UniqueFd stdoutPipe, UniqueFd stderrPipe);

    pid_t m_pid;
    std::array<UniqueFd, 2> m_pipes;
};

} // namespace runner
