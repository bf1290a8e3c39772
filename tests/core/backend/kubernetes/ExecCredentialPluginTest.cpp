#include "backend/kubernetes/ExecCredentialPlugin.h"

#include "backend/kubernetes/KubeConfig.h"
#include "backend/kubernetes/KubernetesClient.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

/// A real plugin: a shell script that counts its runs, records its input and prints an ExecCredential.
class ExecCredentialPluginTest : public ::testing::Test
{
protected:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QString writePlugin(const QByteArray &status, const QByteArray &extra = {})
    {
        const QString script = path("plugin.sh");
        QFile file(script);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("#!/bin/sh\n"
                   "echo run >> \"" +
                   path("runs").toUtf8() +
                   "\"\n"
                   "printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"" +
                   path("info").toUtf8() + "\"\n" + extra +
                   "cat <<EOF\n"
                   "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":" +
                   status + "}\nEOF\n");
        file.close();
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        return script;
    }

    int runs() const
    {
        QFile file(path("runs"));
        return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
    }

    KubeExecConfig config(const QString &command) const
    {
        KubeExecConfig exec;
        exec.apiVersion = QStringLiteral("client.authentication.k8s.io/v1");
        exec.command = command;
        exec.interactiveMode = QStringLiteral("Never");
        return exec;
    }

    QTemporaryDir m_dir;
};

QByteArray timestamp(qint64 secondsFromNow)
{
    return QDateTime::currentDateTimeUtc().addSecs(secondsFromNow).toString(Qt::ISODate).toUtf8();
}

} // namespace

TEST_F(ExecCredentialPluginTest, tokenIsCachedUntilItExpires)
{
    ExecCredentialPlugin plugin(
        config(writePlugin("{\"token\":\"tok-1\",\"expirationTimestamp\":\"" + timestamp(3600) + "\"}")),
        QStringLiteral("https://x"));
    auto first = plugin.credentials();
    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    EXPECT_EQ(first->token, QStringLiteral("tok-1"));
    ASSERT_TRUE(plugin.credentials().ok());
    EXPECT_EQ(runs(), 1);
    plugin.invalidate();
    ASSERT_TRUE(plugin.credentials().ok());
    EXPECT_EQ(runs(), 2);
}

TEST_F(ExecCredentialPluginTest, expiredCredentialsRunThePluginAgain)
{
    ExecCredentialPlugin plugin(
        config(writePlugin("{\"token\":\"old\",\"expirationTimestamp\":\"" + timestamp(-60) + "\"}")), {});
    ASSERT_TRUE(plugin.credentials().ok());
    ASSERT_TRUE(plugin.credentials().ok());
    EXPECT_EQ(runs(), 2);
}

TEST_F(ExecCredentialPluginTest, clientCertificateFromThePluginGoesToTheConnection)
{
    const QString script =
        writePlugin(R"({"clientCertificateData":"-----BEGIN CERTIFICATE-----\nC\n-----END CERTIFICATE-----\n",)"
                    R"("clientKeyData":"-----BEGIN PRIVATE KEY-----\nK\n-----END PRIVATE KEY-----\n"})");
    QFile kubeconfig(path("config"));
    ASSERT_TRUE(kubeconfig.open(QIODevice::WriteOnly));
    // A relative command path resolves against the kubeconfig's directory.
    kubeconfig.write(R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x"}}]
users:
- name: u
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, interactiveMode: Never}
contexts: [{name: c, context: {cluster: k, user: u}}]
)");
    kubeconfig.close();
    auto loaded = KubeConfig::fromFiles({path("config")});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_TRUE(loaded->exec.has_value());
    EXPECT_EQ(loaded->exec->command, script);
    auto connection = KubernetesClient(*loaded).connection();
    ASSERT_TRUE(connection.ok()) << connection.error().message.toStdString();
    EXPECT_TRUE(connection->endpoint.certPem.startsWith("-----BEGIN CERTIFICATE-----"));
    EXPECT_TRUE(connection->endpoint.keyPem.startsWith("-----BEGIN PRIVATE KEY-----"));
    EXPECT_TRUE(connection->authorization.isEmpty());
}

TEST_F(ExecCredentialPluginTest, pluginGetsArgsEnvAndNonInteractiveExecInfo)
{
    // The token is built from an argument and a variable the kubeconfig names.
    KubeExecConfig exec = config(writePlugin("{\"token\":\"$1-$PLUGIN_SUFFIX\"}"));
    exec.args = {QStringLiteral("from-arg")};
    exec.env = {{QStringLiteral("PLUGIN_SUFFIX"), QStringLiteral("from-env")}};
    exec.provideClusterInfo = true;
    ExecCredentialPlugin plugin(exec, QStringLiteral("https://cluster.example"));
    auto credentials = plugin.credentials();
    ASSERT_TRUE(credentials.ok()) << credentials.error().message.toStdString();
    EXPECT_EQ(credentials->token, QStringLiteral("from-arg-from-env"));
    QFile info(path("info"));
    ASSERT_TRUE(info.open(QIODevice::ReadOnly));
    const QByteArray execInfo = info.readAll();
    EXPECT_TRUE(execInfo.contains("\"interactive\":false")) << execInfo.toStdString();
    EXPECT_TRUE(execInfo.contains("\"kind\":\"ExecCredential\""));
    EXPECT_TRUE(execInfo.contains("https://cluster.example"));
}

TEST_F(ExecCredentialPluginTest, failingPluginReportsItsStderr)
{
    ExecCredentialPlugin plugin(config(writePlugin("{}", "echo 'login expired, run sso login' >&2\nexit 3\n")), {});
    auto credentials = plugin.credentials();
    ASSERT_FALSE(credentials.ok());
    EXPECT_TRUE(credentials.error().message.contains(QStringLiteral("exit code 3")));
    EXPECT_TRUE(credentials.error().message.contains(QStringLiteral("login expired, run sso login")));
}

TEST_F(ExecCredentialPluginTest, pluginWithoutCredentialsOrMissingIsAnError)
{
    ExecCredentialPlugin empty(config(writePlugin("{}")), {});
    auto none = empty.credentials();
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(none.error().message.contains(QStringLiteral("neither a token nor a client certificate")));

    KubeExecConfig missing = config(path("no-such-plugin"));
    missing.installHint = QStringLiteral("Install it with: apt install the-plugin");
    auto notThere = ExecCredentialPlugin(missing, {}).credentials();
    ASSERT_FALSE(notThere.ok());
    EXPECT_TRUE(notThere.error().message.contains(QStringLiteral("could not be started")));
    EXPECT_TRUE(notThere.error().message.contains(QStringLiteral("apt install the-plugin")));
}

TEST_F(ExecCredentialPluginTest, interactiveOnlyPluginsAndV1WithoutModeAreRefused)
{
    KubeExecConfig always = config(writePlugin("{\"token\":\"t\"}"));
    always.interactiveMode = QStringLiteral("Always");
    auto refused = ExecCredentialPlugin(always, {}).credentials();
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("needs a terminal")));
    EXPECT_EQ(runs(), 0);

    QFile kubeconfig(path("config"));
    ASSERT_TRUE(kubeconfig.open(QIODevice::WriteOnly));
    kubeconfig.write(R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://x"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: plugin}}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
)");
    kubeconfig.close();
    auto loaded = KubeConfig::fromFiles({path("config")});
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(loaded.error().message.contains(QStringLiteral("must set interactiveMode")));
}
