#include "network/NetworkAllowList.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <algorithm>

namespace sandbox {

namespace {

constexpr int kMaxAskedHosts = 32;

Error badHost(const QString &text, const QString &why)
{
    return Error{QStringLiteral("\"%1\" cannot name a host to reach: %2").arg(text, why), ErrorCode::BadRequest};
}

/// Letters, digits and hyphens in dot-separated labels of at most 63 characters, 253 in all.
bool isHostName(const QString &name)
{
    static const QRegularExpression label(QStringLiteral(R"(^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$)"));
    if (name.isEmpty() || name.size() > 253) {
        return false;
    }
    const QStringList labels = name.split(u'.');
    return std::all_of(labels.cbegin(), labels.cend(),
                       [](const QString &each) { return label.match(each).hasMatch(); });
}

QStringList entriesOf(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral(R"([,\s]+)"));
    return text.split(separators, Qt::SkipEmptyParts);
}

} // namespace

Result<NetworkHost> NetworkHost::parse(const QString &text)
{
    QString host = text.trimmed().toLower();
    QList<int> ports;
    // "[v6]:port", "[v6]", "name:port", "name"; a bare IPv6 address (more than one ':') has no port.
    QString portText;
    if (host.startsWith(u'[')) {
        const qsizetype close = host.indexOf(u']');
        if (close < 0) {
            return badHost(text, QStringLiteral("the IPv6 address has no closing ']'"));
        }
        portText = host.mid(close + 1);
        host = host.mid(1, close - 1);
        if (!portText.isEmpty() && !portText.startsWith(u':')) {
            return badHost(text, QStringLiteral("write HOST:PORT"));
        }
        portText = portText.mid(1);
    } else if (host.count(u':') == 1) {
        portText = host.section(u':', 1);
        host = host.section(u':', 0, 0);
    }
    if (!portText.isEmpty() || text.trimmed().endsWith(u':')) {
        bool ok = false;
        const int port = portText.toInt(&ok);
        if (!ok || port <= 0 || port > 65535) {
            return badHost(text, QStringLiteral("the port must be a number from 1 to 65535"));
        }
        ports = {port};
    }
    const QHostAddress address(host);
    if (!address.isNull()) {
        return NetworkHost{address.toString(), ports};
    }
    if (host == QLatin1String("*")) {
        return NetworkHost{host, ports};
    }
    const QString name = host.startsWith(QLatin1String("*.")) ? host.mid(2) : host;
    if (!isHostName(name)) {
        return badHost(text, QStringLiteral("a host is a name like api.example.org, *.example.org for a domain and "
                                            "its subdomains, or an IP address"));
    }
    return NetworkHost{host, ports};
}

QString NetworkHost::text() const
{
    QString host = pattern.contains(u':') ? u'[' + pattern + u']' : pattern;
    if (ports == defaultPorts()) {
        return host;
    }
    QStringList each;
    for (const int port : ports) {
        each << QStringLiteral("%1:%2").arg(host).arg(port);
    }
    return each.join(QStringLiteral(", "));
}

bool NetworkHost::covers(const QString &otherPattern) const
{
    if (pattern == otherPattern) {
        return true;
    }
    const bool otherIsAddress = !QHostAddress(otherPattern).isNull();
    if (pattern == QLatin1String("*")) {
        return !otherIsAddress; // any name, never an address the user did not list
    }
    if (!isWildcard() || otherIsAddress) {
        return false;
    }
    // "*.example.org" takes in example.org, api.example.org and *.api.example.org.
    const QString domain = pattern.mid(2);
    const QString other = otherPattern.startsWith(QLatin1String("*.")) ? otherPattern.mid(2) : otherPattern;
    return other == domain || other.endsWith(u'.' + domain);
}

void NetworkAllowList::add(QList<NetworkHost> &hosts, const NetworkHost &host)
{
    const auto same = std::find_if(hosts.begin(), hosts.end(),
                                   [&host](const NetworkHost &each) { return each.pattern == host.pattern; });
    if (same == hosts.end()) {
        hosts.append(host);
        return;
    }
    for (const int port : host.ports) {
        if (!same->ports.contains(port)) {
            same->ports.append(port);
        }
    }
    std::sort(same->ports.begin(), same->ports.end());
}

QStringList NetworkAllowList::registryHosts()
{
    return {QStringLiteral("pypi.org"),
            QStringLiteral("files.pythonhosted.org"),
            QStringLiteral("registry.npmjs.org"),
            QStringLiteral("proxy.golang.org"),
            QStringLiteral("sum.golang.org"),
            QStringLiteral("rubygems.org"),
            QStringLiteral("index.rubygems.org"),
            QStringLiteral("cloud.r-project.org"),
            QStringLiteral("repo.maven.apache.org")};
}

Result<NetworkAllowList> NetworkAllowList::parse(const QString &text)
{
    const QStringList entries = entriesOf(text);
    QList<NetworkHost> hosts;
    bool readOnly = false;
    for (const QString &entry : entries) {
        const QString word = entry.toLower();
        if (word == QLatin1String("none") || word == QLatin1String("nothing")) {
            if (entries.size() > 1) {
                return Error{QStringLiteral("\"none\" allows nothing and cannot be combined with hosts."),
                             ErrorCode::BadRequest};
            }
            continue;
        }
        if (word == QLatin1String("read-only") || word == QLatin1String("web-read-only")) {
            readOnly = true;
            if (word == QLatin1String("web-read-only")) {
                add(hosts, NetworkHost{QStringLiteral("*"), NetworkHost::defaultPorts()});
            }
            continue;
        }
        if (word == QLatin1String("registries")) {
            for (const QString &registry : registryHosts()) {
                add(hosts, NetworkHost{registry, {443}});
            }
            continue;
        }
        auto host = NetworkHost::parse(entry);
        if (!host) {
            return host.error();
        }
        if (host->ports.isEmpty()) {
            host->ports = NetworkHost::defaultPorts();
        }
        add(hosts, *host);
    }
    if (readOnly && hosts.isEmpty()) {
        return Error{QStringLiteral("\"read-only\" needs hosts to read from (or \"web-read-only\": any public host)."),
                     ErrorCode::BadRequest};
    }
    return NetworkAllowList(hosts, readOnly);
}

QString NetworkAllowList::text() const
{
    QStringList each;
    for (const NetworkHost &host : m_hosts) {
        each << host.text();
    }
    if (m_readOnly && !each.isEmpty()) {
        each << QStringLiteral("read-only");
    }
    return each.isEmpty() ? QStringLiteral("none") : each.join(QStringLiteral(", "));
}

Result<NetworkAllowList> NetworkAllowList::grant(const QStringList &asked) const
{
    const QString allowed =
        isEmpty() ? QStringLiteral("The user allows no network (Settings → Network, LLM_SANDBOX_NETWORK_ALLOW).")
                  : QStringLiteral("The user allows: %1.").arg(text());
    if (asked.size() > kMaxAskedHosts) {
        return Error{QStringLiteral("A call may ask for at most %1 hosts. %2").arg(kMaxAskedHosts).arg(allowed),
                     ErrorCode::BadRequest};
    }
    QList<NetworkHost> granted;
    for (const QString &entry : asked) {
        auto host = NetworkHost::parse(entry);
        if (!host) {
            return Error{host.error().message + u' ' + allowed, ErrorCode::BadRequest};
        }
        const bool portNamed = !host->ports.isEmpty();
        const auto within = std::find_if(m_hosts.cbegin(), m_hosts.cend(), [&](const NetworkHost &ceiling) {
            return ceiling.covers(host->pattern) && (!portNamed || ceiling.ports.contains(host->ports.first()));
        });
        if (within == m_hosts.cend()) {
            return Error{QStringLiteral("The sandbox may not reach %1. %2").arg(entry.trimmed(), allowed),
                         ErrorCode::BadRequest};
        }
        add(granted, NetworkHost{host->pattern, portNamed ? host->ports : within->ports});
    }
    return NetworkAllowList(granted, m_readOnly);
}

} // namespace sandbox
