// Issue 48, on the real engines (Docker and Podman; gVisor in its own stage; the proxy pod path on the Kubernetes test
// API server, whose pods that may reach the network join the test's network): a run that asks for hosts within the
// user's ceiling reaches them through its own egress proxy, and nothing else. The test server is a container on a
// network this test creates, named api.test there, at a public-looking address (TEST-NET-3 or -2); names that resolve
// to private, loopback, metadata and this host's addresses come from the proxy's host entries
// (LLM_SANDBOX_PROXY_HOSTS), as a hostile DNS would give them. Nothing leaves this machine.
#include "BackendTestSupport.h"
#include "engine/EgressProxy.h"
#include "engine/ExecutionEngine.h"
#include "lang/LanguageRegistry.h"
#include "secrets/MemorySecretStore.h"
#include "secrets/NetworkSecretSource.h"
#include "support/TestWebServer.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUuid>
#include <gtest/gtest.h>
#include <map>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class NetworkTest : public ::testing::TestWithParam<std::string>
{
protected:
    void SetUp() override
    {
        SandboxSettings settings = test::settingsFor(GetParam());
        auto backend = test::backendFor(GetParam());
        ASSERT_TRUE(backend);
        // The server's image is the Python sandbox's: built (if need be) by a first run.
        auto engine = std::make_unique<ExecutionEngine>(backend, settings);
        auto image = engine->catalog().runImage(*LanguageRegistry::instance().find(QStringLiteral("python")));
        ASSERT_TRUE(image) << qPrintable(image.error().message);
        RunRequest warm;
        warm.code = QStringLiteral("pass");
        ASSERT_TRUE(engine->run(warm)) << "the Python image builds";
        auto &server = servers()[GetParam()];
        if (!server) {
            // Each engine's bridge gets a subnet of its own: all may exist at once. The Kubernetes test server's pods
            // that may reach the network are Docker containers on the network its ctest entry names (--pod-network).
            const bool kubernetes = GetParam() == "kubernetes";
            const QString cli = kubernetes ? QStringLiteral("docker") : QString::fromStdString(GetParam());
            server = std::make_unique<test::TestWebServer>(
                cli, QStringLiteral("llmsb-nettest-") + QString::fromStdString(GetParam()),
                kubernetes               ? QStringLiteral("198.19.250")
                : GetParam() == "docker" ? QStringLiteral("203.0.113")
                                         : QStringLiteral("198.51.100"),
                *image);
        }
        ASSERT_TRUE(server->error().isEmpty()) << qPrintable(server->error());
        m_server = server.get();
        // A proxy pod's network is the pods' ("bridge": the egress label the NetworkPolicies let out).
        settings.proxyNetwork = GetParam() == "kubernetes" ? QStringLiteral("bridge") : m_server->network();
        settings.proxyHosts = {{"private.test", "10.213.7.10"},
                               {"loopback.test", "127.0.0.1"},
                               {"gateway.test", m_server->gateway()},
                               {"metadata.test", "169.254.169.254"}};
        m_listener = std::make_unique<test::CountingListener>();
        auto allowed = NetworkAllowList::parse(
            QStringLiteral("api.test, private.test, localhost:%1, loopback.test:%1, gateway.test:%1, "
                           "%2:%1, metadata.test, 169.254.169.254, 10.213.7.10")
                .arg(m_listener->port)
                .arg(m_server->gateway()));
        ASSERT_TRUE(allowed) << qPrintable(allowed.error().message);
        settings.networkAllow = *allowed;
        m_settings = settings;
        m_backend = backend;
        m_engine = std::make_unique<ExecutionEngine>(backend, settings);
    }

    /// One per engine, made by the first test that needs it, removed at the process's end.
    static std::map<std::string, std::unique_ptr<test::TestWebServer>> &servers()
    {
        static std::map<std::string, std::unique_ptr<test::TestWebServer>> made;
        return made;
    }

    /// The run's result JSON (as execute_code gives it) of `code` in `language`, asking for `hosts`.
    QJsonObject run(const QString &code, const QStringList &hosts, const QString &language = QStringLiteral("python"))
    {
        RunRequest request;
        request.language = language;
        request.code = code;
        request.network = hosts;
        request.timeout = 60s;
        auto result = m_engine->run(request);
        EXPECT_TRUE(result) << qPrintable(result.error().message);
        if (!result) {
            return {};
        }
        EXPECT_EQ(result->exitCode, 0) << result->stdoutData.constData() << result->stderrData.constData();
        QJsonObject json{{"stdout", QString::fromUtf8(result->stdoutData)},
                         {"connections", NetworkConnection::listToJson(result->network)}};
        return json;
    }

    /// The proxy's record of requests to `host`.
    static QList<NetworkConnection> to(const QJsonObject &result, const QString &host)
    {
        QList<NetworkConnection> found;
        for (const NetworkConnection &each : NetworkConnection::listFromJson(result["connections"].toArray())) {
            if (each.host == host) {
                found << each;
            }
        }
        return found;
    }

    test::TestWebServer *m_server = nullptr;
    std::unique_ptr<test::CountingListener> m_listener;
    SandboxSettings m_settings;
    std::shared_ptr<ContainerBackend> m_backend;
    std::unique_ptr<ExecutionEngine> m_engine;
};

// What a model's code does with the web: GET over HTTP and HTTPS (the server's certificate given in the code) and a
// POST, through the proxy the standard library finds in HTTPS_PROXY; each request on record.
TEST_P(NetworkTest, anAllowedHostIsReachedOverHttpAndHttps)
{
    const QJsonObject result = run(QStringLiteral(R"(import json, ssl, urllib.request
context = ssl.create_default_context(cadata='''%1''')
plain = json.load(urllib.request.urlopen('http://api.test/plain?q=1', timeout=20))
secure = json.load(urllib.request.urlopen('https://api.test/secure', timeout=20, context=context))
posted = json.load(urllib.request.urlopen(urllib.request.Request('https://api.test/form', data=b'x=1'), timeout=20,
                                          context=context))
print(plain['path'], plain['host'], secure['path'], secure['host'], posted['path'])
)")
                                       .arg(m_server->certificate()),
                                   {"api.test"});
    EXPECT_EQ(result["stdout"].toString().trimmed().toStdString(), "/plain?q=1 api.test /secure api.test /form");
    const QList<NetworkConnection> api = to(result, "api.test");
    ASSERT_EQ(api.size(), 3) << QJsonDocument(result).toJson().constData();
    EXPECT_EQ(api[0].method, "GET");
    EXPECT_EQ(api[0].port, 80);
    EXPECT_EQ(api[1].method, "CONNECT");
    EXPECT_EQ(api[1].port, 443);
    for (const NetworkConnection &each : api) {
        EXPECT_TRUE(each.allowed);
        EXPECT_EQ(each.status, 200);
        EXPECT_EQ(each.address, m_server->address());
        EXPECT_GT(each.bytesIn, 100);
        EXPECT_GT(each.bytesOut, 50);
    }
}

// The hostile set: every other way out a model's code might try. The run is allowed names that resolve to a private
// address, to loopback, to this host's own address on the bridge (its gateway) and to the cloud metadata address,
// and those addresses literally: the proxy still never connects to them. And nothing bypasses the proxy: no route,
// no resolver, no UDP, no raw socket.
TEST_P(NetworkTest, everyOtherWayOutIsRefused)
{
    const QString gateway = m_server->gateway();
    const QString port = QString::number(m_listener->port);
    const QJsonObject result =
        run(QStringLiteral(R"(import socket, urllib.request
def fetch(url):
    try:
        urllib.request.urlopen(url, timeout=10).read()
        return 'reached'
    except Exception as error:
        return 'refused' if '403' in str(error) else 'failed: %r' % error
def tunnel(port):
    s = socket.create_connection(('127.0.0.1', 3128), timeout=10)
    s.sendall(b'CONNECT api.test:%d HTTP/1.1\r\nHost: api.test:%d\r\n\r\n' % (port, port))
    answer = b''
    while b'\r\n\r\n' not in answer:
        answer += s.recv(4096)
    return s
def tls(name):
    # A tunnel to api.test whose TLS handshake names another server (as a CDN's other tenant would be named).
    import ssl
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with context.wrap_socket(tunnel(443), server_hostname=name) as s:
            s.sendall(b'GET / HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n')
            return 'reached' if s.recv(100).startswith(b'HTTP/1') else 'refused'
    except Exception:
        return 'refused'
def plain_tunnel():
    # Not TLS through a tunnel to 443: any protocol could hide in it.
    try:
        s = tunnel(443)
        s.sendall(b'GET / HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n')
        return 'reached' if s.recv(100).startswith(b'HTTP/1.1 200') else 'refused'
    except Exception:
        return 'refused'
def attempt(what):
    try:
        what()
        return 'reached'
    except Exception as error:
        return 'failed'
results = {
    'other host': fetch('http://other.test/'),
    'ip literal': fetch('http://%1/'),
    'localhost': fetch('http://localhost:%2/'),
    'loopback name': fetch('http://loopback.test:%2/'),
    'private name': fetch('http://private.test/'),
    'private literal': fetch('http://10.213.7.10/'),
    'gateway name': fetch('http://gateway.test:%2/'),
    'gateway literal': fetch('http://%3:%2/'),
    'metadata name': fetch('http://metadata.test/latest/meta-data/'),
    'metadata literal': fetch('http://169.254.169.254/latest/meta-data/'),
    'other port': fetch('http://api.test:8080/'),
    'tunnel to other host': fetch('https://other.test/'),
    'tunnel naming another server': tls('other.test'),
    'tunnel naming its server': tls('api.test'),
    'plain bytes in a tunnel': plain_tunnel(),
    'direct tcp': attempt(lambda: socket.create_connection(('%1', 80), timeout=5)),
    'direct to host': attempt(lambda: socket.create_connection(('%3', %2), timeout=5)),
    'dns': attempt(lambda: socket.getaddrinfo('api.test', 80)),
    'udp': attempt(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('%1', 53))),
    'raw socket': attempt(lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)),
}
# Code that ignores the proxy has no way out at all.
results['without the proxy'] = attempt(
    lambda: urllib.request.build_opener(urllib.request.ProxyHandler({})).open('http://%1/', timeout=5))
results['api.test'] = fetch('http://api.test/')
for name, outcome in sorted(results.items()):
    print('%s: %s' % (name, outcome))
)")
                .arg(m_server->address(), port, gateway),
            {"api.test", "private.test", "localhost:" + port, "loopback.test:" + port, "gateway.test:" + port,
             gateway + ":" + port, "metadata.test", "169.254.169.254", "10.213.7.10"});
    QMap<QString, QString> outcome;
    for (const QString &line : result["stdout"].toString().split(u'\n', Qt::SkipEmptyParts)) {
        outcome.insert(line.section(QStringLiteral(": "), 0, 0), line.section(QStringLiteral(": "), 1));
    }
    for (const char *refused :
         {"other host", "ip literal", "localhost", "loopback name", "private name", "private literal", "gateway name",
          "gateway literal", "metadata name", "metadata literal", "other port", "tunnel to other host",
          "tunnel naming another server", "plain bytes in a tunnel"}) {
        EXPECT_EQ(outcome.value(refused).toStdString(), "refused") << refused;
    }
    // A pod's ways out around its proxy are closed by the cluster's network plugin (the NetworkPolicies of
    // installer/kubernetes/), which the test API server does not have: there, the proxy pod's own refusals are checked.
    if (GetParam() != "kubernetes") {
        for (const char *failed : {"direct tcp", "direct to host", "dns", "udp", "raw socket", "without the proxy"}) {
            EXPECT_EQ(outcome.value(failed).toStdString(), "failed") << failed;
        }
        EXPECT_EQ(m_listener->accepted, 0) << "nothing reached this host";
    }
    EXPECT_EQ(outcome.value("api.test").toStdString(), "reached") << "the allowed host, to show the others were not";
    EXPECT_EQ(outcome.value("tunnel naming its server").toStdString(), "reached");

    // Each refusal on record, with why.
    const auto reason = [&](const QString &host, int hostPort) {
        for (const NetworkConnection &each : to(result, host)) {
            if (each.port == hostPort && !each.allowed) {
                return each.reason.toStdString();
            }
        }
        return std::string("no refusal on record");
    };
    EXPECT_EQ(reason("other.test", 80), "not an allowed host");
    EXPECT_EQ(reason("other.test", 443), "not an allowed host");
    EXPECT_EQ(reason(m_server->address(), 80), "an IP address that is not allowed (only listed addresses are)");
    EXPECT_EQ(reason("api.test", 8080), "port 8080 is not allowed for this host");
    const std::string byName = "its name resolves to a private, loopback, link-local or this computer's address";
    const std::string literal = "a private, loopback, link-local or this computer's address";
    EXPECT_EQ(reason("private.test", 80), byName);
    EXPECT_EQ(reason("localhost", m_listener->port), byName);
    EXPECT_EQ(reason("loopback.test", m_listener->port), byName);
    EXPECT_EQ(reason("gateway.test", m_listener->port), byName);
    EXPECT_EQ(reason("metadata.test", 80), byName);
    EXPECT_EQ(reason("169.254.169.254", 80), literal);
    EXPECT_EQ(reason("10.213.7.10", 80), literal);
    EXPECT_EQ(reason(gateway, m_listener->port), literal);
    QStringList tunnelRefusals;
    for (const NetworkConnection &each : to(result, "api.test")) {
        if (each.port == 443 && !each.allowed) {
            tunnelRefusals << each.reason;
        }
    }
    EXPECT_TRUE(tunnelRefusals.contains("its TLS handshake names another server: other.test"))
        << tunnelRefusals.join(" | ").toStdString();
    EXPECT_TRUE(
        tunnelRefusals.contains("the tunnel carried something else than TLS (only port 80 may carry plain HTTP)"));
}

// Node's fetch, Go's net/http, Ruby's Net::HTTP, R's url(), Java's HttpClient: each language's own HTTP client finds
// the proxy. On Docker only: how a language finds the proxy does not depend on the engine.
class NetworkLanguagesTest : public NetworkTest
{
};

TEST_P(NetworkLanguagesTest, everyLanguagesHttpClientFindsTheProxy)
{
    const std::pair<const char *, const char *> programs[] = {
        {"javascript", R"x(fetch('http://api.test/js').then(r => r.json()).then(j => console.log(j.path)))x"},
        {"go", R"x(package main
import ("encoding/json"; "fmt"; "net/http")
func main() {
    r, err := http.Get("http://api.test/go")
    if err != nil { panic(err) }
    var j map[string]any
    json.NewDecoder(r.Body).Decode(&j)
    fmt.Println(j["path"])
})x"},
        {"ruby", R"x(require 'net/http'; require 'json'
puts JSON.parse(Net::HTTP.get(URI('http://api.test/ruby')))['path'])x"},
        {"r", R"x(cat(sub('.*"path": "([^"]*)".*', '\\1', readLines(url('http://api.test/r'), warn = FALSE)), '\n'))x"},
        {"java", R"x(import java.net.URI; import java.net.http.*;
public class Main {
    public static void main(String[] args) throws Exception {
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://api.test/java")).build(),
                                                       HttpResponse.BodyHandlers.ofString());
        System.out.println(response.body().replaceAll(".*\"path\": \"([^\"]*)\".*", "$1"));
    }
})x"},
    };
    for (const auto &[language, code] : programs) {
        const QJsonObject result = run(QString::fromUtf8(code), {"api.test"}, QString::fromLatin1(language));
        EXPECT_EQ(result["stdout"].toString().trimmed().toStdString(),
                  "/" + std::string(language == std::string("javascript") ? "js" : language))
            << language;
        EXPECT_EQ(to(result, "api.test").size(), 1) << language;
    }
}

// A session asks once, when it is created: each of its runs reaches the hosts, and each run's result lists the requests
// it made, not those of the runs before it.
TEST_P(NetworkLanguagesTest, aSessionsRunsReachItsHostsAndEachListsItsOwnRequests)
{
    SessionRequest open;
    open.network = {QStringLiteral("api.test")};
    auto session = m_engine->createSession(open);
    ASSERT_TRUE(session) << qPrintable(session.error().message);
    EXPECT_EQ(session->network, QStringList{"api.test"});
    for (const char *path : {"first", "second"}) {
        RunRequest request;
        request.sessionId = session->id;
        request.code =
            QStringLiteral("import json, urllib.request\n"
                           "print(json.load(urllib.request.urlopen('http://api.test/%1', timeout=20))['path'])")
                .arg(QString::fromLatin1(path));
        auto result = m_engine->run(request);
        ASSERT_TRUE(result) << qPrintable(result.error().message);
        EXPECT_EQ(result->stdoutData.trimmed().toStdString(), "/" + std::string(path));
        ASSERT_TRUE(result->networkGranted);
        ASSERT_EQ(result->network.size(), 1) << path;
        EXPECT_EQ(result->network[0].host, "api.test");
    }
    EXPECT_TRUE(m_engine->closeSession(session->id));
    SessionRequest beyond;
    beyond.network = {QStringLiteral("example.org")};
    auto refused = m_engine->createSession(beyond);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, ErrorCode::BadRequest);
}

// Asking for more than the user allows is an error naming what is allowed; no container starts for it.
TEST_P(NetworkTest, askingBeyondTheCeilingIsAnErrorNamingWhatIsAllowed)
{
    RunRequest request;
    request.code = QStringLiteral("print(1)");
    request.network = {QStringLiteral("api.test"), QStringLiteral("example.org")};
    auto result = m_engine->run(request);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code, ErrorCode::BadRequest);
    EXPECT_TRUE(result.error().message.contains("The sandbox may not reach example.org. The user allows: api.test"))
        << qPrintable(result.error().message);
}

// A secret the user bound to api.test: the run sees a placeholder; the proxy puts the value into the Authorization
// header of the HTTPS requests to api.test that carry the placeholder there (the server gets it: its SHA-256 comes
// back), and nowhere else — not over plain HTTP, not to another host, not in another header. The sandbox trusts the
// proxy's authority through the variables every TLS library reads (no certificate in the code), and the proxy checks
// the server's certificate against the system's and the trusted file: without it, nothing reaches the server. The
// value is nowhere the code can look: not in any process's environment or command line, not in a file.
TEST_P(NetworkTest, aBoundSecretReachesItsHostOnlyAndNeverTheSandbox)
{
    const QByteArray secret = "s3cr3t-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(QByteArray("Bearer " + secret), QCryptographicHash::Sha256).toHex());
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString secretsFile = folder.filePath(QStringLiteral("secrets.json"));
    auto binding = NetworkSecret::make(QStringLiteral("API_TOKEN"), {QStringLiteral("api.test")},
                                       QStringLiteral("Authorization: Bearer {}"));
    ASSERT_TRUE(binding);
    ASSERT_TRUE(NetworkSecretsFile::save({*binding}, secretsFile));
    auto store = std::make_shared<MemorySecretStore>();
    ASSERT_TRUE(store->set(NetworkSecret::keychainKey(QStringLiteral("API_TOKEN")), secret).result());
    SandboxSettings settings = m_settings;
    settings.networkSecrets = std::make_shared<StoredNetworkSecrets>(store, nullptr, secretsFile);
    settings.proxyHosts.insert(QStringLiteral("mirror.test"), m_server->address());
    auto allowed = NetworkAllowList::parse(QStringLiteral("api.test, mirror.test"));
    ASSERT_TRUE(allowed);
    settings.networkAllow = *allowed;

    // The secret is split in the code, so that its source file does not hold it whole.
    const QString code = QStringLiteral(R"(import glob, json, os, urllib.request
token = os.environ['API_TOKEN']
secret = '%1' + '%2'
def get(url, header='Authorization'):
    request = urllib.request.Request(url, headers={header: 'Bearer ' + token})
    try:
        return json.load(urllib.request.urlopen(request, timeout=20))
    except Exception as error:
        return {'error': str(error)}
secure = get('https://api.test/hashed')
other_header = get('https://api.test/echo', 'X-Token')
plain = get('http://api.test/echo')
mirror = get('http://mirror.test/echo')
found = []
for path in glob.glob('/proc/[0-9]*/environ') + glob.glob('/proc/[0-9]*/cmdline'):
    try:
        if secret.encode() in open(path, 'rb').read():
            found.append(path)
    except OSError:
        pass
for top in ['/run', '/tmp', '/etc', '/home', '/opt', os.getcwd()]:
    for root, dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            try:
                if os.path.isfile(path) and os.path.getsize(path) < 4 << 20 and not path.endswith('.py') and                         secret.encode() in open(path, 'rb').read():
                    found.append(path)
            except OSError:
                pass
print(json.dumps({'placeholder': token, 'secure': secure.get('authorization_sha256', secure.get('error')),
                  'other_header': other_header.get('headers', other_header).get('X-Token'),
                  'plain': plain.get('headers', plain).get('Authorization'),
                  'mirror': mirror.get('headers', mirror).get('Authorization'), 'found': found,
                  'trust': os.environ.get('SSL_CERT_FILE')}))
)")
                             .arg(QString::fromLatin1(secret.left(10)), QString::fromLatin1(secret.mid(10)));

    const auto runWith = [&](const SandboxSettings &with) {
        ExecutionEngine engine(m_backend, with);
        RunRequest request;
        request.code = code;
        request.network = {QStringLiteral("api.test"), QStringLiteral("mirror.test")};
        request.timeout = 60s;
        return engine.run(request);
    };
    if (GetParam() == "kubernetes") {
        // A pod cannot mount the proxy pod's volume, where the sandbox finds the authority to trust: a clear error.
        settings.proxyTrust = m_server->certificate().toUtf8();
        auto refused = runWith(settings);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().code, ErrorCode::Unavailable) << qPrintable(refused.error().message);
        return;
    }
    // Without the server's certificate among those the proxy trusts, the proxy refuses to go on.
    auto untrusted = runWith(settings);
    ASSERT_TRUE(untrusted) << qPrintable(untrusted.error().message);
    EXPECT_NE(QJsonDocument::fromJson(untrusted->stdoutData).object()["secure"].toString(), hash)
        << untrusted->stdoutData.constData();
    EXPECT_FALSE(untrusted->stdoutData.contains(secret));

    settings.proxyTrust = m_server->certificate().toUtf8();
    auto result = runWith(settings);
    ASSERT_TRUE(result) << qPrintable(result.error().message);
    ASSERT_EQ(result->exitCode, 0) << result->stdoutData.constData() << result->stderrData.constData();
    const QJsonObject seen = QJsonDocument::fromJson(result->stdoutData).object();
    const QString placeholder = seen["placeholder"].toString();
    EXPECT_TRUE(placeholder.startsWith(QStringLiteral("LLMSANDBOX_PLACEHOLDER_API_TOKEN_"))) << qPrintable(placeholder);
    EXPECT_EQ(seen["secure"].toString(), hash) << result->stdoutData.constData();
    EXPECT_EQ(seen["other_header"].toString(), QStringLiteral("Bearer ") + placeholder);
    EXPECT_EQ(seen["plain"].toString(), QStringLiteral("Bearer ") + placeholder);
    EXPECT_EQ(seen["mirror"].toString(), QStringLiteral("Bearer ") + placeholder);
    EXPECT_EQ(seen["found"].toArray(), QJsonArray()) << result->stdoutData.constData();
    EXPECT_EQ(seen["trust"].toString(), EgressProxy::trustBundlePath());
    EXPECT_FALSE(result->stdoutData.contains(secret));
    EXPECT_FALSE(result->stderrData.contains(secret));
    // The record names the secret on the request it went with, and only there.
    const QByteArray record = QJsonDocument(NetworkConnection::listToJson(result->network)).toJson();
    EXPECT_FALSE(record.contains(secret));
    int withSecret = 0;
    for (const NetworkConnection &each : result->network) {
        if (!each.secret.isEmpty()) {
            ++withSecret;
            EXPECT_EQ(each.secret, "API_TOKEN");
            EXPECT_EQ(each.host, "api.test");
            EXPECT_EQ(each.method, "GET");
        }
    }
    EXPECT_EQ(withSecret, 1) << record.constData();
}

// The read-only preset: GET and HEAD pass, over HTTP and inside HTTPS tunnels (which the proxy then opens, every
// one), any other method is refused with the reason on record.
TEST_P(NetworkTest, aReadOnlyRunMayGetButNotPost)
{
    auto store = std::make_shared<MemorySecretStore>();
    QTemporaryDir folder;
    SandboxSettings settings = m_settings;
    settings.networkSecrets =
        std::make_shared<StoredNetworkSecrets>(store, nullptr, folder.filePath(QStringLiteral("secrets.json")));
    settings.proxyTrust = m_server->certificate().toUtf8();
    settings.networkAllow = *NetworkAllowList::parse(QStringLiteral("api.test, read-only"));
    ExecutionEngine engine(m_backend, settings);
    RunRequest request;
    request.code = QStringLiteral(R"(import json, urllib.request
def call(url, data=None):
    try:
        return json.load(urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=20))['path']
    except Exception as error:
        return 'refused' if '403' in str(error) else 'failed: %r' % error
print(json.dumps([call('https://api.test/get'), call('http://api.test/get'), call('https://api.test/post', b'x=1'),
                  call('http://api.test/post', b'x=1')]))
)");
    request.network = {QStringLiteral("api.test")};
    request.timeout = 60s;
    auto result = engine.run(request);
    if (GetParam() == "kubernetes") { // as a secret: the sandbox would not trust the proxy's authority
        ASSERT_FALSE(result);
        EXPECT_EQ(result.error().code, ErrorCode::Unavailable) << qPrintable(result.error().message);
        return;
    }
    ASSERT_TRUE(result) << qPrintable(result.error().message);
    EXPECT_EQ(QJsonDocument::fromJson(result->stdoutData).array(), (QJsonArray{"/get", "/get", "refused", "refused"}))
        << result->stdoutData.constData() << result->stderrData.constData();
    int refused = 0;
    for (const NetworkConnection &each : result->network) {
        if (!each.allowed) {
            ++refused;
            EXPECT_EQ(each.method, "POST");
            EXPECT_EQ(each.reason, "read-only: only GET and HEAD requests are allowed");
        }
    }
    EXPECT_EQ(refused, 2) << QJsonDocument(NetworkConnection::listToJson(result->network)).toJson().constData();
    EXPECT_TRUE(result->networkGranted->isReadOnly());
}

INSTANTIATE_TEST_SUITE_P(Backends, NetworkTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
INSTANTIATE_TEST_SUITE_P(Backends, NetworkLanguagesTest, ::testing::Values(std::string("docker")),
                         test::backendTestName);

} // namespace
