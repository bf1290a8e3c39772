#include "Runner.h"

#include "Artifacts.h"
#include "Base64.h"
#include "IpcCleanup.h"
#include "LimitProbe.h"
#include "ResultDirectory.h"
#include "ReusedOutputs.h"
#include "StepProcess.h"
#include "Workspace.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <malloc.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace runner {

// Ordered so every message starts with "ev", which keeps the stream readable when debugging.
using json = nlohmann::ordered_json;

namespace {

using Clock = std::chrono::steady_clock;

// Output is forwarded as it arrives, in messages of at most this many bytes (before base64).
constexpr std::size_t outputChunkBytes = 64 * 1024;
// After a step's process exits, background processes it left behind may keep its output pipes open; give them
// this long to close before moving on, so output written just before exit is never lost.
constexpr auto outputGracePeriod = std::chrono::milliseconds(100);
// A process stuck in the kernel can survive SIGKILL for a while; it must not hang the runner forever.
constexpr auto reapTimeout = std::chrono::seconds(5);
constexpr auto killRepeatInterval = std::chrono::milliseconds(100);
// Larger timeouts would overflow the clock arithmetic; ten years is "no timeout" in practice.
constexpr std::uint64_t maxTimeoutMs = 10ULL * 365 * 24 * 3600 * 1000;
// glibc's execvp() default when PATH is unset, extended by /usr/local/bin like most distributions' PATH.
constexpr const char *defaultSearchPath = "/usr/local/bin:/usr/bin:/bin";

int millisecondsUntil(Clock::time_point target)
{
    const auto remaining = target - Clock::now();
    if (remaining <= Clock::duration::zero()) {
        return 0;
    }
    // Round up: waking a little early would only spin once more, waking late never happens this way.
    const auto milliseconds = std::chrono::ceil<std::chrono::milliseconds>(remaining).count();
    return static_cast<int>(std::min<std::int64_t>(milliseconds, INT_MAX));
}

std::int64_t elapsedMs(Clock::time_point start, Clock::time_point end)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(end - start).count();
}

std::int64_t toMs(const timeval &time)
{
    return static_cast<std::int64_t>(time.tv_sec) * 1000 + time.tv_usec / 1000;
}

int exitCodeOf(int status)
{
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return -1;
}

void logDiagnostic(const std::string &message)
{
    std::fprintf(stderr, "llm-sandbox-runner: %s\n", message.c_str());
}

bool isDirectory(const std::string &path)
{
    struct stat info
    {
    };
    return ::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

} // namespace

const char *toString(EndReason reason)
{
    switch (reason) {
    case EndReason::Exit:
        return "exit";
    case EndReason::Timeout:
        return "timeout";
    case EndReason::Oom:
        return "oom";
    case EndReason::CpuLimit:
        return "cpu_limit";
    case EndReason::OutputLimit:
        return "output_limit";
    case EndReason::Cancelled:
        return "cancelled";
    case EndReason::Error:
        return "error";
    }
    return "error";
}

Runner::Runner(RunnerOptions options)
    : m_options(options), m_writer(STDOUT_FILENO), m_reader(STDIN_FILENO, options.maxLineBytes),
      m_outputBuffer(outputChunkBytes)
{}

int Runner::exec()
{
    // Older hosts ignore the extra field; newer ones refuse a sandbox whose limits are not in force.
    m_writer.send({{"ev", "ready"}, {"version", protocolVersion}, {"limits", limitsToJson(probeLimits())}});
    while (!m_shutdown) {
        if (!m_queue.empty()) {
            RunRequest run = std::move(m_queue.front());
            m_queue.pop_front();
            executeRun(run);
            continue;
        }
        std::array<pollfd, 2> fds{{{m_signals.fd(), POLLIN, 0}, {m_reader.fd(), POLLIN, 0}}};
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            logDiagnostic(std::string("poll failed: ") + std::strerror(errno));
            break;
        }
        if (fds[0].revents != 0) {
            handleSignals(nullptr);
        }
        if (fds[1].revents != 0) {
            m_reader.readAvailable();
            processInput(nullptr);
        }
    }
    killLeftoverProcesses({});
    return 0;
}

void Runner::processInput(ActiveRun *active)
{
    while (const std::optional<LineReader::Line> line = m_reader.nextLine()) {
        handleLine(*line, active);
    }
    if (m_reader.finished()) {
        requestShutdown(active);
    }
}

void Runner::handleLine(const LineReader::Line &line, ActiveRun *active)
{
    if (line.tooLong) {
        m_writer.sendError({}, "request line longer than " + std::to_string(m_reader.maxLineBytes()) + " bytes");
        return;
    }
    if (line.text.find_first_not_of(" \t") == std::string::npos) {
        return;
    }
    try {
        Request request = parseRequest(line.text);
        switch (request.operation) {
        case Operation::Ping:
            m_writer.send({{"ev", "pong"}});
            break;
        case Operation::Cancel:
            handleCancel(request.id, active);
            break;
        case Operation::Run:
            // Runs execute one at a time; one that arrives during another waits its turn.
            m_queue.push_back(std::move(request.run));
            break;
        case Operation::PutFile:
        case Operation::GetFile:
            handleFile(request);
            break;
        }
    } catch (const ProtocolError &error) {
        m_writer.sendError(error.id(), error.what());
        if (error.isRun()) {
            // The host waits for the `done` of every run it started, refused ones included.
            RunSummary summary;
            summary.exitCode = -1;
            summary.reason = EndReason::Error;
            sendDone(error.id(), summary);
        }
    } catch (const std::exception &error) {
        // E.g. bad_alloc for an absurd request; the runner itself must keep going.
        m_writer.sendError({}, std::string("cannot handle request: ") + error.what());
    }
}

void Runner::handleFile(const Request &request)
{
    try {
        Workspace workspace(request.file.workdir);
        workspace.open();
        const FileSpec &file = request.file.file;
        if (request.operation == Operation::PutFile) {
            workspace.writeFile(file);
            m_writer.send({{"ev", "file"}, {"id", request.id}, {"path", file.path}, {"size", file.data.size()}});
        } else {
            const std::string data = workspace.readFile(file.path, request.file.maxBytes);
            m_writer.send({{"ev", "file"},
                           {"id", request.id},
                           {"path", file.path},
                           {"size", data.size()},
                           {"data", base64Encode(data)}});
        }
    } catch (const std::exception &error) {
        m_writer.sendError(request.id, error.what());
    }
}

void Runner::handleCancel(const std::string &id, ActiveRun *active)
{
    if (active && active->request->id == id) {
        active->cancelRequested = true;
        if (active->process) {
            killStep(*active, EndReason::Cancelled);
        }
        return;
    }
    const auto queued =
        std::find_if(m_queue.begin(), m_queue.end(), [&id](const RunRequest &run) { return run.id == id; });
    if (queued != m_queue.end()) {
        m_queue.erase(queued);
        RunSummary summary;
        summary.exitCode = -1;
        summary.reason = EndReason::Cancelled;
        sendDone(id, summary);
    }
    // Otherwise the cancel crossed the run's `done` on the wire; there is nothing left to cancel.
}

void Runner::requestShutdown(ActiveRun *active)
{
    m_shutdown = true;
    if (active) {
        active->cancelRequested = true;
        if (active->process) {
            killStep(*active, EndReason::Cancelled);
        }
    }
}

void Runner::handleSignals(ActiveRun *active)
{
    if (m_signals.drain().terminate) {
        requestShutdown(active);
    }
    reapChildren();
}

void Runner::executeRun(RunRequest &run)
{
    ActiveRun active;
    active.request = &run;
    active.deadline = Clock::now() + std::chrono::milliseconds(std::min(run.timeoutMs, maxTimeoutMs));
    RunSummary summary;
    bool completed = false;
    try {
        executeRunUnchecked(run, active, summary);
        completed = true;
    } catch (const std::exception &error) {
        // Workspace preparation failures end up here (bad workdir, undeletable leftovers, unwritable files).
        m_writer.sendError(run.id, error.what());
        summary.reason = EndReason::Error;
        summary.exitCode = -1;
    }
    active.process = nullptr;
    m_stepPid = -1;

    if (run.keepProcesses) {
        // A session's interpreter outlives the run; only the steps' own process groups end with it.
        summary.processesSurvived = !killProcessGroups(active.processGroups);
        if (m_options.isInit && (!completed || summary.reason != EndReason::Exit)) {
            // The step was killed while the interpreter ran its code: interrupt that code, keep the interpreter.
            ::kill(-1, SIGINT);
        }
    } else {
        summary.processesSurvived = !killLeftoverProcesses(active.processGroups);
    }
    // As PID 1 the IPC namespace is the container's own; elsewhere these would be the host user's objects.
    if (!run.keepProcesses && m_options.isInit && removeSysvIpcObjects(::getuid()) > 0) {
        logDiagnostic("some System V IPC objects of the run could not be removed");
    }
    if (completed && !m_shutdown) {
        sendArtifacts(run, summary);
        sendResultFiles(run);
    }
    summary.outputTruncated = active.outputTruncated;
    sendDone(run.id, summary);
    if (!run.keepProcesses) {
        prepareForkServers(run);
    }
}

void Runner::executeRunUnchecked(RunRequest &run, ActiveRun &active, RunSummary &summary)
{
    Workspace workspace(run.workdir);
    workspace.prepare(run.keepFiles, run.outputDir);
    if (!run.keepFiles) {
        std::vector<std::string> kept;
        for (const KeptDirSpec &directory : run.keptDirs) {
            kept.push_back(directory.path);
        }
        for (const std::string &directory : run.scratchDirs) {
            Workspace::emptyScratch(directory, kept);
        }
    }
    restoreKeptDirectories(run);
    // What the last run left in a writable shared folder was sent after it; this run starts from the folder. A
    // directory the container was not given (a folder shared after a session's sandbox started) is left alone.
    for (const ResultDirSpec &spec : run.resultDirs) {
        if (!isDirectory(spec.path)) {
            continue;
        }
        auto directory = m_resultDirectories.find(spec.path);
        if (directory != m_resultDirectories.end() && directory->second.seed() != spec.seed) {
            m_resultDirectories.erase(directory);
            directory = m_resultDirectories.end();
        }
        if (directory == m_resultDirectories.end()) {
            directory = m_resultDirectories.try_emplace(spec.path, spec.path, spec.seed).first;
        }
        directory->second.restore();
    }
    std::size_t fileBytes = 0;
    for (const FileSpec &file : run.files) {
        workspace.writeFile(file);
        fileBytes += file.data.size();
    }
    // A step's max_rss_kb starts from the runner's resident size at fork() (the kernel keeps the high-water mark
    // across execve), so large file payloads must be gone from memory before the first step is forked.
    std::vector<FileSpec>().swap(run.files);
    if (fileBytes > 1024 * 1024) {
        ::malloc_trim(0);
    }

    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const StepSpec &step = run.steps[i];
        const bool isLast = i + 1 == run.steps.size();
        if (active.cancelRequested || m_shutdown || Clock::now() >= active.deadline) {
            // Nothing of this step ran, so there is no exit status to report.
            summary.reason = Clock::now() >= active.deadline ? EndReason::Timeout : EndReason::Cancelled;
            summary.exitCode = -1;
            return;
        }

        // A program this warm container built before: its output, without the toolchain.
        const std::optional<ReusedOutputs> reused = reusedOutputs(run, step, isLast);
        const std::string output = run.workdir + '/' + step.reuseFile;
        if (const auto start = Clock::now(); reused && reused->fetch(step.reuseKey, output)) {
            m_writer.send(
                {{"ev", "step"},
                 {"id", run.id},
                 {"step", step.name},
                 {"exit_code", 0},
                 {"wall_ms", std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count()},
                 {"cpu_ms", 0},
                 {"max_rss_kb", 0},
                 {"reused", true}});
            continue;
        }

        StepResult result = runStep(run, step, active);
        if (result.reason == EndReason::Exit && active.outputTruncated) {
            // The cap was hit by a background process after the step's own process had exited.
            result.reason = EndReason::OutputLimit;
        } else if (result.reason == EndReason::Exit && active.cancelRequested) {
            result.reason = EndReason::Cancelled;
        }
        m_writer.send({{"ev", "step"},
                       {"id", run.id},
                       {"step", step.name},
                       {"exit_code", result.exitCode},
                       {"wall_ms", result.wallMs},
                       {"cpu_ms", result.cpuMs},
                       {"max_rss_kb", result.maxRssKb}});
        summary.exitCode = result.exitCode;
        summary.wallMs += result.wallMs;
        summary.cpuMs += result.cpuMs;
        summary.maxRssKb = std::max(summary.maxRssKb, result.maxRssKb);
        if (reused && result.reason == EndReason::Exit && result.exitCode == 0) {
            reused->store(step.reuseKey, output);
        }
        if (!isLast && result.reason == EndReason::Exit) {
            recordKeptDirectories(run);
        }
        if (result.reason != EndReason::Exit || result.exitCode != 0) {
            summary.reason = result.reason;
            if (!isLast) {
                summary.failedStep = step.name;
            }
            return;
        }
    }
}

namespace {

// What a kept directory may hold beyond its seed's links; past it, a record starts again from the seed.
constexpr std::uint64_t maxKeptBytes = 32 * 1024 * 1024;

// Whether every process of the previous run is gone, so nothing but the runner can have touched a kept directory
// since it was restored, and nothing can touch it while it is restored and before the next step.
bool keepsNoProcesses(const RunRequest &run, const RunnerOptions &options)
{
    return options.isInit && !run.keepProcesses && !run.keepFiles;
}

} // namespace

void Runner::restoreKeptDirectories(const RunRequest &run)
{
    for (const KeptDirSpec &spec : run.keptDirs) {
        auto kept = m_keptDirectories.find(spec.path);
        if (kept != m_keptDirectories.end() &&
            (kept->second.seed() != spec.seed || !keepsNoProcesses(run, m_options))) {
            // Another seed, or a run whose processes may outlive it: its record is not to be trusted.
            m_keptDirectories.erase(kept);
            kept = m_keptDirectories.end();
        }
        if (kept == m_keptDirectories.end()) {
            kept = m_keptDirectories.try_emplace(spec.path, spec.path, spec.seed, maxKeptBytes).first;
        }
        kept->second.restore();
    }
}

std::optional<ReusedOutputs> Runner::reusedOutputs(const RunRequest &run, const StepSpec &step, bool isLast) const
{
    // Only where the kept directory is trusted: restored to a record taken right after a compile step.
    if (step.reuseKey.empty() || isLast || run.keptDirs.empty() || !keepsNoProcesses(run, m_options) ||
        !m_keptDirectories.contains(run.keptDirs.front().path)) {
        return std::nullopt;
    }
    return ReusedOutputs(run.keptDirs.front().path + "/.llm-sandbox-outputs");
}

void Runner::recordKeptDirectories(const RunRequest &run)
{
    if (!keepsNoProcesses(run, m_options)) {
        return;
    }
    for (const KeptDirSpec &spec : run.keptDirs) {
        try {
            m_keptDirectories.at(spec.path).record();
        } catch (const std::exception &error) {
            logDiagnostic(std::string("kept directory not recorded: ") + error.what());
            m_keptDirectories.erase(spec.path);
        }
    }
}

Runner::StepResult Runner::runStep(const RunRequest &run, const StepSpec &step, ActiveRun &active)
{
    StepResult result;
    const std::optional<std::uint64_t> oomKillsBefore = m_oom.killCount();
    const Clock::time_point start = Clock::now();

    std::optional<StepProcess> process;
    std::optional<ForkServer::Forked> forked;
    const SpawnOptions options{step.argv, run.env, run.hasPathVariable ? run.pathVariable : defaultSearchPath,
                               run.workdir, run.cpuLimitMs};
    try {
        if (ForkServer *server = forkServerFor(step.preload, run.env)) {
            forked = server->fork(options);
        }
        if (forked) {
            process.emplace(std::move(forked->process));
        } else {
            process.emplace(StepProcess::spawn(options));
        }
    } catch (const SpawnError &error) {
        m_writer.sendError(run.id, "step '" + step.name + "': " + error.what());
        result.exitCode = 127;
        result.reason = EndReason::Error;
        result.wallMs = elapsedMs(start, Clock::now());
        return result;
    }

    // Whatever happens below, the runner must not keep pointing at this step once it is over.
    struct StepScope final
    {
        Runner &runner;
        ActiveRun &active;
        ~StepScope()
        {
            active.process = nullptr;
            runner.m_stepPid = -1;
        }
    } scope{*this, active};
    active.processGroups.push_back(process->pid());
    active.process = &*process;
    active.killReason.reset();
    m_stepPid = process->pid();
    m_stepStatus.reset();
    if (forked) {
        forked->release(); // the fork of the preloaded interpreter runs the program from here on
    }

    std::optional<Clock::time_point> exitTime;
    while (true) {
        const Clock::time_point now = Clock::now();
        if (m_stepStatus && !exitTime) {
            exitTime = now;
        }
        if (exitTime && (!process->hasOpenStreams() || now >= *exitTime + outputGracePeriod)) {
            break;
        }
        if (!exitTime && !active.killReason && now >= active.deadline) {
            killStep(active, EndReason::Timeout);
        }

        int timeout = -1; // after a kill only the child's exit is awaited
        if (exitTime) {
            timeout = millisecondsUntil(*exitTime + outputGracePeriod);
        } else if (!active.killReason) {
            timeout = millisecondsUntil(active.deadline);
        }
        std::array<pollfd, 4> fds{{
            {m_signals.fd(), POLLIN, 0},
            {m_reader.endOfFile() ? -1 : m_reader.fd(), POLLIN, 0},
            {process->fd(StepProcess::Stdout), POLLIN, 0},
            {process->fd(StepProcess::Stderr), POLLIN, 0},
        }};
        if (::poll(fds.data(), fds.size(), timeout) < 0) {
            if (errno == EINTR) {
                continue;
            }
            logDiagnostic(std::string("poll failed: ") + std::strerror(errno));
            killStep(active, EndReason::Error);
            ::poll(nullptr, 0, 10); // do not spin if poll() keeps failing
            reapChildren();
            continue;
        }
        if (fds[0].revents != 0) {
            handleSignals(&active);
        }
        if (fds[1].revents != 0) {
            m_reader.readAvailable();
            processInput(&active);
        }
        for (const auto stream : {StepProcess::Stdout, StepProcess::Stderr}) {
            if (fds[2 + stream].revents != 0 && process->fd(stream) >= 0) {
                forwardOutput(active, step.name, stream);
            }
        }
    }

    const int status = *m_stepStatus;
    result.exitCode = exitCodeOf(status);
    result.wallMs = elapsedMs(start, *exitTime);
    result.cpuMs = toMs(m_stepUsage.ru_utime) + toMs(m_stepUsage.ru_stime);
    result.maxRssKb = m_stepUsage.ru_maxrss;
    if (active.killReason) {
        result.reason = *active.killReason;
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
        // Only a SIGKILL the runner did not send can be the OOM killer, and only if the cgroup counted one.
        const std::optional<std::uint64_t> oomKillsAfter = m_oom.killCount();
        if (oomKillsBefore && oomKillsAfter && *oomKillsAfter > *oomKillsBefore) {
            result.reason = EndReason::Oom;
        }
    }
    if (result.reason == EndReason::Exit && !active.killReason &&
        endedByCpuLimit(status, result.cpuMs, run.cpuLimitMs)) {
        result.reason = EndReason::CpuLimit;
    }
    return result;
}

void Runner::killStep(ActiveRun &active, EndReason reason)
{
    // The first reason wins (a timeout stays a timeout even if a cancel follows), and a step that already exited
    // on its own keeps its own exit reason.
    if (!active.killReason && !m_stepStatus) {
        active.killReason = reason;
    }
    if (active.process) {
        active.process->killGroup();
    }
}

void Runner::forwardOutput(ActiveRun &active, const std::string &stepName, int stream)
{
    StepProcess &process = *active.process;
    const auto which = static_cast<StepProcess::Stream>(stream);
    const ssize_t count = ::read(process.fd(which), m_outputBuffer.data(), m_outputBuffer.size());
    if (count < 0) {
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
            process.closeStream(which);
        }
        return;
    }
    if (count == 0) {
        process.closeStream(which);
        return;
    }
    if (active.outputTruncated) {
        return; // keep draining so the writers are not blocked, but forward nothing past the cap
    }

    auto size = static_cast<std::uint64_t>(count);
    const std::uint64_t remaining = active.request->maxOutputBytes - active.outputBytes;
    if (size > remaining) {
        size = remaining;
        active.outputTruncated = true;
    }
    if (size > 0) {
        m_writer.send({{"ev", "output"},
                       {"id", active.request->id},
                       {"step", stepName},
                       {"stream", which == StepProcess::Stdout ? "stdout" : "stderr"},
                       {"data", base64Encode({m_outputBuffer.data(), static_cast<std::size_t>(size)})}});
        active.outputBytes += size;
    }
    if (active.outputTruncated) {
        killStep(active, EndReason::OutputLimit);
    }
}

void Runner::sendArtifacts(const RunRequest &run, RunSummary &summary)
{
    if (run.outputDir.empty()) {
        return;
    }
    try {
        const ArtifactCollector collector(Workspace(run.workdir).resolve(run.outputDir), run.maxArtifacts,
                                          run.maxArtifactBytes);
        summary.artifactsDropped = collector.collect([&](const std::string &name, const std::string &data) {
            m_writer.send({{"ev", "artifact"},
                           {"id", run.id},
                           {"name", name},
                           {"size", data.size()},
                           {"data", base64Encode(data)}});
        });
    } catch (const std::exception &error) {
        m_writer.sendError(run.id, std::string("cannot collect artifacts: ") + error.what());
    }
}

void Runner::sendResultFiles(const RunRequest &run)
{
    for (const ResultDirSpec &spec : run.resultDirs) {
        const auto directory = m_resultDirectories.find(spec.path);
        if (directory == m_resultDirectories.end() || directory->second.seed() != spec.seed) {
            continue; // not restored for this run: not given to the container
        }
        try {
            directory->second.collect(run.maxResultFiles, run.maxResultBytes, [&](const ResultDirectory::File &file) {
                json event{{"ev", "result_file"}, {"id", run.id},      {"dir", spec.path},
                           {"name", file.name},   {"type", file.type}, {"size", file.size}};
                if (file.data) {
                    event["raw"] = file.data->size();
                    m_writer.send(event, *file.data);
                } else {
                    m_writer.send(event);
                }
            });
        } catch (const std::exception &error) {
            m_writer.sendError(run.id, "cannot collect the results in " + spec.path + ": " + error.what());
        }
    }
}

void Runner::sendDone(const std::string &id, const RunSummary &summary)
{
    m_writer.send({{"ev", "done"},
                   {"id", id},
                   {"exit_code", summary.exitCode},
                   {"reason", toString(summary.reason)},
                   {"failed_step", summary.failedStep ? json(*summary.failedStep) : json(nullptr)},
                   {"wall_ms", summary.wallMs},
                   {"cpu_ms", summary.cpuMs},
                   {"max_rss_kb", summary.maxRssKb},
                   {"output_truncated", summary.outputTruncated},
                   {"artifacts_dropped", summary.artifactsDropped},
                   {"processes_survived", summary.processesSurvived}});
}

bool Runner::reapChildren()
{
    while (true) {
        int status = 0;
        rusage usage{};
        const pid_t pid = ::wait4(-1, &status, WNOHANG, &usage);
        if (pid < 0 && errno == EINTR) {
            continue;
        }
        if (pid < 0) {
            return false; // ECHILD: no children left at all
        }
        if (pid == 0) {
            return true;
        }
        if (pid == m_stepPid) {
            m_stepStatus = status;
            m_stepUsage = usage;
        }
        for (ForkServer &server : m_forkServers) {
            server.childExited(pid);
        }
        // Any other pid is an orphan reparented to us (we are PID 1 or a subreaper); reaping is all it needs.
    }
}

bool Runner::killLeftoverProcesses(const std::vector<pid_t> &processGroups)
{
    return killAndReap(processGroups, m_options.isInit);
}

void Runner::killEverythingButForkServers()
{
    if (anyForkServerRunning()) {
        killAllButForkServers();
    } else {
        // Reaches daemons that left the step's process group with setsid() as well.
        ::kill(-1, SIGKILL);
    }
}

void Runner::killAllButForkServers()
{
    // Stopped, nothing can fork; then every process but the servers is killed, and the servers go on.
    ::kill(-1, SIGSTOP);
    if (DIR *proc = ::opendir("/proc")) {
        while (const dirent *entry = ::readdir(proc)) {
            const pid_t pid = pid_t(std::strtol(entry->d_name, nullptr, 10));
            if (pid > 1 && !isForkServer(pid)) {
                ::kill(pid, SIGKILL);
            }
        }
        ::closedir(proc);
    }
    for (const ForkServer &server : m_forkServers) {
        if (server.running()) {
            ::kill(server.pid(), SIGCONT);
        }
    }
}

ForkServer *Runner::forkServerFor(const std::vector<std::string> &preload, const std::vector<std::string> &env)
{
    if (preload.empty()) {
        return nullptr;
    }
    for (ForkServer &server : m_forkServers) {
        if (server.startedAs(preload, env)) {
            return &server;
        }
    }
    return nullptr;
}

bool Runner::anyForkServerRunning() const
{
    return std::any_of(m_forkServers.begin(), m_forkServers.end(),
                       [](const ForkServer &server) { return server.running(); });
}

bool Runner::isForkServer(pid_t pid) const
{
    return std::any_of(m_forkServers.begin(), m_forkServers.end(),
                       [pid](const ForkServer &server) { return server.running() && server.pid() == pid; });
}

bool Runner::othersRemain() const
{
    bool found = false;
    if (DIR *proc = ::opendir("/proc")) {
        while (const dirent *entry = ::readdir(proc)) {
            const pid_t pid = pid_t(std::strtol(entry->d_name, nullptr, 10));
            found = found || (pid > 1 && !isForkServer(pid));
        }
        ::closedir(proc);
    }
    return found;
}

void Runner::prepareForkServers(const RunRequest &run)
{
    if (!m_options.isInit || m_shutdown) {
        return;
    }
    for (const StepSpec &step : run.steps) {
        if (step.preload.empty() || forkServerFor(step.preload, run.env)) {
            continue;
        }
        // A free slot, else the server of this interpreter with another environment, else one this run did not name.
        const auto named = [&](const ForkServer &server) {
            return std::any_of(run.steps.begin(), run.steps.end(),
                               [&](const StepSpec &other) { return server.startedAs(other.preload, run.env); });
        };
        ForkServer *slot = nullptr;
        for (ForkServer &server : m_forkServers) {
            if (!server.running() || server.startedWith(step.preload)) {
                slot = &server;
                break;
            }
        }
        for (ForkServer &server : m_forkServers) {
            if (!slot && !named(server)) {
                slot = &server;
            }
        }
        if (slot) {
            slot->start(step.preload, run.env, run.hasPathVariable ? run.pathVariable : defaultSearchPath, run.workdir);
        }
    }
}

bool Runner::killProcessGroups(const std::vector<pid_t> &processGroups)
{
    return killAndReap(processGroups, false);
}

bool Runner::killAndReap(const std::vector<pid_t> &processGroups, bool everything)
{
    // Wait until the killed processes are gone, so none of them outlives the run's `done`. The kill is sent again
    // while waiting: a fork bomb's child born while the first one went out (gVisor does not make kill(-1) and fork
    // atomic) is caught by the next.
    const Clock::time_point deadline = Clock::now() + reapTimeout;
    Clock::time_point nextKill = Clock::now();
    while (true) {
        if (Clock::now() >= nextKill) {
            if (everything) {
                killEverythingButForkServers();
            } else {
                for (const pid_t group : processGroups) {
                    ::kill(-group, SIGKILL);
                }
            }
            nextKill = Clock::now() + killRepeatInterval;
        }
        const bool haveChildren = reapChildren();
        bool remaining = false;
        if (everything) {
            // The fork server is a child that stays.
            remaining = anyForkServerRunning() ? othersRemain() : haveChildren;
        } else {
            remaining = std::any_of(processGroups.begin(), processGroups.end(),
                                    [](pid_t group) { return ::kill(-group, 0) == 0; });
        }
        if (!remaining) {
            return true;
        }
        const int timeout = millisecondsUntil(deadline);
        if (timeout == 0) {
            logDiagnostic("some processes survived SIGKILL; the container is not used again");
            return false;
        }
        // Members of a killed group may be reaped by someone else and send us no SIGCHLD; re-check regularly.
        pollfd fd{m_signals.fd(), POLLIN, 0};
        ::poll(&fd, 1, std::min(timeout, 10));
        if (fd.revents != 0 && m_signals.drain().terminate) {
            m_shutdown = true;
        }
    }
}

} // namespace runner
