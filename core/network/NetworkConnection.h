#pragma once

#include "network/NetworkAllowList.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// One request or tunnel a sandbox asked the egress proxy for, as the proxy logged it when it ended: allowed or
/// refused and why, and what went through. Never a URL's path or query, a header or a body.
struct NetworkConnection
{
    qint64 startedMs = 0; ///< since the epoch
    QString method;       ///< CONNECT for an HTTPS tunnel, else the HTTP method
    QString host;         ///< as the code named it (a name or an address)
    int port = 0;
    bool allowed = false;
    QString reason;      ///< why it was refused, or why an allowed one failed ("the name does not resolve"); else empty
    QString address;     ///< the address the proxy connected to, when it did
    int status = 0;      ///< the HTTP status the proxy answered (200 for an established tunnel)
    qint64 bytesOut = 0; ///< from the sandbox
    qint64 bytesIn = 0;  ///< to the sandbox
    qint64 durationMs = 0;
    QString secret; ///< the name of the user's secret the proxy added to this request (NetworkSecret), never its value

    /// {"host", "port", "method", "allowed", "reason"?, "address"?, "status", "bytes_out", "bytes_in", "duration_ms",
    /// "started_ms", "secret"?}, as results, the journal and history --json carry it.
    [[nodiscard]] QJsonObject toJson() const;
    static NetworkConnection fromJson(const QJsonObject &json);
    [[nodiscard]] static QJsonArray listToJson(const QList<NetworkConnection> &connections);
    static QList<NetworkConnection> listFromJson(const QJsonArray &json);

    /// The access log line format the proxy writes (squid's logformat codes): one tab-separated line per request.
    static QString logFormat();
    /// A line of that log, with why a refusal happened read against `granted` (what the run was allowed); nullopt for
    /// a line that is not one.
    static std::optional<NetworkConnection> fromLogLine(const QByteArray &line, const NetworkAllowList &granted);
    /// "api.example.org:443" (an IPv6 address in brackets).
    [[nodiscard]] QString endpoint() const;
};

} // namespace sandbox
