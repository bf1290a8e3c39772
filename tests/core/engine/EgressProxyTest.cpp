// What the egress proxy of an install lets through: the plan's registries (a configured one anywhere, the defaults
// only at public addresses), downloads only, and nothing a host name could smuggle into squid's configuration.
#include "engine/EgressProxy.h"

#include "lang/LanguageRegistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QStringList lines(const QList<EgressRule> &rules)
{
    auto config = EgressProxy::squidConfig(rules);
    EXPECT_TRUE(config.ok()) << config.error().message.toStdString();
    return config ? QString::fromUtf8(*config).split(u'\n', Qt::SkipEmptyParts) : QStringList();
}

LibraryInstallPlan planFor(const char *language, QHash<QString, QString> variables = {})
{
    auto plan =
        LibraryInstallPlan::make(*LanguageRegistry::instance().find(language), {"somelib"}, "/sandbox",
                                 [variables](const char *name) { return variables.value(QString::fromLatin1(name)); });
    EXPECT_TRUE(plan.ok()) << plan.error().message.toStdString();
    return plan ? *plan : LibraryInstallPlan{};
}

} // namespace

TEST(EgressProxy, theDefaultRegistryAndItsDownloadHostAreAllowedOnlyAtPublicAddresses)
{
    const LibraryInstallPlan plan = planFor("python");
    EXPECT_EQ(plan.egress, (QList<EgressRule>{{"pypi.org", 443, false}, {"files.pythonhosted.org", 443, false}}));
    const QStringList config = lines(plan.egress);
    const qsizetype denySpecial = config.indexOf("http_access deny special_dst");
    const qsizetype allowPypi = config.indexOf("http_access allow registry0 registry0_port !special_dst");
    ASSERT_GE(denySpecial, 0);
    ASSERT_GT(allowPypi, denySpecial);
    EXPECT_TRUE(config.contains("acl registry0 dstdomain -n pypi.org"));
    EXPECT_TRUE(config.contains("acl registry1 dstdomain -n files.pythonhosted.org"));
    EXPECT_EQ(config.last(), "http_access deny all");
    // The ranges a name must never resolve to: the host's bridges, the LAN, a cloud's metadata service.
    const QString special = config.filter("acl special_dst dst").value(0);
    for (const char *range : {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8",
                              "100.64.0.0/10", "fc00::/7", "fe80::/10", "::1/128"}) {
        EXPECT_TRUE(special.contains(QString::fromLatin1(range))) << range;
    }
    EXPECT_TRUE(config.contains("http_port 127.0.0.1:3128")) << "only the socket's relay reaches it";
    EXPECT_TRUE(config.contains("access_log none")) << "URLs may carry credentials";
    EXPECT_TRUE(config.contains("http_access deny !download_methods"));
}

TEST(EgressProxy, aRegistryTheUserConfiguredIsAllowedOnItsPortEvenOnThePrivateNetwork)
{
    const LibraryInstallPlan plan = planFor("python", {{"LLM_SANDBOX_PIP_INDEX_URL", "http://10.1.2.3:3141/simple"}});
    EXPECT_EQ(plan.egress, (QList<EgressRule>{{"10.1.2.3", 3141, true}})) << "no default download hosts with a mirror";
    const QStringList config = lines(plan.egress);
    EXPECT_TRUE(config.contains("acl registry0 dst 10.1.2.3"));
    EXPECT_TRUE(config.contains("acl registry0_port port 3141"));
    EXPECT_LT(config.indexOf("http_access allow registry0 registry0_port"),
              config.indexOf("http_access deny special_dst"));
}

// A registry with a login: squid itself forwards the install's plain http:// requests to it (TLS for an https://
// one) and adds the login; the login's characters are written as URL escapes, which squid decodes.
TEST(EgressProxy, aRegistryLoginIsAddedByTheProxyAsTheRegistrysPeer)
{
    const QStringList config =
        lines({{"mirror.example", 443, true, "alice:p%s@ss w:rd", true}, {"10.1.2.3", 3141, true, "bob:t0k", false}});
    EXPECT_TRUE(config.contains("cache_peer mirror.example parent 443 0 no-query no-digest no-netdb-exchange "
                                "originserver name=registry0_login login=alice:p%25s%40ss%20w%3Ard "
                                "forceddomain=mirror.example tls"))
        << config.join('\n').toStdString();
    EXPECT_TRUE(config.contains("cache_peer_access registry0_login allow registry0 registry0_port !tunnel"));
    EXPECT_TRUE(config.contains("cache_peer_access registry0_login deny all"));
    EXPECT_TRUE(config.contains("never_direct allow registry0 registry0_port !tunnel"));
    EXPECT_TRUE(config.contains("cache_peer 10.1.2.3 parent 3141 0 no-query no-digest no-netdb-exchange "
                                "originserver name=registry1_login login=bob:t0k"))
        << "plain HTTP on its own port: no TLS, the Host header as the install sent it";
    // squid listens on loopback in a proxy pod too: the relay in front of it serves the pod's address (port 3128)
    // and vets each connection's first bytes, as the proxy container's relay does its socket.
    auto onAddress =
        EgressProxy::squidConfig({{"pypi.org", 443, false}}, ContainerBackend::EgressProxyReach::ContainerAddress);
    ASSERT_TRUE(onAddress.ok());
    EXPECT_TRUE(QString::fromUtf8(*onAddress).split(u'\n').contains("http_port 127.0.0.1:3130"));
    // The registries without a login have no peer.
    EXPECT_EQ(lines({{"pypi.org", 443, false}}).filter("cache_peer").size(), 0);

    // Behind a TLS-inspecting gateway the registry's certificate is signed by the gateway's authority, which the host
    // trusts: so does squid, from the files the proxy gets on its stdin (without them: 503 after npm's retries).
    auto trusting = EgressProxy::squidConfig({{"mirror.example", 443, true, "alice:pw", true}},
                                             ContainerBackend::EgressProxyReach::SocketVolume, true);
    ASSERT_TRUE(trusting.ok());
    EXPECT_TRUE(QString::fromUtf8(*trusting).contains(
        "forceddomain=mirror.example tls tls-cafile=/tmp/files/registry-trust.pem\n"));
    auto files = EgressProxy::registryTrustFiles("-----BEGIN CERTIFICATE-----\n");
    ASSERT_TRUE(files.ok());
    EXPECT_TRUE(files->contains("registry-trust.pem"));
}

TEST(EgressProxy, anOfflineInstallHasNoEgress)
{
    QTemporaryDir folder;
    QFile wheel(folder.filePath("somelib-1.0-py3-none-any.whl"));
    ASSERT_TRUE(wheel.open(QIODevice::WriteOnly));
    wheel.write("wheel");
    wheel.close();
    const LibraryInstallPlan plan = planFor("python", {{"LLM_SANDBOX_PIP_OFFLINE_DIR", folder.path()}});
    EXPECT_FALSE(plan.needsNetwork);
    EXPECT_TRUE(plan.egress.isEmpty());
}

TEST(EgressProxy, aHostThatCouldRewriteTheConfigurationIsRefused)
{
    for (const char *host : {"evil\nhttp_access allow all", "a b", "", "-n", "host;x", "exa mple.org"}) {
        auto config = EgressProxy::squidConfig({{QString::fromLatin1(host), 443, true}});
        ASSERT_FALSE(config.ok()) << host;
        EXPECT_EQ(config.error().code, ErrorCode::BadRequest);
    }
    EXPECT_FALSE(EgressProxy::squidConfig({{"pypi.org", 0, false}}).ok());
    EXPECT_FALSE(EgressProxy::squidConfig({{"pypi.org", 70000, false}}).ok());
}

TEST(EgressProxy, theInstallIsRelayedThroughTheRunnerAndToldWhereTheProxyIs)
{
    EXPECT_EQ(
        EgressProxy::relayed("/opt/llm-sandbox/llm-sandbox-runner", EgressProxy::socketPath(), {"pip", "install", "x"}),
        (QStringList{"/opt/llm-sandbox/llm-sandbox-runner", "--egress-proxy", "/run/llm-sandbox-proxy/proxy.sock",
                     "3128", "--", "pip", "install", "x"}));
    // A Kubernetes proxy pod, at its address.
    EXPECT_EQ(EgressProxy::proxyAddress("10.244.0.7"), "tcp:10.244.0.7:3128");
    EXPECT_EQ(EgressProxy::proxyAddress("fd00::7"), "tcp:[fd00::7]:3128");
    const auto environment = EgressProxy::clientEnvironment();
    for (const char *name : {"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"}) {
        EXPECT_EQ(environment.value(QString::fromLatin1(name)), "http://127.0.0.1:3128") << name;
    }
    EXPECT_TRUE(environment.value("JAVA_TOOL_OPTIONS").contains("-Dhttps.proxyHost=127.0.0.1"));
}

// A run with a secret: its proxy opens only the tunnels the relay sends to its second port, and its rules, which hold
// the value, come in the files on its stdin, never in its configuration (which its container's settings show).
TEST(EgressProxy, aRunsSecretIsAddedByRulesThatComeOnlyOnTheProxysStdin)
{
    const auto granted = NetworkAllowList::parse(QStringLiteral("api.test, other.test"));
    const QString plain =
        QString::fromUtf8(EgressProxy::runConfig(*granted, {}, ContainerBackend::EgressProxyReach::SocketVolume));
    EXPECT_FALSE(plain.contains("ssl-bump")) << "no secret: no tunnel is opened";
    const QString config =
        QString::fromUtf8(EgressProxy::runConfig(*granted, {}, ContainerBackend::EgressProxyReach::SocketVolume, true));
    EXPECT_TRUE(config.contains("http_port 127.0.0.1:3129 name=intercept ssl-bump")) << qPrintable(config);
    EXPECT_TRUE(config.contains("include /tmp/files/secrets.conf"));
    EXPECT_TRUE(config.contains("tls_outgoing_options cafile=/tmp/files/upstream-trust.pem"));

    RunSecrets secrets;
    secrets.authority = *InterceptionAuthority::generate();
    secrets.secrets << GrantedSecret{*NetworkSecret::make(QStringLiteral("API_TOKEN"), {QStringLiteral("api.test")},
                                                          QStringLiteral("Authorization: Bearer {}")),
                                     "v%1", QStringLiteral("LLMSANDBOX_PLACEHOLDER_API_TOKEN_00ff")};
    EXPECT_EQ(secrets.hostsWithin(*granted), QStringList{"api.test"});
    auto files = EgressProxy::interceptionFiles(secrets, {});
    ASSERT_TRUE(files) << qPrintable(files.error().message);
    for (const char *rule : {"acl secret0_host dstdomain -n api.test",
                             "acl secret0_sent req_header Authorization LLMSANDBOX_PLACEHOLDER_API_TOKEN_00ff",
                             "request_header_access Authorization deny intercepting secret0_host secret0_sent",
                             "request_header_add Authorization \"Bearer v%%1\" intercepting secret0_host secret0_sent",
                             "note secret API_TOKEN intercepting secret0_host secret0_sent"}) {
        EXPECT_TRUE(files->contains(rule)) << rule;
    }
    EXPECT_TRUE(files->contains(secrets.authority.keyPem)) << "the authority's key, for squid to sign with";
    EXPECT_FALSE(config.contains("v%1") || config.contains("v%%1"));

    secrets.secrets[0].value = "bad\"value";
    EXPECT_FALSE(EgressProxy::interceptionFiles(secrets, {})) << "nothing that could end squid's quoted value";

    const auto environment = EgressProxy::clientEnvironment(true);
    for (const char *name : {"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS"}) {
        EXPECT_EQ(environment.value(QString::fromLatin1(name)), EgressProxy::trustBundlePath()) << name;
    }
    EXPECT_FALSE(EgressProxy::clientEnvironment().contains("SSL_CERT_FILE"));
}
