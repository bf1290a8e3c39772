// What the proxy's side of the relay lets a sandbox send squid (issue 48): a request passes as it is; a tunnel's first
// bytes only when they are a TLS handshake naming the tunnel's host (or plain HTTP to port 80), else the connection
// closes with why.
#include "TunnelInspector.h"

#include "ClientHello.h"

#include <gtest/gtest.h>

using runner::TunnelInspector;
using runner::test::clientHello;

namespace {

const std::string kConnect = "CONNECT api.test:443 HTTP/1.1\r\nHost: api.test:443\r\n\r\n";

} // namespace

TEST(TunnelInspector, readsTheServerNameOfAClientHello)
{
    std::string name;
    ASSERT_TRUE(TunnelInspector::serverNameOf(clientHello("api.test"), name));
    EXPECT_EQ(name, "api.test");
    ASSERT_TRUE(TunnelInspector::serverNameOf(clientHello(""), name));
    EXPECT_EQ(name, "");
    ASSERT_TRUE(TunnelInspector::serverNameOf(clientHello("api.test."), name));
    EXPECT_EQ(name, "api.test") << "a trailing dot names the same host";
    std::string cut = clientHello("api.test");
    cut.resize(cut.size() - 3);
    EXPECT_FALSE(TunnelInspector::serverNameOf(cut, name));
    // A handshake record of two bytes: a ServerHello's type, not a ClientHello's.
    EXPECT_FALSE(TunnelInspector::serverNameOf(std::string("\x16\x03\x01\x00\x02\x02\x00", 7), name))
        << "not a ClientHello";
}

TEST(TunnelInspector, aTunnelPassesWhenItsHandshakeNamesItsHost)
{
    TunnelInspector inspector;
    std::string inbox = kConnect.substr(0, 20);
    std::string out;
    EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pending);
    EXPECT_TRUE(out.empty());
    inbox += kConnect.substr(20);
    EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pending)
        << "the CONNECT goes on, the rest waits";
    EXPECT_EQ(out, kConnect);
    const std::string hello = clientHello("API.test");
    inbox += hello.substr(0, 30);
    EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pending);
    inbox += hello.substr(30) + "after";
    EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pass);
    EXPECT_EQ(out, kConnect + hello + "after");
    EXPECT_TRUE(inbox.empty());
}

TEST(TunnelInspector, aTunnelNamingAnotherServerOrCarryingNoTlsIsRefused)
{
    {
        TunnelInspector inspector;
        std::string inbox = kConnect + clientHello("evil.test");
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Refuse);
        EXPECT_EQ(inspector.refusal(), "ERR_TLS_SERVER_NAME");
        EXPECT_EQ(inspector.serverName(), "evil.test");
        EXPECT_EQ(inspector.host(), "api.test");
        EXPECT_EQ(inspector.port(), 443);
        EXPECT_EQ(out, kConnect) << "nothing of the handshake went on";
    }
    {
        TunnelInspector inspector;
        std::string inbox = kConnect + clientHello("");
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Refuse) << "a tunnel to a name must name it";
    }
    {
        TunnelInspector inspector;
        std::string inbox = kConnect + "SSH-2.0-OpenSSH_9.2\r\n";
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Refuse);
        EXPECT_EQ(inspector.refusal(), "ERR_NOT_TLS");
    }
}

TEST(TunnelInspector, aRequestWhoseHostHeaderNamesAnotherServerIsRefused)
{
    {
        TunnelInspector inspector;
        std::string inbox = "GET http://api.test/x HTTP/1.1\r\nAccept: */*\r\nHost: evil.test\r\n\r\n";
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Refuse) << "domain fronting by Host";
        EXPECT_EQ(inspector.refusal(), "ERR_HOST_MISMATCH");
        EXPECT_EQ(inspector.method(), "GET");
        EXPECT_EQ(inspector.host(), "api.test");
        EXPECT_EQ(inspector.serverName(), "evil.test");
        EXPECT_TRUE(out.empty()) << "nothing reached squid";
    }
    {
        TunnelInspector inspector;
        std::string inbox = "CONNECT api.test:80 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: evil.test:80\r\n\r\n";
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Refuse) << "nor in a plain tunnel";
        EXPECT_EQ(inspector.serverName(), "evil.test");
    }
    for (const char *same : {"GET http://API.test:8080/ HTTP/1.1\r\nhost:  api.TEST:8080 \r\n\r\n",
                             "GET http://[2001:db8::7]/ HTTP/1.1\r\nHost: [2001:db8::7]\r\n\r\n",
                             "GET http://api.test/ HTTP/1.0\r\n\r\n"}) {
        TunnelInspector inspector;
        std::string inbox = same;
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pass) << same;
    }
}

TEST(TunnelInspector, plainHttpToPort80AndRequestsPassAsTheyAre)
{
    {
        TunnelInspector inspector;
        std::string inbox = "CONNECT api.test:80 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: api.test\r\n\r\n";
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pass) << "undici tunnels http:// too";
    }
    {
        TunnelInspector inspector;
        std::string inbox = "CONNECT [2001:db8::7]:443 HTTP/1.1\r\n\r\n" + clientHello("");
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pass) << "an address names no server";
        EXPECT_EQ(inspector.host(), "2001:db8::7");
    }
    {
        TunnelInspector inspector;
        std::string inbox = "GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\n\r\n";
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Pass) << "squid judges a plain request";
    }
    {
        TunnelInspector inspector;
        std::string inbox(20000, 'x');
        std::string out;
        EXPECT_EQ(inspector.inspect(inbox, out), TunnelInspector::Verdict::Refuse) << "no end of a request in 16 KiB";
    }
}
