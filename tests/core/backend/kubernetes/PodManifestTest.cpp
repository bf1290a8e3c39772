// The pod a sandbox's spec becomes on Kubernetes (backend/kubernetes/PodManifest.h), field by field, with no cluster.
#include "backend/kubernetes/PodManifest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

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
    spec.tmpfs = {
        Tmpfs{.path = QStringLiteral("/sandbox"), .sizeBytes = 268435456, .mode = 0755, .ownedBySandboxUser = true},
        Tmpfs{.path = QStringLiteral("/tmp"), .sizeBytes = 134217728}};
    return spec;
}

} // namespace

TEST(PodManifestTest, podsGetAUserNamespaceWhereTheClusterHasThem)
{
    // Issue 44, item 14: root in the pod is nobody on the node (hostUsers: false), from 1.33 on by default.
    EXPECT_FALSE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.32.0-llm-sandbox-test")));
    EXPECT_TRUE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.33.1")));
    EXPECT_TRUE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.35.0+k3s1")));
    EXPECT_FALSE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("v1.9.0")));
    EXPECT_FALSE(KubernetesSettings::userNamespacesByDefault(QStringLiteral("garbage")));
    const auto hostUsers = [](KubernetesSettings::UserNamespaces choice, bool clusterDefault = false) {
        KubernetesSettings chosen = settings();
        chosen.userNamespaces = choice;
        const PodManifest manifest(chosen, clusterDefault);
        auto pod = manifest.make(hardenedSpec(), QStringLiteral("llm-sandbox-1"));
        EXPECT_TRUE(pod.ok());
        return pod.ok() ? pod->value(QStringLiteral("spec")).toObject().value(QStringLiteral("hostUsers"))
                        : QJsonValue(QJsonValue::Undefined);
    };
    EXPECT_EQ(hostUsers(KubernetesSettings::UserNamespaces::On), QJsonValue(false));
    EXPECT_TRUE(hostUsers(KubernetesSettings::UserNamespaces::Off).isUndefined());
    // Auto before the API server said its version: not asked for (an older cluster would refuse the pods).
    EXPECT_TRUE(hostUsers(KubernetesSettings::UserNamespaces::Auto).isUndefined());
    EXPECT_EQ(hostUsers(KubernetesSettings::UserNamespaces::Auto, true), QJsonValue(false));
    EXPECT_TRUE(hostUsers(KubernetesSettings::UserNamespaces::Off, true).isUndefined());
}

TEST(PodManifestTest, podIsHardenedLikeTheContainers)
{
    const KubernetesSettings given = settings();
    const PodManifest manifest(given, false);
    auto pod = manifest.make(hardenedSpec(), QStringLiteral("llm-sandbox-1"));
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

TEST(PodManifestTest, labelsIdentifyOurPodsAndKeepExactValuesInAnAnnotation)
{
    const KubernetesSettings given = settings();
    const PodManifest manifest(given, false);
    auto pod = manifest.make(hardenedSpec(), QStringLiteral("llm-sandbox-1"));
    ASSERT_TRUE(pod.ok());
    const QJsonObject metadata = pod->value(QStringLiteral("metadata")).toObject();
    const QJsonObject labels = metadata.value(QStringLiteral("labels")).toObject();
    EXPECT_EQ(labels.value(QStringLiteral("app.kubernetes.io/managed-by")).toString(), QStringLiteral("llm-sandbox"));
    EXPECT_EQ(labels.value(QStringLiteral("io.llm-sandbox.run")).toString(), QStringLiteral("0123456789abcdef"));
    // An owner identity has colons, which label values may not: it is a digest there, exact in the annotation.
    const QString owner = labels.value(QStringLiteral("io.llm-sandbox.owner")).toString();
    EXPECT_EQ(owner, PodManifest::labelValue(QStringLiteral("host.example:1234:5678")));
    EXPECT_FALSE(owner.contains(u':'));
    EXPECT_LE(owner.size(), 63);
    const QString annotation = metadata.value(QStringLiteral("annotations"))
                                   .toObject()
                                   .value(QStringLiteral("llm-sandbox.io/labels"))
                                   .toString();
    EXPECT_TRUE(annotation.contains(QStringLiteral("host.example:1234:5678")));
    EXPECT_EQ(PodManifest::labelValue(QStringLiteral("plain-value_1.2")), QStringLiteral("plain-value_1.2"));
}

TEST(PodManifestTest, schedulingSettingsAndRegistryReachThePod)
{
    KubernetesSettings configured = settings();
    configured.runtimeClassName = QStringLiteral("gvisor");
    configured.nodeSelector = {{QStringLiteral("pool"), QStringLiteral("sandbox")}};
    configured.tolerations = QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("sandbox")},
                                                    {QStringLiteral("operator"), QStringLiteral("Exists")}}};
    configured.imagePullSecrets = {QStringLiteral("regcred")};
    configured.registry = QStringLiteral("127.0.0.1:5000");
    configured.seccompLocalhostProfile = QStringLiteral("profiles/llm-sandbox.json");
    const PodManifest manifest(configured, false);
    auto pod = manifest.make(hardenedSpec(), QStringLiteral("p"));
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

TEST(PodManifestTest, runnerRunsUnderItsUlimits)
{
    EXPECT_EQ(
        PodManifest::runnerCommand(hardenedSpec()),
        (QStringList{QStringLiteral("prlimit"), QStringLiteral("--nofile=1024:1024"), QStringLiteral("--core=0:0"),
                     QStringLiteral("--"), QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner")}));
}

TEST(PodManifestTest, theEnginesOwnContainersGetTheirEnvironment)
{
    const KubernetesSettings given = settings();
    const PodManifest manifest(given, false);
    const auto container = [&](const ContainerSpec &spec) {
        return manifest.make(spec, QStringLiteral("p"))
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

TEST(PodManifestTest, onlyNetworkedSandboxesCarryTheEgressLabelAndOtherModesAreRefused)
{
    const KubernetesSettings given = settings();
    const PodManifest manifest(given, false);
    const auto networkLabel = [&](const ContainerNetwork &network) {
        ContainerSpec spec = hardenedSpec();
        spec.network = network;
        auto pod = manifest.make(spec, QStringLiteral("p"));
        EXPECT_TRUE(pod.ok()) << network.text().toStdString();
        return pod ? pod->value(QStringLiteral("metadata"))
                         .toObject()
                         .value(QStringLiteral("labels"))
                         .toObject()
                         .value(QStringLiteral("llm-sandbox.io/network"))
                         .toString()
                   : QString();
    };
    EXPECT_EQ(networkLabel(ContainerNetwork::named(QStringLiteral("bridge"))), QStringLiteral("egress"));
    EXPECT_EQ(networkLabel(ContainerNetwork::none()), QString());
    EXPECT_EQ(networkLabel(ContainerNetwork::egressProxyClient()), QStringLiteral("egress-proxy-client"))
        << "an installer pod: the NetworkPolicies let it reach the egress proxy's pod only";

    ContainerSpec host = hardenedSpec();
    host.network = ContainerNetwork::named(QStringLiteral("host"));
    auto refused = manifest.make(host, QStringLiteral("p"));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::BadRequest);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("\"host\""))) << refused.error().message.toStdString();
}

TEST(PodManifestTest, theSpecsFlagsAndMountsAreReadAsTyped)
{
    const KubernetesSettings given = settings();
    const PodManifest manifest(given, false);
    ContainerSpec spec = hardenedSpec();
    spec.noNewPrivileges = false;
    spec.tmpfs.append(Tmpfs{.path = QStringLiteral("/run"), .sizeBytes = 65536, .readOnly = true});
    auto pod = manifest.make(spec, QStringLiteral("p"));
    ASSERT_TRUE(pod.ok()) << pod.error().message.toStdString();
    const QJsonObject container =
        pod->value(QStringLiteral("spec")).toObject().value(QStringLiteral("containers")).toArray().at(0).toObject();
    EXPECT_TRUE(container.value(QStringLiteral("securityContext"))
                    .toObject()
                    .value(QStringLiteral("allowPrivilegeEscalation"))
                    .toBool(false))
        << "a spec that allows new privileges gets them";
    QStringList readOnly;
    for (const QJsonValue &mount : container.value(QStringLiteral("volumeMounts")).toArray()) {
        if (mount.toObject().value(QStringLiteral("readOnly")).toBool()) {
            readOnly << mount.toObject().value(QStringLiteral("mountPath")).toString();
        }
    }
    EXPECT_EQ(readOnly, QStringList{QStringLiteral("/run")});
}

TEST(PodManifestTest, whatAPodCannotBeIsABadRequest)
{
    const KubernetesSettings given = settings();
    const PodManifest manifest(given, false);
    ContainerSpec named = hardenedSpec();
    named.user = QStringLiteral("sandbox");
    ContainerSpec privileged = hardenedSpec();
    privileged.privileged = true;
    for (const ContainerSpec &spec : {named, privileged}) {
        auto refused = manifest.make(spec, QStringLiteral("p"));
        ASSERT_FALSE(refused.ok());
        EXPECT_EQ(refused.error().code, ErrorCode::BadRequest) << refused.error().message.toStdString();
    }
    ContainerSpec imageUser = hardenedSpec();
    imageUser.user.clear();
    auto pod = manifest.make(imageUser, QStringLiteral("p"));
    ASSERT_TRUE(pod.ok());
    const QJsonObject security =
        pod->value(QStringLiteral("spec")).toObject().value(QStringLiteral("securityContext")).toObject();
    EXPECT_TRUE(security.value(QStringLiteral("runAsNonRoot")).toBool()) << "the image's user must not be root";
    EXPECT_FALSE(security.contains(QStringLiteral("runAsUser")));
}

TEST(PodManifestTest, aSharedFolderIsAVolumeTheLoaderFillsAndTheSandboxMountsReadOnly)
{
    // Issue 47: a pod cannot mount the host's folder; an init container of the sandbox's image and runner fills an
    // emptyDir, which the sandbox's container mounts as the bind would be (FolderLoader).
    ContainerSpec spec = hardenedSpec();
    spec.binds = {BindMount{QStringLiteral("/var/tmp/llm-sandbox-1000/shared/sales-1"), QStringLiteral("/data/sales")}};
    auto pod = PodManifest(settings(), false).make(spec, QStringLiteral("llm-sandbox-1"));
    ASSERT_TRUE(pod) << qPrintable(pod.error().message);
    const QJsonObject podSpec = pod->value(QStringLiteral("spec")).toObject();
    const auto mountOf = [](const QJsonObject &container, const QString &path) {
        for (const QJsonValue mount : container.value(QStringLiteral("volumeMounts")).toArray()) {
            if (mount.toObject().value(QStringLiteral("mountPath")).toString() == path) {
                return mount.toObject();
            }
        }
        return QJsonObject{};
    };
    const QJsonObject sandboxMount = mountOf(podSpec.value(QStringLiteral("containers")).toArray().first().toObject(),
                                             QStringLiteral("/data/sales"));
    EXPECT_EQ(sandboxMount.value(QStringLiteral("readOnly")), QJsonValue(true));
    const QJsonArray init = podSpec.value(QStringLiteral("initContainers")).toArray();
    ASSERT_EQ(init.size(), 1);
    const QJsonObject loader = init.first().toObject();
    EXPECT_EQ(loader.value(QStringLiteral("name")).toString(), PodManifest::folderLoaderName());
    EXPECT_EQ(loader.value(QStringLiteral("image")),
              podSpec.value(QStringLiteral("containers"))[0][QStringLiteral("image")]);
    EXPECT_EQ(loader.value(QStringLiteral("securityContext")),
              podSpec.value(QStringLiteral("containers"))[0][QStringLiteral("securityContext")])
        << "as hardened as the sandbox";
    const QJsonObject loaderMount = mountOf(loader, QStringLiteral("/data/sales"));
    EXPECT_EQ(loaderMount.value(QStringLiteral("readOnly")), QJsonValue(QJsonValue::Undefined)) << "it writes there";
    EXPECT_EQ(loaderMount.value(QStringLiteral("name")), sandboxMount.value(QStringLiteral("name")));
    EXPECT_EQ(loader.value(QStringLiteral("volumeMounts")).toArray().size(), 1) << "and nowhere else";
    bool volume = false;
    for (const QJsonValue each : podSpec.value(QStringLiteral("volumes")).toArray()) {
        volume = volume || (each[QStringLiteral("name")] == sandboxMount.value(QStringLiteral("name")) &&
                            each[QStringLiteral("emptyDir")].isObject());
    }
    EXPECT_TRUE(volume);
    // No folder, no init container.
    auto plain = PodManifest(settings(), false).make(hardenedSpec(), QStringLiteral("llm-sandbox-2"));
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->value(QStringLiteral("spec")).toObject().contains(QStringLiteral("initContainers")));
}
