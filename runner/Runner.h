#pragma once

#include "ForkServer.h"
#include "KeptDirectory.h"
#include "LineReader.h"
#include "MessageWriter.h"
#include "OomMonitor.h"
#include "Protocol.h"
#include "ResultDirectory.h"
#include "ReusedOutputs.h"
#include "SignalMonitor.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace runner {

class StepProcess;

// Why a run (or step) ended; the spelling of each value is part of the protocol (`done.reason`).
enum class EndReason
{
    Exit,
    Timeout,
    Oom,
    CpuLimit,
    OutputLimit,
    Cancelled,
    Error,
};

const char *toString(EndReason reason);

struct RunnerOptions final
{
    std::size_t maxLineBytes = 256 * 1024 * 1024;
    // PID 1 kills every process of the container after a run; otherwise only the run's process groups.
    bool isInit = false;
};

// The protocol engine: reads requests from stdin, executes runs one at a time and reports on stdout. A single
// poll() loop serves requests, step output, child exits and the deadline, so `ping` and `cancel` are answered
// while a step runs.
class Runner final
{
public:
    explicit Runner(RunnerOptions options);

    // Serves requests until stdin reaches end of file or a termination signal arrives; returns the exit status.
    int exec();

private:
    using Clock = std::chrono::steady_clock;

    struct ActiveRun final
    {
        const RunRequest *request = nullptr;
        Clock::time_point deadline;
        std::uint64_t outputBytes = 0;
        bool outputTruncated = false;
        bool cancelRequested = false;
        std::vector<pid_t> processGroups;
        StepProcess *process = nullptr;
        std::optional<EndReason> killReason; // set when the runner itself killed the current step
    };

    struct StepResult final
    {
        int exitCode = 0;
        EndReason reason = EndReason::Exit;
        std::int64_t wallMs = 0;
        std::int64_t cpuMs = 0;
        std::int64_t maxRssKb = 0;
    };

    struct RunSummary final
    {
        int exitCode = 0;
        EndReason reason = EndReason::Exit;
        std::optional<std::string> failedStep;
        std::int64_t wallMs = 0;
        std::int64_t cpuMs = 0;
        std::int64_t maxRssKb = 0;
        bool outputTruncated = false;
        std::uint64_t artifactsDropped = 0;
        bool processesSurvived = false; // some outlived SIGKILL: the container must not serve another run
    };

    void processInput(ActiveRun *active);
    void handleLine(const LineReader::Line &line, ActiveRun *active);
    void handleCancel(const std::string &id, ActiveRun *active);
    void handleFile(const Request &request);
    void requestShutdown(ActiveRun *active);
    void handleSignals(ActiveRun *active);

    void executeRun(RunRequest &run);
    void executeRunUnchecked(RunRequest &run, ActiveRun &active, RunSummary &summary);
    StepResult runStep(const RunRequest &run, const StepSpec &step, ActiveRun &active);
    void killStep(ActiveRun &active, EndReason reason);
    void forwardOutput(ActiveRun &active, const std::string &stepName, int stream);
    void sendArtifacts(const RunRequest &run, RunSummary &summary);
    void sendResultFiles(const RunRequest &run);
    void sendDone(const std::string &id, const RunSummary &summary);

    bool reapChildren(); // false once no children are left
    // As PID 1 every process of the container, otherwise the given process groups; returns once they are reaped.
    /// Kills (and reaps) what a run left; false when some processes outlived SIGKILL.
    bool killLeftoverProcesses(const std::vector<pid_t> &processGroups);
    bool killProcessGroups(const std::vector<pid_t> &processGroups);
    bool killAndReap(const std::vector<pid_t> &processGroups, bool everything);
    void killEverythingButForkServers();
    // As PID 1 with fork servers: every process but them and us, stopped first so none can fork meanwhile.
    void killAllButForkServers();
    // Whether a process other than us and the fork servers is left (as PID 1, from /proc).
    bool othersRemain() const;
    // After a run whose steps named preloaded interpreters: those interpreters, started (again) for the next run.
    void prepareForkServers(const RunRequest &run);
    // The running server started as `preload` with `env`, if there is one.
    ForkServer *forkServerFor(const std::vector<std::string> &preload, const std::vector<std::string> &env);
    bool anyForkServerRunning() const;
    bool isForkServer(pid_t pid) const;
    // The run's kept directories made what they were last recorded as. Throws std::runtime_error.
    void restoreKeptDirectories(const RunRequest &run);
    // After a step that ran only the toolchain: the run's kept directories recorded as that step left them.
    void recordKeptDirectories(const RunRequest &run);
    // Where `step` of `run` keeps and finds its output for the same program (ReusedOutputs.h), when it may.
    std::optional<ReusedOutputs> reusedOutputs(const RunRequest &run, const StepSpec &step, bool isLast) const;

    RunnerOptions m_options;
    MessageWriter m_writer;
    LineReader m_reader;
    SignalMonitor m_signals;
    OomMonitor m_oom;
    std::deque<RunRequest> m_queue; // runs received while another one was executing
    std::vector<char> m_outputBuffer;
    bool m_shutdown = false;

    // A language may have two preloaded interpreters (Python: a plain one, and one that imported the data and chart
    // libraries); a third that a run names replaces one.
    std::array<ForkServer, 2> m_forkServers;
    std::map<std::string, KeptDirectory> m_keptDirectories;     // by path
    std::map<std::string, ResultDirectory> m_resultDirectories; // by path
    pid_t m_stepPid = -1; // the current step's child, whose status reapChildren() records
    std::optional<int> m_stepStatus;
    rusage m_stepUsage{};
};

} // namespace runner
