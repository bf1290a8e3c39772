#include "fakes/FakeBackend.h"

#include "fakes/FakeRunner.h"

#include <QDir>
#include <QIODevice>
#include <QJsonArray>
#include <utility>
#include <vector>

namespace sandbox::test {

namespace {

Error noSuchContainer(const QString &id)
{
    return Error{QStringLiteral("No such container: %1").arg(id), ErrorCode::EngineFailed};
}

} // namespace

FakeBackend::FakeBackend() = default;

FakeBackend::~FakeBackend()
{
    std::vector<std::shared_ptr<FakeRunner>> runners;
    {
        std::lock_guard lock(m_mutex);
        for (auto &[id, container] : m_containers) {
            if (container.runner) {
                runners.push_back(container.runner);
            }
        }
    }
    // Outside the lock: a run thread may be asking scriptFor() for its script.
    for (const auto &runner : runners) {
        runner->kill();
    }
}

void FakeBackend::setRunHandler(RunHandler handler)
{
    std::lock_guard lock(m_mutex);
    m_handler = std::move(handler);
}

void FakeBackend::setScript(const QByteArray &code, const FakeRunScript &script)
{
    std::lock_guard lock(m_mutex);
    m_scripts.insert(code, script);
}

void FakeBackend::setEveryImagePresent(bool present)
{
    std::lock_guard lock(m_mutex);
    m_everyImagePresent = present;
}

void FakeBackend::addImage(const QString &reference, const QHash<QString, QString> &labels)
{
    std::lock_guard lock(m_mutex);
    ImageInfo &image = m_images[reference];
    if (image.id.isEmpty()) {
        image.reference = reference;
        image.id = QStringLiteral("sha256:fake%1").arg(++m_imagesMade);
        image.created = QDateTime::currentDateTimeUtc();
    }
    image.labels.insert(labels);
}

void FakeBackend::makeImage(const QString &reference, const QHash<QString, QString> &labels)
{
    {
        std::lock_guard lock(m_mutex);
        if (const auto existing = m_images.constFind(reference); existing != m_images.cend()) {
            // The name moves to the new image, as an engine's build does; the old one stays without it.
            m_unnamedImages.insert(existing->id, *existing);
            m_images.remove(reference);
        }
    }
    addImage(reference, labels);
}

void FakeBackend::setCreateError(std::optional<Error> error)
{
    std::lock_guard lock(m_mutex);
    m_createError = std::move(error);
}

void FakeBackend::setStartError(std::optional<Error> error)
{
    std::lock_guard lock(m_mutex);
    m_startError = std::move(error);
}

void FakeBackend::setRunnerProtocolVersion(int version)
{
    std::lock_guard lock(m_mutex);
    m_protocolVersion = version;
}

void FakeBackend::setDroppedLimits(const QStringList &names, bool rootless, int cgroupVersion)
{
    std::lock_guard lock(m_mutex);
    m_droppedLimits = names;
    m_rootless = rootless;
    m_cgroupVersion = cgroupVersion;
}

void FakeBackend::setRunnerReportsLimits(bool reports)
{
    std::lock_guard lock(m_mutex);
    m_reportsLimits = reports;
}

QJsonObject FakeBackend::limitsInForce(const ContainerSpec &spec, const QStringList &dropped, int cgroupVersion)
{
    const auto limit = [&](const QString &name, const QJsonValue &value) {
        return dropped.contains(name) ? QJsonValue(QJsonValue::Null) : value;
    };
    QJsonObject rlimits{{QStringLiteral("cpu"), QJsonValue(QJsonValue::Null)}};
    for (const Ulimit &ulimit : spec.ulimits) {
        rlimits.insert(ulimit.name, limit(QStringLiteral("ulimits"), double(ulimit.soft)));
    }
    QJsonArray interfaces{QStringLiteral("lo")};
    if (!spec.network.isNone() || dropped.contains(QStringLiteral("network"))) {
        interfaces.append(QStringLiteral("eth0"));
    }
    const bool root = spec.user.isEmpty() || dropped.contains(QStringLiteral("user"));
    const int uid = root ? 0 : spec.user.section(QLatin1Char(':'), 0, 0).toInt();
    const int gid = root ? 0 : spec.user.section(QLatin1Char(':'), 1, 1).toInt();
    const QString zeroMask = QStringLiteral("0000000000000000");
    // Docker's default bounding set when the capabilities are not all dropped.
    const QString bounding =
        dropped.contains(QStringLiteral("capabilities")) ? QStringLiteral("00000000a80425fb") : zeroMask;
    return QJsonObject{
        {QStringLiteral("cgroup_version"), cgroupVersion},
        {QStringLiteral("memory_bytes"),
         limit(QStringLiteral("memory"),
               spec.memoryBytes > 0 ? QJsonValue(double(spec.memoryBytes)) : QJsonValue(QJsonValue::Null))},
        {QStringLiteral("pids"),
         limit(QStringLiteral("pids"), spec.pidsLimit > 0 ? QJsonValue(spec.pidsLimit) : QJsonValue(QJsonValue::Null))},
        {QStringLiteral("cpus"),
         limit(QStringLiteral("cpus"), spec.cpus > 0 ? QJsonValue(spec.cpus) : QJsonValue(QJsonValue::Null))},
        {QStringLiteral("rlimits"), rlimits},
        {QStringLiteral("network_interfaces"), interfaces},
        {QStringLiteral("uid"), uid},
        {QStringLiteral("gid"), gid},
        {QStringLiteral("read_only_root"), spec.readOnlyRootfs && !dropped.contains(QStringLiteral("read_only_root"))},
        {QStringLiteral("seccomp"), dropped.contains(QStringLiteral("seccomp")) ? 0 : 2},
        {QStringLiteral("no_new_privs"), !dropped.contains(QStringLiteral("no_new_privs"))},
        {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("effective"), zeroMask},
                                                     {QStringLiteral("permitted"), zeroMask},
                                                     {QStringLiteral("bounding"), bounding},
                                                     {QStringLiteral("ambient"), zeroMask}}},
    };
}

bool FakeBackend::killContainer(const QString &id, const ContainerEnd &end)
{
    std::shared_ptr<FakeRunner> runner;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_containers.find(id);
        if (it == m_containers.end() || it->second.removed) {
            return false;
        }
        it->second.end = end;
        runner = it->second.runner;
    }
    if (runner) {
        runner->kill();
    }
    return true;
}

int FakeBackend::containersCreated() const
{
    std::lock_guard lock(m_mutex);
    return m_created;
}

int FakeBackend::containersStarted() const
{
    std::lock_guard lock(m_mutex);
    return m_started;
}

int FakeBackend::containersRemoved() const
{
    std::lock_guard lock(m_mutex);
    return m_removed;
}

QStringList FakeBackend::liveContainers() const
{
    std::lock_guard lock(m_mutex);
    QStringList ids;
    for (const auto &[id, container] : m_containers) {
        if (!container.removed) {
            ids.append(id);
        }
    }
    return ids;
}

QList<ContainerSpec> FakeBackend::specs() const
{
    std::lock_guard lock(m_mutex);
    return m_specs;
}

QList<FakeRun> FakeBackend::runs() const
{
    std::lock_guard lock(m_mutex);
    return m_runs;
}

QHash<QString, QByteArray> FakeBackend::files(const QString &id) const
{
    std::shared_ptr<FakeRunner> runner;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_containers.find(id);
        if (it == m_containers.end()) {
            return {};
        }
        if (!it->second.runner) {
            return it->second.files;
        }
        runner = it->second.runner;
    }
    return runner->files();
}

FakeRunScript FakeBackend::scriptFor(const FakeRun &run)
{
    RunHandler handler;
    FakeRunScript script;
    {
        std::lock_guard lock(m_mutex);
        m_runs.append(run);
        handler = m_handler;
        script = m_scripts.value(run.code);
    }
    return handler ? handler(run) : script;
}

bool FakeBackend::imagePresent(const QString &reference) const
{
    return m_everyImagePresent || m_images.contains(reference);
}

QString FakeBackend::name() const
{
    return QStringLiteral("fake");
}

Result<BackendInfo> FakeBackend::probe()
{
    std::lock_guard lock(m_mutex);
    return BackendInfo{
        name(),    QStringLiteral("memory"), QStringLiteral("1.0"), QStringLiteral("1"), QStringLiteral("linux"),
        m_rootless};
}

Result<bool> FakeBackend::hasImage(const QString &reference)
{
    std::lock_guard lock(m_mutex);
    return imagePresent(reference);
}

Result<QList<ImageInfo>> FakeBackend::listImages(const QString &labelKey)
{
    std::lock_guard lock(m_mutex);
    QList<ImageInfo> images;
    for (const ImageInfo &image : std::as_const(m_images)) {
        if (image.labels.contains(labelKey)) {
            images.append(image);
        }
    }
    return images;
}

Result<void> FakeBackend::importImage(const QString &tarPath, const QString &reference,
                                      const QHash<QString, QString> &labels, const ProgressCallback &progress)
{
    Q_UNUSED(tarPath)
    if (progress) {
        progress(QStringLiteral("imported %1").arg(reference));
    }
    makeImage(reference, labels);
    return {};
}

Result<void> FakeBackend::buildImage(const QByteArray &contextTar, const QString &reference,
                                     const QHash<QString, QString> &buildArgs, const QHash<QString, QString> &labels,
                                     BuildCache cache, const ProgressCallback &progress,
                                     const std::atomic_bool *cancelled)
{
    Q_UNUSED(cache) // every build here makes a new image
    Q_UNUSED(contextTar)
    Q_UNUSED(buildArgs)
    if (cancelled && cancelled->load()) {
        return Error{QStringLiteral("The build was cancelled."), ErrorCode::Cancelled};
    }
    if (progress) {
        progress(QStringLiteral("built %1").arg(reference));
    }
    makeImage(reference, labels);
    return {};
}

Result<void> FakeBackend::removeImage(const QString &reference)
{
    std::lock_guard lock(m_mutex);
    if (m_unnamedImages.remove(reference) > 0) {
        return {};
    }
    for (auto it = m_images.begin(); it != m_images.end(); ++it) {
        if (it->id == reference) {
            m_images.erase(it);
            return {};
        }
    }
    m_images.remove(reference);
    return {};
}

Result<void> FakeBackend::exportImages(const QStringList &references, const DataSink &sink)
{
    Q_UNUSED(references)
    Q_UNUSED(sink)
    return Error{QStringLiteral("The fake backend cannot export images."), ErrorCode::Unavailable};
}

Result<QStringList> FakeBackend::loadImages(QIODevice &archive, const ProgressCallback &progress)
{
    Q_UNUSED(archive)
    Q_UNUSED(progress)
    return Error{QStringLiteral("The fake backend cannot load images."), ErrorCode::Unavailable};
}

Result<void> FakeBackend::tagImage(const QString &image, const QString &reference)
{
    std::lock_guard lock(m_mutex);
    ImageInfo tagged;
    if (const auto unnamed = m_unnamedImages.constFind(image); unnamed != m_unnamedImages.cend()) {
        tagged = m_unnamedImages.take(image);
    } else if (imagePresent(image)) {
        tagged = m_images.value(image);
    } else {
        return Error{QStringLiteral("No such image: %1").arg(image), ErrorCode::ImageMissing};
    }
    if (const auto named = m_images.constFind(reference); named != m_images.cend() && named->id != tagged.id) {
        m_unnamedImages.insert(named->id, *named);
    }
    tagged.reference = reference;
    m_images.insert(reference, tagged);
    return {};
}

Result<void> FakeBackend::pushImage(const QString &reference, const ProgressCallback &progress)
{
    Q_UNUSED(progress)
    return Error{QStringLiteral("The fake backend cannot push %1.").arg(reference), ErrorCode::Unavailable};
}

Result<QString> FakeBackend::createContainer(const ContainerSpec &spec)
{
    std::lock_guard lock(m_mutex);
    if (m_createError) {
        return *m_createError;
    }
    if (!imagePresent(spec.image)) {
        return Error{QStringLiteral("No such image: %1").arg(spec.image), ErrorCode::EngineFailed};
    }
    ++m_created;
    // Long enough for the engine's 12-character log prefixes to tell containers apart.
    const QString id = QStringLiteral("fake%1").arg(m_created, 12, 10, QLatin1Char('0'));
    m_containers[id].spec = spec;
    m_containers[id].created = QDateTime::currentDateTimeUtc();
    m_specs.append(spec);
    return id;
}

Result<std::unique_ptr<ContainerStream>> FakeBackend::startAttached(const QString &containerId)
{
    std::shared_ptr<FakeRunner> runner;
    {
        std::lock_guard lock(m_mutex);
        if (m_startError) {
            return *m_startError;
        }
        const auto it = m_containers.find(containerId);
        if (it == m_containers.end() || it->second.removed) {
            return noSuchContainer(containerId);
        }
        if (it->second.runner) {
            return Error{QStringLiteral("Container %1 has started already.").arg(containerId), ErrorCode::EngineFailed};
        }
        runner = std::make_shared<FakeRunner>(
            containerId, it->second.files, m_protocolVersion, [this](const FakeRun &run) { return scriptFor(run); },
            m_reportsLimits ? limitsInForce(it->second.spec, m_droppedLimits, m_cgroupVersion) : QJsonObject());
        it->second.runner = runner;
        ++m_started;
    }
    return runner->start();
}

Result<void> FakeBackend::removeContainer(const QString &containerId)
{
    std::shared_ptr<FakeRunner> runner;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_containers.find(containerId);
        if (it == m_containers.end() || it->second.removed) {
            return {};
        }
        it->second.removed = true;
        ++m_removed;
        runner = it->second.runner;
    }
    if (runner) {
        runner->kill();
    }
    return {};
}

Result<QList<ContainerSummary>> FakeBackend::listContainerSummaries(const QString &labelKey)
{
    std::lock_guard lock(m_mutex);
    QList<ContainerSummary> summaries;
    for (const auto &[id, container] : m_containers) {
        if (container.removed || !container.spec.labels.contains(labelKey)) {
            continue;
        }
        summaries.append({.id = id,
                          .image = container.spec.image,
                          .created = container.created,
                          .state = container.runner ? QStringLiteral("running") : QStringLiteral("created"),
                          .labels = container.spec.labels});
    }
    return summaries;
}

void FakeBackend::setContainerStats(const QString &id, const ContainerStats &stats)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_containers.find(id); it != m_containers.end()) {
        it->second.stats = stats;
    }
}

Result<ContainerStats> FakeBackend::containerStats(const QString &containerId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_containers.find(containerId);
    if (it == m_containers.end() || it->second.removed) {
        return Error{QStringLiteral("No such container: %1").arg(containerId), ErrorCode::NotFound};
    }
    if (it->second.stats) {
        return *it->second.stats;
    }
    return ContainerStats{.memoryBytes = 0,
                          .memoryLimitBytes = it->second.spec.memoryBytes,
                          .cpuCores = 0,
                          .pids = it->second.runner ? 1 : 0,
                          .sampledAt = QDateTime::currentDateTimeUtc()};
}

Result<ContainerEnd> FakeBackend::howEnded(const QString &containerId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_containers.find(containerId);
    if (it == m_containers.end() || !it->second.end) {
        return ContainerBackend::howEnded(containerId);
    }
    return *it->second.end;
}

} // namespace sandbox::test
