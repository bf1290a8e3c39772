#include "backend/BackendFactory.h"

#include "ScopedEnvironment.h"

#include <QtGlobal>
#include <gtest/gtest.h>

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

TEST(BackendFactory, micromambaIsTheDockerBackend)
{
    ScopedEnvironment variables(
        {{"BACKEND", "micromamba"}, {"DOCKER_HOST", "unix:///tmp/llm-sandbox-test-docker.sock"}});
    auto backend = BackendFactory::create();
    ASSERT_TRUE(backend.ok()) << backend.error().message.toStdString();
    EXPECT_EQ((*backend)->name(), QStringLiteral("docker"));
}

TEST(BackendFactory, podmanHonoursDockerHostWithoutContainerHost)
{
    // The Python llm-sandbox's Podman example sets only DOCKER_HOST.
    ScopedEnvironment variables({{"BACKEND", "podman"},
                                 {"CONTAINER_HOST", QByteArray()},
                                 {"DOCKER_HOST", "unix:///tmp/llm-sandbox-test-podman.sock"}});
    auto backend = BackendFactory::create();
    ASSERT_TRUE(backend.ok()) << backend.error().message.toStdString();
    EXPECT_EQ((*backend)->name(), QStringLiteral("podman"));
    // Nothing listens there: the error of reaching it names the socket it tried.
    const auto probed = (*backend)->probe();
    ASSERT_FALSE(probed.ok());
    EXPECT_TRUE(probed.error().message.contains(QStringLiteral("llm-sandbox-test-podman.sock")))
        << probed.error().message.toStdString();
}

TEST(BackendFactory, podmanChosenBesideDockerLeavesDockerHostToDocker)
{
    // `--backend podman` with BACKEND=docker: DOCKER_HOST names the Docker engine, not Podman's socket.
    ScopedEnvironment variables({{"BACKEND", "docker"},
                                 {"CONTAINER_HOST", "unix:///tmp/llm-sandbox-test-container.sock"},
                                 {"DOCKER_HOST", "unix:///tmp/llm-sandbox-test-docker.sock"}});
    auto backend = BackendFactory::create(QStringLiteral("podman"));
    ASSERT_TRUE(backend.ok()) << backend.error().message.toStdString();
    const auto probed = (*backend)->probe();
    ASSERT_FALSE(probed.ok());
    EXPECT_FALSE(probed.error().message.contains(QStringLiteral("llm-sandbox-test-docker.sock")));
}

TEST(BackendFactory, podmanPrefersContainerHostOverDockerHost)
{
    ScopedEnvironment variables({{"BACKEND", "podman"},
                                 {"CONTAINER_HOST", "unix:///tmp/llm-sandbox-test-container.sock"},
                                 {"DOCKER_HOST", "unix:///tmp/llm-sandbox-test-docker.sock"}});
    auto backend = BackendFactory::create(QStringLiteral("podman"));
    ASSERT_TRUE(backend.ok()) << backend.error().message.toStdString();
    const auto probed = (*backend)->probe();
    ASSERT_FALSE(probed.ok());
    EXPECT_TRUE(probed.error().message.contains(QStringLiteral("llm-sandbox-test-container.sock")))
        << probed.error().message.toStdString();
}

TEST(BackendFactory, kubernetesIsAnUnavailableErrorNotACrash)
{
    ScopedEnvironment variables({{"BACKEND", "kubernetes"}, {"NAMESPACE", QByteArray()}});
    auto backend = BackendFactory::create();
    ASSERT_FALSE(backend.ok());
    EXPECT_EQ(backend.error().code, ErrorCode::Unavailable);
    EXPECT_TRUE(backend.error().message.contains(QStringLiteral("kubernetes")));
}
