#include "support/TestWebServer.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

namespace sandbox::test {

namespace {

const char kServer[] = R"(import hashlib, http.server, json, os, socketserver, ssl, threading
open('/tmp/tls.pem', 'w').write(os.environ['TLS_PEM'])
class Echo(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def do_GET(self):
        length = int(self.headers.get('Content-Length') or 0)
        if length:
            self.rfile.read(length)
        seen = {'path': self.path, 'host': self.headers.get('Host')}
        if self.path.startswith('/hashed'):
            # What a secret the proxy added was, without sending it back to the sandbox.
            seen['authorization_sha256'] = hashlib.sha256(self.headers.get('Authorization', '').encode()).hexdigest()
        else:
            seen['headers'] = dict(self.headers)
        body = json.dumps(seen).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_POST = do_GET
    def log_message(self, *args):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
plain = Server(('', 80), Echo)
threading.Thread(target=plain.serve_forever, daemon=True).start()
tls = Server(('', 443), Echo)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain('/tmp/tls.pem')
tls.socket = context.wrap_socket(tls.socket, server_side=True)
tls.serve_forever()
)";

} // namespace

TestWebServer::TestWebServer(const QString &engineCli, const QString &name, const QString &prefix,
                             const QString &serverImage)
    : m_cli(engineCli), m_network(name), m_prefix(prefix)
{
    removeAll(); // what a killed run of the same test left
    QTemporaryDir keys;
    const QString pem = keys.filePath(QStringLiteral("tls.pem"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                   "-subj", "/CN=api.test", "-addext", "subjectAltName=DNS:api.test",
                   // A server's certificate as a public authority issues it (not a CA's: the proxy that adds secrets
                   // shows the sandbox a copy of it).
                   "-addext", "basicConstraints=critical,CA:FALSE", "-addext", "keyUsage=critical,digitalSignature",
                   "-addext", "extendedKeyUsage=serverAuth", "-keyout", pem, "-out", pem});
    if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0) {
        m_error = QStringLiteral("openssl: ") + QString::fromUtf8(openssl.readAllStandardError());
        return;
    }
    QFile file(pem);
    if (!file.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("cannot read the certificate openssl made");
        return;
    }
    const QString tls = QString::fromUtf8(file.readAll());
    m_certificate = tls.mid(tls.indexOf(QLatin1String("-----BEGIN CERTIFICATE-----")));
    if (!cli({"network", "create", "--subnet", m_prefix + QStringLiteral(".0/24"), m_network})) {
        return;
    }
    // Podman refuses a container without explicit ulimits on these machines (the host's hard limits).
    cli({"run",
         "-d",
         "--name",
         m_network + QStringLiteral("-api"),
         "--network",
         m_network,
         "--network-alias",
         "api.test",
         "--ip",
         address(),
         "--user",
         "0",
         "--ulimit",
         "nofile=1024:1024",
         "--ulimit",
         "nproc=1024:1024",
         "-e",
         "TLS_PEM=" + tls,
         "--entrypoint",
         "python3",
         serverImage,
         "-c",
         QString::fromLatin1(kServer)});
}

TestWebServer::~TestWebServer()
{
    removeAll();
}

bool TestWebServer::cli(const QStringList &arguments, bool quiet)
{
    QProcess process;
    process.start(m_cli, arguments);
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        if (!quiet) {
            m_error =
                QStringLiteral("%1 %2: %3")
                    .arg(m_cli, arguments.mid(0, 2).join(u' '), QString::fromUtf8(process.readAllStandardError()));
        }
        return false;
    }
    return true;
}

void TestWebServer::removeAll()
{
    cli({"rm", "-f", m_network + QStringLiteral("-api")}, true);
    cli({"network", "rm", m_network}, true);
}

} // namespace sandbox::test
