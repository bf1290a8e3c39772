#include "TunnelInspector.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>

namespace runner {

namespace {

constexpr std::size_t kMaxRequestHead = 16 * 1024;
constexpr std::size_t kMaxRecord = 16 * 1024 + 256; // TLS's largest plaintext record, and its header

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

bool isAddress(const std::string &host)
{
    unsigned char buffer[16];
    return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 || ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

/// The host a request's head names in its Host header (lower case, without a port or an IPv6 address's brackets);
/// empty when it has none.
std::string hostHeaderOf(const std::string &head)
{
    const std::string lowered = lower(head);
    const std::size_t at = lowered.find("\r\nhost:");
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = lowered.find_first_not_of(" \t", at + 7);
    std::string value = lowered.substr(start, lowered.find("\r\n", start) - start);
    value.erase(value.find_last_not_of(" \t") + 1);
    if (!value.empty() && value.front() == '[') {
        return value.substr(1, value.find(']') - 1);
    }
    return value.substr(0, value.find(':'));
}

/// The host of an absolute-form request target ("http://host:port/path"); empty for any other form.
std::string hostOfTarget(const std::string &line)
{
    const std::size_t space = line.find(' ');
    const std::string target = lower(line.substr(space + 1, line.find(' ', space + 1) - space - 1));
    const std::size_t scheme = target.find("://");
    if (space == std::string::npos || scheme == std::string::npos) {
        return {};
    }
    std::string authority = target.substr(scheme + 3, target.find_first_of("/?#", scheme + 3) - scheme - 3);
    authority = authority.substr(authority.find('@') + 1); // no user information
    if (!authority.empty() && authority.front() == '[') {
        return authority.substr(1, authority.find(']') - 1);
    }
    return authority.substr(0, authority.find(':'));
}

} // namespace

TunnelInspector::Verdict TunnelInspector::refuse(const char *why)
{
    m_refusal = why;
    return Verdict::Refuse;
}

TunnelInspector::Verdict TunnelInspector::inspect(std::string &inbox, std::string &out)
{
    if (m_phase == Phase::Request) {
        const std::size_t end = inbox.find("\r\n\r\n");
        if (end == std::string::npos) {
            return inbox.size() > kMaxRequestHead ? refuse("ERR_INVALID_REQ") : Verdict::Pending;
        }
        const std::string head = inbox.substr(0, end + 2);
        const std::string line = inbox.substr(0, inbox.find("\r\n"));
        m_method = line.substr(0, std::min<std::size_t>(line.find(' '), 32));
        if (line.rfind("CONNECT ", 0) != 0) {
            // squid judges a plain request, and closes the connection after it; its Host header must name the server
            // the request goes to (no domain fronting by Host on an allowed address).
            m_host = hostOfTarget(line);
            const std::string named = hostHeaderOf(head);
            if (!m_host.empty() && !named.empty() && named != m_host) {
                m_port = 80;
                m_serverName = named;
                return refuse("ERR_HOST_MISMATCH");
            }
            out.append(inbox, 0, end + 4);
            inbox.erase(0, end + 4);
            m_phase = Phase::Open;
        } else {
            out.append(inbox, 0, end + 4);
            inbox.erase(0, end + 4);
            // "CONNECT host:port HTTP/1.1", an IPv6 address in brackets.
            const std::string target = line.substr(8, line.find(' ', 8) - 8);
            const std::size_t colon = target.rfind(':');
            if (colon == std::string::npos) {
                return refuse("ERR_INVALID_REQ");
            }
            m_host = lower(target.substr(0, colon));
            if (m_host.size() > 2 && m_host.front() == '[' && m_host.back() == ']') {
                m_host = m_host.substr(1, m_host.size() - 2);
            }
            try {
                m_port = std::stoi(target.substr(colon + 1));
            } catch (const std::exception &) {
                return refuse("ERR_INVALID_REQ");
            }
            m_phase = Phase::Handshake;
        }
    }
    if (m_phase == Phase::Handshake) {
        if (inbox.empty()) {
            return Verdict::Pending;
        }
        if (static_cast<unsigned char>(inbox[0]) != 0x16) {
            if (m_port != 80) {
                return refuse("ERR_NOT_TLS");
            }
            // Plain HTTP in a tunnel to port 80: its first request names the tunnel's host.
            const std::size_t end = inbox.find("\r\n\r\n");
            if (end == std::string::npos) {
                return inbox.size() > kMaxRequestHead ? refuse("ERR_INVALID_REQ") : Verdict::Pending;
            }
            if (const std::string named = hostHeaderOf(inbox.substr(0, end + 2)); !named.empty() && named != m_host) {
                m_serverName = named;
                return refuse("ERR_HOST_MISMATCH");
            }
        } else {
            if (inbox.size() < 5) {
                return Verdict::Pending;
            }
            const std::size_t length =
                (static_cast<unsigned char>(inbox[3]) << 8) | static_cast<unsigned char>(inbox[4]);
            if (length + 5 > kMaxRecord) {
                return refuse("ERR_NOT_TLS");
            }
            if (inbox.size() < length + 5) {
                return Verdict::Pending;
            }
            std::string name;
            if (!serverNameOf(inbox.substr(0, length + 5), name)) {
                return refuse("ERR_NOT_TLS");
            }
            m_serverName = name;
            if (name.empty() ? !isAddress(m_host) : lower(name) != m_host) {
                return refuse("ERR_TLS_SERVER_NAME");
            }
        }
        m_phase = Phase::Open;
    }
    out += inbox;
    inbox.clear();
    return Verdict::Pass;
}

bool TunnelInspector::serverNameOf(const std::string &record, std::string &name)
{
    name.clear();
    const auto byte = [&record](std::size_t at) {
        return static_cast<unsigned char>(record[at]);
    };
    const auto u16 = [&byte](std::size_t at) {
        return std::size_t(byte(at) << 8 | byte(at + 1));
    };
    // Record header (5), handshake header: type ClientHello (1) and length (3), version (2), random (32).
    std::size_t at = 5;
    if (record.size() < at + 4 + 2 + 32 + 1 || byte(0) != 0x16 || byte(at) != 0x01) {
        return false;
    }
    const std::size_t helloEnd = at + 4 + (std::size_t(byte(at + 1)) << 16 | u16(at + 2));
    if (helloEnd > record.size()) {
        return false; // a ClientHello split over records: not one a TLS library sends
    }
    at += 4 + 2 + 32;
    at += 1 + byte(at); // session id
    if (at + 2 > helloEnd) {
        return false;
    }
    at += 2 + u16(at); // cipher suites
    if (at + 1 > helloEnd) {
        return false;
    }
    at += 1 + byte(at); // compression methods
    if (at == helloEnd) {
        return true; // no extensions: no name
    }
    if (at + 2 > helloEnd) {
        return false;
    }
    const std::size_t extensionsEnd = at + 2 + u16(at);
    if (extensionsEnd > helloEnd) {
        return false;
    }
    for (at += 2; at + 4 <= extensionsEnd;) {
        const std::size_t type = u16(at);
        const std::size_t length = u16(at + 2);
        at += 4;
        if (at + length > extensionsEnd) {
            return false;
        }
        if (type == 0) { // server_name: a list of (type, name); type 0 is a host name
            std::size_t entry = at + 2;
            while (entry + 3 <= at + length) {
                const std::size_t size = u16(entry + 1);
                if (entry + 3 + size > at + length) {
                    return false;
                }
                if (byte(entry) == 0) {
                    name = record.substr(entry + 3, size);
                    if (!name.empty() && name.back() == '.') {
                        name.pop_back();
                    }
                    return true;
                }
                entry += 3 + size;
            }
            return false;
        }
        at += length;
    }
    return at == extensionsEnd;
}

} // namespace runner
