#include "backend/BackendFactory.h"

#include "ScopedEnvironment.h"

#include <gtest/gtest.h>

#include <QtGlobal>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

TEST(BackendFactory, namespaceDefaultsToDefault)
{
    ScopedEnvironment unset({{"NAMESPACE", QByteArray()}});
    auto name = BackendFactory::kubernetesNamespace();
    ASSERT_TRUE(name.ok());
    EXPECT_EQ(*name, QStringLiteral("default"));
}

TEST(BackendFactory, badNamespaceIsAnErrorNamingTheVariable)
{
    for (const QByteArray &bad : {QByteArray("Upper"), QByteArray("-dash"), QByteArray("a/b"), QByteArray(64, 'a')}) {
        ScopedEnvironment variable({{"NAMESPACE", bad}});
        auto name = BackendFactory::kubernetesNamespace();
        ASSERT_FALSE(name.ok()) << bad.toStdString();
        EXPECT_TRUE(name.error().message.startsWith(QStringLiteral("NAMESPACE:")));
    }
    ScopedEnvironment variable({{"NAMESPACE", "team-a"}});
    EXPECT_EQ(*BackendFactory::kubernetesNamespace(), QStringLiteral("team-a"));
}

TEST(BackendFactory, unknownBackendListsTheKnownOnes)
{
    auto backend = BackendFactory::create(QStringLiteral("lxc"));
    ASSERT_FALSE(backend.ok());
    EXPECT_TRUE(backend.error().message.contains(QStringLiteral("docker, podman, kubernetes")));
}
