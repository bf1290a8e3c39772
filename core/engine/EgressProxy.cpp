#include "engine/EgressProxy.h"

#include "backend/TarArchive.h"
#include "network/NetworkConnection.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace sandbox {

namespace {

/// Where the proxy's start script unpacks the files it gets on its stdin (interceptionFiles(), registryTrustFiles()):
/// its /tmp, a tmpfs.
const QLatin1String kFilesFolder("/tmp/files");
/// In it: the certificate authorities the host trusts, for the registries the proxy speaks TLS to itself.
const QLatin1String kRegistryTrustFile("registry-trust.pem");

} // namespace

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

QStringList EgressProxy::commonConfig(ContainerBackend::EgressProxyReach reach)
{
    return {
        // Only the relay in front of it reaches it (resources/images/proxy/start-proxy), which serves the socket in
        // the proxy's volume, or the pod's address, which only the pods of the engine's own sandboxes may reach
        // (installer/kubernetes/networkpolicy.yaml).
        QStringLiteral("http_port 127.0.0.1:%1")
            .arg(reach == ContainerBackend::EgressProxyReach::SocketVolume ? port() : podSquidPort()),
        QStringLiteral("pid_filename none"),
        // A tunnel, not a cache.
        QStringLiteral("cache deny all"),
        QStringLiteral("cache_mem 0 MB"),
        QStringLiteral("cache_log stdio:/dev/stderr"),
        QStringLiteral("logfile_rotate 0"),
        QStringLiteral("coredump_dir none"),
        QStringLiteral("pinger_enable off"),
        QStringLiteral("shutdown_lifetime 0 seconds"),
        QStringLiteral("forwarded_for delete"),
        // One request per client connection: the relay in front vets each connection's first request and what a
        // tunnel carries first (runner/TunnelInspector.h).
        QStringLiteral("client_persistent_connections off"),
        QStringLiteral("via off"),
        QStringLiteral("acl special_dst dst %1").arg(specialRanges().join(u' ')),
    };
}

Result<QByteArray> EgressProxy::squidConfig(const QList<EgressRule> &rules, ContainerBackend::EgressProxyReach reach,
                                            bool registryTrust)
{
    static const QRegularExpression hostName(QStringLiteral(R"(^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$)"));
    QStringList config = commonConfig(reach);
    // No log of the URLs: they may carry credentials. Downloads only: nothing is uploaded to a registry during an
    // install.
    config << QStringLiteral("access_log none") << QStringLiteral("acl download_methods method GET HEAD CONNECT")
           << QStringLiteral("http_access deny !download_methods") << QStringLiteral("acl tunnel method CONNECT");
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
            // Over TLS it trusts what the host trusts (a TLS-inspecting proxy's authority, for example) besides the
            // system's authorities, as the builder does (LibraryInstallPlan::trustedCertificates).
            const bool defaultPort = rule.port == (rule.tls ? 443 : 80);
            QString tls;
            if (rule.tls) {
                tls = registryTrust ? QStringLiteral(" tls tls-cafile=%1/%2").arg(kFilesFolder, kRegistryTrustFile)
                                    : QStringLiteral(" tls");
            }
            config << QStringLiteral("cache_peer %1 parent %2 0 no-query no-digest no-netdb-exchange originserver "
                                     "name=%3_login login=%4%5%6")
                          .arg(address.isNull() ? rule.host.toLower() : address.toString())
                          .arg(rule.port)
                          .arg(name, login,
                               defaultPort ? QStringLiteral(" forceddomain=") + rule.host.toLower() : QString(), tls)
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

QByteArray EgressProxy::runConfig(const NetworkAllowList &granted, const QStringList &hostAddresses,
                                  ContainerBackend::EgressProxyReach reach, bool intercepting)
{
    QStringList config = commonConfig(reach);
    if (intercepting) {
        // The relay sends only the tunnels to hosts with a secret here. squid peeks at the TLS handshake's name,
        // then at the server's certificate (which it verifies against the system's authorities and the trusted
        // file), and shows the sandbox a copy of it signed by the authority; requests inside are then its own to
        // change (interceptionFiles()).
        config << QStringLiteral("http_port 127.0.0.1:%1 name=intercept ssl-bump tls-cert=%2/authority.pem "
                                 "generate-host-certificates=on dynamic_cert_mem_cache_size=1MB")
                      .arg(interceptPort())
                      .arg(kFilesFolder)
               << QStringLiteral("sslcrtd_program /usr/lib/squid/security_file_certgen -s %1/certificates -M 1MB")
                      .arg(kFilesFolder)
               << QStringLiteral("sslcrtd_children 2 startup=1 idle=1")
               << QStringLiteral("tls_outgoing_options cafile=%1/upstream-trust.pem").arg(kFilesFolder)
               << QStringLiteral("acl intercepting myportname intercept")
               << QStringLiteral("acl tls_step1 at_step SslBump1") << QStringLiteral("acl tls_step2 at_step SslBump2")
               << QStringLiteral("ssl_bump peek tls_step1") << QStringLiteral("ssl_bump stare tls_step2")
               << QStringLiteral("ssl_bump bump all") << QStringLiteral("include %1/secrets.conf").arg(kFilesFolder);
    }
    config << QStringLiteral("logformat llmsb %1").arg(NetworkConnection::logFormat())
           // One line per request to the proxy's stdout, which the engine reads (EgressProxyContainer::connections).
           << QStringLiteral("access_log stdio:/dev/stdout logformat=llmsb")
           << QStringLiteral("buffered_logs off")
           // An IP literal in a URL ("http://10.0.0.1/", "[::1]") is reached only when the user listed it.
           << QStringLiteral(R"(acl ip_literal dstdom_regex -n ^[0-9.]+$ :)");
    QStringList own;
    for (const QString &address : hostAddresses) {
        QHostAddress parsed(address);
        // Loopback and link-local ones are special already (and squid reads no "%scope").
        if (!parsed.isNull() && !parsed.isLoopback() && !parsed.isLinkLocal()) {
            parsed.setScopeId(QString());
            own << parsed.toString();
        }
    }
    if (!own.isEmpty()) {
        config << QStringLiteral("acl own_dst dst %1").arg(own.join(u' '))
               << QStringLiteral("http_access deny own_dst");
    }
    // Whatever a name resolves to (squid resolves it once and connects to what it checked): never inside.
    config << QStringLiteral("http_access deny special_dst");
    if (granted.isReadOnly() && intercepting) {
        // Every tunnel goes to the port that opens it (the relay sends them all there); inside it, as outside, a
        // request may only read.
        config << QStringLiteral("acl read_methods method GET HEAD")
               << QStringLiteral("acl connect_method method CONNECT")
               << QStringLiteral("http_access deny connect_method !intercepting")
               << QStringLiteral("http_access deny !read_methods !connect_method");
    }
    int index = 0;
    for (const NetworkHost &host : granted.hosts()) {
        const QString name = QStringLiteral("host%1").arg(index++);
        QStringList ports;
        for (const int port : host.ports) {
            ports << QString::number(port);
        }
        const bool isAddress = !QHostAddress(host.pattern).isNull();
        if (host.pattern == QLatin1String("*")) {
            config << QStringLiteral("acl %1 dstdom_regex -n .").arg(name);
        } else if (isAddress) {
            config << QStringLiteral("acl %1 dst %2").arg(name, host.pattern);
        } else {
            // dstdomain -n: the name as the request has it, no reverse lookups; ".example.org" is example.org and
            // everything under it.
            config << QStringLiteral("acl %1 dstdomain -n %2")
                          .arg(name, host.isWildcard() ? host.pattern.mid(1) : host.pattern);
        }
        config << QStringLiteral("acl %1_port port %2").arg(name, ports.join(u' '))
               << QStringLiteral("http_access allow %1 %1_port%2")
                      .arg(name, isAddress ? QString() : QStringLiteral(" !ip_literal"));
    }
    config << QStringLiteral("http_access deny all");
    return QByteArray(config.join(u'\n').toUtf8() + '\n');
}

Result<QByteArray> EgressProxy::interceptionFiles(const RunSecrets &secrets, const QByteArray &upstreamTrust)
{
    QStringList rules;
    int index = 0;
    for (const GrantedSecret &secret : secrets.secrets) {
        if (!NetworkSecret::isValidName(secret.binding.name) || !NetworkSecret::checkValue(secret.value)) {
            return Error{QStringLiteral("The secret %1 cannot be added to requests.").arg(secret.binding.name.left(64)),
                         ErrorCode::BadRequest};
        }
        const QString name = QStringLiteral("secret%1").arg(index++);
        const QString header = secret.binding.headerName();
        // The value is a squid log format: a literal % is written %%.
        const QString value = QString::fromLatin1(secret.binding.headerValue(secret.value)).replace(u'%', "%%");
        const QString when = QStringLiteral("intercepting %1_host %1_sent").arg(name);
        rules << QStringLiteral("acl %1_host dstdomain -n %2").arg(name, secret.binding.hosts.join(u' '))
              << QStringLiteral("acl %1_sent req_header %2 %3").arg(name, header, secret.placeholder)
              << QStringLiteral("request_header_access %1 deny %2").arg(header, when)
              << QStringLiteral("request_header_add %1 \"%2\" %3").arg(header, value, when)
              << QStringLiteral("note secret %1 %2").arg(secret.binding.name, when);
    }
    // squid's certificate generator keeps what it signed in a folder of its own (the start script makes it). squid
    // wants a file of trusted certificates besides the system's even when the user named none: the authority's then.
    return TarArchive::fromFiles(
        {FileEntry{QStringLiteral("authority.pem"), secrets.authority.toPem(), 0600},
         FileEntry{QStringLiteral("upstream-trust.pem"),
                   upstreamTrust.isEmpty() ? secrets.authority.certificatePem : upstreamTrust, 0600},
         FileEntry{QStringLiteral("secrets.conf"), rules.join(u'\n').toUtf8() + '\n', 0600},
         FileEntry{QStringLiteral("authority-certificate.pem"), secrets.authority.certificatePem, 0644}});
}

Result<QByteArray> EgressProxy::registryTrustFiles(const QByteArray &certificates)
{
    return TarArchive::fromFiles({FileEntry{kRegistryTrustFile, certificates, 0644}});
}

QStringList EgressProxy::relayed(const QString &runner, const QString &upstream, const QStringList &argv)
{
    return QStringList{runner, QStringLiteral("--egress-proxy"), upstream, QString::number(port()),
                       QStringLiteral("--")} +
           argv;
}

QStringList EgressProxy::relayedRunner(const QStringList &command, const QString &upstream)
{
    return command + QStringList{QStringLiteral("--egress-relay"), upstream, QString::number(port())};
}

QString EgressProxy::proxyAddress(const QString &address)
{
    const bool v6 = QHostAddress(address).protocol() == QAbstractSocket::IPv6Protocol;
    return QStringLiteral("tcp:%1:%2").arg(v6 ? u'[' + address + u']' : address).arg(port());
}

QHash<QString, QString> EgressProxy::clientEnvironment(bool trustBundle)
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
    if (trustBundle) {
        // OpenSSL (Python's ssl, Ruby, R's curl), Go, requests (certifi's bundle otherwise), curl and git, Node.
        for (const char *name :
             {"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "NODE_EXTRA_CA_CERTS"}) {
            environment.insert(QString::fromLatin1(name), trustBundlePath());
        }
    }
    return environment;
}

EgressProxyContainer::~EgressProxyContainer()
{
    m_stopping = true;
    if (m_logReader.joinable()) {
        m_logReader.join();
    }
    m_removals->remove(m_backend, m_id);
}

void EgressProxyContainer::recordConnections(NetworkAllowList granted)
{
    m_granted = std::move(granted);
    m_lastLine = std::chrono::steady_clock::now();
    m_logReader = std::thread([this] {
        QByteArray pending;
        while (!m_stopping && m_stream) {
            const auto status = m_stream->read(pending, std::chrono::milliseconds(100));
            if (status == ContainerStream::ReadStatus::Closed || status == ContainerStream::ReadStatus::Failed) {
                return;
            }
            const qsizetype end = pending.lastIndexOf('\n');
            if (end < 0) {
                pending = pending.right(64 * 1024); // never a line that long
                continue;
            }
            const QList<QByteArray> lines = pending.left(end).split('\n');
            pending.remove(0, end + 1);
            std::lock_guard lock(m_mutex);
            for (const QByteArray &line : lines) {
                if (auto connection = NetworkConnection::fromLogLine(line, m_granted);
                    connection && m_connections.size() < kMaxConnections) {
                    m_connections << *connection;
                }
            }
            m_lastLine = std::chrono::steady_clock::now();
        }
    });
}

QList<NetworkConnection> EgressProxyContainer::takeConnections(std::chrono::milliseconds quiet)
{
    const auto asked = std::chrono::steady_clock::now();
    const auto giveUp = asked + std::chrono::seconds(2);
    for (;;) {
        const auto now = std::chrono::steady_clock::now();
        {
            std::lock_guard lock(m_mutex);
            if (now - std::max(m_lastLine, asked) >= quiet || now >= giveUp || !m_logReader.joinable()) {
                return std::exchange(m_connections, {});
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace sandbox
