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

ContainerSpec hardenedSpec()
{
    ContainerSpec spec;
    spec.image = QStringLiteral("llm-sandbox/python:abc");
    spec.command = {QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner")};
    spec.user = QStringLiteral("1000:1000");
    spec.workingDir = QStringLiteral("/sandbox");
    spec.labels = {{QStringLiteral("io.llm-sandbox.owner"), QStringLiteral("host.example:1234:5678")},
                   {QStringLiteral("io.llm-sandbox.run"), QStringLiteral("0123456789abcdef")}};
    spec.memoryBytes = 512LL * 1024 * 1024;
    spec.cpus = 1.5;
    spec.pidsLimit = 256;
    spec.ulimits = {{QStringLiteral("nofile"), 1024, 1024}, {QStringLiteral("core"), 0, 0}};
    spec.readOnlyRootfs = true;
    spec.tmpfs = {{QStringLiteral("/sandbox"), QStringLiteral("rw,exec,size=268435456,uid=1000,gid=1000,mode=0755")},
                  {QStringLiteral("/tmp"), QStringLiteral("rw,exec,nosuid,nodev,size=134217728,mode=1777")}};
    return spec;
}

HttpResponse response(int status, const QByteArray &body)
{
    HttpResponse reply;
    reply.status = status;
    reply.body = body;
    return reply;
}

} // namespace

TEST(KubernetesBackend, podsGetAUserNamespaceWhereTheClusterHasThem)
{
    // Issue 44, item 14: root in the pod is nobody on the node (hostUsers: false), from 1.33 on by default.
    EXPECT_FALSE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.32.0-llm-sandbox-test")));
    EXPECT_TRUE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.33.1")));
    EXPECT_TRUE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.35.0+k3s1")));
    EXPECT_FALSE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.9.0")));
    EXPECT_FALSE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("garbage")));
    const auto hostUsers = [](KubernetesSettings::UserNamespaces choice) {
        KubernetesSettings chosen = settings();
        chosen.userNamespaces = choice;
        KubernetesBackend backend(localConfig(), chosen);
        auto pod = backend.podManifest(hardenedSpec(), QStringLiteral("llm-sandbox-1"));
        EXPECT_TRUE(pod.ok());
        return pod.ok() ? pod->value(QStringLiteral("spec")).toObject().value(QStringLiteral("hostUsers"))
                        : QJsonValue(QJsonValue::Undefined);
    };
    EXPECT_EQ(hostUsers(KubernetesSettings::UserNamespaces::On), QJsonValue(false));
    EXPECT_TRUE(hostUsers(KubernetesSettings::UserNamespaces::Off).isUndefined());
    // Auto before the API server said its version: not asked for (an older cluster would refuse the pods).
    EXPECT_TRUE(hostUsers(KubernetesSettings::UserNamespaces::Auto).isUndefined());
}

TEST(KubernetesBackend, podIsHardenedLikeTheContainers)
{
    KubernetesBackend backend(localConfig(), settings());
    auto pod = backend.podManifest(hardenedSpec(), QStringLiteral("llm-sandbox-1"));
    ASSERT_TRUE(pod.ok()) << pod.error().message.toStdString();
    const QJsonObject spec = pod->value(QStringLiteral("spec")).toObject();
    EXPECT_EQ(spec.value(QStringLiteral("restartPolicy")).toString(), QStringLiteral("Never"));
    EXPECT_FALSE(spec.value(QStringLiteral("automountServiceAccountToken")).toBool(true));
    EXPECT_FALSE(spec.value(QStringLiteral("enableServiceLinks")).toBool(true));
    EXPECT_GT(spec.value(QStringLiteral("activeDeadlineSeconds")).toInt(), 0);
    const QJsonObject podSecurity = spec.value(QStringLiteral("securityContext")).toObject();
    EXPECT_TRUE(podSecurity.value(QStringLiteral("runAsNonRoot")).toBool());
    EXPECT_EQ(podSecurity.value(QStringLiteral("runAsUser")).toInt(), 1000);
    EXPECT_EQ(podSecurity.value(QStringLiteral("seccompProfile")).toObject().value(QStringLiteral("type")).toString(),
              QStringLiteral("RuntimeDefault"));

    const QJsonObject container = spec.value(QStringLiteral("containers")).toArray().at(0).toObject();
    const QJsonObject security = container.value(QStringLiteral("securityContext")).toObject();
    EXPECT_FALSE(security.value(QStringLiteral("allowPrivilegeEscalation")).toBool(true));
    EXPECT_TRUE(security.value(QStringLiteral("readOnlyRootFilesystem")).toBool());
    EXPECT_EQ(security.value(QStringLiteral("capabilities")).toObject().value(QStringLiteral("drop")).toArray(),
              QJsonArray{QStringLiteral("ALL")});
    EXPECT_EQ(container.value(QStringLiteral("image")).toString(), QStringLiteral("llm-sandbox/python:abc"));
    EXPECT_EQ(container.value(QStringLiteral("workingDir")).toString(), QStringLiteral("/sandbox"));
    // The main process waits for the attached engine's first line, then becomes the runner (PID 1).
    const QJsonArray command = container.value(QStringLiteral("command")).toArray();
    EXPECT_EQ(command.at(0).toString(), QStringLiteral("/bin/sh"));
    EXPECT_TRUE(command.at(2).toString().startsWith(QStringLiteral("read ")));
    EXPECT_EQ(command.last().toString(), QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner"));
    EXPECT_TRUE(container.value(QStringLiteral("stdin")).toBool());
    EXPECT_TRUE(container.value(QStringLiteral("stdinOnce")).toBool());

    const QJsonObject resources = container.value(QStringLiteral("resources")).toObject();
    const QJsonObject limits = resources.value(QStringLiteral("limits")).toObject();
    EXPECT_EQ(limits.value(QStringLiteral("memory")).toString(), QStringLiteral("536870912"));
    EXPECT_EQ(limits.value(QStringLiteral("cpu")).toString(), QStringLiteral("1500m"));
    EXPECT_TRUE(limits.contains(QStringLiteral("ephemeral-storage")));
    EXPECT_EQ(resources.value(QStringLiteral("requests")).toObject(), limits);

    // Each tmpfs mount is a memory-backed emptyDir of the same size.
    QHash<QString, QString> sizeByMount;
    const QJsonArray volumes = spec.value(QStringLiteral("volumes")).toArray();
    for (const QJsonValue &mount : container.value(QStringLiteral("volumeMounts")).toArray()) {
        for (const QJsonValue &volume : volumes) {
            if (volume.toObject().value(QStringLiteral("name")) == mount.toObject().value(QStringLiteral("name"))) {
                const QJsonObject emptyDir = volume.toObject().value(QStringLiteral("emptyDir")).toObject();
                EXPECT_EQ(emptyDir.value(QStringLiteral("medium")).toString(), QStringLiteral("Memory"));
                sizeByMount.insert(mount.toObject().value(QStringLiteral("mountPath")).toString(),
                                   emptyDir.value(QStringLiteral("sizeLimit")).toString());
            }
        }
    }
    EXPECT_EQ(sizeByMount.value(QStringLiteral("/sandbox")), QStringLiteral("268435456"));
    EXPECT_EQ(sizeByMount.value(QStringLiteral("/tmp")), QStringLiteral("134217728"));
}

TEST(KubernetesBackend, labelsIdentifyOurPodsAndKeepExactValuesInAnAnnotation)
{
    KubernetesBackend backend(localConfig(), settings());
    auto pod = backend.podManifest(hardenedSpec(), QStringLiteral("llm-sandbox-1"));
    ASSERT_TRUE(pod.ok());
    const QJsonObject metadata = pod->value(QStringLiteral("metadata")).toObject();
    const QJsonObject labels = metadata.value(QStringLiteral("labels")).toObject();
    EXPECT_EQ(labels.value(QStringLiteral("app.kubernetes.io/managed-by")).toString(), QStringLiteral("llm-sandbox"));
    EXPECT_EQ(labels.value(QStringLiteral("io.llm-sandbox.run")).toString(), QStringLiteral("0123456789abcdef"));
    // An owner identity has colons, which label values may not: it is a digest there, exact in the annotation.
    const QString owner = labels.value(QStringLiteral("io.llm-sandbox.owner")).toString();
    EXPECT_EQ(owner, KubernetesBackend::labelValue(QStringLiteral("host.example:1234:5678")));
    EXPECT_FALSE(owner.contains(u':'));
    EXPECT_LE(owner.size(), 63);
    const QString annotation = metadata.value(QStringLiteral("annotations"))
                                   .toObject()
                                   .value(QStringLiteral("llm-sandbox.io/labels"))
                                   .toString();
    EXPECT_TRUE(annotation.contains(QStringLiteral("host.example:1234:5678")));
    EXPECT_EQ(KubernetesBackend::labelValue(QStringLiteral("plain-value_1.2")), QStringLiteral("plain-value_1.2"));
}

TEST(KubernetesBackend, schedulingSettingsAndRegistryReachThePod)
{
    KubernetesSettings configured = settings();
    configured.runtimeClassName = QStringLiteral("gvisor");
    configured.nodeSelector = {{QStringLiteral("pool"), QStringLiteral("sandbox")}};
    configured.tolerations = QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("sandbox")},
                                                    {QStringLiteral("operator"), QStringLiteral("Exists")}}};
    configured.imagePullSecrets = {QStringLiteral("regcred")};
    configured.registry = QStringLiteral("127.0.0.1:5000");
    configured.seccompLocalhostProfile = QStringLiteral("profiles/llm-sandbox.json");
    KubernetesBackend backend(localConfig(), configured);
    auto pod = backend.podManifest(hardenedSpec(), QStringLiteral("p"));
    ASSERT_TRUE(pod.ok());
    const QJsonObject spec = pod->value(QStringLiteral("spec")).toObject();
    EXPECT_EQ(spec.value(QStringLiteral("runtimeClassName")).toString(), QStringLiteral("gvisor"));
    EXPECT_EQ(spec.value(QStringLiteral("nodeSelector")).toObject().value(QStringLiteral("pool")).toString(),
              QStringLiteral("sandbox"));
    EXPECT_EQ(spec.value(QStringLiteral("tolerations")).toArray().size(), 1);
    EXPECT_EQ(spec.value(QStringLiteral("imagePullSecrets")).toArray().at(0).toObject().value(QStringLiteral("name")),
              QStringLiteral("regcred"));
    const QJsonObject container = spec.value(QStringLiteral("containers")).toArray().at(0).toObject();
    EXPECT_EQ(container.value(QStringLiteral("image")).toString(),
              QStringLiteral("127.0.0.1:5000/llm-sandbox/python:abc"));
    const QJsonObject seccomp =
        spec.value(QStringLiteral("securityContext")).toObject().value(QStringLiteral("seccompProfile")).toObject();
    EXPECT_EQ(seccomp.value(QStringLiteral("type")).toString(), QStringLiteral("Localhost"));
    EXPECT_EQ(seccomp.value(QStringLiteral("localhostProfile")).toString(),
              QStringLiteral("profiles/llm-sandbox.json"));
}

TEST(KubernetesBackend, runnerRunsUnderItsUlimits)
{
    EXPECT_EQ(
        KubernetesBackend::runnerCommand(hardenedSpec()),
        (QStringList{QStringLiteral("prlimit"), QStringLiteral("--nofile=1024:1024"), QStringLiteral("--core=0:0"),
                     QStringLiteral("--"), QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner")}));
}

TEST(KubernetesBackend, theEnginesOwnContainersGetTheirEnvironment)
{
    KubernetesBackend backend(localConfig(), settings());
    const auto container = [&](const ContainerSpec &spec) {
        return backend.podManifest(spec, QStringLiteral("p"))
            ->value(QStringLiteral("spec"))
            .toObject()
            .value(QStringLiteral("containers"))
            .toArray()
            .at(0)
            .toObject();
    };
    ContainerSpec spec = hardenedSpec();
    EXPECT_FALSE(container(spec).contains(QStringLiteral("env")));
    spec.environment = {{QStringLiteral("LLM_SANDBOX_PROXY_LISTEN"), QStringLiteral("address")}};
    EXPECT_EQ(container(spec).value(QStringLiteral("env")).toArray(),
              (QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("LLM_SANDBOX_PROXY_LISTEN")},
                                      {QStringLiteral("value"), QStringLiteral("address")}}}));
}

TEST(KubernetesBackend, onlyNetworkedSandboxesCarryTheEgressLabelAndOtherModesAreRefused)
{
    KubernetesBackend backend(localConfig(), settings());
    EXPECT_EQ(backend.egressProxyReach(), ContainerBackend::EgressProxyReach::ContainerAddress)
        << "a pod cannot mount the egress proxy's socket";
    const auto networkLabel = [&](const QString &mode) {
        ContainerSpec spec = hardenedSpec();
        spec.networkMode = mode;
        auto pod = backend.podManifest(spec, QStringLiteral("p"));
        EXPECT_TRUE(pod.ok()) << mode.toStdString();
        return pod ? pod->value(QStringLiteral("metadata"))
                         .toObject()
                         .value(QStringLiteral("labels"))
                         .toObject()
                         .value(QStringLiteral("llm-sandbox.io/network"))
                         .toString()
                   : QString();
    };
    EXPECT_EQ(networkLabel(QStringLiteral("bridge")), QStringLiteral("egress"));
    EXPECT_EQ(networkLabel(QStringLiteral("none")), QString());
    EXPECT_EQ(networkLabel(ContainerBackend::egressProxyClientNetwork()), QStringLiteral("egress-proxy-client"))
        << "an installer pod: the NetworkPolicies let it reach the egress proxy's pod only";

    ContainerSpec host = hardenedSpec();
    host.networkMode = QStringLiteral("host");
    auto refused = backend.podManifest(host, QStringLiteral("p"));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::BadRequest);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("\"host\""))) << refused.error().message.toStdString();
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
