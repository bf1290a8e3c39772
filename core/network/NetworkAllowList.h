#pragma once

#include "util/Result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// A host a sandbox may reach through the egress proxy, with its ports: a name ("api.example.org"), a name and
/// everything under it ("*.example.org"), any name ("*") or an IP address the user listed. Whatever a name resolves
/// to, the proxy never connects to private, loopback, link-local, shared or multicast addresses (EgressProxy).
struct NetworkHost
{
    QString pattern;  ///< lower case: "api.example.org", "*.example.org", "*" or an IP address
    QList<int> ports; ///< ascending; empty only as parse() reads a host without a port

    /// The ports a host gets when none is named: HTTPS and HTTP.
    static QList<int> defaultPorts() { return {80, 443}; }
    /// Reads "HOST[:PORT]" (an IPv6 address in brackets: "[2001:db8::1]:443"; no ports when none is named):
    /// BadRequest for anything else.
    static Result<NetworkHost> parse(const QString &text);
    /// "HOST" when it has the default ports, else one "HOST:PORT" per port, joined by ", ".
    [[nodiscard]] QString text() const;
    /// Whether this host's pattern takes in every name `other`'s does (an IP address only itself).
    [[nodiscard]] bool covers(const QString &otherPattern) const;
    [[nodiscard]] bool isWildcard() const { return pattern.startsWith(u'*'); }

    friend bool operator==(const NetworkHost &, const NetworkHost &) = default;
};

/// What the user lets sandboxes reach (the ceiling: Settings → Network, LLM_SANDBOX_NETWORK_ALLOW), and what one call
/// gets of it (grant: `execute_code`'s and `create_session`'s `network`, `run --network`). Nothing by default: a call
/// that asks for nothing gets no network at all, as before.
class NetworkAllowList
{
public:
    NetworkAllowList() = default;
    explicit NetworkAllowList(QList<NetworkHost> hosts, bool readOnly = false)
        : m_hosts(std::move(hosts)), m_readOnly(readOnly)
    {}

    /// Reads a list of entries separated by commas, spaces or new lines: "HOST[:PORT]", "*.DOMAIN[:PORT]", "*" (any
    /// public host), or a preset: "none" (nothing; alone), "registries" (the package registries of every language,
    /// HTTPS), "read-only" (the list's hosts for GET and HEAD only) or "web-read-only" (any public host, GET and HEAD
    /// only: "*, read-only"). A host named twice gets the ports of both entries.
    static Result<NetworkAllowList> parse(const QString &text);
    /// The hosts of the "registries" preset.
    static QStringList registryHosts();

    [[nodiscard]] bool isEmpty() const { return m_hosts.isEmpty(); }
    /// Whether requests may only read (GET and HEAD): the proxy then opens every HTTPS tunnel to see their methods.
    [[nodiscard]] bool isReadOnly() const { return m_readOnly; }
    [[nodiscard]] const QList<NetworkHost> &hosts() const { return m_hosts; }
    /// The text parse() reads back ("none" when empty).
    [[nodiscard]] QString text() const;

    /// What a call that asks for `asked` (parse()'s entries, at most 32; no presets) may reach: each entry must lie
    /// within one host of this list, its port among that host's (an entry without a port gets that host's ports).
    /// BadRequest naming what is allowed otherwise, never a silent widening.
    [[nodiscard]] Result<NetworkAllowList> grant(const QStringList &asked) const;

    friend bool operator==(const NetworkAllowList &, const NetworkAllowList &) = default;

private:
    static void add(QList<NetworkHost> &hosts, const NetworkHost &host);

    QList<NetworkHost> m_hosts;
    bool m_readOnly = false;
};

} // namespace sandbox
