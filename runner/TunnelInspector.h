#pragma once

#include <string>

namespace runner {

// Vets what a sandbox sends its egress proxy on one connection, before squid sees it (the proxy's side of the relay,
// llm-sandbox-runner --egress-listen; squid closes a client connection after each request, so a connection carries
// one request). A plain HTTP request passes as it is, for squid to judge. A CONNECT passes to squid too, but what
// follows it, the tunnel's first bytes, only when they are a TLS handshake whose server name (SNI) is the host the
// tunnel was opened to — or, to port 80, not TLS at all (an HTTP client that tunnels plain HTTP, as Node's undici
// does); a tunnel to an IP address may name no server. Anything else closes the connection: no other protocol hides
// in a tunnel, and a tunnel to an allowed host cannot name another (a CDN's other tenant, domain fronting by SNI).
// Likewise a plain request's Host header (and that of the first request in a plain tunnel) must name the host the
// request goes to. (Inside TLS the Host header is out of sight: the SNI stands for it.)
class TunnelInspector final
{
public:
    enum class Verdict
    {
        Pending, // more bytes are needed to decide
        Pass,    // everything from now on passes unread
        Refuse,  // close the connection (refusal() says why)
    };

    // Moves the bytes of `inbox` (what the client sent, not yet vetted) that may go on to `out`.
    Verdict inspect(std::string &inbox, std::string &out);

    // The tunnel's host and port once a CONNECT was read; a plain request's host (port: 80) once it was refused.
    const std::string &host() const { return m_host; }
    int port() const { return m_port; }
    // Why it was refused: "ERR_TLS_SERVER_NAME" or "ERR_HOST_MISMATCH" (with serverName(), the name it gave instead),
    // "ERR_NOT_TLS" or "ERR_INVALID_REQ".
    const std::string &refusal() const { return m_refusal; }
    // The request's method ("CONNECT", "GET", ...), once its line was read.
    const std::string &method() const { return m_method; }
    const std::string &serverName() const { return m_serverName; }

    // The server name a TLS record holding a ClientHello asks for: empty when it names none; false when the record is
    // not a whole ClientHello.
    static bool serverNameOf(const std::string &record, std::string &name);

private:
    enum class Phase
    {
        Request,
        Handshake,
        Open,
    };
    Verdict refuse(const char *why);

    Phase m_phase = Phase::Request;
    std::string m_method;
    std::string m_host;
    int m_port = 0;
    std::string m_refusal;
    std::string m_serverName;
};

} // namespace runner
