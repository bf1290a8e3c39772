#include "EgressForwarder.h"

#include "TunnelInspector.h"
#include "UniqueFd.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <list>
#include <memory>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace runner {

namespace {

constexpr std::size_t kBufferBytes = 256 * 1024;

int g_childExited = -1; // write end of the self-pipe SIGCHLD wakes the loop with

void onChild(int)
{
    const int saved = errno;
    const char byte = 0;
    [[maybe_unused]] const auto written = ::write(g_childExited, &byte, 1);
    errno = saved;
}

bool setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

// One relayed connection: bytes read from one end wait in the buffer of the other until it can take them; an end
// that reached its end of file has the other end's writing side shut once its buffer is empty.
struct Direction
{
    std::string pending;
    bool eof = false;
    bool shut = false;
};

struct Connection
{
    UniqueFd client;
    UniqueFd upstream;
    Direction toUpstream; // client -> proxy
    Direction toClient;   // proxy -> client
    bool failed = false;
    // The proxy's side vets the client's first bytes (TunnelInspector): until it lets them pass they wait in `unread`.
    std::unique_ptr<TunnelInspector> inspector;
    Direction unread;

    bool done() const { return failed || (toUpstream.shut && toClient.shut); }
};

// Reads what `from` has into `direction` (up to the buffer's size); false on a failure.
bool pull(int from, Direction &direction)
{
    char chunk[65536];
    while (!direction.eof && direction.pending.size() < kBufferBytes) {
        const ssize_t got = ::read(from, chunk, sizeof chunk);
        if (got > 0) {
            direction.pending.append(chunk, std::size_t(got));
        } else if (got == 0) {
            direction.eof = true;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;
        } else if (errno != EINTR) {
            return false;
        }
    }
    return true;
}

// Writes what `direction` holds to `to`, and shuts `to`'s writing side after the last byte of an ended stream.
bool push(int to, Direction &direction)
{
    while (!direction.pending.empty()) {
        const ssize_t sent = ::send(to, direction.pending.data(), direction.pending.size(), MSG_NOSIGNAL);
        if (sent > 0) {
            direction.pending.erase(0, std::size_t(sent));
        } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        } else if (sent < 0 && errno == EINTR) {
            continue;
        } else {
            return false;
        }
    }
    if (direction.eof && !direction.shut) {
        ::shutdown(to, SHUT_WR);
        direction.shut = true;
    }
    return true;
}

// "tcp:ADDRESS:PORT" (an IPv4 or IPv6 address, no name) as a socket address; false for anything else.
bool tcpAddress(const std::string &upstream, sockaddr_storage &address, socklen_t &length)
{
    if (upstream.rfind("tcp:", 0) != 0) {
        return false;
    }
    const std::size_t colon = upstream.rfind(':');
    std::string host = upstream.substr(4, colon - 4);
    int port = 0;
    try {
        port = std::stoi(upstream.substr(colon + 1));
    } catch (const std::exception &) {
        return false;
    }
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    }
    address = {};
    if (auto *v4 = reinterpret_cast<sockaddr_in *>(&address); ::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(std::uint16_t(port));
        length = sizeof *v4;
    } else if (auto *v6 = reinterpret_cast<sockaddr_in6 *>(&address);
               ::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(std::uint16_t(port));
        length = sizeof *v6;
    } else {
        return false;
    }
    return port > 0 && port <= 65535;
}

// A connection to the proxy: `upstream` is its unix socket's path, or "tcp:ADDRESS:PORT" (a Kubernetes proxy pod).
UniqueFd connectUpstream(const std::string &upstream)
{
    sockaddr_storage address{};
    socklen_t length = 0;
    if (tcpAddress(upstream, address, length)) {
        UniqueFd fd(::socket(address.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!fd.valid() || ::connect(fd.get(), reinterpret_cast<const sockaddr *>(&address), length) != 0 ||
            !setNonBlocking(fd.get())) {
            return {};
        }
        return fd;
    }
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un local{};
    local.sun_family = AF_UNIX;
    if (!fd.valid() || upstream.size() >= sizeof local.sun_path) {
        return {};
    }
    std::memcpy(local.sun_path, upstream.c_str(), upstream.size() + 1);
    if (::connect(fd.get(), reinterpret_cast<const sockaddr *>(&local), sizeof local) != 0 ||
        !setNonBlocking(fd.get())) {
        return {};
    }
    return fd;
}

UniqueFd listenOnLoopback(int port)
{
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!fd.valid()) {
        return {};
    }
    const int yes = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd.get(), reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(fd.get(), 128) != 0) {
        return {};
    }
    return fd;
}

int exitStatus(int status)
{
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

// One line of the proxy's access log (NetworkConnection::logFormat) for a connection the inspector refused, on stdout,
// which squid's log shares: one write, so lines never mix.
void logRefusal(const TunnelInspector &inspector)
{
    const auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    char line[1024];
    const int length =
        std::snprintf(line, sizeof line, "%.3f\t0\t%s\t%s\t%d\tTCP_DENIED\t403\t0\t0\t-\t%s\t%s\n", now,
                      inspector.method().empty() ? "CONNECT" : inspector.method().c_str(),
                      inspector.host().substr(0, 253).c_str(), inspector.port(), inspector.refusal().c_str(),
                      inspector.serverName().empty() ? "-" : inspector.serverName().substr(0, 253).c_str());
    if (length > 0) {
        [[maybe_unused]] const auto written =
            ::write(STDOUT_FILENO, line, std::min<std::size_t>(length, sizeof line - 1));
    }
}

// Whether a tunnel to `host` goes to the intercepting proxy: its name is one of `interception.hosts`, or they are
// "*" (every tunnel: a read-only run's).
bool intercepted(const Interception &interception, const std::string &host)
{
    return std::any_of(interception.hosts.begin(), interception.hosts.end(),
                       [&host](const std::string &each) { return each == "*" || each == host; });
}

// Moves what the client sent from `unread` on through the connection's inspector; false when it refuses. A
// connection whose proxy is chosen by its request (`interception`) connects once the request was read.
bool vet(Connection &connection, const std::string &upstream, const Interception *interception)
{
    if (!connection.inspector) {
        return true;
    }
    const auto verdict = connection.inspector->inspect(connection.unread.pending, connection.toUpstream.pending);
    if (verdict == TunnelInspector::Verdict::Refuse) {
        logRefusal(*connection.inspector);
        return false;
    }
    if (!connection.upstream.valid() && !connection.toUpstream.pending.empty()) {
        // The request was read: a tunnel to a host with a secret goes to the proxy that opens it, all else to the
        // one that does not.
        const bool toInterceptor = interception && connection.inspector->method() == "CONNECT" &&
                                   intercepted(*interception, connection.inspector->host());
        connection.upstream = connectUpstream(toInterceptor ? interception->upstream : upstream);
        if (!connection.upstream.valid()) {
            return false;
        }
    }
    if (verdict == TunnelInspector::Verdict::Pass) {
        connection.toUpstream.eof = connection.unread.eof;
        connection.inspector.reset(); // from now on the bytes pass unread
        return true;
    }
    return !connection.unread.eof; // a client that ends before it could be vetted: nothing to pass on
}

// Relays every connection accepted on `listener` to `upstream` until `done()` says so (checked before each wait; `wake`
// (or -1) wakes the wait for that); with `inspect`, each through a TunnelInspector, and with `interception` too, the
// tunnels to its hosts to its upstream instead.
void serve(int listener, int wake, const std::string &upstream, const std::function<bool()> &done, bool inspect = false,
           const Interception *interception = nullptr)
{
    std::list<Connection> connections;
    for (;;) {
        if (done()) {
            return;
        }
        std::vector<pollfd> fds{{listener, POLLIN, 0}, {wake, POLLIN, 0}};
        for (const Connection &connection : connections) {
            const auto events = [](const Direction &in, const Direction &out) {
                short wanted = 0;
                if (!in.eof && in.pending.size() < kBufferBytes) {
                    wanted |= POLLIN;
                }
                if (!out.pending.empty() || (out.eof && !out.shut)) {
                    wanted |= POLLOUT;
                }
                return wanted;
            };
            fds.push_back(
                {connection.client.get(),
                 events(connection.inspector ? connection.unread : connection.toUpstream, connection.toClient), 0});
            fds.push_back({connection.upstream.get(), events(connection.toClient, connection.toUpstream), 0});
        }
        if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
            return;
        }
        if (fds[1].revents) {
            char drain[64];
            while (::read(wake, drain, sizeof drain) > 0) {
            }
        }
        std::size_t index = 2;
        for (Connection &connection : connections) {
            const pollfd &client = fds[index++];
            const pollfd &server = fds[index++];
            if (client.revents & (POLLIN | POLLHUP | POLLERR)) {
                const bool vetting = connection.inspector != nullptr;
                if (!pull(connection.client.get(), vetting ? connection.unread : connection.toUpstream) ||
                    (vetting && !vet(connection, upstream, interception))) {
                    connection.failed = true;
                }
            }
            if ((server.revents & (POLLIN | POLLHUP | POLLERR)) &&
                !pull(connection.upstream.get(), connection.toClient)) {
                connection.failed = true;
            }
            if (!connection.failed && (!push(connection.upstream.get(), connection.toUpstream) ||
                                       !push(connection.client.get(), connection.toClient))) {
                connection.failed = true;
            }
        }
        connections.remove_if([](const Connection &connection) { return connection.done(); });
        if (fds[0].revents & POLLIN) {
            for (;;) {
                UniqueFd client(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
                if (!client.valid()) {
                    break;
                }
                // With interception the proxy is chosen once the request was read (vet()).
                UniqueFd server = interception ? UniqueFd() : connectUpstream(upstream);
                if (server.valid() || interception) {
                    connections.push_back(Connection{std::move(client),
                                                     std::move(server),
                                                     {},
                                                     {},
                                                     false,
                                                     inspect ? std::make_unique<TunnelInspector>() : nullptr,
                                                     {}});
                }
            }
        }
    }
}

} // namespace

EgressForwarder::EgressForwarder(std::string upstream, int port) : m_upstream(std::move(upstream)), m_port(port) {}

UniqueFd EgressForwarder::prepare(int waitSeconds) const
{
    // The proxy creates its socket once it accepts connections; a proxy pod is up once it accepts one.
    sockaddr_storage tcp{};
    socklen_t tcpLength = 0;
    const bool overTcp = tcpAddress(m_upstream, tcp, tcpLength);
    const auto ready = [&] {
        struct stat info
        {
        };
        return overTcp ? connectUpstream(m_upstream).valid()
                       : ::stat(m_upstream.c_str(), &info) == 0 && S_ISSOCK(info.st_mode);
    };
    for (int waited = 0; !ready(); waited += 50) {
        if (waited >= waitSeconds * 1000) {
            std::fprintf(stderr, "llm-sandbox-runner: the egress proxy did not come up (%s after %d s)\n",
                         m_upstream.c_str(), waitSeconds);
            return {};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    UniqueFd listener = listenOnLoopback(m_port);
    if (!listener.valid()) {
        std::fprintf(stderr, "llm-sandbox-runner: cannot listen on 127.0.0.1:%d: %s\n", m_port, std::strerror(errno));
    }
    return listener;
}

int EgressForwarder::run(const std::vector<std::string> &command, int waitSeconds)
{
    if (command.empty()) {
        std::fputs("llm-sandbox-runner: --egress-proxy needs a command after --\n", stderr);
        return 2;
    }
    UniqueFd listener = prepare(waitSeconds);
    if (!listener.valid()) {
        return 125;
    }
    int wake[2];
    if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        return 125;
    }
    UniqueFd wakeRead(wake[0]);
    UniqueFd wakeWrite(wake[1]);
    g_childExited = wakeWrite.get();
    struct sigaction action
    {
    };
    action.sa_handler = onChild;
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&action.sa_mask);
    struct sigaction previous
    {
    };
    ::sigaction(SIGCHLD, &action, &previous);
    struct Restore
    {
        const struct sigaction &previous;
        ~Restore() { ::sigaction(SIGCHLD, &previous, nullptr); }
    } restore{previous};

    const pid_t child = ::fork();
    if (child < 0) {
        return 126;
    }
    if (child == 0) {
        ::sigaction(SIGCHLD, &previous, nullptr);
        std::signal(SIGPIPE, SIG_DFL);
        std::vector<char *> argv;
        for (const std::string &argument : command) {
            argv.push_back(const_cast<char *>(argument.c_str()));
        }
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        std::fprintf(stderr, "llm-sandbox-runner: cannot run %s: %s\n", argv[0], std::strerror(errno));
        ::_exit(errno == ENOENT ? 127 : 126);
    }

    int status = 0;
    bool ended = false;
    serve(listener.get(), wakeRead.get(), m_upstream, [&] {
        ended = ::waitpid(child, &status, WNOHANG) == child;
        return ended;
    });
    if (!ended) { // the relay failed
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        return 125;
    }
    return exitStatus(status);
}

int EgressForwarder::serveSocket(const std::string &path, const Interception &interception)
{
    sockaddr_storage tcp{};
    socklen_t tcpLength = 0;
    const bool overTcp = tcpAddress(path, tcp, tcpLength);
    UniqueFd listener(::socket(overTcp ? tcp.ss_family : AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    sockaddr_un local{};
    local.sun_family = AF_UNIX;
    if (!listener.valid() || (!overTcp && path.size() >= sizeof local.sun_path)) {
        std::fprintf(stderr, "llm-sandbox-runner: cannot listen on %s\n", path.c_str());
        return 1;
    }
    bool listening = false;
    if (overTcp) {
        const int yes = 1;
        ::setsockopt(listener.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        listening = ::bind(listener.get(), reinterpret_cast<const sockaddr *>(&tcp), tcpLength) == 0 &&
                    ::listen(listener.get(), 128) == 0;
    } else {
        std::memcpy(local.sun_path, path.c_str(), path.size() + 1);
        ::unlink(path.c_str());
        listening = ::bind(listener.get(), reinterpret_cast<const sockaddr *>(&local), sizeof local) == 0 &&
                    ::chmod(path.c_str(), 0666) == 0 && ::listen(listener.get(), 128) == 0;
    }
    if (!listening) {
        std::fprintf(stderr, "llm-sandbox-runner: cannot listen on %s: %s\n", path.c_str(), std::strerror(errno));
        return 1;
    }
    serve(
        listener.get(), -1, m_upstream, [] { return false; }, true,
        interception.upstream.empty() ? nullptr : &interception);
    return 1;
}

bool EgressForwarder::startInBackground(int waitSeconds)
{
    UniqueFd listener = prepare(waitSeconds);
    if (!listener.valid()) {
        return false;
    }
    // The thread takes no signal: the runner reads SIGCHLD and the termination signals from a signalfd
    // (SignalMonitor), which sees only those no thread lets in. A new thread starts with its creator's mask.
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &previous);
    std::thread([listener = std::move(listener), upstream = m_upstream]() mutable {
        serve(listener.get(), -1, upstream, [] { return false; });
    }).detach();
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return true;
}

} // namespace runner
