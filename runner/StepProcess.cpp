#include "StepProcess.h"

#include "SignalMonitor.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace runner {

namespace {

std::string g_childOomScoreAdj;

// Which part of the child's set-up failed; sent through a close-on-exec pipe so the parent can tell an exec
// failure (nothing arrives, the pipe closes on success) from a program that merely exits 127.
enum class ChildStage : int
{
    Session,
    Workdir,
    Stdio,
    Limits,
    Exec,
};

struct ChildFailure final
{
    ChildStage stage;
    int error;
};

struct ChildSetup final
{
    const char *workdir;
    char *const *argv;
    char *const *envp;
    std::vector<const char *> candidates;
    int devNull;
    int stdoutWrite;
    int stderrWrite;
    int statusWrite;
    const char *oomScoreAdj; // nullptr: leave unchanged
    rlim_t cpuLimitSeconds;  // 0: leave unchanged
};

std::vector<char *> toPointers(const std::vector<std::string> &strings)
{
    std::vector<char *> pointers;
    pointers.reserve(strings.size() + 1);
    for (const std::string &string : strings) {
        pointers.push_back(const_cast<char *>(string.c_str()));
    }
    pointers.push_back(nullptr);
    return pointers;
}

// execvpe() would search the runner's own PATH; steps must be resolved with the PATH of the request's env.
std::vector<std::string> executableCandidates(const std::string &program, const std::string &searchPath)
{
    if (program.find('/') != std::string::npos) {
        return {program};
    }
    std::vector<std::string> candidates;
    std::size_t start = 0;
    while (start <= searchPath.size()) {
        const std::size_t end = std::min(searchPath.find(':', start), searchPath.size());
        const std::string directory = searchPath.substr(start, end - start);
        // An empty PATH entry means the current directory, which is the workdir after chdir().
        candidates.push_back(directory.empty() ? program : directory + "/" + program);
        start = end + 1;
    }
    return candidates;
}

[[noreturn]] void failChild(int statusWrite, ChildStage stage, int error)
{
    const ChildFailure failure{stage, error};
    [[maybe_unused]] const ssize_t ignored = ::write(statusWrite, &failure, sizeof failure);
    ::_exit(127);
}

// Runs between fork() and execve(): async-signal-safe calls only.
[[noreturn]] void runChild(const ChildSetup &setup)
{
    SignalMonitor::resetInChild();
    if (::setsid() < 0) {
        failChild(setup.statusWrite, ChildStage::Session, errno);
    }
    if (::chdir(setup.workdir) < 0) {
        failChild(setup.statusWrite, ChildStage::Workdir, errno);
    }
    if (::dup2(setup.devNull, STDIN_FILENO) < 0 || ::dup2(setup.stdoutWrite, STDOUT_FILENO) < 0 ||
        ::dup2(setup.stderrWrite, STDERR_FILENO) < 0) {
        failChild(setup.statusWrite, ChildStage::Stdio, errno);
    }
    if (setup.oomScoreAdj) {
        const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            [[maybe_unused]] const ssize_t ignored = ::write(fd, setup.oomScoreAdj, std::strlen(setup.oomScoreAdj));
            ::close(fd);
        }
    }
    // Per process, not per container: the runner itself (PID 1 in the container) must never hit it.
    if (setup.cpuLimitSeconds > 0) {
        const rlimit limit{setup.cpuLimitSeconds, setup.cpuLimitSeconds + 1};
        if (::setrlimit(RLIMIT_CPU, &limit) < 0) {
            failChild(setup.statusWrite, ChildStage::Limits, errno);
        }
    }
    // Descriptors the runner inherited without close-on-exec must not leak into user code.
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);

    int error = ENOENT;
    bool sawAccessDenied = false;
    for (const char *candidate : setup.candidates) {
        ::execve(candidate, setup.argv, setup.envp);
        error = errno;
        // The same errors execvpe() skips over; anything else (e.g. ENOEXEC, E2BIG) is final.
        if (error == EACCES) {
            sawAccessDenied = true;
        } else if (error != ENOENT && error != ENOTDIR && error != ESTALE && error != ENODEV && error != ETIMEDOUT) {
            break;
        }
    }
    if (sawAccessDenied && (error == ENOENT || error == ENOTDIR)) {
        error = EACCES;
    }
    failChild(setup.statusWrite, ChildStage::Exec, error);
}

std::string describeFailure(const ChildFailure &failure, const SpawnOptions &options)
{
    const std::string reason = std::strerror(failure.error);
    switch (failure.stage) {
    case ChildStage::Session:
        return "cannot create a new session: " + reason;
    case ChildStage::Workdir:
        return "cannot change to workdir '" + options.workdir + "': " + reason;
    case ChildStage::Stdio:
        return "cannot set up standard streams: " + reason;
    case ChildStage::Limits:
        return "cannot set the CPU-time limit: " + reason;
    case ChildStage::Exec:
        break;
    }
    return "cannot execute '" + options.argv.front() + "': " + reason;
}

void makePipe(UniqueFd &readEnd, UniqueFd &writeEnd)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        throw SpawnError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    readEnd.reset(fds[0]);
    writeEnd.reset(fds[1]);
}

} // namespace

std::uint64_t cpuLimitSeconds(std::uint64_t cpuLimitMs)
{
    return cpuLimitMs / 1000 + (cpuLimitMs % 1000 != 0 ? 1 : 0);
}

bool endedByCpuLimit(int status, std::int64_t cpuMs, std::uint64_t cpuLimitMs)
{
    if (cpuLimitMs == 0 || !WIFSIGNALED(status)) {
        return false;
    }
    if (WTERMSIG(status) == SIGXCPU) {
        return true;
    }
    // The kernel sends SIGKILL at the hard limit, a second of CPU time after the soft limit. The usage wait4()
    // reports is sampled and may fall a few percent short of what the kernel counted, hence 90% of the soft limit.
    return WTERMSIG(status) == SIGKILL &&
           cpuMs * 10 >= static_cast<std::int64_t>(cpuLimitSeconds(cpuLimitMs) * 1000 * 9);
}

StepProcess::StepProcess(pid_t pid, UniqueFd stdoutPipe, UniqueFd stderrPipe)
    : m_pid(pid), m_pipes{std::move(stdoutPipe), std::move(stderrPipe)}
{}

void StepProcess::setChildOomScoreAdj(const std::string &value)
{
    g_childOomScoreAdj = value;
}

const std::string &StepProcess::childOomScoreAdj()
{
    return g_childOomScoreAdj;
}

StepProcess StepProcess::spawn(const SpawnOptions &options)
{
    if (options.argv.empty() || options.argv.front().empty()) {
        throw SpawnError("empty argv");
    }
    // Everything the child needs is prepared before fork(): it may only make async-signal-safe calls.
    const std::vector<std::string> candidates = executableCandidates(options.argv.front(), options.searchPath);
    const std::vector<char *> argv = toPointers(options.argv);
    const std::vector<char *> envp = toPointers(options.env);

    UniqueFd devNull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!devNull.valid()) {
        throw SpawnError(std::string("cannot open /dev/null: ") + std::strerror(errno));
    }
    UniqueFd stdoutRead, stdoutWrite, stderrRead, stderrWrite, statusRead, statusWrite;
    makePipe(stdoutRead, stdoutWrite);
    makePipe(stderrRead, stderrWrite);
    makePipe(statusRead, statusWrite);

    ChildSetup setup{options.workdir.c_str(),
                     argv.data(),
                     envp.data(),
                     {},
                     devNull.get(),
                     stdoutWrite.get(),
                     stderrWrite.get(),
                     statusWrite.get(),
                     g_childOomScoreAdj.empty() ? nullptr : g_childOomScoreAdj.c_str(),
                     static_cast<rlim_t>(cpuLimitSeconds(options.cpuLimitMs))};
    for (const std::string &candidate : candidates) {
        setup.candidates.push_back(candidate.c_str());
    }

    const pid_t pid = ::fork();
    if (pid < 0) {
        throw SpawnError(std::string("cannot fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        runChild(setup);
    }

    // Our copies of the write ends must go, or the pipes never report end of file.
    stdoutWrite.reset();
    stderrWrite.reset();
    statusWrite.reset();

    ChildFailure failure{};
    ssize_t count;
    do {
        count = ::read(statusRead.get(), &failure, sizeof failure);
    } while (count < 0 && errno == EINTR);
    if (count == static_cast<ssize_t>(sizeof failure)) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        throw SpawnError(describeFailure(failure, options));
    }

    for (const UniqueFd *fd : {&stdoutRead, &stderrRead}) {
        ::fcntl(fd->get(), F_SETFL, ::fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
    }
    return StepProcess(pid, std::move(stdoutRead), std::move(stderrRead));
}

void StepProcess::killGroup() const
{
    ::kill(-m_pid, SIGKILL);
}

} // namespace runner
