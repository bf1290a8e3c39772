#include "engine/ContainerStarter.h"

#include "engine/EgressProxy.h"
#include "engine/FolderLoader.h"
#include "engine/GVisorRuntime.h"

#include <QLoggingCategory>
#include <algorithm>
#include <chrono>
#include <iterator>

Q_LOGGING_CATEGORY(lcStarter, "sandbox.engine.limits")

namespace sandbox {

namespace {

constexpr std::chrono::seconds kRunnerStartTimeout{20};

QString describe(const QList<UnenforcedLimit> &limits)
{
    QStringList parts;
    for (const UnenforcedLimit &limit : limits) {
        parts.append(QStringLiteral("%1 (asked for %2, found %3)").arg(limit.name, limit.requested, limit.found));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

ContainerStarter::ContainerStarter(ContainerBackend &backend, const ImageCatalog &catalog, ContainerSpecFactory specs)
    : m_backend(backend), m_images(backend, catalog), m_specs(std::move(specs))
{}

QString ContainerStarter::whyNotEnforced(const QString &engine, bool rootless, const EnforcedLimits &limits,
                                         const QList<UnenforcedLimit> &missing)
{
    if (!limits.reported) {
        return QStringLiteral("the runner in the sandbox image reported no limits; rebuild the images with "
                              "`llm-sandbox images build`");
    }
    const auto isMissing = [&](const QString &name) {
        return std::any_of(missing.begin(), missing.end(),
                           [&](const UnenforcedLimit &limit) { return limit.name == name; });
    };
    // Podman's Docker-compatible API ignores HostConfig.Ulimits when the service is rootless (containers/podman#25881,
    // fixed in Podman 5.5; Debian 12 ships 4.3), whatever the cgroup version: a cause of its own.
    if (rootless && engine == QLatin1String("podman") && isMissing(QStringLiteral("ulimits"))) {
        QList<UnenforcedLimit> others;
        std::copy_if(missing.begin(), missing.end(), std::back_inserter(others),
                     [](const UnenforcedLimit &limit) { return limit.name != QLatin1String("ulimits"); });
        const QString dropped = QStringLiteral("rootless Podman before 5.5 drops the ulimits given through its "
                                               "Docker-compatible API (containers/podman#25881)");
        return others.isEmpty() ? dropped
                                : whyNotEnforced(engine, rootless, limits, others) + QStringLiteral("; ") + dropped;
    }
    if (engine == QLatin1String("kubernetes") &&
        (isMissing(QStringLiteral("pids")) || isMissing(QStringLiteral("network")))) {
        // A pod spec has no field for either: the node and the network plugin decide.
        QStringList reasons;
        if (isMissing(QStringLiteral("pids"))) {
            reasons << QStringLiteral("a pod has no pids limit of its own: the kubelet's podPidsLimit (node "
                                      "configuration) sets it, so configure it on the nodes that run sandboxes");
        }
        if (isMissing(QStringLiteral("network"))) {
            reasons << QStringLiteral("the pod has a network interface: apply installer/kubernetes/networkpolicy.yaml "
                                      "in the namespace (on clusters whose network plugin enforces policies the "
                                      "interface stays, so accept it by name)");
        }
        return reasons.join(QStringLiteral("; "));
    }
    const bool cgroupLimit = std::any_of(missing.begin(), missing.end(), [](const UnenforcedLimit &limit) {
        return limit.name == QLatin1String("memory") || limit.name == QLatin1String("pids") ||
               limit.name == QLatin1String("cpus");
    });
    if (cgroupLimit && rootless && limits.cgroupVersion == 1) {
        return QStringLiteral("rootless %1 cannot set resource limits on cgroup v1: the host needs cgroup v2 with "
                              "the memory, pids and cpu controllers delegated to the user")
            .arg(engine);
    }
    if (cgroupLimit && rootless) {
        return QStringLiteral("rootless %1 can only set the limits of the cgroup controllers delegated to the user: "
                              "delegate memory, pids and cpu (systemd: a Delegate= drop-in for user@.service)")
            .arg(engine);
    }
    if (cgroupLimit && limits.cgroupVersion == 0) {
        return QStringLiteral("the sandbox sees no cgroup filesystem, so %1 set no resource limits").arg(engine);
    }
    if (cgroupLimit) {
        return QStringLiteral("%1 or its OCI runtime did not apply the cgroup limits (is the memory/pids/cpu "
                              "controller enabled on this host?)")
            .arg(engine);
    }
    return QStringLiteral("%1 did not apply the container settings that set them").arg(engine);
}

Result<std::unique_ptr<SandboxContainer>> ContainerStarter::start(const Language &language, const QString &image,
                                                                  const ProgressSink &progress,
                                                                  const ContainerOptions &options)
{
    auto runtime = sandboxRuntime();
    if (!runtime) {
        return runtime.error();
    }
    ContainerSpec spec = m_specs.make(image, options.network, options.sharedFolders);
    spec.runtime = runtime->name;
    if (GVisorRuntime::isGVisor(*runtime)) {
        GVisorRuntime::adapt(spec);
    }
    spec.labels.insert(options.labels);
    spec.volumesFrom = options.volumesFrom;
    if (options.extraTmpBytes > 0) {
        for (Tmpfs &tmpfs : spec.tmpfs) {
            if (tmpfs.path == QLatin1String("/tmp")) {
                tmpfs.sizeBytes += options.extraTmpBytes;
                spec.memoryBytes += options.extraTmpBytes;
            }
        }
    }
    if (!options.egressUpstream.isEmpty()) {
        spec.command = EgressProxy::relayedRunner(spec.command, options.egressUpstream);
    }
    for (const SharedFolder &folder : options.folders) {
        ContainerSpecFactory::addSharedFolder(spec, folder);
    }
    auto created = m_images.createContainer(spec, language, [&](const QString &line) {
        if (progress) {
            progress(RunProgress{RunProgress::Kind::ImageBuild, line});
        }
    });
    if (!created) {
        return created.error();
    }
    // From here on the container is removed whatever happens.
    if (!spec.binds.isEmpty() && !m_backend.mountsHostFolders()) {
        auto loaded = FolderLoader::load(m_backend, *created, spec.binds, [&](const QString &line) {
            if (progress) {
                progress(RunProgress{RunProgress::Kind::ContainerStart, line});
            }
        });
        if (!loaded) {
            m_removals->remove(m_backend, *created);
            return loaded.error();
        }
    }
    auto stream = m_backend.startAttached(*created);
    if (!stream) {
        m_removals->remove(m_backend, *created);
        return stream.error();
    }
    auto container = std::make_unique<SandboxContainer>(m_backend, m_removals, *created,
                                                        options.poolKey.isEmpty() ? image : options.poolKey,
                                                        std::make_unique<RunnerClient>(std::move(*stream)));
    auto limits = container->runner().waitReady(kRunnerStartTimeout);
    if (!limits) {
        return limits.error();
    }
    if (auto accepted = checkLimits(spec, *limits, *created, *runtime); !accepted) {
        return accepted.error();
    } else {
        container->setAcceptedWeakerIsolation(*accepted);
    }
    container->setEnforcedLimits(std::move(*limits));
    return container;
}

Result<std::unique_ptr<EgressProxyContainer>>
ContainerStarter::startProxy(const Language &language, const QString &image, const QByteArray &config,
                             const ContainerNetwork &network, const ProgressSink &progress,
                             const QMap<QString, QString> &hosts, const ProxyExtras &extras)
{
    const ContainerBackend::EgressProxyReach reach = m_backend.egressProxyReach();
    auto created = m_images.createContainer(
        m_specs.makeProxy(image, config, network, reach, hosts, extras.interceptedHosts, extras.files.size()), language,
        [&](const QString &line) {
            if (progress) {
                progress(RunProgress{RunProgress::Kind::ImageBuild, line});
            }
        });
    if (!created) {
        return created.error();
    }
    auto proxy = std::make_unique<EgressProxyContainer>(m_backend, m_removals, *created);
    // Started through attach like every container. Nothing is read from it (its log goes nowhere), but the stream is
    // kept while the proxy lives: a pod's start line (KubernetesBackend) must not be cut off by closing it at once.
    auto stream = m_backend.startAttached(*created);
    if (!stream) {
        return stream.error();
    }
    if (!extras.files.isEmpty()) {
        // The start script reads as many bytes as makeProxy() told it (filesVariable()) before squid starts.
        if (auto sent = (*stream)->write(extras.files); !sent) {
            return sent.error();
        }
        (*stream)->closeWrite();
    }
    proxy->keepStream(std::move(*stream));
    if (reach == ContainerBackend::EgressProxyReach::SocketVolume) {
        proxy->setUpstream(EgressProxy::socketPath(), {*created + QStringLiteral(":ro")}, ContainerNetwork::none());
    } else {
        auto address = m_backend.containerAddress(*created);
        if (!address) {
            return address.error();
        }
        proxy->setUpstream(EgressProxy::proxyAddress(*address), {}, ContainerNetwork::egressProxyClient());
    }
    return proxy;
}

Result<OciRuntime> ContainerStarter::sandboxRuntime()
{
    std::lock_guard lock(m_runtimeMutex);
    if (m_runtime) {
        return *m_runtime;
    }
    const QString wanted = m_specs.settings().runtime;
    if (wanted.isEmpty()) {
        // The engine's default, whatever it is: no question to the engine, whose runtimes may not be listable.
        return OciRuntime{};
    }
    auto found = m_backend.findRuntime(wanted);
    if (!found) {
        return found.error();
    }
    m_runtime = *found;
    return *found;
}

Result<QString> ContainerStarter::checkLimits(const ContainerSpec &spec, const EnforcedLimits &limits,
                                              const QString &containerId, const OciRuntime &runtime)
{
    QList<UnenforcedLimit> missing = limits.compare(spec);
    QString runtimeNote;
    if (!missing.isEmpty() && GVisorRuntime::isGVisor(runtime)) {
        std::optional<qint64> outsideMemoryLimit;
        if (const auto stats = m_backend.containerStats(containerId); stats && stats->memoryLimitBytes > 0) {
            outsideMemoryLimit = stats->memoryLimitBytes;
        }
        auto assessment = GVisorRuntime::assess(spec, limits, missing, outsideMemoryLimit);
        missing = assessment.missing;
        runtimeNote = assessment.note;
    }
    if (missing.isEmpty()) {
        return runtimeNote;
    }
    const QStringList allowed = m_specs.settings().allowUnenforcedLimits;
    QList<UnenforcedLimit> refused;
    QStringList names;
    for (const UnenforcedLimit &limit : missing) {
        if (!allowed.contains(limit.name)) {
            refused.append(limit);
        }
        if (!names.contains(limit.name)) {
            names.append(limit.name);
        }
    }
    // Only asked when something is missing: the reason depends on the engine's mode.
    const auto info = m_backend.probe();
    const bool rootless = info && info->rootless;
    const QString engine = rootless ? m_backend.name() + QStringLiteral(" (rootless)") : m_backend.name();
    const QString why = whyNotEnforced(m_backend.name(), rootless, limits, missing);
    if (!refused.isEmpty()) {
        return Error{QStringLiteral("The sandbox was refused: %1 did not put these limits in force: %2. Why: %3. To "
                                    "run with this weaker isolation anyway, set SANDBOX_ALLOW_UNENFORCED_LIMITS=%4.")
                         .arg(engine, describe(refused), why, names.join(QLatin1Char(','))),
                     ErrorCode::LimitsNotEnforced};
    }
    const QString accepted = QStringLiteral("Weaker isolation accepted by SANDBOX_ALLOW_UNENFORCED_LIMITS: %1 did not "
                                            "put these limits in force: %2 (%3).")
                                 .arg(engine, describe(missing), why);
    return runtimeNote.isEmpty() ? accepted : runtimeNote + QLatin1Char(' ') + accepted;
}

} // namespace sandbox
