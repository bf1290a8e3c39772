#include "backend/BackendFactory.h"

#include "backend/DockerBackend.h"
#include "backend/PodmanBackend.h"

namespace sandbox::BackendFactory {

QStringList names()
{
    return {QStringLiteral("docker"), QStringLiteral("podman"), QStringLiteral("kubernetes")};
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
        return Error{QStringLiteral("The kubernetes backend is not available in this version yet; use docker or podman.")};
    }
    return Error{QStringLiteral("Unknown backend \"%1\". Choose one of: %2.").arg(chosen, names().join(QStringLiteral(", ")))};
}

} // namespace sandbox::BackendFactory
