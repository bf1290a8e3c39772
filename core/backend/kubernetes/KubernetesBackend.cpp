#include "backend/kubernetes/KubernetesBackend.h"

#include "backend/kubernetes/KubernetesChannelStream.h"
#include "backend/kubernetes/KubernetesQuantity.h"

#include <QCryptographicHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QUrl>
#include <cmath>

Q_LOGGING_CATEGORY(lcKube, "sandbox.backend.kubernetes")

namespace sandbox {

namespace {

const QString kContainer = QStringLiteral("sandbox");
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

QString registryAdvice()
{
    return QStringLiteral("Kubernetes pulls images from a registry: push the sandbox images with `llm-sandbox images "
                          "push` to the registry named by LLM_SANDBOX_REGISTRY, or name images the cluster can pull "
                          "with LLM_SANDBOX_IMAGE_<LANG>.");
}

/// `size=N` of tmpfs options ("rw,size=268435456,mode=1777"), in bytes; 0 when absent.
qint64 tmpfsSize(const QString &options)
{
    for (const QString &option : options.split(QLatin1Char(','))) {
        if (option.startsWith(QLatin1String("size="))) {
            return option.mid(5).toLongLong();
        }
    }
    return 0;
}

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

QString withoutFinalPeriod(QString text)
{
    text = text.trimmed();
    while (text.endsWith(u'.')) {
        text.chop(1);
    }
    return text;
}

QString millicores(double cpus)
{
    return QStringLiteral("%1m").arg(std::llround(cpus * 1000));
}

QJsonObject labelsOf(const QJsonObject &pod)
{
    const QJsonObject metadata = pod.value(QStringLiteral("metadata")).toObject();
    const QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
    const QJsonObject exact =
        QJsonDocument::fromJson(annotations.value(kLabelsAnnotation).toString().toUtf8()).object();
    return exact.isEmpty() ? metadata.value(QStringLiteral("labels")).toObject() : exact;
}

} // namespace

std::optional<Error> KubernetesBackend::startFailure(const QJsonObject &pod, const QString &podName)
{
    const QJsonObject status = pod.value(QStringLiteral("status")).toObject();
    const QString phase = status.value(QStringLiteral("phase")).toString();
    for (const QJsonValue &value : status.value(QStringLiteral("containerStatuses")).toArray()) {
        const QJsonObject waiting =
            value.toObject().value(QStringLiteral("state")).toObject().value(QStringLiteral("waiting")).toObject();
        const QString reason = waiting.value(QStringLiteral("reason")).toString();
        const QString message = waiting.value(QStringLiteral("message")).toString();
        if (reason == QLatin1String("ErrImagePull") || reason == QLatin1String("ImagePullBackOff") ||
            reason == QLatin1String("InvalidImageName") || reason == QLatin1String("ErrImageNeverPull")) {
            const QString image = value.toObject().value(QStringLiteral("image")).toString();
            return Error{QStringLiteral("The cluster could not pull the image %1 for pod %2 (%3%4). %5")
                             .arg(image, podName, reason,
                                  message.isEmpty() ? QString() : QStringLiteral(": ") + message, registryAdvice()),
                         ErrorCode::ImageMissing};
        }
        if (reason == QLatin1String("CreateContainerConfigError") || reason == QLatin1String("CreateContainerError") ||
            reason == QLatin1String("RunContainerError")) {
            return Error{QStringLiteral("The cluster could not start pod %1 (%2: %3).").arg(podName, reason, message),
                         ErrorCode::EngineFailed};
        }
    }
    for (const QJsonValue &value : status.value(QStringLiteral("conditions")).toArray()) {
        const QJsonObject condition = value.toObject();
        if (condition.value(QStringLiteral("type")).toString() == QLatin1String("PodScheduled") &&
            condition.value(QStringLiteral("status")).toString() == QLatin1String("False") &&
            condition.value(QStringLiteral("reason")).toString() == QLatin1String("Unschedulable")) {
            return Error{QStringLiteral("No node can run pod %1: %2. Lower the sandbox's CPU or memory "
                                        "(SANDBOX_CPUS, SANDBOX_MEMORY), or check the node selector, tolerations "
                                        "and runtime class (LLM_SANDBOX_KUBE_*).")
                             .arg(podName, withoutFinalPeriod(condition.value(QStringLiteral("message")).toString())),
                         ErrorCode::EngineFailed};
        }
    }
    if (phase == QLatin1String("Failed") || phase == QLatin1String("Succeeded")) {
        return Error{QStringLiteral("Pod %1 ended before the sandbox started (%2: %3 %4).")
                         .arg(podName, phase, status.value(QStringLiteral("reason")).toString(),
                              status.value(QStringLiteral("message")).toString())
                         .trimmed(),
                     ErrorCode::SandboxFailed};
    }
    return std::nullopt;
}

namespace {

bool isRunning(const QJsonObject &pod)
{
    const QJsonObject status = pod.value(QStringLiteral("status")).toObject();
    if (status.value(QStringLiteral("phase")).toString() != QLatin1String("Running")) {
        return false;
    }
    for (const QJsonValue &value : status.value(QStringLiteral("containerStatuses")).toArray()) {
        const QJsonObject container = value.toObject();
        if (container.value(QStringLiteral("name")).toString() == kContainer) {
            return container.value(QStringLiteral("state")).toObject().contains(QStringLiteral("running"));
        }
    }
    return false;
}

} // namespace

KubernetesBackend::KubernetesBackend(KubeConfig config, KubernetesSettings settings)
    : m_client(std::move(config)), m_settings(std::move(settings))
{}

Result<std::shared_ptr<KubernetesBackend>> KubernetesBackend::fromEnvironment(const BackendConnection &connection)
{
    QString context = qEnvironmentVariable("LLM_SANDBOX_KUBE_CONTEXT").trimmed();
    if (context.isEmpty()) {
        context = connection.kubeContext;
    }
    auto config = qEnvironmentVariableIsEmpty("KUBECONFIG") && !connection.kubeconfig.isEmpty()
                      ? KubeConfig::fromFiles({connection.kubeconfig}, context)
                      : KubeConfig::fromEnvironment(context);
    if (!config) {
        return config.error();
    }
    auto settings = KubernetesSettings::fromEnvironment(
        connection.kubeNamespace.isEmpty() ? config->namespaceName : connection.kubeNamespace, connection.registry);
    if (!settings) {
        return settings.error();
    }
    return std::make_shared<KubernetesBackend>(std::move(*config), std::move(*settings));
}

QString KubernetesBackend::endpoint() const
{
    return QStringLiteral("%1 (namespace %2)").arg(m_client.config().server, m_settings.namespaceName);
}

QString KubernetesBackend::podsPath() const
{
    return QStringLiteral("/api/v1/namespaces/%1/pods").arg(m_settings.namespaceName);
}

Result<BackendInfo> KubernetesBackend::probe()
{
    auto reply =
        m_client.send({.method = "GET", .path = QStringLiteral("/version"), .timeout = std::chrono::seconds(10)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return m_client.apiError(*reply, QStringLiteral("Asking the Kubernetes API server for its version"),
                                 QStringLiteral("get"), QStringLiteral("/version"));
    }
    const QJsonObject version = QJsonDocument::fromJson(reply->body).object();
    BackendInfo info;
    info.name = name();
    info.endpoint = endpoint();
    info.version = version.value(QStringLiteral("gitVersion")).toString();
    m_userNamespacesByDefault = KubernetesSettings::userNamespacesByDefault(info.version);
    info.apiVersion = QStringLiteral("v1");
    info.os = version.value(QStringLiteral("platform")).toString();
    return info;
}

Result<QList<OciRuntime>> KubernetesBackend::runtimes()
{
    const QString path = QStringLiteral("/apis/node.k8s.io/v1/runtimeclasses");
    auto reply = m_client.send({.method = "GET", .path = path, .timeout = std::chrono::seconds(10)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return m_client.apiError(*reply, QStringLiteral("Listing the cluster's RuntimeClasses"), QStringLiteral("list"),
                                 QStringLiteral("runtimeclasses"));
    }
    QList<OciRuntime> list{{.isDefault = true}};
    for (const QJsonValue &item :
         QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("items")).toArray()) {
        const QJsonObject runtimeClass = item.toObject();
        list.append(
            {.name = runtimeClass.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString(),
             .handler = runtimeClass.value(QStringLiteral("handler")).toString()});
    }
    return list;
}

QString KubernetesBackend::runtimeRegistration(const QString &wanted) const
{
    return QStringLiteral("Create a RuntimeClass for it (kubectl apply: apiVersion node.k8s.io/v1, kind RuntimeClass, "
                          "metadata.name %1, handler %2), after configuring that handler in the container runtime "
                          "of the nodes that run sandboxes (containerd: a runtimes entry with runtime_type "
                          "io.containerd.%2.v1 for gVisor).")
        .arg(wanted == QLatin1String("runsc") ? QStringLiteral("gvisor") : wanted, wanted);
}

Error KubernetesBackend::noImageStore(const QString &what) const
{
    return Error{QStringLiteral("%1 is not possible on the kubernetes backend: it has no image store. %2")
                     .arg(what, registryAdvice()),
                 ErrorCode::Unavailable};
}

QString KubernetesBackend::labelValue(const QString &value)
{
    static const QRegularExpression valid(QStringLiteral("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"));
    if (value.size() <= 63 && valid.match(value).hasMatch()) {
        return value;
    }
    return u'x' + QString::fromLatin1(QCryptographicHash::hash(value.toUtf8(), QCryptographicHash::Sha1).toHex());
}

QStringList KubernetesBackend::runnerCommand(const ContainerSpec &spec)
{
    QStringList command{QStringLiteral("prlimit")};
    for (const Ulimit &limit : spec.ulimits) {
        command << QStringLiteral("--%1=%2:%3").arg(limit.name).arg(limit.soft).arg(limit.hard);
    }
    command << QStringLiteral("--");
    return command + spec.command;
}

Result<QJsonObject> KubernetesBackend::podManifest(const ContainerSpec &spec, const QString &podName) const
{
    bool uidOk = false;
    bool gidOk = true;
    const qint64 uid = spec.user.section(u':', 0, 0).toLongLong(&uidOk);
    const QString group = spec.user.section(u':', 1, 1);
    const qint64 gid = group.isEmpty() ? uid : group.toLongLong(&gidOk);
    // No user: the image's, which must then be non-root (runAsNonRoot stays on).
    const bool imageUser = spec.user.isEmpty();
    if (!imageUser && (!uidOk || !gidOk)) {
        return Error{QStringLiteral("The sandbox user \"%1\" must be numeric (uid:gid) on Kubernetes.").arg(spec.user),
                     ErrorCode::BadRequest};
    }
    if (spec.privileged) {
        return Error{QStringLiteral("Privileged sandboxes are not run on Kubernetes."), ErrorCode::BadRequest};
    }
    const bool egress = spec.networkMode == QLatin1String("bridge");
    const bool proxyClient = spec.networkMode == egressProxyClientNetwork();
    if (!egress && !proxyClient && spec.networkMode != QLatin1String("none")) {
        return Error{QStringLiteral("The network mode \"%1\" has no meaning on Kubernetes: use none (the default) or "
                                    "bridge (the pod is labelled %2=%3, which the NetworkPolicies of "
                                    "installer/kubernetes/ let reach the network).")
                         .arg(spec.networkMode, kNetworkLabel, kNetworkEgress),
                     ErrorCode::BadRequest};
    }

    QJsonObject labels{{kManagedLabel, kManagedValue}};
    if (egress || proxyClient) {
        labels.insert(kNetworkLabel, egress ? kNetworkEgress : kNetworkProxyClient);
    }
    QJsonObject exactLabels;
    for (auto it = spec.labels.begin(); it != spec.labels.end(); ++it) {
        labels.insert(it.key(), labelValue(it.value()));
        exactLabels.insert(it.key(), it.value());
    }
    const QJsonObject annotations{
        {kLabelsAnnotation, QString::fromUtf8(QJsonDocument(exactLabels).toJson(QJsonDocument::Compact))},
    };

    QJsonArray volumes;
    QJsonArray mounts;
    QStringList mountPoints = spec.tmpfs.keys();
    mountPoints.sort();
    for (const QString &mountPoint : mountPoints) {
        const QString name = volumeName(mountPoint);
        QJsonObject emptyDir{{QStringLiteral("medium"), QStringLiteral("Memory")}};
        if (const qint64 size = tmpfsSize(spec.tmpfs.value(mountPoint)); size > 0) {
            emptyDir.insert(QStringLiteral("sizeLimit"), QString::number(size));
        }
        volumes.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("emptyDir"), emptyDir}});
        mounts.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("mountPath"), mountPoint}});
    }

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

    QJsonObject seccomp{{QStringLiteral("type"), QStringLiteral("RuntimeDefault")}};
    if (!m_settings.seccompLocalhostProfile.isEmpty()) {
        seccomp = QJsonObject{{QStringLiteral("type"), QStringLiteral("Localhost")},
                              {QStringLiteral("localhostProfile"), m_settings.seccompLocalhostProfile}};
    }
    const bool noNewPrivileges = spec.securityOpt.contains(QStringLiteral("no-new-privileges")) ||
                                 spec.securityOpt.contains(QStringLiteral("no-new-privileges:true"));
    QJsonObject identity{{QStringLiteral("runAsNonRoot"), imageUser || uid != 0}};
    if (!imageUser) {
        identity.insert(QStringLiteral("runAsUser"), double(uid));
        identity.insert(QStringLiteral("runAsGroup"), double(gid));
    }
    QJsonObject containerSecurity{
        {QStringLiteral("allowPrivilegeEscalation"), !noNewPrivileges},
        {QStringLiteral("privileged"), false},
        {QStringLiteral("readOnlyRootFilesystem"), spec.readOnlyRootfs},
        {QStringLiteral("capabilities"),
         QJsonObject{{QStringLiteral("drop"), QJsonArray::fromStringList(spec.capDrop)}}},
        {QStringLiteral("seccompProfile"), seccomp},
    };
    for (auto it = identity.begin(); it != identity.end(); ++it) {
        containerSecurity.insert(it.key(), it.value());
    }
    QJsonObject podSecurity = identity;
    podSecurity.insert(QStringLiteral("seccompProfile"), seccomp);
    QJsonArray environment;
    QStringList names = spec.environment.keys();
    names.sort();
    for (const QString &name : names) {
        environment.append(
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), spec.environment[name]}});
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
        {QStringLiteral("securityContext"), containerSecurity},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("requests"), limits}, {QStringLiteral("limits"), limits}}},
        {QStringLiteral("volumeMounts"), mounts},
    };
    if (!environment.isEmpty()) {
        // Only the engine's own containers have one (the egress proxy's configuration).
        container.insert(QStringLiteral("env"), environment);
    }
    QJsonObject podSpec{
        {QStringLiteral("restartPolicy"), QStringLiteral("Never")},
        {QStringLiteral("automountServiceAccountToken"), false},
        {QStringLiteral("enableServiceLinks"), false},
        {QStringLiteral("terminationGracePeriodSeconds"), 0},
        {QStringLiteral("activeDeadlineSeconds"), double(m_settings.activeDeadline.count())},
        {QStringLiteral("securityContext"), podSecurity},
        {QStringLiteral("containers"), QJsonArray{container}},
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
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Pod")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), podName},
                                                 {QStringLiteral("namespace"), m_settings.namespaceName},
                                                 {QStringLiteral("labels"), labels},
                                                 {QStringLiteral("annotations"), annotations}}},
        {QStringLiteral("spec"), podSpec},
    };
}

Result<QString> KubernetesBackend::createContainer(const ContainerSpec &spec)
{
    const QString podName =
        QStringLiteral("llm-sandbox-%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    auto manifest = podManifest(spec, podName);
    if (!manifest) {
        return manifest.error();
    }
    // Strict: a field the server does not know is an error, not silently dropped hardening.
    auto reply = m_client.send({.method = "POST",
                                .path = podsPath() + QStringLiteral("?fieldValidation=Strict"),
                                .body = QJsonDocument(*manifest).toJson(QJsonDocument::Compact),
                                .contentType = "application/json"});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return m_client.apiError(
            *reply, QStringLiteral("Creating pod %1 in namespace %2").arg(podName, m_settings.namespaceName),
            QStringLiteral("create"), QStringLiteral("pods"));
    }
    qCDebug(lcKube) << "created pod" << podName;
    return podName;
}

Result<QJsonObject> KubernetesBackend::waitRunning(const QString &podName)
{
    // A watch without resourceVersion starts with the pod's current state, so no change is missed between a read
    // and the watch.
    const qint64 timeout = m_settings.startTimeout.count();
    const QString path = podsPath() + QStringLiteral("?watch=1&fieldSelector=%1&timeoutSeconds=%2")
                                          .arg(percentEncoded(QStringLiteral("metadata.name=") + podName))
                                          .arg(timeout);
    QByteArray pending;
    std::optional<Result<QJsonObject>> outcome;
    HttpRequest request{.method = "GET", .path = path, .timeout = std::chrono::seconds(timeout + 10)};
    request.onData = [&](const QByteArray &chunk) {
        pending.append(chunk);
        qsizetype newline;
        while ((newline = pending.indexOf('\n')) >= 0) {
            const QJsonObject event = QJsonDocument::fromJson(pending.left(newline)).object();
            pending.remove(0, newline + 1);
            const QString type = event.value(QStringLiteral("type")).toString();
            const QJsonObject object = event.value(QStringLiteral("object")).toObject();
            if (type == QLatin1String("ERROR")) {
                outcome = Error{QStringLiteral("Watching pod %1 failed: %2")
                                    .arg(podName, object.value(QStringLiteral("message")).toString()),
                                ErrorCode::EngineFailed};
            } else if (type == QLatin1String("DELETED")) {
                outcome = Error{QStringLiteral("Pod %1 was deleted before the sandbox started.").arg(podName),
                                ErrorCode::SandboxFailed};
            } else if (isRunning(object)) {
                outcome = object;
            } else if (auto failure = startFailure(object, podName)) {
                outcome = *failure;
            }
            if (outcome) {
                return false;
            }
        }
        return true;
    };
    auto reply = m_client.send(request);
    if (outcome) {
        return *outcome;
    }
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return m_client.apiError(*reply, QStringLiteral("Watching pod %1").arg(podName), QStringLiteral("watch"),
                                 QStringLiteral("pods"));
    }
    return Error{QStringLiteral("Pod %1 did not start within %2 seconds (LLM_SANDBOX_KUBE_START_TIMEOUT_SECONDS).")
                     .arg(podName)
                     .arg(timeout),
                 ErrorCode::SandboxFailed};
}

Result<QString> KubernetesBackend::containerAddress(const QString &containerId)
{
    auto pod = waitRunning(containerId);
    if (!pod) {
        return pod.error();
    }
    const QString address = pod->value(QStringLiteral("status")).toObject().value(QStringLiteral("podIP")).toString();
    if (QHostAddress(address).isNull()) {
        return Error{QStringLiteral("Pod %1 runs but has no IP address (status.podIP).").arg(containerId),
                     ErrorCode::EngineFailed};
    }
    return address;
}

Result<std::unique_ptr<ContainerStream>> KubernetesBackend::startAttached(const QString &containerId)
{
    auto pod = waitRunning(containerId);
    if (!pod) {
        return pod.error();
    }
    auto connection = m_client.connection();
    if (!connection) {
        return connection.error();
    }
    QUrl url(m_client.config().server);
    url.setScheme(url.scheme() == QLatin1String("https") ? QStringLiteral("wss") : QStringLiteral("ws"));
    url.setPath(url.path() + podsPath() + u'/' + containerId + QStringLiteral("/attach"));
    url.setQuery(QStringLiteral("container=%1&stdin=true&stdout=true&stderr=true").arg(kContainer));

    KubernetesChannelStream::Options options;
    options.url = url;
    options.authorization = connection->authorization;
    options.caPem = connection->endpoint.caPem;
    options.certPem = connection->endpoint.certPem;
    options.keyPem = connection->endpoint.keyPem;
    options.verifyPeer = connection->endpoint.verifyPeer;
    options.protocols = m_settings.channelProtocols;
    auto stream = KubernetesChannelStream::open(options);
    if (!stream) {
        const QString message = stream.error().message;
        if (message.contains(QLatin1String("403"))) {
            return Error{QStringLiteral("Attaching to pod %1 failed: RBAC denies \"create\" on \"pods/attach\" (%2). "
                                        "Bind the user to the Role in installer/kubernetes/.")
                             .arg(containerId, message),
                         ErrorCode::EngineFailed};
        }
        if (message.contains(QLatin1String("401"))) {
            return Error{QStringLiteral("Attaching to pod %1 failed: the API server did not accept the "
                                        "credentials of %2 (%3).")
                             .arg(containerId, m_client.config().source, message),
                         ErrorCode::EngineUnreachable};
        }
        return stream.error();
    }
    // Opens the gate: the main process becomes the runner, whose first words reach the attached stream.
    if (auto opened = (*stream)->write(QByteArrayLiteral("\n")); !opened) {
        return opened.error();
    }
    return std::unique_ptr<ContainerStream>(std::move(*stream));
}

Result<void> KubernetesBackend::removeContainer(const QString &containerId)
{
    auto reply = m_client.send(
        {.method = "DELETE",
         .path = podsPath() + u'/' + percentEncoded(containerId) + QStringLiteral("?gracePeriodSeconds=0"),
         .timeout = std::chrono::seconds(60)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess() && reply->status != 404) {
        return m_client.apiError(*reply, QStringLiteral("Deleting pod %1").arg(containerId), QStringLiteral("delete"),
                                 QStringLiteral("pods"));
    }
    return {};
}

QList<KubernetesBackend::Permission> KubernetesBackend::neededPermissions()
{
    QList<Permission> needed;
    for (const char *verb : {"create", "get", "list", "watch", "delete"}) {
        needed.append({QString::fromLatin1(verb), QStringLiteral("pods")});
    }
    // WebSocket attach is a GET; servers authorize it as "create" (newer) or "get" (older): the Role grants both.
    needed.append({QStringLiteral("create"), QStringLiteral("pods/attach")});
    needed.append({QStringLiteral("get"), QStringLiteral("pods/attach")});
    needed.append({QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("metrics.k8s.io"), true});
    return needed;
}

Result<QList<KubernetesBackend::Permission>> KubernetesBackend::checkPermissions()
{
    QList<Permission> permissions = neededPermissions();
    for (Permission &permission : permissions) {
        QJsonObject attributes{{QStringLiteral("namespace"), m_settings.namespaceName},
                               {QStringLiteral("verb"), permission.verb},
                               {QStringLiteral("group"), permission.group},
                               {QStringLiteral("resource"), permission.resource.section(u'/', 0, 0)}};
        if (const QString subresource = permission.resource.section(u'/', 1); !subresource.isEmpty()) {
            attributes.insert(QStringLiteral("subresource"), subresource);
        }
        const QJsonObject review{
            {QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1")},
            {QStringLiteral("kind"), QStringLiteral("SelfSubjectAccessReview")},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("resourceAttributes"), attributes}}}};
        auto reply = m_client.send({.method = "POST",
                                    .path = QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
                                    .body = QJsonDocument(review).toJson(QJsonDocument::Compact),
                                    .contentType = "application/json"});
        if (!reply) {
            return reply.error();
        }
        if (!reply->isSuccess()) {
            return m_client.apiError(*reply, QStringLiteral("Asking which permissions are granted"),
                                     QStringLiteral("create"), QStringLiteral("selfsubjectaccessreviews"));
        }
        const QJsonObject status =
            QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("status")).toObject();
        permission.allowed = status.value(QStringLiteral("allowed")).toBool();
        permission.reason = status.value(QStringLiteral("reason")).toString();
    }
    return permissions;
}

Result<QList<ContainerSummary>> KubernetesBackend::listContainerSummaries(const QString &labelKey)
{
    auto reply = m_client.send(
        {.method = "GET", .path = podsPath() + QStringLiteral("?labelSelector=") + percentEncoded(labelKey)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return m_client.apiError(*reply, QStringLiteral("Listing pods in namespace %1").arg(m_settings.namespaceName),
                                 QStringLiteral("list"), QStringLiteral("pods"));
    }
    QList<ContainerSummary> pods;
    for (const QJsonValue &item :
         QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("items")).toArray()) {
        const QJsonObject pod = item.toObject();
        const QJsonObject metadata = pod.value(QStringLiteral("metadata")).toObject();
        ContainerSummary summary;
        summary.id = metadata.value(QStringLiteral("name")).toString();
        summary.created =
            QDateTime::fromString(metadata.value(QStringLiteral("creationTimestamp")).toString(), Qt::ISODate);
        summary.state =
            pod.value(QStringLiteral("status")).toObject().value(QStringLiteral("phase")).toString().toLower();
        const QJsonArray containers =
            pod.value(QStringLiteral("spec")).toObject().value(QStringLiteral("containers")).toArray();
        for (const QJsonValue &container : containers) {
            if (container.toObject().value(QStringLiteral("name")).toString() == kContainer ||
                summary.image.isEmpty()) {
                summary.image = container.toObject().value(QStringLiteral("image")).toString();
            }
        }
        const QJsonObject labels = labelsOf(pod);
        for (auto it = labels.begin(); it != labels.end(); ++it) {
            summary.labels.insert(it.key(), it.value().toString());
        }
        pods.append(summary);
    }
    return pods;
}

Result<ContainerStats> KubernetesBackend::statsFromPodMetrics(const QJsonObject &podMetrics)
{
    ContainerStats stats;
    const QJsonArray containers = podMetrics.value(QStringLiteral("containers")).toArray();
    if (containers.isEmpty()) {
        return Error{QStringLiteral("The metrics API answered without any container's usage."),
                     ErrorCode::EngineFailed};
    }
    for (const QJsonValue &value : containers) {
        const QJsonObject usage = value.toObject().value(QStringLiteral("usage")).toObject();
        const QString cpuText = usage.value(QStringLiteral("cpu")).toString();
        const QString memoryText = usage.value(QStringLiteral("memory")).toString();
        const auto cpu = KubernetesQuantity::cores(cpuText);
        const auto memory = KubernetesQuantity::bytes(memoryText);
        if (!cpu || !memory) {
            return Error{QStringLiteral("The metrics API answered a usage that is not a quantity (cpu \"%1\", memory "
                                        "\"%2\").")
                             .arg(cpuText, memoryText),
                         ErrorCode::EngineFailed};
        }
        stats.cpuCores += *cpu;
        stats.memoryBytes += *memory;
    }
    stats.sampledAt = QDateTime::fromString(podMetrics.value(QStringLiteral("timestamp")).toString(), Qt::ISODate);
    if (!stats.sampledAt.isValid()) {
        stats.sampledAt = QDateTime::currentDateTimeUtc();
    }
    return stats;
}

Result<ContainerStats> KubernetesBackend::containerStats(const QString &containerId)
{
    const QString what = QStringLiteral("Reading the resource use of pod %1").arg(containerId);
    auto reply = m_client.send({.method = "GET",
                                .path = QStringLiteral("/apis/metrics.k8s.io/v1beta1/namespaces/%1/pods/%2")
                                            .arg(percentEncoded(m_settings.namespaceName), percentEncoded(containerId)),
                                .timeout = std::chrono::seconds(30)});
    if (!reply) {
        return reply.error();
    }
    const QJsonObject status = QJsonDocument::fromJson(reply->body).object();
    const bool namedResource =
        !status.value(QStringLiteral("details")).toObject().value(QStringLiteral("name")).toString().isEmpty();
    // A group the server does not serve is a 404 naming nothing ("the server could not find the requested
    // resource"); an APIService whose backend (metrics-server) is down or not ready is a 503 from the aggregator.
    if ((reply->status == 404 && !namedResource) || reply->status == 503) {
        // Not naming the pod: the cause is the cluster's, the same for every pod (`ps` says it once).
        return Error{
            QStringLiteral("The cluster does not serve the metrics API (metrics.k8s.io): metrics-server is not "
                           "installed%1 (the API server answered %2). Install metrics-server "
                           "(https://github.com/kubernetes-sigs/metrics-server) to see the CPU and memory "
                           "use of pods.")
                .arg(reply->status == 503 ? QStringLiteral(" or not ready") : QString())
                .arg(reply->status),
            ErrorCode::Unavailable};
    }
    if (reply->status == 404) {
        // metrics-server measures pods periodically (--metric-resolution, 15 s by default): a new pod has no sample.
        return Error{QStringLiteral("%1 failed: metrics-server has no sample of it yet (%2).")
                         .arg(what, status.value(QStringLiteral("message")).toString()),
                     ErrorCode::NotFound};
    }
    if (!reply->isSuccess()) {
        return m_client.apiError(*reply, what, QStringLiteral("get"), QStringLiteral("pods.metrics.k8s.io"));
    }
    auto stats = statsFromPodMetrics(QJsonDocument::fromJson(reply->body).object());
    if (!stats) {
        return Error{QStringLiteral("%1 failed: %2").arg(what, stats.error().message), stats.error().code};
    }
    // The limit is the pod's, not the metrics': every container must have one for the pod to have one.
    auto pod = m_client.send({.method = "GET", .path = podsPath() + u'/' + percentEncoded(containerId)});
    if (pod && pod->isSuccess()) {
        qint64 limit = 0;
        for (const QJsonValue &value : QJsonDocument::fromJson(pod->body)
                                           .object()
                                           .value(QStringLiteral("spec"))
                                           .toObject()
                                           .value(QStringLiteral("containers"))
                                           .toArray()) {
            const auto memory = KubernetesQuantity::bytes(value.toObject()
                                                              .value(QStringLiteral("resources"))
                                                              .toObject()
                                                              .value(QStringLiteral("limits"))
                                                              .toObject()
                                                              .value(QStringLiteral("memory"))
                                                              .toString());
            if (!memory) {
                limit = 0;
                break;
            }
            limit += *memory;
        }
        stats->memoryLimitBytes = limit;
    }
    return stats;
}

} // namespace sandbox
