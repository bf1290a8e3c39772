// The builder sandbox's only way out: a loopback port relayed to the egress proxy's unix socket while the install
// command runs, with the command's exit status passed through.
#include "EgressForwarder.h"

#include "ClientHello.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace runner {

namespace {

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
    socklen_t size = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &size);
    ::close(fd);
    return ntohs(address.sin_port);
}

// A stand-in for the proxy: answers each connection with what it received, upper-cased, after the client's end of
// file (so half-closing is relayed too).
class UpperCaseServer
{
public:
    explicit UpperCaseServer(std::string path) : m_path(std::move(path))
    {
        m_fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strcpy(address.sun_path, m_path.c_str());
        ::unlink(m_path.c_str());
        EXPECT_EQ(::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        serve();
    }
    // On 127.0.0.1:`port`, as a Kubernetes proxy pod listens on its address.
    explicit UpperCaseServer(int port) : m_port(port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        const int yes = 1;
        ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(std::uint16_t(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        EXPECT_EQ(::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        serve();
    }
    void serve()
    {
        EXPECT_EQ(::listen(m_fd, 16), 0);
        m_thread = std::thread([this] {
            for (;;) {
                const int client = ::accept(m_fd, nullptr, nullptr);
                if (client < 0) {
                    return;
                }
                ++accepted;
                std::string got;
                char chunk[65536];
                for (ssize_t n; (n = ::read(client, chunk, sizeof chunk)) > 0;) {
                    got.append(chunk, std::size_t(n));
                }
                for (char &c : got) {
                    c = char(std::toupper(static_cast<unsigned char>(c)));
                }
                for (std::size_t sent = 0; sent < got.size();) {
                    const ssize_t n = ::write(client, got.data() + sent, got.size() - sent);
                    if (n <= 0) {
                        break;
                    }
                    sent += std::size_t(n);
                }
                ::close(client);
            }
        });
    }
    ~UpperCaseServer()
    {
        ::shutdown(m_fd, SHUT_RDWR);
        ::close(m_fd);
        m_thread.join();
        if (!m_path.empty()) {
            ::unlink(m_path.c_str());
        }
    }
    std::atomic<int> accepted = 0;
    int port() const { return m_port; }

private:
    std::string m_path;
    int m_port = 0;
    int m_fd = -1;
    std::thread m_thread;
};

std::string socketPath()
{
    return "/tmp/egress-forwarder-test-" + std::to_string(::getpid()) + ".sock";
}

// Two connections, one of them with a megabyte (more than the relay buffers at once), each half-closed.
std::string twoConnectionsTo(int port)
{
    return "import socket, sys\n"
           "for payload in [b'hello proxy', b'x' * 1048576]:\n"
           "    s = socket.create_connection(('127.0.0.1', " +
           std::to_string(port) +
           "))\n"
           "    s.sendall(payload); s.shutdown(socket.SHUT_WR)\n"
           "    got = b''\n"
           "    while chunk := s.recv(65536): got += chunk\n"
           "    if got != payload.upper(): sys.exit(3)\n"
           "sys.exit(0)\n";
}

/// `fd` connected to `address`, or -1 (closed) when nothing listens there yet.
template <typename Address>
int connected(int fd, const Address &address)
{
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0) {
        return fd;
    }
    ::close(fd);
    return -1;
}

/// Sends `request` over a connection `connect` makes (tried for two seconds, while the listener starts), half-closes
/// it and returns all that came back.
std::string exchange(const std::function<int()> &connect, const std::string &request)
{
    int fd = -1;
    for (int tries = 0; tries < 200 && fd < 0; ++tries) {
        fd = connect();
        if (fd < 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::write(fd, request.data(), request.size()), ssize_t(request.size()));
    ::shutdown(fd, SHUT_WR);
    std::string got;
    char chunk[4096];
    for (ssize_t n; (n = ::read(fd, chunk, sizeof chunk)) > 0;) {
        got.append(chunk, std::size_t(n));
    }
    ::close(fd);
    return got;
}

} // namespace

TEST(EgressForwarderTest, relaysTheCommandsConnectionsToTheSocketBothWays)
{
    UpperCaseServer server(socketPath());
    const int port = freePort();
    EXPECT_EQ(EgressForwarder(socketPath(), port).run({"python3", "-c", twoConnectionsTo(port)}), 0);
    EXPECT_EQ(server.accepted, 2);
}

TEST(EgressForwarderTest, relaysToAProxyPodsAddress)
{
    const int proxyPort = freePort();
    UpperCaseServer server(proxyPort);
    const int port = freePort();
    const std::string upstream = "tcp:127.0.0.1:" + std::to_string(proxyPort);
    EXPECT_EQ(EgressForwarder(upstream, port).run({"python3", "-c", twoConnectionsTo(port)}), 0);
    EXPECT_EQ(server.accepted, 3) << "one connection to see it is up, then the command's two";
    EXPECT_EQ(EgressForwarder("tcp:127.0.0.1:" + std::to_string(freePort()), freePort()).run({"true"}, 1), 125)
        << "nothing listens there";
    EXPECT_EQ(EgressForwarder("tcp:proxy.example:3128", freePort()).run({"true"}, 1), 125) << "an address, no name";
}

// The proxy's side (--egress-listen) with interception: a tunnel to a host with a secret goes to the intercepting
// proxy, every other connection to the plain one; each proxy is chosen once the request was read.
TEST(EgressForwarderTest, theProxysSideSendsTunnelsToHostsWithASecretToTheInterceptingProxy)
{
    // Never destroyed: serveSocket() serves for as long as the process lives.
    static UpperCaseServer plain(freePort());
    static UpperCaseServer intercepting(freePort());
    const int plainPort = plain.port();
    const int interceptingPort = intercepting.port();
    static const std::string path = socketPath() + "-listen";
    std::thread([plainPort, interceptingPort] {
        EgressForwarder("tcp:127.0.0.1:" + std::to_string(plainPort), 0)
            .serveSocket(path, Interception{"tcp:127.0.0.1:" + std::to_string(interceptingPort), {"api.test"}});
    }).detach();
    const auto ask = [](const std::string &request) {
        return exchange(
            [] {
                sockaddr_un address{};
                address.sun_family = AF_UNIX;
                std::strcpy(address.sun_path, path.c_str());
                return connected(::socket(AF_UNIX, SOCK_STREAM, 0), address);
            },
            request);
    };
    EXPECT_EQ(ask("CONNECT api.test:443 HTTP/1.1\r\n\r\n" + test::clientHello("api.test")).substr(0, 20),
              "CONNECT API.TEST:443");
    EXPECT_EQ(intercepting.accepted, 1);
    EXPECT_EQ(plain.accepted, 0);
    ask("CONNECT other.test:443 HTTP/1.1\r\n\r\n" + test::clientHello("other.test"));
    ask("GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\n\r\n");
    EXPECT_EQ(intercepting.accepted, 1) << "plain HTTP to the host is not opened: no secret goes over it";
    EXPECT_EQ(plain.accepted, 2);
}

// In a proxy pod the proxy's side listens on the pod's address instead of a socket, and vets each connection alike.
TEST(EgressForwarderTest, theProxysSideListensOnAnAddressInAPod)
{
    static UpperCaseServer squid(freePort()); // never destroyed: serveSocket() serves for as long as the process lives
    const int squidPort = squid.port();
    const int port = freePort();
    std::thread([squidPort, port] {
        EgressForwarder("tcp:127.0.0.1:" + std::to_string(squidPort), 0)
            .serveSocket("tcp:127.0.0.1:" + std::to_string(port));
    }).detach();
    const auto ask = [port](const std::string &request) {
        return exchange(
            [port] {
                sockaddr_in address{};
                address.sin_family = AF_INET;
                address.sin_port = htons(std::uint16_t(port));
                address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
                return connected(::socket(AF_INET, SOCK_STREAM, 0), address);
            },
            request);
    };
    EXPECT_EQ(ask("GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\n\r\n").substr(0, 20), "GET HTTP://API.TEST/");
    EXPECT_EQ(squid.accepted, 1);
    // A tunnel whose TLS handshake names another host than the one it was opened to: the handshake never gets through.
    const std::string refused = ask("CONNECT api.test:443 HTTP/1.1\r\n\r\n" + test::clientHello("other.test"));
    EXPECT_EQ(refused.find("OTHER.TEST"), std::string::npos) << refused;
    const std::string allowed = ask("CONNECT api.test:443 HTTP/1.1\r\n\r\n" + test::clientHello("api.test"));
    EXPECT_NE(allowed.find("API.TEST", allowed.find("API.TEST") + 1), std::string::npos)
        << "the same tunnel naming its host gets its handshake (the name's second time) through";
}

TEST(EgressForwarderTest, passesTheCommandsExitStatusThrough)
{
    UpperCaseServer server(socketPath());
    EXPECT_EQ(EgressForwarder(socketPath(), freePort()).run({"sh", "-c", "exit 7"}), 7);
    EXPECT_EQ(EgressForwarder(socketPath(), freePort()).run({"sh", "-c", "kill -TERM $$"}), 128 + SIGTERM);
    EXPECT_EQ(EgressForwarder(socketPath(), freePort()).run({"/nonexistent/installer"}), 127);
}

TEST(EgressForwarderTest, refusesToRunWhenTheProxyNeverComesUp)
{
    EXPECT_EQ(EgressForwarder("/tmp/no-such-egress-proxy.sock", freePort()).run({"true"}, 1), 125);
}

} // namespace runner
