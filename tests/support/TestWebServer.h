#pragma once

#include <QString>
#include <QStringList>

namespace sandbox::test {

/// An HTTP and HTTPS server named api.test on a container network of its own, for a run's egress proxy to reach
/// (issue 48): nothing leaves this machine. Made with the engine's own CLI `engineCli` (docker, or podman) from
/// `serverImage` (the Python sandbox image), at `prefix`.10 of the subnet `prefix`.0/24 (a public-looking one: TEST-NET
/// or the benchmark range, each user of it its own); removed with this. Every GET and POST is answered with JSON of
/// what it received: {"path", "host", "headers"} — but for a path under /hashed, the SHA-256 (hex) of its Authorization
/// header instead of the headers ("authorization_sha256"): what a secret the proxy added was, never sent back. Its TLS
/// certificate is made here for api.test (openssl).
class TestWebServer
{
public:
    TestWebServer(const QString &engineCli, const QString &name, const QString &prefix, const QString &serverImage);
    ~TestWebServer();
    TestWebServer(const TestWebServer &) = delete;
    TestWebServer &operator=(const TestWebServer &) = delete;

    /// What went wrong making it; empty when it serves.
    const QString &error() const { return m_error; }
    /// The network's name (LLM_SANDBOX_PROXY_NETWORK, SandboxSettings::proxyNetwork).
    const QString &network() const { return m_network; }
    QString address() const { return m_prefix + QStringLiteral(".10"); }
    /// The host's own address on the network (its gateway).
    QString gateway() const { return m_prefix + QStringLiteral(".1"); }
    /// The server's certificate (PEM): what a client trusts it by.
    const QString &certificate() const { return m_certificate; }

private:
    bool cli(const QStringList &arguments, bool quiet = false);
    void removeAll();

    QString m_cli;
    QString m_network;
    QString m_prefix;
    QString m_certificate;
    QString m_error;
};

} // namespace sandbox::test
