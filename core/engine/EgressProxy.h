#pragma once

#include "backend/ContainerBackend.h"
#include "backend/ContainerStream.h"
#include "engine/LibraryInstallPlan.h"
#include "engine/PendingRemovals.h"
#include "network/NetworkConnection.h"
#include "secrets/NetworkSecretSource.h"
#include "util/Result.h"

#include <QHash>
#include <QStringList>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

namespace sandbox {

/// The only way out of a library install. The install runs in a builder sandbox without network; the egress proxy
/// is a container of the engine's own (resources/images/proxy: squid behind socat) with network, which lets through
/// only the registries of the install's plan (LibraryInstallPlan::egress) and never private, loopback or link-local
/// addresses, whatever a name resolves to — unless the user configured that registry there. The builder mounts the
/// proxy's socket volume (ContainerSpec::volumesFrom); inside it the runner relays 127.0.0.1:port() to that socket
/// while the install runs (llm-sandbox-runner --egress-proxy, runner/EgressForwarder.h), and the install's package
/// managers are told by their proxy variables to use it. So package code that an install runs (setup.py, configure,
/// extconf.rb) reaches the registries and nothing else: not the host, not the LAN, not other containers, not a
/// cloud's metadata service.
class EgressProxy final
{
public:
    /// The builder's loopback port, and squid's inside the proxy container.
    static constexpr int port() { return 3128; }
    /// Where squid listens in a proxy pod (on loopback), behind the relay on the pod's address and port().
    static constexpr int podSquidPort() { return 3130; }
    /// The proxy's unix socket, in the volume the builder mounts.
    static QString socketPath() { return QStringLiteral("/run/llm-sandbox-proxy/proxy.sock"); }
    /// The environment variable the proxy's start script reads its squid configuration from.
    static QString configVariable() { return QStringLiteral("LLM_SANDBOX_PROXY_CONFIG"); }

    /// The environment variable that tells the start script how the builder reaches the proxy: "socket" (squid on
    /// loopback behind the unix socket) or "address" (squid on the container's address).
    static QString listenVariable() { return QStringLiteral("LLM_SANDBOX_PROXY_LISTEN"); }
    /// The label of the proxy's container (pod), which the NetworkPolicies of installer/kubernetes/ select.
    static QString roleLabel() { return QStringLiteral("llm-sandbox.io/role"); }
    static QString roleValue() { return QStringLiteral("egress-proxy"); }
    /// squid's configuration for `rules`, listening as `reach` needs; BadRequest when a host could not be written
    /// into it safely.
    /// With `registryTrust`, squid trusts the certificates of registryTrustFiles() where it speaks TLS to a registry
    /// itself (a rule with a login) besides the system's.
    static Result<QByteArray>
    squidConfig(const QList<EgressRule> &rules,
                ContainerBackend::EgressProxyReach reach = ContainerBackend::EgressProxyReach::SocketVolume,
                bool registryTrust = false);
    /// The files an install's proxy gets on its stdin for squidConfig()'s `registryTrust`: `certificates` (PEM).
    static Result<QByteArray> registryTrustFiles(const QByteArray &certificates);
    /// squid's configuration for a run's own proxy: `granted` (NetworkAllowList::grant) only, at public addresses only
    /// and never at `hostAddresses` (this computer's), IP literals only when listed; every request logged to its
    /// stdout as NetworkConnection::logFormat() has it. With `intercepting`, a second port (interceptPort()) opens
    /// the tunnels the proxy's relay sends it (the hosts with a secret) and adds the secrets of the files
    /// interceptionFiles() makes, which it includes. A read-only grant (NetworkAllowList::isReadOnly) with
    /// `intercepting` lets through GET and HEAD only, every tunnel opened.
    static QByteArray runConfig(const NetworkAllowList &granted, const QStringList &hostAddresses,
                                ContainerBackend::EgressProxyReach reach, bool intercepting = false);
    /// squid's port that opens tunnels (ssl-bump), on loopback in the proxy's container.
    static constexpr int interceptPort() { return 3129; }
    /// The environment variable that tells the start script the hosts whose tunnels go to interceptPort() (space
    /// separated) and that interceptionFiles() come on its stdin, as a tar.
    static QString interceptVariable() { return QStringLiteral("LLM_SANDBOX_PROXY_INTERCEPT"); }
    /// The environment variable that tells the start script a tar of files comes on its stdin (interceptionFiles(),
    /// registryTrustFiles()), to unpack before squid starts: its size in bytes (tar waits for the end of its input,
    /// and a Kubernetes attach may never close it).
    static QString filesVariable() { return QStringLiteral("LLM_SANDBOX_PROXY_FILES"); }
    /// What the proxy reads on its stdin when it adds secrets: the authority it signs with, the certificates it
    /// trusts besides the system's (`upstreamTrust`, PEM: LLM_SANDBOX_PROXY_TRUST) and squid's rules that put each
    /// secret into its header of the requests to its hosts that carry its placeholder there. In the proxy's memory
    /// only (its /tmp), never in its container's configuration. BadRequest when a secret cannot be written into them.
    static Result<QByteArray> interceptionFiles(const RunSecrets &secrets, const QByteArray &upstreamTrust);
    /// Where a sandbox of a run with secrets finds the certificates to trust (the system's and the authority's), in
    /// the proxy's volume it mounts read-only; what clientEnvironment(true) points every TLS library at.
    static QString trustBundlePath() { return QStringLiteral("/run/llm-sandbox-proxy/trust.pem"); }
    /// `argv` run by the runner's relay (`runner`: the runner's path in the builder) to the proxy at `upstream`:
    /// socketPath(), or "tcp:ADDRESS:PORT" (proxyAddress()).
    static QStringList relayed(const QString &runner, const QString &upstream, const QStringList &argv);
    /// The runner's `command` told to relay 127.0.0.1:port() to `upstream` for as long as it lives (a run's sandbox
    /// with network: llm-sandbox-runner --egress-relay).
    static QStringList relayedRunner(const QStringList &command, const QString &upstream);
    /// The relay's upstream for a proxy listening on the container address `address` (IPv4 or IPv6).
    static QString proxyAddress(const QString &address);
    /// The proxy variables of the install step: every package manager's way of naming an HTTP(S) proxy; with
    /// `trustBundle`, every TLS library's way of naming the certificates to trust too (trustBundlePath()).
    static QHash<QString, QString> clientEnvironment(bool trustBundle = false);
    /// The addresses never reached unless configured: private, loopback, link-local (a cloud's metadata service),
    /// shared (carrier-grade NAT, some clouds' metadata), multicast and reserved ranges, IPv4 and IPv6.
    static QStringList specialRanges();

private:
    /// What every proxy's configuration starts with: where it listens, no cache, no forwarding headers, the
    /// special_dst acl (specialRanges()).
    static QStringList commonConfig(ContainerBackend::EgressProxyReach reach);
};

/// A started egress proxy container (ContainerStarter::startProxy), removed with its socket volume when this goes.
class EgressProxyContainer final
{
public:
    EgressProxyContainer(ContainerBackend &backend, std::shared_ptr<PendingRemovals> removals, QString id)
        : m_backend(backend), m_removals(std::move(removals)), m_id(std::move(id))
    {}
    ~EgressProxyContainer();
    EgressProxyContainer(const EgressProxyContainer &) = delete;
    EgressProxyContainer &operator=(const EgressProxyContainer &) = delete;

    /// Where the builder's relay connects (EgressProxy::relayed), the volumes the builder mounts for that (the
    /// proxy's socket, read-only: connecting to a socket needs no write access to its file system) and the
    /// builder's network.
    void setUpstream(QString upstream, QStringList builderVolumes, ContainerNetwork builderNetwork)
    {
        m_upstream = std::move(upstream);
        m_builderVolumes = std::move(builderVolumes);
        m_builderNetwork = std::move(builderNetwork);
    }
    /// The attached stream it was started through, kept until it is removed.
    void keepStream(std::unique_ptr<ContainerStream> stream) { m_stream = std::move(stream); }
    /// Reads the proxy's access log (its stdout: EgressProxy::runConfig) on a thread of its own from now until it
    /// goes, so squid never waits on a full pipe; each line is read against `granted`.
    void recordConnections(NetworkAllowList granted);
    /// The requests logged so far, once none has been for `quiet` since the call (waiting at most two seconds): the
    /// proxy logs a tunnel when it closes, which follows the end of the code that held it. At most kMaxConnections per
    /// take.
    QList<NetworkConnection> takeConnections(std::chrono::milliseconds quiet = std::chrono::milliseconds(150));
    static constexpr int kMaxConnections = 1000;
    /// What a sandbox that uses this proxy is told (Run::addNetwork): the proxy variables, the certificates to
    /// trust and the secrets' placeholders.
    void setSandboxEnvironment(QHash<QString, QString> environment) { m_sandboxEnvironment = std::move(environment); }
    const QHash<QString, QString> &sandboxEnvironment() const { return m_sandboxEnvironment; }
    /// What recordConnections() was told the run may reach.
    const NetworkAllowList &granted() const { return m_granted; }
    const QString &upstream() const { return m_upstream; }
    const QStringList &builderVolumes() const { return m_builderVolumes; }
    const ContainerNetwork &builderNetwork() const { return m_builderNetwork; }

private:
    ContainerBackend &m_backend;
    std::shared_ptr<PendingRemovals> m_removals;
    QString m_id;
    QString m_upstream;
    QStringList m_builderVolumes;
    ContainerNetwork m_builderNetwork;
    QHash<QString, QString> m_sandboxEnvironment;
    std::unique_ptr<ContainerStream> m_stream;
    std::thread m_logReader;
    std::atomic<bool> m_stopping = false;
    std::mutex m_mutex;
    NetworkAllowList m_granted;
    QList<NetworkConnection> m_connections;
    std::chrono::steady_clock::time_point m_lastLine;
};

} // namespace sandbox
