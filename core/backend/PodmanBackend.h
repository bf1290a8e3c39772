#pragma once

#include "backend/DockerBackend.h"

namespace sandbox {

/// Podman through its API service (`podman system service`), never the podman CLI. The service
/// speaks the Docker API, so everything is DockerBackend's except what Podman does differently,
/// all of it here: importing a root filesystem (the compatible endpoint ignores the tag), tmpfs
/// mounts (no uid=/gid= options; extra writable ones in read-only containers), the names it
/// lists images under, what `probe` reports (rootless mode), how to register an OCI runtime, and how to start the
/// service when it does not answer.
class PodmanBackend final : public DockerBackend
{
public:
    /// `endpoint`: Podman's API service; messages about reaching it name the socket and the
    /// command that starts the service.
    explicit PodmanBackend(HttpEndpoint endpoint);

    /// CONTAINER_HOST (as podman-remote reads it), else the default socket:
    /// unix:///run/podman/podman.sock for root, unix://$XDG_RUNTIME_DIR/podman/podman.sock for a
    /// user (rootless).
    /// `settings.containerHost` stands in for an unset CONTAINER_HOST.
    static Result<HttpEndpoint> endpointFromEnvironment(const BackendConnection &settings = {});

    Result<BackendInfo> probe() override;
    /// Only the default runtime (libpod's host.ociRuntime): Podman's Docker-compatible API (4.3) ignores a container's
    /// HostConfig.Runtime, so Podman runs every container under its default one.
    Result<QList<OciRuntime>> runtimes() override;
    Result<void> importImage(const QString &tarPath, const QString &reference, const QHash<QString, QString> &labels,
                             const ProgressCallback &progress) override;
    /// Podman's compatible API takes a seccomp profile only as a path on its own host, never as
    /// JSON text: the profile is written to a file in the user's cache, named by its hash.
    Result<QStringList> securityOptions(const ContainerSpec &spec) const override;

    /// Podman's words: "U" for the container user's mounts (it refuses uid=/gid=), notmpcopyup, and empty read-only
    /// mounts on /run and /var/tmp of a read-only container.
    QHash<QString, QString> tmpfsMounts(const ContainerSpec &spec) const override;

protected:
    /// libpod's /events with stream=false: Podman's Docker-compatible /events answers nothing with `until`.
    Result<HttpResponse> pastEvents(const QString &filters, qint64 since) override;
    QString productReference(const QString &engineReference) const override;
    /// A registry on loopback is pushed to over plain HTTP, as Docker does by default; Podman would insist on TLS.
    QString pushOptions(const QString &registry) const override;
    /// Podman's /auth (4.x) skips TLS only for names starting with "localhost:", so 127.0.0.1 and ::1 are asked as
    /// localhost, which names the same host; another loopback address (127.0.0.2) is asked over TLS and fails.
    QString loginAddress(const QString &registry) const override;
    QString runtimeRegistration(const QString &wanted) const override;
};

} // namespace sandbox
