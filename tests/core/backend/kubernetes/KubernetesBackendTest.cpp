#include "backend/kubernetes/KubernetesBackend.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

KubeConfig localConfig(const QString &server = QStringLiteral("https://127.0.0.1:1"))
{
    KubeConfig config;
    config.source = QStringLiteral("test kubeconfig");
    config.server = server;
    config.token = QStringLiteral("t");
    return config;
}

KubernetesSettings settings()
{
    KubernetesSettings settings;
    settings.namespaceName = QStringLiteral("sandboxes");
    return settings;
}

HttpResponse response(int status, const QByteArray &body)
{
    HttpResponse reply;
    reply.status = status;
    reply.body = body;
    return reply;
}

} // namespace

TEST(KubernetesBackend, installersReachTheEgressProxyByAddress)
{
    KubernetesBackend backend(localConfig(), settings());
    EXPECT_EQ(backend.egressProxyReach(), ContainerBackend::EgressProxyReach::ContainerAddress)
        << "a pod cannot mount the egress proxy's socket";
}

TEST(KubernetesBackend, imagesComeFromARegistry)
{
    KubernetesBackend backend(localConfig(), settings());
    // No image store to build in or ask: the cluster pulls what a pod names.
    EXPECT_EQ(backend.imageStore(), nullptr);
    const Error refused = backend.noImageStore(QStringLiteral("Building image llm-sandbox/python:abc"));
    EXPECT_EQ(refused.code, ErrorCode::Unavailable);
    EXPECT_TRUE(refused.message.contains(QStringLiteral("images push")));
    EXPECT_TRUE(refused.message.contains(QStringLiteral("LLM_SANDBOX_REGISTRY")));
}

TEST(KubernetesBackend, imagePullFailureSaysWhichImageAndWhereImagesComeFrom)
{
    const QJsonObject pod = QJsonDocument::fromJson(R"({"status":{"phase":"Pending","containerStatuses":[
        {"name":"sandbox","image":"registry.example/llm-sandbox/python:abc","state":{"waiting":{
         "reason":"ImagePullBackOff","message":"Back-off pulling image \"registry.example/llm-sandbox/python:abc\""}}}]}})")
                                .object();
    auto failure = KubernetesBackend::startFailure(pod, QStringLiteral("llm-sandbox-1"));
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(failure->code, ErrorCode::ImageMissing);
    EXPECT_TRUE(
        failure->message.contains(QStringLiteral("could not pull the image registry.example/llm-sandbox/python:abc")));
    EXPECT_TRUE(failure->message.contains(QStringLiteral("ImagePullBackOff")));
    EXPECT_TRUE(failure->message.contains(QStringLiteral("images push")));
}

TEST(KubernetesBackend, aFolderLoadersPullFailureIsAnImageErrorToo)
{
    // A pod with shared folders starts with its folder loader, an init container of the sandbox's image.
    const QJsonObject pod = QJsonDocument::fromJson(R"({"status":{"phase":"Pending","initContainerStatuses":[
        {"name":"folders","image":"registry.example/llm-sandbox/python:abc","state":{"waiting":{
         "reason":"ErrImagePull","message":"not found"}}}],"containerStatuses":[
        {"name":"sandbox","state":{"waiting":{"reason":"PodInitializing"}}}]}})")
                                .object();
    auto failure = KubernetesBackend::startFailure(pod, QStringLiteral("llm-sandbox-1"));
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(failure->code, ErrorCode::ImageMissing);
    EXPECT_TRUE(failure->message.contains(QStringLiteral("registry.example/llm-sandbox/python:abc")));
}

TEST(KubernetesBackend, unschedulablePodGivesTheSchedulersReason)
{
    const QJsonObject pod = QJsonDocument::fromJson(R"({"status":{"phase":"Pending","conditions":[
        {"type":"PodScheduled","status":"False","reason":"Unschedulable",
         "message":"0/3 nodes are available: 3 Insufficient memory."}]}})")
                                .object();
    auto failure = KubernetesBackend::startFailure(pod, QStringLiteral("p"));
    ASSERT_TRUE(failure.has_value());
    EXPECT_TRUE(failure->message.contains(QStringLiteral("No node can run pod p")));
    EXPECT_TRUE(failure->message.contains(QStringLiteral("3 Insufficient memory")));
}

TEST(KubernetesBackend, pendingPodIsNoFailureAndAnEndedOneIs)
{
    EXPECT_FALSE(KubernetesBackend::startFailure(
                     QJsonDocument::fromJson(R"({"status":{"phase":"Pending","containerStatuses":[{"name":"sandbox",
                         "state":{"waiting":{"reason":"ContainerCreating"}}}]}})")
                         .object(),
                     QStringLiteral("p"))
                     .has_value());
    auto ended = KubernetesBackend::startFailure(
        QJsonDocument::fromJson(R"({"status":{"phase":"Failed","reason":"DeadlineExceeded","message":"too long"}})")
            .object(),
        QStringLiteral("p"));
    ASSERT_TRUE(ended.has_value());
    EXPECT_TRUE(ended->message.contains(QStringLiteral("DeadlineExceeded")));
}

TEST(KubernetesClient, apiErrorsTellQuotaRbacAndCredentialsApart)
{
    KubernetesClient client(localConfig());
    const Error quota = client.apiError(
        response(
            403,
            R"({"kind":"Status","status":"Failure","message":"pods \"p\" is forbidden: exceeded quota: q, requested: memory=512Mi, used: memory=1Gi, limited: memory=1Gi","reason":"Forbidden","code":403})"),
        QStringLiteral("Creating pod p"), QStringLiteral("create"), QStringLiteral("pods"));
    EXPECT_EQ(quota.code, ErrorCode::LimitReached);
    EXPECT_TRUE(quota.message.contains(QStringLiteral("ResourceQuota")));
    EXPECT_TRUE(quota.message.contains(QStringLiteral("limited: memory=1Gi")));

    const Error rbac = client.apiError(
        response(
            403,
            R"({"kind":"Status","message":"pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"sandboxes\"","reason":"Forbidden","code":403})"),
        QStringLiteral("Listing pods"), QStringLiteral("list"), QStringLiteral("pods"));
    EXPECT_TRUE(rbac.message.contains(QStringLiteral("RBAC denies \"list\" on \"pods\"")))
        << rbac.message.toStdString();
    EXPECT_TRUE(rbac.message.contains(QStringLiteral("User \"alice\"")));

    const Error unauthorized =
        client.apiError(response(401, R"({"kind":"Status","message":"Unauthorized","code":401})"),
                        QStringLiteral("Listing pods"), QStringLiteral("list"), QStringLiteral("pods"));
    EXPECT_TRUE(unauthorized.message.contains(QStringLiteral("401 Unauthorized")));
    EXPECT_TRUE(unauthorized.message.contains(QStringLiteral("test kubeconfig")));

    const Error other =
        client.apiError(response(422, R"({"message":"Pod \"p\" is invalid"})"), QStringLiteral("Creating pod p"),
                        QStringLiteral("create"), QStringLiteral("pods"));
    EXPECT_TRUE(other.message.contains(QStringLiteral("answered 422: Pod \"p\" is invalid")));
}

TEST(KubernetesClient, unreachableServerIsAnErrorNamingIt)
{
    KubernetesBackend backend(localConfig(QStringLiteral("https://127.0.0.1:1")), settings());
    auto probed = backend.probe();
    ASSERT_FALSE(probed.ok());
    EXPECT_EQ(probed.error().code, ErrorCode::EngineUnreachable);
    EXPECT_TRUE(probed.error().message.contains(QStringLiteral("Kubernetes API server")));
    EXPECT_TRUE(probed.error().message.contains(QStringLiteral("https://127.0.0.1:1")));
}

TEST(KubernetesBackendTest, podMetricsBecomeStatsOfAllContainers)
{
    // metrics-server's answer for a pod (GET /apis/metrics.k8s.io/v1beta1/namespaces/NS/pods/NAME).
    const QJsonObject metrics = QJsonDocument::fromJson(R"({
        "kind": "PodMetrics", "apiVersion": "metrics.k8s.io/v1beta1",
        "metadata": {"name": "llm-sandbox-1", "namespace": "sandboxes", "creationTimestamp": "2026-11-30T21:00:05Z",
                     "labels": {"app.kubernetes.io/managed-by": "llm-sandbox"}},
        "timestamp": "2026-11-30T21:00:00Z", "window": "10.512s",
        "containers": [{"name": "sandbox", "usage": {"cpu": "250000000n", "memory": "54584Ki"}},
                       {"name": "sidecar", "usage": {"cpu": "12m", "memory": "1048576"}}]})")
                                    .object();
    auto stats = KubernetesBackend::statsFromPodMetrics(metrics);
    ASSERT_TRUE(stats.ok()) << stats.error().message.toStdString();
    EXPECT_DOUBLE_EQ(stats->cpuCores, 0.262);
    EXPECT_EQ(stats->memoryBytes, 54584LL * 1024 + 1048576);
    EXPECT_EQ(stats->pids, -1) << "the metrics API does not count processes";
    EXPECT_EQ(stats->sampledAt, QDateTime(QDate(2026, 11, 30), QTime(21, 0), Qt::UTC));
}

TEST(KubernetesBackendTest, podMetricsWithoutAQuantityAreAnError)
{
    const QJsonObject metrics =
        QJsonDocument::fromJson(R"({"containers": [{"name": "sandbox", "usage": {"cpu": "lots", "memory": "1Mi"}}]})")
            .object();
    auto stats = KubernetesBackend::statsFromPodMetrics(metrics);
    ASSERT_FALSE(stats.ok());
    EXPECT_TRUE(stats.error().message.contains(QStringLiteral("\"lots\""))) << stats.error().message.toStdString();
}
