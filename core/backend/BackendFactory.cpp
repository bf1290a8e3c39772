#include "backend/BackendFactory.h"

#include "backend/DockerBackend.h"
#include "backend/PodmanBackend.h"
#include "backend/kubernetes/KubernetesBackend.h"

#include <QLoggingCategory>
#include <QRegularExpression>

namespace sandbox::BackendFactory {

namespace {
Q_LOGGING_CATEGORY(lcBackendFactory, "sandbox.backend.factory")
}

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
                         .arg(name.left(100)),
                     ErrorCode::BadRequest};
    }
    return name;
}

Result<std::shared_ptr<ContainerBackend>> create(const QString &name, const BackendConnection &connection)
{
    QString chosen = (name.isEmpty() ? qEnvironmentVariable("BACKEND", QStringLiteral("docker")) : name).toLower();
    if (chosen == QLatin1String("micromamba")) {
        // The Python llm-sandbox ran Docker containers with a conda environment inside; its configurations name
        // it, and the runs it made work the same on our Docker images.
        qCWarning(lcBackendFactory).noquote()
            << "BACKEND=micromamba: using the docker backend (conda environments are not "
               "supported; libraries are installed with each language's package manager).";
        chosen = QStringLiteral("docker");
    }
    if (chosen == QLatin1String("docker")) {
        auto endpoint = DockerBackend::endpointFromEnvironment(connection);
        if (!endpoint) {
            return endpoint.error();
        }
        return std::shared_ptr<ContainerBackend>(std::make_shared<DockerBackend>(*endpoint));
    }
    if (chosen == QLatin1String("podman")) {
        // The Python llm-sandbox's documented Podman setup (BACKEND=podman) points DOCKER_HOST at Podman's socket;
        // CONTAINER_HOST still wins, as it does for podman itself. Chosen otherwise (--backend podman beside a
        // Docker engine), DOCKER_HOST names Docker's engine and is left alone.
        const QString dockerHost = qEnvironmentVariable("DOCKER_HOST");
        const bool configuredAsPython =
            qEnvironmentVariable("BACKEND").compare(QLatin1String("podman"), Qt::CaseInsensitive) == 0;
        auto endpoint = configuredAsPython && qEnvironmentVariableIsEmpty("CONTAINER_HOST") && !dockerHost.isEmpty()
                            ? HttpEndpoint::parse(dockerHost, false, {})
                            : PodmanBackend::endpointFromEnvironment(connection);
        if (!endpoint) {
            return endpoint.error();
        }
        return std::shared_ptr<ContainerBackend>(std::make_shared<PodmanBackend>(*endpoint));
    }
    if (chosen == QLatin1String("kubernetes")) {
        auto kubernetes = KubernetesBackend::fromEnvironment(connection);
        if (!kubernetes) {
            return kubernetes.error();
        }
        return std::shared_ptr<ContainerBackend>(*kubernetes);
    }
    return Error{
        QStringLiteral("Unknown backend \"%1\". Choose one of: %2.").arg(chosen, names().join(QStringLiteral(", "))),
        ErrorCode::BadRequest};
}

} // namespace sandbox::BackendFactory
