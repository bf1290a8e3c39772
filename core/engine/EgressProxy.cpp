#include "engine/EgressProxy.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace sandbox {

QStringList EgressProxy::specialRanges()
{
    // Not the documentation and benchmark ranges (192.0.2.0/24, 198.18.0.0/15, ...): nothing internal lives there,
    // and DNS-intercepting gateways answer with them for every public name.
    return {QStringLiteral("0.0.0.0/8"),      QStringLiteral("10.0.0.0/8"),     QStringLiteral("100.64.0.0/10"),
            QStringLiteral("127.0.0.0/8"),    QStringLiteral("169.254.0.0/16"), QStringLiteral("172.16.0.0/12"),
            QStringLiteral("192.168.0.0/16"), QStringLiteral("224.0.0.0/4"),    QStringLiteral("240.0.0.0/4"),
            QStringLiteral("::/128"),         QStringLiteral("::1/128"),        QStringLiteral("::ffff:0:0/96"),
            QStringLiteral("fc00::/7"),       QStringLiteral("fe80::/10"),      QStringLiteral("ff00::/8")};
}

Result<QByteArray> EgressProxy::squidConfig(const QList<EgressRule> &rules, ContainerBackend::EgressProxyReach reach)
{
    static const QRegularExpression hostName(QStringLiteral(R"(^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$)"));
    QStringList config{
        // Only the builder reaches it: through the socket's relay to this address, or on the pod's address, which
        // only installer pods may reach (installer/kubernetes/networkpolicy.yaml).
        reach == ContainerBackend::EgressProxyReach::SocketVolume ? QStringLiteral("http_port 127.0.0.1:%1").arg(port())
                                                                  : QStringLiteral("http_port %1").arg(port()),
        QStringLiteral("pid_filename none"),
        // A tunnel, not a cache, and no log of the URLs (they may carry credentials).
        QStringLiteral("cache deny all"),
        QStringLiteral("cache_mem 0 MB"),
        QStringLiteral("access_log none"),
        QStringLiteral("cache_log stdio:/dev/stderr"),
        QStringLiteral("logfile_rotate 0"),
        QStringLiteral("coredump_dir none"),
        QStringLiteral("pinger_enable off"),
        QStringLiteral("shutdown_lifetime 0 seconds"),
        QStringLiteral("forwarded_for delete"),
        QStringLiteral("via off"),
        QStringLiteral("acl special_dst dst %1").arg(specialRanges().join(u' ')),
        // Downloads only: nothing is uploaded to a registry during an install.
        QStringLiteral("acl download_methods method GET HEAD CONNECT"),
        QStringLiteral("http_access deny !download_methods"),
        QStringLiteral("acl tunnel method CONNECT"),
    };
    QStringList defaults;
    int index = 0;
    for (const EgressRule &rule : rules) {
        const QHostAddress address(rule.host);
        if ((address.isNull() && !hostName.match(rule.host).hasMatch()) || rule.port <= 0 || rule.port > 65535) {
            return Error{QStringLiteral("The registry host \"%1\" (port %2) cannot be allowed through the egress "
                                        "proxy.")
                             .arg(rule.host)
                             .arg(rule.port),
                         ErrorCode::BadRequest};
        }
        const QString name = QStringLiteral("registry%1").arg(index++);
        // An address is matched as one (dst); a name exactly (dstdomain -n: no reverse lookups).
        config << (address.isNull() ? QStringLiteral("acl %1 dstdomain -n %2").arg(name, rule.host.toLower())
                                    : QStringLiteral("acl %1 dst %2").arg(name, address.toString()))
               << QStringLiteral("acl %1_port port %2").arg(name).arg(rule.port);
        if (!rule.login.isEmpty()) {
            // The install asks for http://host:port/...; squid forwards that to the registry itself (over TLS when
            // it is an https:// one) with the login as HTTP Basic. So the login never enters the builder. squid
            // decodes URL escapes in it: everything but letters and digits is written as one.
            const qsizetype colon = rule.login.indexOf(u':');
            const QString login = QString::fromLatin1(QUrl::toPercentEncoding(rule.login.left(colon)) + ':' +
                                                      QUrl::toPercentEncoding(rule.login.mid(colon + 1)));
            const bool defaultPort = rule.port == (rule.tls ? 443 : 80);
            config << QStringLiteral("cache_peer %1 parent %2 0 no-query no-digest no-netdb-exchange originserver "
                                     "name=%3_login login=%4%5%6")
                          .arg(address.isNull() ? rule.host.toLower() : address.toString())
                          .arg(rule.port)
                          .arg(name, login,
                               defaultPort ? QStringLiteral(" forceddomain=") + rule.host.toLower() : QString(),
                               rule.tls ? QStringLiteral(" tls") : QString())
                   << QStringLiteral("cache_peer_access %1_login allow %1 %1_port !tunnel").arg(name)
                   << QStringLiteral("cache_peer_access %1_login deny all").arg(name)
                   << QStringLiteral("never_direct allow %1 %1_port !tunnel").arg(name);
        }
        const QString allow = QStringLiteral("http_access allow %1 %1_port").arg(name);
        // A registry the user configured may be on the LAN; the default ones only ever at public addresses.
        if (rule.configured) {
            config << allow;
        } else {
            defaults << allow + QStringLiteral(" !special_dst");
        }
    }
    config << QStringLiteral("http_access deny special_dst") << defaults << QStringLiteral("http_access deny all");
    return QByteArray(config.join(u'\n').toUtf8() + '\n');
}

QStringList EgressProxy::relayed(const QString &runner, const QString &upstream, const QStringList &argv)
{
    return QStringList{runner, QStringLiteral("--egress-proxy"), upstream, QString::number(port()),
                       QStringLiteral("--")} +
           argv;
}

QString EgressProxy::proxyAddress(const QString &address)
{
    const bool v6 = QHostAddress(address).protocol() == QAbstractSocket::IPv6Protocol;
    return QStringLiteral("tcp:%1:%2").arg(v6 ? u'[' + address + u']' : address).arg(port());
}

QHash<QString, QString> EgressProxy::clientEnvironment()
{
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port());
    QHash<QString, QString> environment;
    for (const char *name :
         {"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "npm_config_proxy", "npm_config_https_proxy"}) {
        environment.insert(QString::fromLatin1(name), url);
    }
    environment.insert(QStringLiteral("NO_PROXY"), QString());
    environment.insert(QStringLiteral("no_proxy"), QString());
    // Java reads no proxy variables, only these properties (Fetch.java's HttpClient uses the default selector).
    environment.insert(QStringLiteral("JAVA_TOOL_OPTIONS"),
                       QStringLiteral("-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=%1 -Dhttps.proxyHost=127.0.0.1 "
                                      "-Dhttps.proxyPort=%1 -Dhttp.nonProxyHosts=")
                           .arg(port()));
    return environment;
}

EgressProxyContainer::~EgressProxyContainer()
{
    m_removals->remove(m_backend, m_id);
}

} // namespace sandbox
