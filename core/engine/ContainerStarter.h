#pragma once

#include "engine/ContainerSpecFactory.h"
#include "engine/LibraryInstallPlan.h"
#include "engine/RunProgress.h"
#include "engine/SandboxContainer.h"
#include "images/ImageProvisioner.h"
#include "lang/Language.h"
#include "util/Result.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace sandbox {

class EgressProxyContainer;

/// How a container differs from the settings' sandbox.
struct ContainerOptions
{
    std::optional<ContainerNetwork> network; ///< overrides the settings' (a Kubernetes installer pod's network)
    QHash<QString, QString> labels;          ///< added to the spec's
    QStringList volumesFrom;                 ///< ContainerSpec::volumesFrom (a builder's egress proxy socket)
    QList<SharedFolder> folders;             ///< a run's own shared folders (ContainerSpecFactory::addSharedFolder)
    bool sharedFolders = true;               ///< the settings' shared folders too (not for a builder: it has a network)
    /// The egress proxy a run's sandbox reaches (EgressProxyContainer::upstream): its runner relays 127.0.0.1:3128
    /// there for as long as it lives (llm-sandbox-runner --egress-relay). Empty: none.
    QString egressUpstream;
    /// Room /tmp gets besides the settings' (an install's scratch space, installed libraries); the memory limit grows
    /// by as much, since a tmpfs's pages count as the container's memory.
    qint64 extraTmpBytes = 0;
    /// The pool's key the container goes back under (SandboxContainer::poolKey); empty: the image's name.
    QString poolKey;
};

/// What an egress proxy gets besides its squid configuration (ContainerStarter::startProxy).
struct ProxyExtras
{
    QStringList interceptedHosts; ///< whose tunnels it opens (a run's secrets, a read-only network)
    /// A tar its start script unpacks into its memory before squid starts, sent on its stdin:
    /// EgressProxy::interceptionFiles() or registryTrustFiles(). Empty: nothing is sent.
    QByteArray files;
};

/// Starts sandbox containers: a hardened container of the image (built on first use), started, with its runner
/// ready for requests. Thread-safe.
class ContainerStarter final
{
public:
    using ProgressSink = std::function<void(const RunProgress &)>;

    ContainerStarter(ContainerBackend &backend, const ImageCatalog &catalog, ContainerSpecFactory specs);

    /// A started container of `image` (one of `language`'s: its run image or its builder) whose runner has answered,
    /// differing from the settings' as `options` say. The container is removed on every failure, and refused
    /// (LimitsNotEnforced) when its runner finds a requested limit not in force that the settings do not accept
    /// (allowUnenforcedLimits).
    Result<std::unique_ptr<SandboxContainer>> start(const Language &language, const QString &image,
                                                    const ProgressSink &progress, const ContainerOptions &options = {});
    /// A started egress proxy (EgressProxy) of `image` with squid configuration `config` (written for
    /// proxyReach()), on `network`, for an install or a run of `language`. It is ready when it accepts a
    /// connection, which the sandbox's relay waits for. `hosts`: ContainerSpec::extraHosts. `extras`: the tunnels it
    /// opens and the files it gets on its stdin.
    Result<std::unique_ptr<EgressProxyContainer>> startProxy(const Language &language, const QString &image,
                                                             const QByteArray &config, const ContainerNetwork &network,
                                                             const ProgressSink &progress,
                                                             const QMap<QString, QString> &hosts = {},
                                                             const ProxyExtras &extras = {});
    /// How sandboxes reach an egress proxy on this backend.
    ContainerBackend::EgressProxyReach proxyReach() const { return m_backend.egressProxyReach(); }

    /// Why `engine` did not put the `missing` limits in force, as far as `limits` tell (one clause per cause).
    static QString whyNotEnforced(const QString &engine, bool rootless, const EnforcedLimits &limits,
                                  const QList<UnenforcedLimit> &missing);

    /// Where the containers it started are removed from (later, when the engine does not answer then).
    PendingRemovals &removals() { return *m_removals; }

    /// The OCI runtime of the sandboxes (the settings' runtime as the engine has it), asked once; the error names
    /// how to register a runtime the engine lacks.
    Result<OciRuntime> sandboxRuntime();

private:
    /// Empty when every limit of `spec` is in force, the warning to log on each run when the missing ones are
    /// accepted, or the refusal.
    /// Under gVisor, GVisorRuntime says what it replaces (and `containerId`'s statistics show the memory limit).
    Result<QString> checkLimits(const ContainerSpec &spec, const EnforcedLimits &limits, const QString &containerId,
                                const OciRuntime &runtime);

    ContainerBackend &m_backend;
    std::shared_ptr<PendingRemovals> m_removals = std::make_shared<PendingRemovals>();
    ImageProvisioner m_images;
    ContainerSpecFactory m_specs;
    std::mutex m_runtimeMutex;
    std::optional<OciRuntime> m_runtime;
};

} // namespace sandbox
