#pragma once

#include "backend/ContainerBackend.h"
#include "backend/HttpClient.h"

#include <mutex>

namespace sandbox {

/// The Docker Engine API (and the Docker-compatible API of Podman's service) over HTTP.
class DockerBackend final : public ContainerBackend
{
public:
    explicit DockerBackend(HttpEndpoint endpoint, QString name = QStringLiteral("docker"));

    /// The endpoint named by DOCKER_HOST (default unix:///var/run/docker.sock), with
    /// DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, as the docker CLI reads them.
    static Result<HttpEndpoint> endpointFromEnvironment();

    QString name() const override { return m_name; }
    Result<BackendInfo> probe() override;
    Result<bool> hasImage(const QString &reference) override;
    Result<QList<ImageInfo>> listImages(const QString &labelKey) override;
    Result<void> importImage(const QString &tarPath, const QString &reference, const QHash<QString, QString> &labels,
                             const ProgressCallback &progress) override;
    Result<void> buildImage(const QByteArray &contextTar, const QString &reference,
                            const QHash<QString, QString> &buildArgs, const QHash<QString, QString> &labels,
                            const ProgressCallback &progress) override;
    Result<QString> createContainer(const ContainerSpec &spec) override;
    Result<void> copyFiles(const QString &containerId, const QString &directory, const QList<FileEntry> &files) override;
    Result<std::unique_ptr<ContainerStream>> startAttached(const QString &containerId) override;
    Result<void> removeContainer(const QString &containerId) override;
    Result<QStringList> listContainers(const QString &labelKey, const QString &labelValue) override;

private:
    /// "/v1.41" or lower: the API version both sides speak, negotiated once.
    Result<QString> apiPrefix();
    Result<HttpResponse> call(HttpRequest request);
    Error engineError(const HttpResponse &response, const QString &what) const;
    Result<void> streamJsonProgress(HttpRequest request, const ProgressCallback &progress, const QString &what);

    HttpClient m_http;
    QString m_name;
    std::mutex m_versionMutex;
    QString m_apiPrefix;
};

} // namespace sandbox
