#pragma once

#include "backend/ContainerBackend.h"
#include "backend/DockerJsonProgress.h"
#include "backend/HttpClient.h"
#include "settings/BackendConnection.h"

#include <QJsonObject>
#include <mutex>

namespace sandbox {

/// The Docker Engine API over HTTP. Podman's service speaks it too; PodmanBackend derives
/// from this class and overrides the few places where Podman differs.
class DockerBackend : public ContainerBackend, public ImageStore
{
public:
    explicit DockerBackend(HttpEndpoint endpoint, QString name = QStringLiteral("docker"));

    /// The endpoint named by DOCKER_HOST (default unix:///var/run/docker.sock), with
    /// DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, as the docker CLI reads them; `settings` stands in for the unset ones.
    static Result<HttpEndpoint> endpointFromEnvironment(const BackendConnection &settings = {});

    QString name() const override { return m_name; }
    ImageStore *imageStore() override { return this; }
    Result<BackendInfo> probe() override;
    /// /info's Runtimes and DefaultRuntime.
    Result<QList<OciRuntime>> runtimes() override;
    Result<bool> hasImage(const QString &reference) override;
    Result<QList<ImageInfo>> listImages(const QString &labelKey) override;
    Result<void> importImage(const QString &tarPath, const QString &reference, const QHash<QString, QString> &labels,
                             const ProgressCallback &progress) override;
    Result<void> buildImage(const QByteArray &contextTar, const QString &reference,
                            const QHash<QString, QString> &buildArgs, const QHash<QString, QString> &labels,
                            BuildCache cache, const ProgressCallback &progress,
                            const std::atomic_bool *cancelled) override;
    Result<void> exportImages(const QStringList &references, const DataSink &sink) override;
    Result<QStringList> loadImages(QIODevice &archive, const ProgressCallback &progress) override;
    Result<void> tagImage(const QString &image, const QString &reference) override;
    Result<void> removeImage(const QString &reference) override;
    Result<void> pushImage(const QString &reference, const ProgressCallback &progress) override;
    /// Sends `credentials` in X-Registry-Auth: the engine does not read the docker CLI's login store.
    Result<void> pushImage(const QString &reference, const RegistryCredentials &credentials,
                           const ProgressCallback &progress, const std::atomic_bool *cancelled) override;
    /// POST /auth: the engine logs in to the registry once and forgets the login.
    Result<void> checkRegistryLogin(const RegistryCredentials &credentials) override;
    Result<QString> createContainer(const ContainerSpec &spec) override;
    Result<std::unique_ptr<ContainerStream>> startAttached(const QString &containerId) override;
    Result<void> removeContainer(const QString &containerId) override;
    Result<QList<ContainerSummary>> listContainerSummaries(const QString &labelKey) override;
    /// GET /containers/{id}/stats?stream=false: Docker measures CPU between two readings a second apart; an engine
    /// that sends one reading (Podman) is asked twice, a second apart.
    Result<ContainerStats> containerStats(const QString &containerId) override;
    /// GET /containers/{id}/json for the state, then, for a container ended by SIGKILL without an OOM kill on
    /// record, the engine's kill and stop events since it started (eventsPath).
    Result<ContainerEnd> howEnded(const QString &containerId) override;

    /// HostConfig.SecurityOpt: no-new-privileges when the spec asks for it, `spec.securityOpt`, and
    /// `spec.seccompProfile` unless `securityOpt` names a
    /// profile itself. Docker takes a profile's JSON text ("seccomp={...}"); a path given in
    /// `securityOpt` is read here, as the docker CLI does.
    virtual Result<QStringList> securityOptions(const ContainerSpec &spec) const;
    /// The tmpfs mounts of HostConfig.Tmpfs (mount point -> options), in the engine's words.
    virtual QHash<QString, QString> tmpfsMounts(const ContainerSpec &spec) const;

protected:
    /// A request to the Docker-compatible API: `request.path` gets the negotiated version prefix.
    Result<HttpResponse> call(HttpRequest request);
    /// A request whose path is sent as given (Podman's own /v4.0.0/libpod/... API).
    Result<HttpResponse> callUnversioned(const HttpRequest &request) const;
    Error engineError(const HttpResponse &response, const QString &what) const;
    const HttpEndpoint &httpEndpoint() const { return m_http.endpoint(); }
    QString endpoint() const override { return httpEndpoint().displayName; }
    /// What /version says: the name, endpoint, versions and platform (not the rootless mode).
    Result<BackendInfo> versionInfo();

    QString runtimeRegistration(const QString &wanted) const override;

    /// A reference as the engine lists it, in the form the product names images ("llm-sandbox/python:TAG").
    virtual QString productReference(const QString &engineReference) const { return engineReference; }
    /// Further query parameters of a push to `registry` ("host:port"), each starting with '&'.
    virtual QString pushOptions(const QString &registry) const
    {
        Q_UNUSED(registry)
        return {};
    }
    /// The serveraddress of a POST /auth for `registry` ("host:port").
    virtual QString loginAddress(const QString &registry) const { return registry; }
    /// The engine's past events that `filters` (the API's JSON, percent-encoded) names, from `since` (Unix seconds)
    /// to now, in one answer that ends: Docker's /events with `until`.
    virtual Result<HttpResponse> pastEvents(const QString &filters, qint64 since);

private:
    Result<QJsonObject> statsSample(const QString &containerId);
    /// "/v1.41" or lower: the API version both sides speak, negotiated once.
    Result<QString> apiPrefix();
    Result<void> streamJsonProgress(HttpRequest request, const ProgressCallback &progress, const QString &what,
                                    DockerJsonProgress::Style style = DockerJsonProgress::Style::Plain);

    HttpClient m_http;
    QString m_name;
    std::mutex m_versionMutex;
    QString m_apiPrefix;
};

} // namespace sandbox
