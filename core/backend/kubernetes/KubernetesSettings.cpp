#include "backend/kubernetes/KubernetesSettings.h"

#include "settings/SandboxSettings.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace sandbox {

namespace {

Error badVariable(const char *name, const QString &why)
{
    return Error{QStringLiteral("Invalid %1: %2.").arg(QString::fromLatin1(name), why), ErrorCode::BadRequest};
}

Result<qint64> seconds(const char *name, qint64 fallback)
{
    if (qEnvironmentVariableIsEmpty(name)) {
        return fallback;
    }
    bool ok = false;
    const qint64 value = qEnvironmentVariable(name).trimmed().toLongLong(&ok);
    if (!ok || value <= 0) {
        return badVariable(name, QStringLiteral("a positive number of seconds is needed"));
    }
    return value;
}

} // namespace

Result<KubernetesSettings> KubernetesSettings::fromEnvironment(const QString &contextNamespace,
                                                               const QString &savedRegistry)
{
    KubernetesSettings settings;
    settings.context = qEnvironmentVariable("LLM_SANDBOX_KUBE_CONTEXT").trimmed();
    settings.namespaceName = qEnvironmentVariable("NAMESPACE").trimmed();
    if (settings.namespaceName.isEmpty()) {
        settings.namespaceName = contextNamespace.isEmpty() ? QStringLiteral("default") : contextNamespace;
    }
    // A Kubernetes namespace is an RFC 1123 label.
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
    if (!label.match(settings.namespaceName).hasMatch()) {
        return Error{QStringLiteral("NAMESPACE: \"%1\" is not a Kubernetes namespace name (lower-case letters, "
                                    "digits and '-', at most 63 characters).")
                         .arg(settings.namespaceName.left(100)),
                     ErrorCode::BadRequest};
    }
    settings.runtimeClassName = qEnvironmentVariable("LLM_SANDBOX_KUBE_RUNTIME_CLASS").trimmed();
    for (const QString &pair :
         qEnvironmentVariable("LLM_SANDBOX_KUBE_NODE_SELECTOR").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0) {
            return badVariable("LLM_SANDBOX_KUBE_NODE_SELECTOR",
                               QStringLiteral("\"%1\" is not key=value").arg(pair.trimmed()));
        }
        settings.nodeSelector.insert(pair.left(equals).trimmed(), pair.mid(equals + 1).trimmed());
    }
    if (const QByteArray tolerations = qgetenv("LLM_SANDBOX_KUBE_TOLERATIONS").trimmed(); !tolerations.isEmpty()) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(tolerations, &error);
        if (error.error != QJsonParseError::NoError || !document.isArray()) {
            return badVariable("LLM_SANDBOX_KUBE_TOLERATIONS",
                               QStringLiteral("a JSON array of tolerations is needed "
                                              "([{\"key\":\"sandbox\",\"operator\":\"Exists\"}])"));
        }
        settings.tolerations = document.array();
    }
    settings.imagePullSecrets = qEnvironmentVariable("LLM_SANDBOX_KUBE_IMAGE_PULL_SECRETS")
                                    .split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    settings.registry = qEnvironmentVariable("LLM_SANDBOX_REGISTRY").trimmed();
    if (settings.registry.isEmpty()) {
        settings.registry = savedRegistry.trimmed(); // the variable wins, as for the other fields
    }
    while (settings.registry.endsWith(QLatin1Char('/'))) {
        settings.registry.chop(1);
    }
    settings.seccompLocalhostProfile = qEnvironmentVariable("LLM_SANDBOX_KUBE_SECCOMP_PROFILE").trimmed();
    if (const QString userNamespaces = qEnvironmentVariable("LLM_SANDBOX_KUBE_USER_NAMESPACES").trimmed().toLower();
        userNamespaces == QLatin1String("on") || userNamespaces == QLatin1String("1")) {
        settings.userNamespaces = UserNamespaces::On;
    } else if (userNamespaces == QLatin1String("off") || userNamespaces == QLatin1String("0")) {
        settings.userNamespaces = UserNamespaces::Off;
    } else if (!userNamespaces.isEmpty() && userNamespaces != QLatin1String("auto")) {
        return badVariable("LLM_SANDBOX_KUBE_USER_NAMESPACES", QStringLiteral("auto, on or off is needed"));
    }
    if (!qEnvironmentVariableIsEmpty("LLM_SANDBOX_KUBE_EPHEMERAL_STORAGE")) {
        auto bytes = parseByteSize(qEnvironmentVariable("LLM_SANDBOX_KUBE_EPHEMERAL_STORAGE"));
        if (!bytes) {
            return badVariable("LLM_SANDBOX_KUBE_EPHEMERAL_STORAGE", bytes.error().message);
        }
        settings.ephemeralStorageBytes = *bytes;
    }
    auto deadline = seconds("LLM_SANDBOX_KUBE_ACTIVE_DEADLINE_SECONDS", settings.activeDeadline.count());
    if (!deadline) {
        return deadline.error();
    }
    settings.activeDeadline = std::chrono::seconds(*deadline);
    auto start = seconds("LLM_SANDBOX_KUBE_START_TIMEOUT_SECONDS", settings.startTimeout.count());
    if (!start) {
        return start.error();
    }
    settings.startTimeout = std::chrono::seconds(*start);
    return settings;
}

bool KubernetesSettings::userNamespacesByDefault(const QString &gitVersion)
{
    const QRegularExpressionMatch version =
        QRegularExpression(QStringLiteral("^v?(\\d+)\\.(\\d+)")).match(gitVersion.trimmed());
    if (!version.hasMatch()) {
        return false;
    }
    const int major = version.captured(1).toInt();
    return major > 1 || (major == 1 && version.captured(2).toInt() >= 33);
}

QString KubernetesSettings::podImage(const QString &reference) const
{
    if (registry.isEmpty() || !reference.startsWith(QLatin1String("llm-sandbox/"))) {
        return reference;
    }
    return registry + u'/' + reference;
}

} // namespace sandbox
