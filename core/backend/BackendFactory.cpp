#include "backend/BackendFactory.h"

#include "backend/DockerBackend.h"

#include <unistd.h>

namespace sandbox::BackendFactory {

QStringList names()
{
    return {QStringLiteral("docker"), QStringLiteral("podman"), QStringLiteral("kubernetes")};
}

namespace {

Result<HttpEndpoint> podmanEndpoint()
{
    // As podman-remote and the docker CLI read them: CONTAINER_HOST, then DOCKER_HOST.
    QString host = qEnvironmentVariable("CONTAINER_HOST", qEnvironmentVariable("DOCKER_HOST"));
    if (host.isEmpty()) {
        const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
        host = (::geteuid() == 0 || runtimeDir.isEmpty()) ? QStringLiteral("unix:///run/podman/podman.sock")
                                                          : QStringLiteral("unix://%1/podman/podman.sock").arg(runtimeDir);
    }
    return HttpEndpoint::parse(host, false, {});
}

} // namespace

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
        auto endpoint = podmanEndpoint();
        if (!endpoint) {
            return endpoint.error();
        }
        return std::shared_ptr<ContainerBackend>(std::make_shared<DockerBackend>(*endpoint, QStringLiteral("podman")));
    }
    if (chosen == QLatin1String("kubernetes")) {
        return Error{QStringLiteral("The kubernetes backend is not available in this version yet; use docker or podman.")};
    }
    return Error{QStringLiteral("Unknown backend \"%1\". Choose one of: %2.").arg(chosen, names().join(QStringLiteral(", ")))};
}

} // namespace sandbox::BackendFactory
