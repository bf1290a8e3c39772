#include "ForkServer.h"

#include "SignalMonitor.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace runner {

namespace {

constexpr int kAnswerTimeoutMs = 3000;

bool makePipe(UniqueFd &read, UniqueFd &write)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        return false;
    }
    read.reset(fds[0]);
    write.reset(fds[1]);
    return true;
}

std::vector<char *> pointers(const std::vector<std::string> &strings)
{
    std::vector<char *> out;
    for (const std::string &string : strings) {
        out.push_back(const_cast<char *>(string.c_str()));
    }
    out.push_back(nullptr);
    return out;
}

} // namespace

ForkServer::~ForkServer()
{
    stop();
}

void ForkServer::start(const std::vector<std::string> &argv, const std::vector<std::string> &env,
                       const std::string &searchPath, const std::string &workdir)
{
    stop();
    int sockets[2];
    if (argv.empty() || ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) {
        return;
    }
    UniqueFd ours(sockets[0]);
    UniqueFd theirs(sockets[1]);
    // Everything the child needs, prepared before fork(): between fork() and execve() only async-signal-safe calls.
    std::vector<std::string> candidates;
    if (argv[0].find('/') != std::string::npos) {
        candidates.push_back(argv[0]);
    } else {
        for (std::size_t start = 0; start <= searchPath.size();) {
            const std::size_t end = std::min(searchPath.find(':', start), searchPath.size());
            candidates.push_back(searchPath.substr(start, end - start) + "/" + argv[0]);
            start = end + 1;
        }
    }
    std::vector<char *> args = pointers(argv);
    std::vector<char *> environment = pointers(env);
    const std::string &oomScoreAdj = StepProcess::childOomScoreAdj();
    const pid_t pid = ::fork();
    if (pid < 0) {
        return;
    }
    if (pid == 0) {
        SignalMonitor::resetInChild();
        ::setsid();
        if (::chdir(workdir.c_str()) != 0 || ::dup2(theirs.get(), STDIN_FILENO) < 0 ||
            ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            ::_exit(127);
        }
        if (!oomScoreAdj.empty()) {
            const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
            if (fd >= 0) {
                [[maybe_unused]] const ssize_t ignored = ::write(fd, oomScoreAdj.data(), oomScoreAdj.size());
                ::close(fd);
            }
        }
        ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
        for (const std::string &candidate : candidates) {
            ::execve(candidate.c_str(), args.data(), environment.data());
        }
        ::_exit(127);
    }
    m_pid = pid;
    m_socket = std::move(ours);
    m_ready = false;
    m_argv = argv;
    m_env = env;
}

void ForkServer::stop()
{
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
    }
    m_pid = -1;
    m_socket.reset();
    m_ready = false;
}

void ForkServer::childExited(pid_t pid)
{
    if (pid == m_pid) {
        m_pid = -1;
        m_socket.reset();
        m_ready = false;
    }
}

bool ForkServer::ready()
{
    if (m_ready || !running()) {
        return m_ready;
    }
    char answer[16];
    const ssize_t got = ::recv(m_socket.get(), answer, sizeof answer, MSG_DONTWAIT);
    if (got == 5 && std::memcmp(answer, "ready", 5) == 0) {
        m_ready = true;
    } else if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        stop();
    }
    return m_ready;
}

void ForkServer::Forked::release()
{
    [[maybe_unused]] const ssize_t ignored = ::write(go.get(), "g", 1);
    go.reset();
}

std::optional<ForkServer::Forked> ForkServer::fork(const SpawnOptions &options)
{
    if (!ready() || options.argv.size() < 2) {
        return std::nullopt;
    }
    UniqueFd stdoutRead, stdoutWrite, stderrRead, stderrWrite, reportRead, reportWrite, goRead, goWrite;
    if (!makePipe(stdoutRead, stdoutWrite) || !makePipe(stderrRead, stderrWrite) ||
        !makePipe(reportRead, reportWrite) || !makePipe(goRead, goWrite)) {
        return std::nullopt;
    }
    std::string message = std::to_string(cpuLimitSeconds(options.cpuLimitMs));
    message += '\0' + options.workdir + '\0' + std::to_string(options.argv.size());
    for (const std::string &part : options.argv) {
        message += '\0' + part;
    }
    for (const std::string &part : options.env) {
        message += '\0' + part;
    }
    const int passed[4] = {stdoutWrite.get(), stderrWrite.get(), reportWrite.get(), goRead.get()};
    char control[CMSG_SPACE(sizeof passed)] = {};
    iovec data{message.data(), message.size()};
    msghdr header{};
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    cmsghdr *rights = CMSG_FIRSTHDR(&header);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof passed);
    std::memcpy(CMSG_DATA(rights), passed, sizeof passed);
    if (::sendmsg(m_socket.get(), &header, MSG_NOSIGNAL) != static_cast<ssize_t>(message.size())) {
        stop();
        return std::nullopt;
    }
    // Only the program's process holds the write ends now: the pipes end when it does.
    stdoutWrite.reset();
    stderrWrite.reset();
    reportWrite.reset();
    goRead.reset();

    // Its pid, then end of file. Without an answer the server is stuck: it is replaced, and the step started the
    // usual way (a program that got no `go` exits without running anything).
    std::string pid;
    for (;;) {
        pollfd fd{reportRead.get(), POLLIN, 0};
        const int polled = ::poll(&fd, 1, kAnswerTimeoutMs);
        if (polled < 0 && errno == EINTR) {
            continue;
        }
        if (polled <= 0) {
            stop();
            return std::nullopt;
        }
        char chunk[32];
        const ssize_t got = ::read(reportRead.get(), chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        pid.append(chunk, std::size_t(got));
    }
    const pid_t child = pid.empty() ? -1 : pid_t(std::strtol(pid.c_str(), nullptr, 10));
    if (child <= 1) {
        stop();
        return std::nullopt;
    }
    for (const UniqueFd *fd : {&stdoutRead, &stderrRead}) {
        ::fcntl(fd->get(), F_SETFL, ::fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
    }
    return Forked{StepProcess::adopt(child, std::move(stdoutRead), std::move(stderrRead)), std::move(goWrite)};
}

} // namespace runner
