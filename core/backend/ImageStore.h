#pragma once

#include "backend/RegistryCredentials.h"
#include "util/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>

class QIODevice;

namespace sandbox {

struct ImageInfo
{
    QString reference; ///< repository:tag
    QString id;
    qint64 sizeBytes = 0;
    QDateTime created;
    QHash<QString, QString> labels;
};

/// Progress of long operations (image builds and imports), one line at a time.
using ProgressCallback = std::function<void(const QString &line)>;
/// Receives a streamed body chunk by chunk; returning false stops the stream.
using DataSink = std::function<bool(const QByteArray &chunk)>;
/// Whether an image build may reuse the layers of earlier builds.
enum class BuildCache
{
    Use,
    Ignore
};

/// An engine's own image store: the images sandboxes start from are built, imported, copied between engines, tagged
/// and pushed here (Docker, Podman). A Kubernetes cluster has none: its nodes pull the images a pod names from a
/// registry (ContainerBackend::imageStore() is null there). Thread-safe.
class ImageStore
{
public:
    virtual ~ImageStore() = default;

    /// The engine's name ("docker", "podman"), for messages.
    virtual QString name() const = 0;

    virtual Result<bool> hasImage(const QString &reference) = 0;
    /// Images carrying the label `labelKey` (the product labels everything it builds).
    virtual Result<QList<ImageInfo>> listImages(const QString &labelKey) = 0;
    /// Imports a root filesystem tarball (file on disk) as image `reference`.
    virtual Result<void> importImage(const QString &tarPath, const QString &reference,
                                     const QHash<QString, QString> &labels, const ProgressCallback &progress) = 0;
    /// Builds an image from a Dockerfile build context (a tar archive), with BuildCache::Ignore every step again
    /// (fresh packages) instead of reusing the layers of an earlier build. When `cancelled` (may be null) turns true
    /// the build stops within a second with ErrorCode::Cancelled, and the engine tags nothing.
    virtual Result<void> buildImage(const QByteArray &contextTar, const QString &reference,
                                    const QHash<QString, QString> &buildArgs, const QHash<QString, QString> &labels,
                                    BuildCache cache, const ProgressCallback &progress,
                                    const std::atomic_bool *cancelled) = 0;
    /// Streams the images as one archive in the Docker image format (`docker save`), which
    /// loadImages of any backend that speaks it accepts: copying beats rebuilding.
    virtual Result<void> exportImages(const QStringList &references, const DataSink &sink) = 0;
    /// Loads an archive written by exportImages, read from `archive` until its end; returns the
    /// names the engine stored the images under (an engine may qualify them: "localhost/...").
    virtual Result<QStringList> loadImages(QIODevice &archive, const ProgressCallback &progress) = 0;
    /// Gives the existing image `image` the additional name `reference` ("repo:tag").
    virtual Result<void> tagImage(const QString &image, const QString &reference) = 0;
    /// Removes the name `reference` ("repo:tag"), and the image when no other name or container uses it; an absent
    /// name is fine. Never forced: an image a container uses stays (ErrorCode::EngineFailed says so).
    virtual Result<void> removeImage(const QString &reference) = 0;
    /// Pushes the image `reference` ("registry:port/repo:tag") to the registry its name starts with, reporting
    /// progress per layer; the error says whether the registry could not be reached, refused it, or the image
    /// is not there.
    virtual Result<void> pushImage(const QString &reference, const ProgressCallback &progress) = 0;
    /// pushImage with a login to the registry (none when `credentials` is empty). Engines that cannot take
    /// credentials refuse a non-empty login with ErrorCode::Unavailable; credentials never appear in errors or
    /// progress. When `cancelled` (may be null) turns true the upload stops within a second (ErrorCode::Cancelled).
    virtual Result<void> pushImage(const QString &reference, const RegistryCredentials &credentials,
                                   const ProgressCallback &progress, const std::atomic_bool *cancelled);
    /// Asks the registry `credentials.serverAddress` through the engine whether it accepts the login; stores it
    /// nowhere. The error says whether the registry refused it (ErrorCode::BadRequest) or could not be reached.
    virtual Result<void> checkRegistryLogin(const RegistryCredentials &credentials);
};

inline Result<void> ImageStore::pushImage(const QString &reference, const RegistryCredentials &credentials,
                                          const ProgressCallback &progress, const std::atomic_bool *cancelled)
{
    Q_UNUSED(cancelled) // the engines that push take it
    if (!credentials.isEmpty()) {
        return Error{QStringLiteral("The %1 backend cannot push with a registry login.").arg(name()),
                     ErrorCode::Unavailable};
    }
    return pushImage(reference, progress);
}

inline Result<void> ImageStore::checkRegistryLogin(const RegistryCredentials &credentials)
{
    Q_UNUSED(credentials)
    return Error{QStringLiteral("The %1 backend cannot log in to registries: use --backend docker or --backend podman.")
                     .arg(name()),
                 ErrorCode::Unavailable};
}

} // namespace sandbox
