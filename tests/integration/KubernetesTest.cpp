// The kubernetes backend against the test API server (tests/kubernetes/apiserver): what only Kubernetes has. ctest
// runs it under with-apiserver (KUBECONFIG names the server; its contexts offer each way to authenticate).
#include "BackendTestSupport.h"
#include "ScopedEnvironment.h"
#include "backend/kubernetes/KubernetesBackend.h"
#include "engine/ExecutionEngine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

namespace {

std::shared_ptr<KubernetesBackend> backend(const QByteArray &context = {})
{
    ScopedEnvironment environment({{"LLM_SANDBOX_KUBE_CONTEXT", context.isEmpty() ? QByteArray() : context}});
    auto made = KubernetesBackend::fromEnvironment();
    EXPECT_TRUE(made.ok()) << made.error().message.toStdString();
    return made ? *made : nullptr;
}

RunRequest python(const QString &code)
{
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = code;
    request.timeout = std::chrono::seconds(60);
    return request;
}

/// A pod of the runner from `image` as the sandbox user, labelled with a made-up owner.
ContainerSpec runnerSpec(const QString &image)
{
    ContainerSpec spec;
    spec.image = image;
    spec.command = {QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner")};
    spec.user = QStringLiteral("1000:1000");
    spec.labels = {{ExecutionEngine::ownerLabel(), QStringLiteral("test-host:1:2")}};
    return spec;
}

SandboxSettings fresh()
{
    SandboxSettings settings;
    settings.policy = QStringLiteral("permissive");
    settings.poolSize = 0;
    return settings;
}

} // namespace

TEST(KubernetesTest, everyAuthenticationContextRunsCode)
{
    for (const QByteArray context : {"kube-test", "kube-test-token", "kube-test-token-file"}) {
        auto made = backend(context);
        ASSERT_TRUE(made);
        ExecutionEngine engine(made, fresh());
        auto result = engine.run(python(QStringLiteral("print(6 * 7)")));
        ASSERT_TRUE(result.ok()) << context.toStdString() << ": " << result.error().message.toStdString();
        EXPECT_EQ(result->stdoutData, "42\n") << context.toStdString();
    }
}

TEST(KubernetesTest, attachFallsBackToTheV4ChannelProtocol)
{
    auto made = backend();
    ASSERT_TRUE(made);
    KubernetesSettings settings = made->settings();
    settings.channelProtocols = {QStringLiteral("v4.channel.k8s.io")};
    auto v4 = std::make_shared<KubernetesBackend>(made->client().config(), settings);
    ExecutionEngine engine(v4, fresh());
    auto result = engine.run(python(QStringLiteral("import sys\nprint(sys.stdin.read() == '')")));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0);
    EXPECT_EQ(result->stdoutData, "True\n");
}

TEST(KubernetesTest, rbacDenialNamesTheVerbAndResource)
{
    auto restricted = backend("kube-test-restricted");
    ASSERT_TRUE(restricted);
    ExecutionEngine engine(restricted, fresh());
    auto result = engine.run(python(QStringLiteral("print(1)")));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("RBAC denies \"create\" on \"pods\"")))
        << result.error().message.toStdString();
    auto permissions = restricted->checkPermissions();
    ASSERT_TRUE(permissions.ok()) << permissions.error().message.toStdString();
    for (const KubernetesBackend::Permission &permission : *permissions) {
        EXPECT_EQ(permission.allowed, permission.verb != QLatin1String("create") &&
                                          permission.verb != QLatin1String("delete") &&
                                          !permission.resource.contains(u'/') && permission.group.isEmpty())
            << permission.verb.toStdString() << " " << permission.resource.toStdString();
    }
}

TEST(KubernetesTest, anImageTheClusterCannotPullIsAnImageError)
{
    auto made = backend();
    ASSERT_TRUE(made);
    auto pod = made->createContainer(runnerSpec(QStringLiteral("127.0.0.1:1/llm-sandbox/none:1")));
    ASSERT_TRUE(pod.ok()) << pod.error().message.toStdString();
    auto started = made->startAttached(*pod);
    ASSERT_TRUE(made->removeContainer(*pod).ok());
    ASSERT_FALSE(started.ok());
    EXPECT_EQ(started.error().code, ErrorCode::ImageMissing);
    EXPECT_TRUE(started.error().message.contains(QStringLiteral("127.0.0.1:1/llm-sandbox/none:1")))
        << started.error().message.toStdString();
    EXPECT_TRUE(started.error().message.contains(QStringLiteral("LLM_SANDBOX_REGISTRY")));
}

TEST(KubernetesTest, removedPodsAreGoneAndAbsentOnesAreFine)
{
    auto made = backend();
    ASSERT_TRUE(made);
    auto pod = made->createContainer(runnerSpec(QStringLiteral("llm-sandbox/none:1")));
    ASSERT_TRUE(pod.ok()) << pod.error().message.toStdString();
    auto listed = made->listContainersWithLabels(ExecutionEngine::ownerLabel());
    ASSERT_TRUE(listed.ok());
    EXPECT_EQ(listed->value(*pod), QStringLiteral("test-host:1:2")) << "the exact owner, from the annotation";
    EXPECT_EQ(*made->listContainers(ExecutionEngine::ownerLabel(), QStringLiteral("test-host:1:2")), QStringList{*pod});
    ASSERT_TRUE(made->removeContainer(*pod).ok());
    ASSERT_TRUE(made->removeContainer(*pod).ok());
    EXPECT_FALSE(made->listContainersWithLabels(ExecutionEngine::ownerLabel())->contains(*pod));
}

// A pod keeps its network for its life: the install runs in an installer pod that reaches the registry only through
// the egress proxy's pod (the NetworkPolicies of installer/kubernetes/), and the code in a pod that never had network,
// with what the install wrote copied in.
TEST(KubernetesTest, librariesComeFromAnInstallerPodAndTheCodeRunsWithoutNetwork)
{
    auto made = backend();
    ASSERT_TRUE(made);
    struct Progress final : RunObserver
    {
        void runProgress(const QString &, const RunProgress &progress) override { lines << progress.message; }
        QStringList lines;
    } progress;
    ExecutionEngine engine(made, fresh());
    RunRequest request;
    request.language = QStringLiteral("javascript");
    request.code = QStringLiteral("const isNumber = require('is-number');\n"
                                  "console.log(isNumber(5), require('fs').readdirSync('/sys/class/net').join(','));\n");
    request.libraries = {QStringLiteral("is-number@7.0.0")};
    request.timeout = std::chrono::seconds(120);
    auto result = engine.run(request, {}, &progress);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "true lo\n") << result->stderrData.toStdString();
    EXPECT_EQ(progress.lines.filter(QStringLiteral("Starting the egress proxy")).size(), 1)
        << progress.lines.join(u'\n').toStdString();
    EXPECT_EQ(progress.lines.filter(QStringLiteral("builder sandbox (no network but the egress proxy)")).size(), 1)
        << progress.lines.join(u'\n').toStdString();
    EXPECT_EQ(progress.lines.filter(QStringLiteral("of installed libraries into the sandbox")).size(), 1);
    auto left = made->listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
    ASSERT_TRUE(left.ok()) << left.error().message.toStdString();
    EXPECT_TRUE(left->isEmpty()) << "the installer and proxy pods are removed: " << left->join(u' ').toStdString();
}

// Run by ctest against servers started with `--metrics-api absent` (no metrics-server: 404 for the group) and
// `--metrics-api unavailable` (its APIService down: 503 from the aggregator).
TEST(KubernetesMetricsMissingTest, statsSayMetricsServerIsNotInstalled)
{
    auto made = backend();
    ASSERT_TRUE(made);
    auto pod = made->createContainer(runnerSpec(QStringLiteral("llm-sandbox/none:1")));
    ASSERT_TRUE(pod.ok()) << pod.error().message.toStdString();
    auto stats = made->containerStats(*pod);
    ASSERT_TRUE(made->removeContainer(*pod).ok());
    ASSERT_FALSE(stats.ok());
    EXPECT_EQ(stats.error().code, ErrorCode::Unavailable);
    EXPECT_TRUE(stats.error().message.contains(QStringLiteral("metrics-server is not installed")))
        << stats.error().message.toStdString();
}

TEST(KubernetesMetricsMissingTest, psShowsUnknownUsageAndSaysWhyOnce)
{
    auto made = backend();
    ASSERT_TRUE(made);
    ExecutionEngine engine(made, fresh());
    SessionRequest request;
    request.language = QStringLiteral("python");
    auto first = engine.createSession(request);
    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    auto second = engine.createSession(request);
    ASSERT_TRUE(second.ok()) << second.error().message.toStdString();

    const auto table = test::runCli({QStringLiteral("ps"), QStringLiteral("--backend"), QStringLiteral("kubernetes")});
    EXPECT_EQ(table.exitCode, 0) << table.stderrData.toStdString();
    const QString output = QString::fromUtf8(table.stdoutData);
    EXPECT_EQ(output.count(QStringLiteral("metrics-server is not installed")), 1) << output.toStdString();
    EXPECT_EQ(output.count(QRegularExpression(QStringLiteral("llm-sandbox-[0-9a-f]+ +python .* -  +-  +-\\n"))), 2)
        << output.toStdString();

    const auto json = test::runCli(
        {QStringLiteral("ps"), QStringLiteral("--backend"), QStringLiteral("kubernetes"), QStringLiteral("--json")});
    EXPECT_EQ(json.exitCode, 0) << json.stderrData.toStdString();
    const QJsonArray sandboxes = QJsonDocument::fromJson(json.stdoutData).object().value("sandboxes").toArray();
    EXPECT_EQ(sandboxes.size(), 2) << json.stdoutData.toStdString();
    for (const QJsonValue &sandbox : sandboxes) {
        EXPECT_TRUE(sandbox["stats"].isNull());
        EXPECT_EQ(sandbox["stats_error"]["code"].toString(), QStringLiteral("unavailable"));
    }
    EXPECT_TRUE(engine.closeSession(first->id).ok());
    EXPECT_TRUE(engine.closeSession(second->id).ok());
}

TEST(KubernetesTest, doctorReportsTheServerTheNamespaceAndEachPermission)
{
    const auto admin =
        test::runCli({QStringLiteral("doctor"), QStringLiteral("--backend"), QStringLiteral("kubernetes")},
                     {QStringLiteral("LLM_SANDBOX_KUBE_CONTEXT=kube-test")});
    const QString report = QString::fromUtf8(admin.stdoutData);
    EXPECT_TRUE(report.contains(QRegularExpression(QStringLiteral("\\* kubernetes reachable: version v1\\.\\d+"))))
        << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("namespace: default"))) << report.toStdString();
    EXPECT_EQ(report.count(QStringLiteral(": granted")), KubernetesBackend::neededPermissions().size())
        << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("permission get    pods.metrics.k8s.io: granted")))
        << report.toStdString();

    const auto restricted =
        test::runCli({QStringLiteral("doctor"), QStringLiteral("--backend"), QStringLiteral("kubernetes")},
                     {QStringLiteral("LLM_SANDBOX_KUBE_CONTEXT=kube-test-restricted")});
    const QString denied = QString::fromUtf8(restricted.stdoutData);
    EXPECT_NE(restricted.exitCode, 0) << denied.toStdString();
    EXPECT_TRUE(denied.contains(QStringLiteral("permission create pods     : DENIED"))) << denied.toStdString();
    EXPECT_TRUE(denied.contains(QStringLiteral("permission get    pods     : granted"))) << denied.toStdString();
    EXPECT_TRUE(denied.contains(QStringLiteral("pods.metrics.k8s.io: denied"))) << denied.toStdString();
}
