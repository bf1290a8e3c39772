#include "backend/BackendFactory.h"

#include <gtest/gtest.h>

#include <QtGlobal>

using namespace sandbox;

namespace {

/// Sets an environment variable for one test and restores it afterwards.
class ScopedVariable final
{
public:
    ScopedVariable(const char *name, const QByteArray &value) : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name))
    {
        qputenv(name, value);
    }
    ~ScopedVariable()
    {
        m_had ? qputenv(m_name, m_old) : qunsetenv(m_name);
    }

private:
    const char *m_name;
    QByteArray m_old;
    bool m_had;
};

} // namespace

TEST(BackendFactory, namespaceDefaultsToDefault)
{
    ScopedVariable variable("NAMESPACE", "");
    qunsetenv("NAMESPACE");
    auto name = BackendFactory::kubernetesNamespace();
    ASSERT_TRUE(name.ok());
    EXPECT_EQ(*name, QStringLiteral("default"));
}

TEST(BackendFactory, badNamespaceIsAnErrorNamingTheVariable)
{
    for (const QByteArray &bad : {QByteArray("Upper"), QByteArray("-dash"), QByteArray("a/b"), QByteArray(64, 'a')}) {
        ScopedVariable variable("NAMESPACE", bad);
        auto name = BackendFactory::kubernetesNamespace();
        ASSERT_FALSE(name.ok()) << bad.toStdString();
        EXPECT_TRUE(name.error().message.startsWith(QStringLiteral("NAMESPACE:")));
    }
    ScopedVariable variable("NAMESPACE", "team-a");
    EXPECT_EQ(*BackendFactory::kubernetesNamespace(), QStringLiteral("team-a"));
}

TEST(BackendFactory, unknownBackendListsTheKnownOnes)
{
    auto backend = BackendFactory::create(QStringLiteral("lxc"));
    ASSERT_FALSE(backend.ok());
    EXPECT_TRUE(backend.error().message.contains(QStringLiteral("docker, podman, kubernetes")));
}
