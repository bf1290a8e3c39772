// What the user lets sandboxes reach and what one call gets of it: hosts, domains and ports read strictly, a call's
// request granted only within the user's ceiling, and each request the proxy logged read back with why it was
// refused.
#include "network/NetworkAllowList.h"

#include "engine/EgressProxy.h"
#include "network/NetworkConnection.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

NetworkAllowList allowList(const QString &text)
{
    auto list = NetworkAllowList::parse(text);
    EXPECT_TRUE(list.ok()) << text.toStdString() << ": " << list.error().message.toStdString();
    return list ? *list : NetworkAllowList();
}

} // namespace

TEST(NetworkAllowList, readsHostsDomainsAddressesAndPorts)
{
    const NetworkAllowList list = allowList(" API.example.org, *.data.test:8443\n198.51.100.7 [2001:db8::1]:443 "
                                            "api.example.org:8080");
    ASSERT_EQ(list.hosts().size(), 4);
    EXPECT_EQ(list.hosts()[0], (NetworkHost{"api.example.org", {80, 443, 8080}})) << "a host named twice: both ports";
    EXPECT_EQ(list.hosts()[1], (NetworkHost{"*.data.test", {8443}}));
    EXPECT_EQ(list.hosts()[2], (NetworkHost{"198.51.100.7", {80, 443}}));
    EXPECT_EQ(list.hosts()[3], (NetworkHost{"2001:db8::1", {443}}));
    EXPECT_EQ(list.text().toStdString(),
              "api.example.org:80, api.example.org:443, api.example.org:8080, *.data.test:8443, 198.51.100.7, "
              "[2001:db8::1]:443");
    EXPECT_EQ(allowList(list.text()).hosts(), list.hosts()) << "text() reads back";
}

TEST(NetworkAllowList, nothingIsTheDefaultAndPresetsExpand)
{
    EXPECT_TRUE(allowList("").isEmpty());
    EXPECT_TRUE(allowList("none").isEmpty());
    EXPECT_EQ(allowList("none").text(), "none");
    const NetworkAllowList registries = allowList("registries");
    EXPECT_EQ(registries.hosts().size(), NetworkAllowList::registryHosts().size());
    EXPECT_EQ(registries.hosts().first(), (NetworkHost{"pypi.org", {443}}));
    EXPECT_FALSE(NetworkAllowList::parse("none, api.test").ok()) << "nothing and something at once";

    const NetworkAllowList web = allowList("web-read-only");
    EXPECT_TRUE(web.isReadOnly());
    EXPECT_EQ(web.hosts(), (QList<NetworkHost>{{"*", {80, 443}}}));
    EXPECT_EQ(web.text(), "*, read-only");
    EXPECT_EQ(allowList("*, read-only"), web) << "what text() writes reads back";
    const NetworkAllowList readOnly = allowList("api.test read-only");
    EXPECT_TRUE(readOnly.isReadOnly());
    EXPECT_TRUE(readOnly.grant({"api.test"})->isReadOnly()) << "a call's grant may only read too";
    EXPECT_FALSE(allowList("api.test").isReadOnly());
    EXPECT_FALSE(NetworkAllowList::parse("read-only").ok()) << "read-only from nowhere";
}

TEST(NetworkAllowList, refusesWhatIsNoHost)
{
    for (const char *bad : {"http://api.test/", "api.test/path", "api..test", "-api.test", "api.test:0",
                            "api.test:65536", "api.test:https", "*api.test", "a.*.test", "api test;x", "[::1",
                            "api.test:", "under_score.test", "ex\xc3\xa4mple.org"}) {
        EXPECT_FALSE(NetworkHost::parse(QString::fromUtf8(bad)).ok()) << bad;
    }
}

TEST(NetworkAllowList, aCallGetsOnlyWhatLiesWithinTheCeiling)
{
    const NetworkAllowList ceiling = allowList("api.test, *.data.test:8443, 198.51.100.7");
    auto granted = ceiling.grant({"api.test", "eu.data.test", "*.x.data.test:8443"});
    ASSERT_TRUE(granted.ok()) << granted.error().message.toStdString();
    EXPECT_EQ(granted->hosts(),
              (QList<NetworkHost>{{"api.test", {80, 443}}, {"eu.data.test", {8443}}, {"*.x.data.test", {8443}}}))
        << "a host without a port gets the ceiling's ports";
    EXPECT_EQ(ceiling.grant({"api.test:443"})->hosts(), (QList<NetworkHost>{{"api.test", {443}}}));

    for (const char *beyond :
         {"other.test", "api.test:8080", "data.test:443", "*.test", "*", "10.0.0.1", "api.test.evil.org"}) {
        auto refused = ceiling.grant({"api.test", QString::fromLatin1(beyond)});
        ASSERT_FALSE(refused.ok()) << beyond;
        EXPECT_EQ(refused.error().code, ErrorCode::BadRequest);
        EXPECT_TRUE(refused.error().message.contains("api.test, *.data.test:8443, 198.51.100.7"))
            << "names what is allowed: " << refused.error().message.toStdString();
    }
    auto nothing = NetworkAllowList().grant({"api.test"});
    ASSERT_FALSE(nothing.ok());
    EXPECT_TRUE(nothing.error().message.contains("allows no network")) << nothing.error().message.toStdString();
    EXPECT_FALSE(allowList("*").grant({"198.51.100.7"}).ok()) << "any name is no address";
    EXPECT_TRUE(allowList("*").grant({"anything.example"}).ok());
    QStringList many;
    for (int i = 0; i < 33; ++i) {
        many << QStringLiteral("h%1.test").arg(i);
    }
    EXPECT_FALSE(allowList("*").grant(many).ok()) << "at most 32 hosts";
}

TEST(NetworkConnection, readsTheProxysLogAndSaysWhyARequestWasRefused)
{
    const NetworkAllowList granted = allowList("api.test:8080, 198.51.100.7");
    const auto read = [&](const char *line) {
        return NetworkConnection::fromLogLine(line, granted);
    };

    auto ok = read("1796611626.669\t3\tGET\tapi.test\t8080\tTCP_MISS\t200\t137\t1136\t198.51.100.2\t-\t-");
    ASSERT_TRUE(ok);
    EXPECT_TRUE(ok->allowed);
    EXPECT_EQ(ok->host, "api.test");
    EXPECT_EQ(ok->port, 8080);
    EXPECT_EQ(ok->status, 200);
    EXPECT_EQ(ok->bytesOut, 137);
    EXPECT_EQ(ok->bytesIn, 1136);
    EXPECT_EQ(ok->address, "198.51.100.2");
    EXPECT_EQ(ok->startedMs, 1796611626669);
    EXPECT_TRUE(ok->reason.isEmpty());
    EXPECT_EQ(NetworkConnection::fromJson(ok->toJson()).toJson(), ok->toJson());

    const auto reason = [&](const char *line) {
        return read(line)->reason.toStdString();
    };
    EXPECT_EQ(reason("1.0\t0\tGET\tother.test\t80\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-"),
              "not an allowed host");
    EXPECT_EQ(reason("1.0\t0\tCONNECT\tapi.test\t443\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-"),
              "port 443 is not allowed for this host");
    EXPECT_EQ(reason("1.0\t0\tCONNECT\tapi.test\t8080\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-"),
              "its name resolves to a private, loopback, link-local or this computer's address");
    EXPECT_EQ(reason("1.0\t0\tGET\t10.1.2.3\t80\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-"),
              "an IP address that is not allowed (only listed addresses are)");
    EXPECT_EQ(reason("1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t503\t1\t1\t-\tERR_DNS_FAIL\t-"),
              "the name does not resolve");
    EXPECT_TRUE(read("1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t503\t1\t1\t-\tERR_DNS_FAIL\t-")->allowed);

    EXPECT_EQ(reason("1.0\t0\tCONNECT\tapi.test\t443\tTCP_DENIED\t403\t0\t0\t-\tERR_TLS_SERVER_NAME\tevil.test"),
              "its TLS handshake names another server: evil.test")
        << "the relay's own line for a tunnel it refused";
    EXPECT_FALSE(read("1.0\t0\tCONNECT\tapi.test\t443\tTCP_DENIED\t403\t0\t0\t-\tERR_NOT_TLS\t-")->allowed);
    EXPECT_EQ(read("1.0\t2\tGET\tapi.test\t8080\tTCP_MISS\t200\t1\t1\t198.51.100.2\t-\tAPI_TOKEN")->secret, "API_TOKEN")
        << "the proxy's note of the secret it added";
    EXPECT_EQ(read("1.0\t2\tGET\tapi.test\t8080\tTCP_MISS\t200\t1\t1\t198.51.100.2\t-\t-")->secret, "");
    EXPECT_EQ(read("1.0\t2\tGET\tapi.test\t8080\tTCP_MISS\t200\t1\t1\t198.51.100.2\t-\tAPI_TOKEN")->toJson()["secret"],
              "API_TOKEN");
    EXPECT_FALSE(read("1.0\t0\t-\t-\t0\tNONE_NONE\t0\t0\t0\t-\tERR_CLIENT_GONE\t-")) << "a probe that asked nothing";
    EXPECT_EQ(
        NetworkConnection::fromLogLine("1.0\t0\tPOST\tapi.test\t443\tTCP_DENIED\t403\t9\t9\t-\tERR_ACCESS_DENIED\t-",
                                       allowList("api.test, read-only"))
            ->reason,
        "read-only: only GET and HEAD requests are allowed");
    EXPECT_FALSE(read("2026/12/07 02:39:27| Squid plugin modules loaded: 0"));
    EXPECT_FALSE(read(""));
}

TEST(EgressProxy, aRunsProxyLetsThroughItsHostsAtPublicAddressesOnlyAndLogsEachRequest)
{
    const QStringList config =
        QString::fromUtf8(EgressProxy::runConfig(allowList("api.test:8080, *.data.test, 198.51.100.7, *"),
                                                 {"192.0.2.2", "fe80::1%eth0", "127.0.0.1"},
                                                 ContainerBackend::EgressProxyReach::SocketVolume))
            .split(u'\n', Qt::SkipEmptyParts);
    const auto at = [&config](const char *line) {
        return config.indexOf(QString::fromLatin1(line));
    };
    ASSERT_GE(at("http_port 127.0.0.1:3128"), 0);
    EXPECT_GE(at("access_log stdio:/dev/stdout logformat=llmsb"), 0);
    EXPECT_GE(at("acl own_dst dst 192.0.2.2"), 0) << "this computer's own addresses, never a scoped one";
    const qsizetype denyOwn = at("http_access deny own_dst");
    const qsizetype denySpecial = at("http_access deny special_dst");
    ASSERT_GE(denyOwn, 0);
    ASSERT_GE(denySpecial, 0);
    EXPECT_GE(at("acl host0 dstdomain -n api.test"), 0);
    EXPECT_GE(at("acl host0_port port 8080"), 0);
    EXPECT_GE(at("acl host1 dstdomain -n .data.test"), 0);
    EXPECT_GE(at("acl host1_port port 80 443"), 0);
    EXPECT_GE(at("acl host2 dst 198.51.100.7"), 0);
    EXPECT_GE(at("acl host3 dstdom_regex -n ."), 0);
    for (const char *allow : {"http_access allow host0 host0_port !ip_literal", "http_access allow host2 host2_port",
                              "http_access allow host3 host3_port !ip_literal"}) {
        EXPECT_GT(at(allow), denySpecial) << allow << ": after the private addresses are refused";
    }
    EXPECT_EQ(config.last(), "http_access deny all");
    EXPECT_EQ(config.filter("access_log none").size(), 0);
}
