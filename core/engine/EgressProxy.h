#pragma once

#include "backend/ContainerBackend.h"
#include "engine/LibraryInstallPlan.h"
#include "util/Result.h"

#include <QHash>
#include <QStringList>

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
    /// The proxy's unix socket, in the volume the builder mounts.
    static QString socketPath() { return QStringLiteral("/run/llm-sandbox-proxy/proxy.sock"); }
    /// The environment variable the proxy's start script reads its squid configuration from.
    static QString configVariable() { return QStringLiteral("LLM_SANDBOX_PROXY_CONFIG"); }

    /// squid's configuration for `rules`; BadRequest when a host could not be written into it safely.
    static Result<QByteArray> squidConfig(const QList<EgressRule> &rules);
    /// `argv` run by the runner's relay (`runner`: the runner's path in the builder).
    static QStringList relayed(const QString &runner, const QStringList &argv);
    /// The proxy variables of the install step: every package manager's way of naming an HTTP(S) proxy.
    static QHash<QString, QString> clientEnvironment();
    /// The addresses never reached unless configured: private, loopback, link-local (a cloud's metadata service),
    /// shared (carrier-grade NAT, some clouds' metadata), multicast and reserved ranges, IPv4 and IPv6.
    static QStringList specialRanges();
};

/// A started egress proxy container (ContainerStarter::startProxy), removed with its socket volume when this goes.
class EgressProxyContainer final
{
public:
    EgressProxyContainer(ContainerBackend &backend, QString id) : m_backend(backend), m_id(std::move(id)) {}
    ~EgressProxyContainer();
    EgressProxyContainer(const EgressProxyContainer &) = delete;
    EgressProxyContainer &operator=(const EgressProxyContainer &) = delete;

    /// What a builder's ContainerSpec::volumesFrom names to mount the proxy's socket (read-only: connecting to a
    /// socket needs no write access to its file system).
    QString socketVolume() const { return m_id + QStringLiteral(":ro"); }

private:
    ContainerBackend &m_backend;
    QString m_id;
};

} // namespace sandbox
