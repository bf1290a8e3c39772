#pragma once

#include "backend/ContainerBackend.h"
#include "fakes/FakeRunScript.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace sandbox::test {

class FakeRunner;

/// A container engine in memory, for fast tests of the engine's logic (pool, retries, sessions, observers).
/// Containers start a FakeRunner that speaks the runner protocol on their attached stream; what each run
/// does is scripted by the test. Thread-safe, like every backend.
class FakeBackend final : public ContainerBackend, public ImageStore
{
public:
    /// Decides what a run does, from the `run` request the runner received. Called on the runner's thread,
    /// without any lock of the backend held.
    using RunHandler = std::function<FakeRunScript(const FakeRun &run)>;

    FakeBackend();
    /// Kills the containers still running.
    ~FakeBackend() override;

    // What runs do: the handler if one is set, else the script given for the run's code, else exit 0 silently.
    void setRunHandler(RunHandler handler);
    void setScript(const QByteArray &code, const FakeRunScript &script);

    // Images: every reference is present unless setEveryImagePresent(false); then only the added ones.
    void setEveryImagePresent(bool present);
    void addImage(const QString &reference, const QHash<QString, QString> &labels = {});

    // Failures: each call of createContainer / startAttached fails with `error` until it is reset (nullopt).
    void setCreateError(std::optional<Error> error);
    void setStartError(std::optional<Error> error);
    /// How sandboxes reach an egress proxy: a socket volume (Docker, Podman; the default) or an address (Kubernetes).
    void setEgressProxyReach(EgressProxyReach reach) { m_reach = reach; }
    EgressProxyReach egressProxyReach() const override { return m_reach; }
    /// The protocol version the runners announce (the real one is 1).
    void setRunnerProtocolVersion(int version);
    /// The fake engine does not put these limits (EnforcedLimits::limitNames()) in force, as rootless Podman on
    /// cgroup v1 drops memory and pids; its runners report the others as the spec asked. By default every limit is
    /// in force. `rootless` and `cgroupVersion` go into probe() and the runners' report.
    void setDroppedLimits(const QStringList &names, bool rootless = false, int cgroupVersion = 2);
    /// Runners leave `limits` out of `ready`, as a runner older than the check does.
    void setRunnerReportsLimits(bool reports);
    /// The `limits` a runner of a container created with `spec` reports when the engine drops `dropped`.
    static QJsonObject limitsInForce(const ContainerSpec &spec, const QStringList &dropped, int cgroupVersion);

    /// What containerStats() reports for container `id` from now on (by default: nothing used, the spec's memory
    /// limit, one process once started).
    void setContainerStats(const QString &id, const ContainerStats &stats);

    /// The container dies (e.g. while idle in the pool): its stream ends, and howEnded() says `end`. False for an
    /// unknown or removed one.
    bool killContainer(const QString &id, const ContainerEnd &end = {});

    int containersCreated() const;
    int containersStarted() const;
    /// Containers removed while they existed (removing an absent one does not count).
    int containersRemoved() const;
    /// Created and not removed yet.
    QStringList liveContainers() const;
    /// The spec of every createContainer call that succeeded, in order.
    QList<ContainerSpec> specs() const;
    /// Every `run` request the runners received, in order.
    QList<FakeRun> runs() const;
    /// The files of container `id` (absolute path -> data): copied in before start, then its runner's.
    QHash<QString, QByteArray> files(const QString &id) const;

    // ContainerBackend
    QString name() const override;
    ImageStore *imageStore() override { return this; }
    Result<BackendInfo> probe() override;
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
    using ImageStore::pushImage;
    Result<void> pushImage(const QString &reference, const ProgressCallback &progress) override;
    Result<QString> createContainer(const ContainerSpec &spec) override;
    Result<std::unique_ptr<ContainerStream>> startAttached(const QString &containerId) override;
    Result<void> removeContainer(const QString &containerId) override;
    Result<QList<ContainerSummary>> listContainerSummaries(const QString &labelKey) override;
    Result<ContainerStats> containerStats(const QString &containerId) override;
    /// What killContainer() said; Unavailable for a container that was not killed.
    Result<ContainerEnd> howEnded(const QString &containerId) override;

private:
    struct Container
    {
        ContainerSpec spec;
        QHash<QString, QByteArray> files; ///< copied in before start
        std::shared_ptr<FakeRunner> runner;
        bool removed = false;
        QDateTime created;
        std::optional<ContainerStats> stats; ///< set by the test
        std::optional<ContainerEnd> end;     ///< set by killContainer()
    };

    FakeRunScript scriptFor(const FakeRun &run);
    bool imagePresent(const QString &reference) const; ///< m_mutex held
    /// A new image named `reference` (a build's, an import's): the name leaves the image it named.
    void makeImage(const QString &reference, const QHash<QString, QString> &labels);

    mutable std::mutex m_mutex;
    RunHandler m_handler;
    QHash<QByteArray, FakeRunScript> m_scripts;
    bool m_everyImagePresent = true;
    QHash<QString, ImageInfo> m_images;
    QHash<QString, ImageInfo> m_unnamedImages; ///< by id: images whose name a later build or tag took
    int m_imagesMade = 0;
    std::optional<Error> m_createError;
    std::optional<Error> m_startError;
    int m_protocolVersion = 1;
    QStringList m_droppedLimits;
    bool m_rootless = false;
    int m_cgroupVersion = 2;
    bool m_reportsLimits = true;
    std::map<QString, Container> m_containers;
    int m_created = 0;
    int m_started = 0;
    int m_removed = 0;
    QList<ContainerSpec> m_specs;
    QList<FakeRun> m_runs;
    EgressProxyReach m_reach = EgressProxyReach::SocketVolume;
};

} // namespace sandbox::test
