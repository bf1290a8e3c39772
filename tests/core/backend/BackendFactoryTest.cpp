#include "backend/BackendFactory.h"

#include "ScopedEnvironment.h"
#include "backend/kubernetes/KubernetesBackend.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtGlobal>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

namespace {

/// A kubeconfig in `dir` with one cluster at https://127.0.0.1:1 and its context "c" (`contextExtra`: more of the
/// context's fields, such as ", namespace: team-b"); its path.
QByteArray writeKubeconfig(const QTemporaryDir &dir, const QByteArray &contextExtra = {})
{
    QFile config(dir.filePath(QStringLiteral("config")));
    EXPECT_TRUE(config.open(QIODevice::WriteOnly));
    config.write("current-context: c\nclusters: [{name: k, cluster: {server: \"https://127.0.0.1:1\"}}]\n"
                 "contexts: [{name: c, context: {cluster: k" +
                 contextExtra + "}}]\n");
    return config.fileName().toUtf8();
}

} // namespace

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

TEST(BackendFactory, kubernetesWithoutAKubeconfigSaysWhereItLooked)
{
    ScopedEnvironment variables({{"BACKEND", "kubernetes"},
                                 {"NAMESPACE", QByteArray()},
                                 {"KUBECONFIG", "/nonexistent/llm-sandbox-test-kubeconfig"},
                                 {"KUBERNETES_SERVICE_HOST", QByteArray()}});
    auto backend = BackendFactory::create();
    ASSERT_FALSE(backend.ok());
    EXPECT_EQ(backend.error().code, ErrorCode::BadRequest);
    EXPECT_TRUE(backend.error().message.contains(QStringLiteral("/nonexistent/llm-sandbox-test-kubeconfig")))
        << backend.error().message.toStdString();
}

TEST(BackendFactory, kubernetesIsMadeFromTheKubeconfig)
{
    QTemporaryDir dir;
    const QByteArray config = writeKubeconfig(dir, ", namespace: team-b");
    ScopedEnvironment variables({{"NAMESPACE", QByteArray()}, {"KUBECONFIG", config}});
    auto backend = BackendFactory::create(QStringLiteral("kubernetes"));
    ASSERT_TRUE(backend.ok()) << backend.error().message.toStdString();
    EXPECT_EQ((*backend)->name(), QStringLiteral("kubernetes"));
    EXPECT_EQ((*backend)->endpoint(), QStringLiteral("https://127.0.0.1:1 (namespace team-b)"));
}

TEST(BackendFactory, kubernetesPullsFromTheSavedRegistryUnlessTheVariableNamesOne)
{
    QTemporaryDir dir;
    const QByteArray config = writeKubeconfig(dir);
    const BackendConnection saved{.registry = QStringLiteral("saved.example:5000/")};
    const QString image = QStringLiteral("llm-sandbox/python:abc");
    const auto podImage = [&] {
        auto backend = BackendFactory::create(QStringLiteral("kubernetes"), saved);
        EXPECT_TRUE(backend.ok()) << backend.error().message.toStdString();
        return backend ? std::static_pointer_cast<KubernetesBackend>(*backend)->settings().podImage(image) : QString();
    };
    {
        ScopedEnvironment variables({{"KUBECONFIG", config}, {"LLM_SANDBOX_REGISTRY", {}}});
        EXPECT_EQ(podImage(), QStringLiteral("saved.example:5000/llm-sandbox/python:abc"));
    }
    ScopedEnvironment variables({{"KUBECONFIG", config}, {"LLM_SANDBOX_REGISTRY", "env.example:5000"}});
    EXPECT_EQ(podImage(), QStringLiteral("env.example:5000/llm-sandbox/python:abc"));
}
