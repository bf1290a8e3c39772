#pragma once

#include "StepProcess.h"
#include "UniqueFd.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace runner {

// A language's preloaded interpreter in a warm container (resources/session/forkserver.py, forkserver.R): started
// once, it never runs user code; each run step that names it is a fresh fork of it. The runner keeps it across runs:
// after a run only the processes other than it are killed (Runner::killLeftoverProcesses), and it is non-dumpable, so
// user code (the same user) can neither trace it nor open its memory. Any failure — it died, it is not ready yet, it
// does not answer — means the step is started the usual way (StepProcess::spawn), so it only ever makes runs faster.
class ForkServer final
{
public:
    ~ForkServer();

    // Starts `argv` with exactly `env`, in `workdir`; its stdin is the request socket. Returns at once: the server
    // says when its imports are done, and ready() tells.
    void start(const std::vector<std::string> &argv, const std::vector<std::string> &env, const std::string &searchPath,
               const std::string &workdir);
    // Kills it and forgets it (its exit is reaped with the runner's other children).
    void stop();
    bool running() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    // Whether it was started as `argv` with `env`: a run with another environment needs another server.
    bool startedAs(const std::vector<std::string> &argv, const std::vector<std::string> &env) const
    {
        return running() && argv == m_argv && env == m_env;
    }
    // Whether it was started as `argv`, with whichever environment.
    bool startedWith(const std::vector<std::string> &argv) const { return running() && argv == m_argv; }
    // Whether its imports are done (reads its "ready" without waiting).
    bool ready();
    // Called when a child of the runner exited: the server itself may have died.
    void childExited(pid_t pid);

    // A forked step: the process runs once `release()` is called (the runner must know its pid before it can exit).
    struct Forked
    {
        StepProcess process;
        UniqueFd go;
        void release();
    };
    // A fork running `options.argv` (`python3 -u FILE ARGS...`, `Rscript FILE ARGS...`) as a step; nullopt when the
    // server cannot serve it.
    std::optional<Forked> fork(const SpawnOptions &options);

private:
    pid_t m_pid = -1;
    UniqueFd m_socket;
    bool m_ready = false;
    std::vector<std::string> m_argv;
    std::vector<std::string> m_env;
};

} // namespace runner
