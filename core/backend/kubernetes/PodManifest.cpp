#include "backend/kubernetes/PodManifest.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <cmath>

namespace sandbox {

namespace {

const QString kContainer = QStringLiteral("sandbox");
const QString kFolderLoader = QStringLiteral("folders");
/// The exact values of our labels (label values are restricted; an owner identity holds colons).
const QString kLabelsAnnotation = QStringLiteral("llm-sandbox.io/labels");
/// The container's main process waits for one line on stdin before it becomes the runner: nothing the runner writes
/// can be lost before the engine is attached, and the runner is still PID 1 (it reaps, interrupts and kills every
/// process of the sandbox, as it does on the other backends).
const QString kGateScript = QStringLiteral("read -r _ && exec \"$0\" \"$@\"");
/// Every pod we create carries it: the NetworkPolicy in installer/kubernetes/ selects it.
const QString kManagedLabel = QStringLiteral("app.kubernetes.io/managed-by");
const QString kManagedValue = QStringLiteral("llm-sandbox");
/// Pods that may reach the network (library installers, or every pod with SANDBOX_NETWORK_MODE=bridge) carry it:
/// the second NetworkPolicy in installer/kubernetes/ allows their egress.
const QString kNetworkLabel = QStringLiteral("llm-sandbox.io/network");
const QString kNetworkEgress = QStringLiteral("egress");
/// Library installer pods: the third NetworkPolicy lets them reach the egress proxy's pod (kRoleLabel) only.
const QString kNetworkProxyClient = QStringLiteral("egress-proxy-client");

QString volumeName(const QString &mountPoint)
{
    QString name = mountPoint.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.mid(name.indexOf(QRegularExpression(QStringLiteral("[a-z0-9]"))));
    while (name.endsWith(u'-')) {
        name.chop(1);
    }
    return QStringLiteral("scratch-") + (name.isEmpty() ? QStringLiteral("root") : name.left(40));
}

QString millicores(double cpus)
{
    return QStringLiteral("%1m").arg(std::llround(cpus * 1000));
}

/// The network label of a pod on `network`: none for no network; an error for a network a pod cannot join.
Result<QString> networkLabel(const ContainerNetwork &network)
{
    switch (network.kind) {
    case ContainerNetwork::Kind::None:
        return QString();
    case ContainerNetwork::Kind::EgressProxyClient:
        return kNetworkProxyClient;
    case ContainerNetwork::Kind::Named:
        if (network.name == QLatin1String("bridge")) {
            return kNetworkEgress;
        }
        break;
    }
    return Error{QStringLiteral("The network mode \"%1\" has no meaning on Kubernetes: use none (the default) or "
                                "bridge (the pod is labelled %2=%3, which the NetworkPolicies of "
                                "installer/kubernetes/ let reach the network).")
                     .arg(network.text(), kNetworkLabel, kNetworkEgress),
                 ErrorCode::BadRequest};
}

/// runAsNonRoot, and runAsUser and runAsGroup when the spec names a user (numeric: a pod has no /etc/passwd
/// lookup). No user: the image's, which must then be non-root (runAsNonRoot stays on).
Result<QJsonObject> identityOf(const QString &user)
{
    if (user.isEmpty()) {
        return QJsonObject{{QStringLiteral("runAsNonRoot"), true}};
    }
    bool uidOk = false;
    bool gidOk = true;
    const qint64 uid = user.section(u':', 0, 0).toLongLong(&uidOk);
    const QString group = user.section(u':', 1, 1);
    const qint64 gid = group.isEmpty() ? uid : group.toLongLong(&gidOk);
    if (!uidOk || !gidOk) {
        return Error{QStringLiteral("The sandbox user \"%1\" must be numeric (uid:gid) on Kubernetes.").arg(user),
                     ErrorCode::BadRequest};
    }
    return QJsonObject{{QStringLiteral("runAsNonRoot"), uid != 0},
                       {QStringLiteral("runAsUser"), double(uid)},
                       {QStringLiteral("runAsGroup"), double(gid)}};
}

QJsonArray environmentOf(const QHash<QString, QString> &environment)
{
    QJsonArray variables;
    QStringList names = environment.keys();
    names.sort();
    for (const QString &name : names) {
        variables.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), environment[name]}});
    }
    return variables;
}

} // namespace

PodManifest::PodManifest(const KubernetesSettings &settings, bool userNamespacesByDefault)
    : m_settings(settings), m_userNamespacesByDefault(userNamespacesByDefault)
{}

QString PodManifest::containerName()
{
    return kContainer;
}

QString PodManifest::folderLoaderName()
{
    return kFolderLoader;
}

QString PodManifest::labelValue(const QString &value)
{
    static const QRegularExpression valid(QStringLiteral("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"));
    if (value.size() <= 63 && valid.match(value).hasMatch()) {
        return value;
    }
    return u'x' + QString::fromLatin1(QCryptographicHash::hash(value.toUtf8(), QCryptographicHash::Sha1).toHex());
}

QStringList PodManifest::runnerCommand(const ContainerSpec &spec)
{
    QStringList command{QStringLiteral("prlimit")};
    for (const Ulimit &limit : spec.ulimits) {
        command << QStringLiteral("--%1=%2:%3").arg(limit.name).arg(limit.soft).arg(limit.hard);
    }
    command << QStringLiteral("--");
    return command + spec.command;
}

QJsonObject PodManifest::labelsOf(const QJsonObject &pod)
{
    const QJsonObject metadata = pod.value(QStringLiteral("metadata")).toObject();
    const QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
    const QJsonObject exact =
        QJsonDocument::fromJson(annotations.value(kLabelsAnnotation).toString().toUtf8()).object();
    return exact.isEmpty() ? metadata.value(QStringLiteral("labels")).toObject() : exact;
}

Result<QJsonObject> PodManifest::make(const ContainerSpec &spec, const QString &podName) const
{
    if (spec.privileged) {
        return Error{QStringLiteral("Privileged sandboxes are not run on Kubernetes."), ErrorCode::BadRequest};
    }
    auto identity = identityOf(spec.user);
    if (!identity) {
        return identity.error();
    }
    auto meta = metadata(spec, podName);
    if (!meta) {
        return meta.error();
    }
    QJsonArray volumes;
    QJsonArray mounts;
    QList<Tmpfs> scratch = spec.tmpfs;
    std::sort(scratch.begin(), scratch.end(), [](const Tmpfs &a, const Tmpfs &b) { return a.path < b.path; });
    for (const Tmpfs &mount : scratch) {
        const QString name = volumeName(mount.path);
        QJsonObject emptyDir{{QStringLiteral("medium"), QStringLiteral("Memory")}};
        if (mount.sizeBytes > 0) {
            emptyDir.insert(QStringLiteral("sizeLimit"), QString::number(mount.sizeBytes));
        }
        volumes.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("emptyDir"), emptyDir}});
        QJsonObject volumeMount{{QStringLiteral("name"), name}, {QStringLiteral("mountPath"), mount.path}};
        if (mount.readOnly) {
            volumeMount.insert(QStringLiteral("readOnly"), true);
        }
        mounts.append(volumeMount);
    }
    // A host folder becomes a volume on the node's disk that the folder loader fills; the sandbox reads it only.
    QJsonArray loaderMounts;
    for (const BindMount &bind : spec.binds) {
        const QString name = QStringLiteral("folder-") + volumeName(bind.target).mid(QStringLiteral("scratch-").size());
        volumes.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("emptyDir"), QJsonObject{}}});
        loaderMounts.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("mountPath"), bind.target}});
        mounts.append(QJsonObject{{QStringLiteral("name"), name},
                                  {QStringLiteral("mountPath"), bind.target},
                                  {QStringLiteral("readOnly"), bind.readOnly}});
    }
    QJsonObject made = podSpec(spec, *identity, container(spec, *identity, mounts), volumes);
    if (!loaderMounts.isEmpty()) {
        QJsonObject loader = container(spec, *identity, loaderMounts);
        loader.insert(QStringLiteral("name"), kFolderLoader);
        made.insert(QStringLiteral("initContainers"), QJsonArray{loader});
    }
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Pod")},
        {QStringLiteral("metadata"), *meta},
        {QStringLiteral("spec"), made},
    };
}

Result<QJsonObject> PodManifest::metadata(const ContainerSpec &spec, const QString &podName) const
{
    auto network = networkLabel(spec.network);
    if (!network) {
        return network.error();
    }
    QJsonObject labels{{kManagedLabel, kManagedValue}};
    if (!network->isEmpty()) {
        labels.insert(kNetworkLabel, *network);
    }
    QJsonObject exactLabels;
    for (auto it = spec.labels.begin(); it != spec.labels.end(); ++it) {
        labels.insert(it.key(), labelValue(it.value()));
        exactLabels.insert(it.key(), it.value());
    }
    return QJsonObject{
        {QStringLiteral("name"), podName},
        {QStringLiteral("namespace"), m_settings.namespaceName},
        {QStringLiteral("labels"), labels},
        {QStringLiteral("annotations"),
         QJsonObject{
             {kLabelsAnnotation, QString::fromUtf8(QJsonDocument(exactLabels).toJson(QJsonDocument::Compact))}}},
    };
}

QJsonObject PodManifest::seccompProfile() const
{
    if (!m_settings.seccompLocalhostProfile.isEmpty()) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("Localhost")},
                           {QStringLiteral("localhostProfile"), m_settings.seccompLocalhostProfile}};
    }
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("RuntimeDefault")}};
}

QJsonObject PodManifest::container(const ContainerSpec &spec, const QJsonObject &identity,
                                   const QJsonArray &mounts) const
{
    QJsonObject limits;
    if (spec.memoryBytes > 0) {
        limits.insert(QStringLiteral("memory"), QString::number(spec.memoryBytes));
    }
    if (spec.cpus > 0) {
        limits.insert(QStringLiteral("cpu"), millicores(spec.cpus));
    }
    if (m_settings.ephemeralStorageBytes > 0) {
        limits.insert(QStringLiteral("ephemeral-storage"), QString::number(m_settings.ephemeralStorageBytes));
    }
    QJsonObject security{
        {QStringLiteral("allowPrivilegeEscalation"), !spec.noNewPrivileges},
        {QStringLiteral("privileged"), false},
        {QStringLiteral("readOnlyRootFilesystem"), spec.readOnlyRootfs},
        {QStringLiteral("capabilities"),
         QJsonObject{{QStringLiteral("drop"), QJsonArray::fromStringList(spec.capDrop)}}},
        {QStringLiteral("seccompProfile"), seccompProfile()},
    };
    for (auto it = identity.begin(); it != identity.end(); ++it) {
        security.insert(it.key(), it.value());
    }
    QJsonObject container{
        {QStringLiteral("name"), kContainer},
        {QStringLiteral("image"), m_settings.podImage(spec.image)},
        {QStringLiteral("imagePullPolicy"), QStringLiteral("IfNotPresent")},
        {QStringLiteral("command"),
         QJsonArray::fromStringList(QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"), kGateScript} +
                                    runnerCommand(spec))},
        // Attached once (startAttached); when that connection ends, stdin closes and the runner ends the sandbox.
        {QStringLiteral("stdin"), true},
        {QStringLiteral("stdinOnce"), true},
        {QStringLiteral("workingDir"), spec.workingDir},
        {QStringLiteral("securityContext"), security},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("requests"), limits}, {QStringLiteral("limits"), limits}}},
        {QStringLiteral("volumeMounts"), mounts},
    };
    if (!spec.environment.isEmpty()) {
        // Only the engine's own containers have one (the egress proxy's configuration).
        container.insert(QStringLiteral("env"), environmentOf(spec.environment));
    }
    return container;
}

QJsonObject PodManifest::podSpec(const ContainerSpec &spec, const QJsonObject &identity, QJsonObject container,
                                 const QJsonArray &volumes) const
{
    QJsonObject podSecurity = identity;
    podSecurity.insert(QStringLiteral("seccompProfile"), seccompProfile());
    QJsonObject podSpec{
        {QStringLiteral("restartPolicy"), QStringLiteral("Never")},
        {QStringLiteral("automountServiceAccountToken"), false},
        {QStringLiteral("enableServiceLinks"), false},
        {QStringLiteral("terminationGracePeriodSeconds"), 0},
        {QStringLiteral("activeDeadlineSeconds"), double(m_settings.activeDeadline.count())},
        {QStringLiteral("securityContext"), podSecurity},
        {QStringLiteral("containers"), QJsonArray{std::move(container)}},
        {QStringLiteral("volumes"), volumes},
    };
    // Root in the pod is nobody on the node (a process that breaks out of the container holds no node rights).
    if (m_settings.userNamespaces == KubernetesSettings::UserNamespaces::On ||
        (m_settings.userNamespaces == KubernetesSettings::UserNamespaces::Auto && m_userNamespacesByDefault)) {
        podSpec.insert(QStringLiteral("hostUsers"), false);
    }
    // SANDBOX_RUNTIME (checked against the cluster's RuntimeClasses) wins over LLM_SANDBOX_KUBE_RUNTIME_CLASS.
    if (const QString runtimeClass = spec.runtime.isEmpty() ? m_settings.runtimeClassName : spec.runtime;
        !runtimeClass.isEmpty()) {
        podSpec.insert(QStringLiteral("runtimeClassName"), runtimeClass);
    }
    if (!spec.extraHosts.isEmpty()) {
        QJsonArray aliases;
        for (auto it = spec.extraHosts.begin(); it != spec.extraHosts.end(); ++it) {
            aliases.append(
                QJsonObject{{QStringLiteral("ip"), it.value()}, {QStringLiteral("hostnames"), QJsonArray{it.key()}}});
        }
        podSpec.insert(QStringLiteral("hostAliases"), aliases);
    }
    if (!m_settings.nodeSelector.isEmpty()) {
        QJsonObject selector;
        for (auto it = m_settings.nodeSelector.begin(); it != m_settings.nodeSelector.end(); ++it) {
            selector.insert(it.key(), it.value());
        }
        podSpec.insert(QStringLiteral("nodeSelector"), selector);
    }
    if (!m_settings.tolerations.isEmpty()) {
        podSpec.insert(QStringLiteral("tolerations"), m_settings.tolerations);
    }
    if (!m_settings.imagePullSecrets.isEmpty()) {
        QJsonArray secrets;
        for (const QString &secret : m_settings.imagePullSecrets) {
            secrets.append(QJsonObject{{QStringLiteral("name"), secret}});
        }
        podSpec.insert(QStringLiteral("imagePullSecrets"), secrets);
    }
    return podSpec;
}

} // namespace sandbox
