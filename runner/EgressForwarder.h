#pragma once

#include "UniqueFd.h"

#include <string>
#include <vector>

namespace runner {

// The tunnels the egress proxy's side sends to a proxy of their own: the one that opens them to add the user's
// secrets (squid's intercepting port, core/engine/EgressProxy.h), for `hosts` (exact names, lower case; "*": every
// tunnel).
struct Interception
{
    std::string upstream; // "tcp:ADDRESS:PORT"; empty: none
    std::vector<std::string> hosts;
};

// The only way out of a library install's builder sandbox. The builder has no network (`none`: loopback only); the
// egress proxy (a container of its own with network) listens on a unix socket in a volume both share — or, on
// Kubernetes, where pods share no volumes, on its pod's address, the only one the NetworkPolicies let the installer
// pod reach. This listens on 127.0.0.1:`port` inside the builder, runs `command` (the install, told by HTTP_PROXY
// to use that address) and relays every connection to the proxy until the command exits. What the install reaches
// is what the proxy allows: the configured registries, nothing else.
class EgressForwarder final
{
public:
    // `upstream`: the proxy's unix socket path, or "tcp:ADDRESS:PORT" (an IP address, IPv6 in brackets).
    EgressForwarder(std::string upstream, int port);

    // Waits (up to `waitSeconds`) for the proxy to accept, listens, runs `command` and relays; returns its exit status
    // (128 + signal when killed), 126/127 when it could not be started, 125 when the proxy never came up.
    int run(const std::vector<std::string> &command, int waitSeconds = 20);
    // A run's sandbox with network: waits (up to `waitSeconds`) for the proxy, listens, and relays on a thread of its
    // own for as long as the runner lives. False (said on stderr) when the proxy never came up or the port is taken.
    bool startInBackground(int waitSeconds = 20);
    // The proxy's side (resources/images/proxy/start-proxy): listens on the unix socket `path` (mode 0666, in the
    // volume sandboxes mount), or on "tcp:ADDRESS:PORT" (a proxy pod's address), and relays every connection to the
    // upstream, squid on loopback, for as long as it runs, in one thread: no process per connection. Each connection's
    // first bytes are vetted (TunnelInspector); a refusal is logged on stdout as squid logs a request; a tunnel to one
    // of `interception`'s hosts goes to its upstream. Returns only when it could not listen (1, said on stderr).
    int serveSocket(const std::string &path, const Interception &interception = {});

private:
    UniqueFd prepare(int waitSeconds) const;

    std::string m_upstream;
    int m_port;
};

} // namespace runner
