#include "backend/kubernetes/KubeConfig.h"

#include "ScopedEnvironment.h"
#include "backend/kubernetes/KubernetesClient.h"
#include "backend/kubernetes/KubernetesSettings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

namespace {

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
}

QByteArray base64(const QByteArray &data)
{
    return data.toBase64();
}

class KubeConfigTest : public ::testing::Test
{
protected:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(KubeConfigTest, firstFileToSetAnEntryOrTheCurrentContextWins)
{
    writeFile(path("a.yaml"), R"(
apiVersion: v1
kind: Config
current-context: ctx-a
clusters:
- name: shared
  cluster: {server: "https://a.example:6443"}
contexts:
- name: ctx-a
  context: {cluster: shared, namespace: team-a}
)");
    writeFile(path("b.yaml"), R"(
current-context: ctx-b
clusters:
- name: shared
  cluster: {server: "https://b.example:6443"}
- name: only-b
  cluster: {server: "https://only-b.example"}
contexts:
- name: ctx-b
  context: {cluster: shared}
- name: ctx-a
  context: {cluster: only-b}
)");
    auto merged = KubeConfig::fromFiles({path("a.yaml"), path("b.yaml")});
    ASSERT_TRUE(merged.ok()) << merged.error().message.toStdString();
    EXPECT_EQ(merged->contextName, QStringLiteral("ctx-a"));
    EXPECT_EQ(merged->server, QStringLiteral("https://a.example:6443"));
    EXPECT_EQ(merged->namespaceName, QStringLiteral("team-a"));

    // A context only the second file has still finds its cluster where that name was first set.
    auto second = KubeConfig::fromFiles({path("a.yaml"), path("b.yaml")}, QStringLiteral("ctx-b"));
    ASSERT_TRUE(second.ok()) << second.error().message.toStdString();
    EXPECT_EQ(second->server, QStringLiteral("https://a.example:6443"));
    EXPECT_TRUE(second->namespaceName.isEmpty());

    auto reversed = KubeConfig::fromFiles({path("b.yaml"), path("a.yaml")});
    ASSERT_TRUE(reversed.ok());
    EXPECT_EQ(reversed->contextName, QStringLiteral("ctx-b"));
    EXPECT_EQ(reversed->server, QStringLiteral("https://b.example:6443"));
}

TEST_F(KubeConfigTest, kubeconfigVariableIsAColonSeparatedListAndMissingFilesAreSkipped)
{
    writeFile(path("real.yaml"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://real.example"}}]
contexts: [{name: c, context: {cluster: k}}]
)");
    ScopedEnvironment environment(
        {{"KUBECONFIG", (path("missing.yaml") + u':' + path("real.yaml")).toUtf8()}, {"LLM_SANDBOX_KUBE_CONTEXT", {}}});
    auto config = KubeConfig::fromEnvironment();
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config->server, QStringLiteral("https://real.example"));
}

TEST_F(KubeConfigTest, defaultIsTheHomeDirectorysKubeConfig)
{
    writeFile(path("home/.kube/config"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://home.example"}}]
contexts: [{name: c, context: {cluster: k}}]
)");
    ScopedEnvironment environment({{"KUBECONFIG", {}}, {"HOME", path("home").toUtf8()}});
    auto config = KubeConfig::fromEnvironment();
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config->server, QStringLiteral("https://home.example"));
}

TEST_F(KubeConfigTest, noKubeconfigAtAllIsAnErrorSayingWhereItLooked)
{
    auto config = KubeConfig::fromFiles({path("nowhere.yaml")});
    ASSERT_FALSE(config.ok());
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("No kubeconfig found")));
    EXPECT_TRUE(config.error().message.contains(path("nowhere.yaml")));
}

TEST_F(KubeConfigTest, malformedYamlNamesTheFileAndLine)
{
    writeFile(path("bad.yaml"), "clusters:\n- name: x\n  cluster: {server: [unclosed\n");
    auto config = KubeConfig::fromFiles({path("bad.yaml")});
    ASSERT_FALSE(config.ok());
    EXPECT_TRUE(config.error().message.contains(path("bad.yaml"))) << config.error().message.toStdString();
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("not valid YAML")));
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("line ")));

    writeFile(path("list.yaml"), "- just\n- a list\n");
    auto list = KubeConfig::fromFiles({path("list.yaml")});
    ASSERT_FALSE(list.ok());
    EXPECT_TRUE(list.error().message.contains(QStringLiteral("is not a kubeconfig")));
}

TEST_F(KubeConfigTest, unknownContextListsTheContextsThereAre)
{
    writeFile(path("c.yaml"), R"(
clusters: [{name: k, cluster: {server: "https://x"}}]
contexts: [{name: one, context: {cluster: k}}, {name: two, context: {cluster: k}}]
)");
    auto none = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(none.error().message.contains(QStringLiteral("no current-context")));
    auto unknown = KubeConfig::fromFiles({path("c.yaml")}, QStringLiteral("three"));
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("contexts: one, two")))
        << unknown.error().message.toStdString();
}

TEST_F(KubeConfigTest, missingClusterOrUserIsNamed)
{
    writeFile(path("c.yaml"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x"}}]
contexts: [{name: c, context: {cluster: k, user: ghost}}, {name: d, context: {cluster: gone}}]
)");
    auto user = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_FALSE(user.ok());
    EXPECT_TRUE(user.error().message.contains(QStringLiteral("user \"ghost\""))) << user.error().message.toStdString();
    auto cluster = KubeConfig::fromFiles({path("c.yaml")}, QStringLiteral("d"));
    ASSERT_FALSE(cluster.ok());
    EXPECT_TRUE(cluster.error().message.contains(QStringLiteral("cluster \"gone\"")));
}

TEST_F(KubeConfigTest, relativeFilePathsResolveAgainstTheFileThatNamesThem)
{
    writeFile(path("conf/pki/ca.crt"), "CA PEM");
    writeFile(path("conf/pki/client.crt"), "CERT PEM");
    writeFile(path("conf/pki/client.key"), "KEY PEM");
    writeFile(path("conf/token"), "file-token\n");
    writeFile(path("conf/config"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x/", certificate-authority: pki/ca.crt}}]
users: [{name: u, user: {client-certificate: pki/client.crt, client-key: pki/client.key, tokenFile: token}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
)");
    const QString cwd = QDir::currentPath();
    QDir::setCurrent(QDir::tempPath());
    auto config = KubeConfig::fromFiles({path("conf/config")});
    QDir::setCurrent(cwd);
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config->server, QStringLiteral("https://x"));
    EXPECT_EQ(config->caPem, QByteArray("CA PEM"));
    EXPECT_EQ(config->clientCertPem, QByteArray("CERT PEM"));
    EXPECT_EQ(config->clientKeyPem, QByteArray("KEY PEM"));
    EXPECT_EQ(config->tokenFile, path("conf/token"));
}

TEST_F(KubeConfigTest, unreadableReferencedFileIsAnErrorNamingIt)
{
    writeFile(path("c.yaml"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x", certificate-authority: /nonexistent/ca.crt}}]
contexts: [{name: c, context: {cluster: k}}]
)");
    auto config = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_FALSE(config.ok());
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("/nonexistent/ca.crt")));
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("Cluster \"k\"")));
}

TEST_F(KubeConfigTest, inlineDataIsBase64AndBadBase64IsAnError)
{
    writeFile(path("c.yaml"), "current-context: c\nclusters: [{name: k, cluster: {server: \"https://x\", "
                              "certificate-authority-data: " +
                                  base64("CA DATA") + "}}]\nusers: [{name: u, user: {client-certificate-data: " +
                                  base64("CERT DATA") + ", client-key-data: " + base64("KEY DATA") +
                                  "}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n");
    auto config = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config->caPem, QByteArray("CA DATA"));
    EXPECT_EQ(config->clientCertPem, QByteArray("CERT DATA"));
    EXPECT_EQ(config->clientKeyPem, QByteArray("KEY DATA"));

    writeFile(path("bad.yaml"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x", certificate-authority-data: "not*base64!"}}]
contexts: [{name: c, context: {cluster: k}}]
)");
    auto bad = KubeConfig::fromFiles({path("bad.yaml")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("certificate-authority-data is not valid base64")));
}

TEST_F(KubeConfigTest, clientCertificateWithoutKeyIsAnError)
{
    writeFile(path("c.yaml"), "current-context: c\nclusters: [{name: k, cluster: {server: \"https://x\"}}]\n"
                              "users: [{name: u, user: {client-certificate-data: " +
                                  base64("CERT") + "}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n");
    auto config = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_FALSE(config.ok());
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("without its key")));
}

TEST_F(KubeConfigTest, tokenBecomesABearerHeaderAndATokenFileIsReadOnEveryUse)
{
    writeFile(path("token"), "first\n");
    writeFile(path("c.yaml"), R"(
current-context: inline
clusters: [{name: k, cluster: {server: "https://x", insecure-skip-tls-verify: true}}]
users:
- {name: inline, user: {token: abc.def}}
- {name: file, user: {tokenFile: token}}
contexts:
- {name: inline, context: {cluster: k, user: inline}}
- {name: file, context: {cluster: k, user: file}}
)");
    auto inlineConfig = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_TRUE(inlineConfig.ok()) << inlineConfig.error().message.toStdString();
    KubernetesClient inlineClient(*inlineConfig);
    auto connection = inlineClient.connection();
    ASSERT_TRUE(connection.ok());
    EXPECT_EQ(connection->authorization, QByteArray("Bearer abc.def"));
    EXPECT_FALSE(connection->endpoint.verifyPeer);
    EXPECT_TRUE(connection->endpoint.tls);

    auto fileConfig = KubeConfig::fromFiles({path("c.yaml")}, QStringLiteral("file"));
    ASSERT_TRUE(fileConfig.ok());
    KubernetesClient fileClient(*fileConfig);
    EXPECT_EQ(fileClient.connection()->authorization, QByteArray("Bearer first"));
    writeFile(path("token"), "rotated\n");
    EXPECT_EQ(fileClient.connection()->authorization, QByteArray("Bearer rotated"));
}

TEST_F(KubeConfigTest, clientCertificateGoesToTheEndpoint)
{
    writeFile(path("c.yaml"), "current-context: c\nclusters: [{name: k, cluster: {server: \"https://x\", "
                              "certificate-authority-data: " +
                                  base64("CA") + "}}]\nusers: [{name: u, user: {client-certificate-data: " +
                                  base64("CERT") + ", client-key-data: " + base64("KEY") +
                                  "}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n");
    auto config = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_TRUE(config.ok());
    auto connection = KubernetesClient(*config).connection();
    ASSERT_TRUE(connection.ok());
    EXPECT_TRUE(connection->authorization.isEmpty());
    EXPECT_EQ(connection->endpoint.caPem, QByteArray("CA"));
    EXPECT_EQ(connection->endpoint.certPem, QByteArray("CERT"));
    EXPECT_EQ(connection->endpoint.keyPem, QByteArray("KEY"));
    EXPECT_TRUE(connection->endpoint.verifyPeer);
}

TEST_F(KubeConfigTest, authProviderIsRefusedWithAdvice)
{
    writeFile(path("c.yaml"), R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x"}}]
users: [{name: u, user: {auth-provider: {name: gcp}}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
)");
    auto config = KubeConfig::fromFiles({path("c.yaml")});
    ASSERT_FALSE(config.ok());
    EXPECT_TRUE(config.error().message.contains(QStringLiteral("exec credential plugin")));
}

TEST_F(KubeConfigTest, inClusterUsesTheServiceAccountFiles)
{
    writeFile(path("sa/token"), "sa-token");
    writeFile(path("sa/ca.crt"), "SA CA");
    writeFile(path("sa/namespace"), "sandboxes\n");
    auto config = KubeConfig::inCluster(path("sa"), QStringLiteral("10.96.0.1"), QStringLiteral("443"));
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config->server, QStringLiteral("https://10.96.0.1:443"));
    EXPECT_EQ(config->caPem, QByteArray("SA CA"));
    EXPECT_EQ(config->namespaceName, QStringLiteral("sandboxes"));
    EXPECT_EQ(KubernetesClient(*config).connection()->authorization, QByteArray("Bearer sa-token"));

    auto ipv6 = KubeConfig::inCluster(path("sa"), QStringLiteral("fd00::1"), QStringLiteral("443"));
    ASSERT_TRUE(ipv6.ok());
    EXPECT_EQ(ipv6->server, QStringLiteral("https://[fd00::1]:443"));
}

TEST_F(KubeConfigTest, inClusterIsTheFallbackWithoutAnyKubeconfig)
{
    writeFile(path("sa/token"), "sa-token");
    writeFile(path("sa/ca.crt"), "SA CA");
    QDir().mkpath(path("emptyhome"));
    ScopedEnvironment environment({{"KUBECONFIG", {}},
                                   {"HOME", path("emptyhome").toUtf8()},
                                   {"KUBERNETES_SERVICE_HOST", "10.0.0.1"},
                                   {"KUBERNETES_SERVICE_PORT", "6443"}});
    auto config = KubeConfig::fromEnvironment({}, path("sa"));
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config->server, QStringLiteral("https://10.0.0.1:6443"));
    EXPECT_TRUE(config->source.contains(QStringLiteral("in-cluster")));
}

TEST_F(KubeConfigTest, inClusterWithoutTokenOrVariablesIsAClearError)
{
    auto noVariables = KubeConfig::inCluster(path("sa"), {}, {});
    ASSERT_FALSE(noVariables.ok());
    EXPECT_TRUE(noVariables.error().message.contains(QStringLiteral("KUBERNETES_SERVICE_HOST")));
    auto noToken = KubeConfig::inCluster(path("empty"), QStringLiteral("10.0.0.1"), QStringLiteral("443"));
    ASSERT_FALSE(noToken.ok());
    EXPECT_TRUE(noToken.error().message.contains(QStringLiteral("no service account token")));
}

TEST(KubernetesSettings, namespaceComesFromTheVariableThenTheContextThenDefault)
{
    {
        ScopedEnvironment environment({{"NAMESPACE", {}}});
        EXPECT_EQ(KubernetesSettings::fromEnvironment()->namespaceName, QStringLiteral("default"));
        EXPECT_EQ(KubernetesSettings::fromEnvironment(QStringLiteral("ctx-ns"))->namespaceName,
                  QStringLiteral("ctx-ns"));
    }
    ScopedEnvironment environment({{"NAMESPACE", "from-env"}});
    EXPECT_EQ(KubernetesSettings::fromEnvironment(QStringLiteral("ctx-ns"))->namespaceName, QStringLiteral("from-env"));
}

TEST(KubernetesSettings, readsSchedulingAndRegistryVariables)
{
    ScopedEnvironment environment({{"NAMESPACE", {}},
                                   {"LLM_SANDBOX_KUBE_RUNTIME_CLASS", "gvisor"},
                                   {"LLM_SANDBOX_KUBE_NODE_SELECTOR", "pool=sandbox, zone=a"},
                                   {"LLM_SANDBOX_KUBE_TOLERATIONS", R"([{"key":"sandbox","operator":"Exists"}])"},
                                   {"LLM_SANDBOX_KUBE_IMAGE_PULL_SECRETS", "regcred,other"},
                                   {"LLM_SANDBOX_REGISTRY", "registry.example:5000/"}});
    auto settings = KubernetesSettings::fromEnvironment();
    ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
    EXPECT_EQ(settings->runtimeClassName, QStringLiteral("gvisor"));
    EXPECT_EQ(settings->nodeSelector.value(QStringLiteral("zone")), QStringLiteral("a"));
    EXPECT_EQ(settings->tolerations.size(), 1);
    EXPECT_EQ(settings->imagePullSecrets, (QStringList{QStringLiteral("regcred"), QStringLiteral("other")}));
    EXPECT_EQ(settings->podImage(QStringLiteral("llm-sandbox/python:abc")),
              QStringLiteral("registry.example:5000/llm-sandbox/python:abc"));
    EXPECT_EQ(settings->podImage(QStringLiteral("docker.io/library/python:3.12")),
              QStringLiteral("docker.io/library/python:3.12"));
}

TEST(KubernetesSettings, badValuesNameTheirVariable)
{
    for (const auto &[name, value] : {std::pair<const char *, QByteArray>{"LLM_SANDBOX_KUBE_TOLERATIONS", "{}"},
                                      {"LLM_SANDBOX_KUBE_NODE_SELECTOR", "novalue"},
                                      {"LLM_SANDBOX_KUBE_START_TIMEOUT_SECONDS", "-1"},
                                      {"NAMESPACE", "Not_A_Namespace"}}) {
        ScopedEnvironment environment({{name, value}});
        auto settings = KubernetesSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok()) << name;
        EXPECT_TRUE(settings.error().message.contains(QString::fromLatin1(name)))
            << settings.error().message.toStdString();
    }
}
