#include "backend/kubernetes/KubernetesBackend.h"

#include "backend/kubernetes/KubernetesChannelStream.h"
#include "backend/kubernetes/KubernetesQuantity.h"
#include "backend/kubernetes/PodManifest.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QUrl>

Q_LOGGING_CATEGORY(lcKube, "sandbox.backend.kubernetes")

namespace sandbox {

namespace {

QString registryAdvice()
{
    return QStringLiteral("Kubernetes pulls images from a registry: push the sandbox images with `llm-sandbox images "
                          "push` to the registry named by LLM_SANDBOX_REGISTRY, or name images the cluster can pull "
                          "with LLM_SANDBOX_IMAGE_<LANG>.");
}

QString withoutFinalPeriod(QString text)
{
    text = text.trimmed();
    while (text.endsWith(u'.')) {
        text.chop(1);
    }
    return text;
}

} // namespace

std::optional<Error> KubernetesBackend::startFailure(const QJsonObject &pod, const QString &podName)
{
    const QJsonObject status = pod.value(QStringLiteral("status")).toObject();
    const QString phase = status.value(QStringLiteral("phase")).toString();
    // The folder loader (an init container) uses the sandbox's image: its pull fails first.
    QJsonArray statuses = status.value(QStringLiteral("initContainerStatuses")).toArray();
    for (const QJsonValue &value : status.value(QStringLiteral("containerStatuses")).toArray()) {
        statuses.append(value);
    }
    for (const QJsonValue &value : std::as_const(statuses)) {
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

/// Whether `container` of the pod runs: the sandbox's once the pod does, an init container (the folder loader)
/// while the pod is still initialising.
bool isRunning(const QJsonObject &pod, const QString &container)
{
    const QJsonObject status = pod.value(QStringLiteral("status")).toObject();
    const bool init = container != PodManifest::containerName();
    if (!init && status.value(QStringLiteral("phase")).toString() != QLatin1String("Running")) {
        return false;
    }
    const QString statuses = init ? QStringLiteral("initContainerStatuses") : QStringLiteral("containerStatuses");
    for (const QJsonValue &value : status.value(statuses).toArray()) {
        const QJsonObject each = value.toObject();
        if (each.value(QStringLiteral("name")).toString() == container) {
            return each.value(QStringLiteral("state")).toObject().contains(QStringLiteral("running"));
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

Result<QString> KubernetesBackend::createContainer(const ContainerSpec &spec)
{
    const QString podName =
        QStringLiteral("llm-sandbox-%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    auto manifest = PodManifest(m_settings, m_userNamespacesByDefault).make(spec, podName);
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

Result<QJsonObject> KubernetesBackend::waitRunning(const QString &podName, const QString &container)
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
            } else if (isRunning(object, container)) {
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
    auto pod = waitRunning(containerId, PodManifest::containerName());
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
    return attach(containerId, PodManifest::containerName());
}

Result<std::unique_ptr<ContainerStream>> KubernetesBackend::attachFolderLoader(const QString &containerId)
{
    return attach(containerId, PodManifest::folderLoaderName());
}

Result<std::unique_ptr<ContainerStream>> KubernetesBackend::attach(const QString &podName, const QString &container)
{
    auto pod = waitRunning(podName, container);
    if (!pod) {
        return pod.error();
    }
    auto connection = m_client.connection();
    if (!connection) {
        return connection.error();
    }
    QUrl url(m_client.config().server);
    url.setScheme(url.scheme() == QLatin1String("https") ? QStringLiteral("wss") : QStringLiteral("ws"));
    url.setPath(url.path() + podsPath() + u'/' + podName + QStringLiteral("/attach"));
    url.setQuery(QStringLiteral("container=%1&stdin=true&stdout=true&stderr=true").arg(container));

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
                             .arg(podName, message),
                         ErrorCode::EngineFailed};
        }
        if (message.contains(QLatin1String("401"))) {
            return Error{QStringLiteral("Attaching to pod %1 failed: the API server did not accept the "
                                        "credentials of %2 (%3).")
                             .arg(podName, m_client.config().source, message),
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
            if (container.toObject().value(QStringLiteral("name")).toString() == PodManifest::containerName() ||
                summary.image.isEmpty()) {
                summary.image = container.toObject().value(QStringLiteral("image")).toString();
            }
        }
        const QJsonObject labels = PodManifest::labelsOf(pod);
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
