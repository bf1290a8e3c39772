#include "backend/BackendFactory.h"

#include "backend/DockerBackend.h"
#include "backend/PodmanBackend.h"

#include <QRegularExpression>

namespace sandbox::BackendFactory {

QStringList names()
{
    return {QStringLiteral("docker"), QStringLiteral("podman"), QStringLiteral("kubernetes")};
}

Result<QString> kubernetesNamespace()
{
    const QString name = qEnvironmentVariable("NAMESPACE", QStringLiteral("default"));
    // A Kubernetes namespace is an RFC 1123 label.
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
    if (!label.match(name).hasMatch()) {
        return Error{QStringLiteral("NAMESPACE: \"%1\" is not a Kubernetes namespace name (lower-case letters, digits "
                                    "and '-', at most 63 characters).")
                         .arg(name.left(100)), ErrorCode::BadRequest};
    }
    return name;
}

Result<std::shared_ptr<ContainerBackend>> create(const QString &name)
{
    const QString chosen = (name.isEmpty() ? qEnvironmentVariable("BACKEND", QStringLiteral("docker")) : name).toLower();
    if (chosen == QLatin1String("docker")) {
        auto endpoint = DockerBackend::endpointFromEnvironment();
        if (!endpoint) {
            return endpoint.error();
        }
        return std::shared_ptr<ContainerBackend>(std::make_shared<DockerBackend>(*endpoint));
    }
    if (chosen == QLatin1String("podman")) {
        auto endpoint = PodmanBackend::endpointFromEnvironment();
        if (!endpoint) {
            return endpoint.error();
        }
        return std::shared_ptr<ContainerBackend>(std::make_shared<PodmanBackend>(*endpoint));
    }
    if (chosen == QLatin1String("kubernetes")) {
        auto kubernetes = kubernetesNamespace();
        if (!kubernetes) {
            return kubernetes.error();
        }
        return Error{QStringLiteral("The kubernetes backend (namespace \"%1\") is not available in this version yet; "
                                    "use docker or podman.")
                         .arg(*kubernetes), ErrorCode::Unavailable};
    }
    return Error{QStringLiteral("Unknown backend \"%1\". Choose one of: %2.").arg(chosen, names().join(QStringLiteral(", "))), ErrorCode::BadRequest};
}

} // namespace sandbox::BackendFactory
