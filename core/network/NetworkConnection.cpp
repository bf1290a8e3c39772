#include "network/NetworkConnection.h"

#include "network/NetworkSecret.h"

#include <QHostAddress>
#include <algorithm>

namespace sandbox {

namespace {

/// Why a request the proxy refused (ERR_ACCESS_DENIED) was refused, read against what the run was allowed: the proxy
/// checks private addresses first, then the hosts and their ports.
QString refusal(const QString &method, const QString &host, int port, const NetworkAllowList &granted)
{
    if (granted.isReadOnly() && method != QLatin1String("GET") && method != QLatin1String("HEAD") &&
        method != QLatin1String("CONNECT")) {
        return QStringLiteral("read-only: only GET and HEAD requests are allowed");
    }
    const bool isAddress = !QHostAddress(host).isNull();
    const auto covering = std::find_if(granted.hosts().cbegin(), granted.hosts().cend(),
                                       [&host](const NetworkHost &each) { return each.covers(host); });
    if (covering == granted.hosts().cend()) {
        return isAddress ? QStringLiteral("an IP address that is not allowed (only listed addresses are)")
                         : QStringLiteral("not an allowed host");
    }
    if (!covering->ports.contains(port)) {
        return QStringLiteral("port %1 is not allowed for this host").arg(port);
    }
    return isAddress ? QStringLiteral("a private, loopback, link-local or this computer's address")
                     : QStringLiteral("its name resolves to a private, loopback, link-local or this computer's "
                                      "address");
}

/// Why an allowed request failed, from squid's error code.
QString failure(const QString &code)
{
    if (code == QLatin1String("ERR_DNS_FAIL")) {
        return QStringLiteral("the name does not resolve");
    }
    if (code == QLatin1String("ERR_CONNECT_FAIL")) {
        return QStringLiteral("the host refused the connection or cannot be reached");
    }
    if (code.contains(QLatin1String("TIMEOUT"))) {
        return QStringLiteral("the host did not answer in time");
    }
    if (code == QLatin1String("ERR_CLIENT_GONE")) {
        return QStringLiteral("the sandbox closed the connection before the answer");
    }
    if (code == QLatin1String("ERR_INVALID_REQ") || code == QLatin1String("ERR_INVALID_URL") ||
        code == QLatin1String("ERR_UNSUP_REQ")) {
        return QStringLiteral("not a request the proxy understands");
    }
    return code.isEmpty() || code == QLatin1String("-") ? QString() : code;
}

} // namespace

QJsonObject NetworkConnection::toJson() const
{
    QJsonObject json{{QStringLiteral("host"), host},           {QStringLiteral("port"), port},
                     {QStringLiteral("method"), method},       {QStringLiteral("allowed"), allowed},
                     {QStringLiteral("status"), status},       {QStringLiteral("bytes_out"), bytesOut},
                     {QStringLiteral("bytes_in"), bytesIn},    {QStringLiteral("duration_ms"), durationMs},
                     {QStringLiteral("started_ms"), startedMs}};
    if (!reason.isEmpty()) {
        json.insert(QStringLiteral("reason"), reason);
    }
    if (!address.isEmpty()) {
        json.insert(QStringLiteral("address"), address);
    }
    if (!secret.isEmpty()) {
        json.insert(QStringLiteral("secret"), secret);
    }
    return json;
}

NetworkConnection NetworkConnection::fromJson(const QJsonObject &json)
{
    NetworkConnection connection;
    connection.host = json.value(QStringLiteral("host")).toString();
    connection.port = json.value(QStringLiteral("port")).toInt();
    connection.method = json.value(QStringLiteral("method")).toString();
    connection.allowed = json.value(QStringLiteral("allowed")).toBool();
    connection.reason = json.value(QStringLiteral("reason")).toString();
    connection.address = json.value(QStringLiteral("address")).toString();
    connection.status = json.value(QStringLiteral("status")).toInt();
    connection.bytesOut = json.value(QStringLiteral("bytes_out")).toInteger();
    connection.bytesIn = json.value(QStringLiteral("bytes_in")).toInteger();
    connection.durationMs = json.value(QStringLiteral("duration_ms")).toInteger();
    connection.startedMs = json.value(QStringLiteral("started_ms")).toInteger();
    connection.secret = json.value(QStringLiteral("secret")).toString();
    return connection;
}

QJsonArray NetworkConnection::listToJson(const QList<NetworkConnection> &connections)
{
    QJsonArray json;
    for (const NetworkConnection &connection : connections) {
        json.append(connection.toJson());
    }
    return json;
}

QList<NetworkConnection> NetworkConnection::listFromJson(const QJsonArray &json)
{
    QList<NetworkConnection> connections;
    for (const QJsonValue connection : json) {
        connections << fromJson(connection.toObject());
    }
    return connections;
}

QString NetworkConnection::logFormat()
{
    // Start (seconds.milliseconds), duration (ms), method, host, port, squid's status, HTTP status, bytes from the
    // client, bytes to it, the server's address, the error code, then the name of the secret added to the request
    // (EgressProxy's "secret" note, "-" for none) — or, from the relay in front of squid, which logs the tunnels it
    // refused, the refused tunnel's TLS server name (runner/TunnelInspector.h). Nothing of the URL but its host and
    // port.
    return QStringLiteral("%ts.%03tu\t%tr\t%rm\t%>rd\t%>rP\t%Ss\t%>Hs\t%>st\t%<st\t%<a\t%err_code\t%{secret}note");
}

std::optional<NetworkConnection> NetworkConnection::fromLogLine(const QByteArray &line, const NetworkAllowList &granted)
{
    const QList<QByteArray> fields = line.trimmed().split('\t');
    if (fields.size() != 12) {
        return std::nullopt;
    }
    bool ok = false;
    const double started = fields[0].toDouble(&ok);
    // "-": a connection that closed before it asked for anything (the start script's readiness probe).
    if (!ok || fields[2] == "-") {
        return std::nullopt;
    }
    const auto number = [](const QByteArray &field) {
        return field == "-" ? 0 : std::max<qint64>(0, field.toLongLong());
    };
    NetworkConnection connection;
    connection.startedMs = qint64(started * 1000);
    connection.durationMs = number(fields[1]);
    connection.method = QString::fromLatin1(fields[2]).left(16);
    connection.host = QString::fromUtf8(fields[3]).left(253);
    if (connection.host.startsWith(u'[') && connection.host.endsWith(u']')) {
        connection.host = connection.host.mid(1, connection.host.size() - 2);
    }
    connection.port = int(number(fields[4]));
    connection.status = int(number(fields[6]));
    connection.bytesOut = number(fields[7]);
    connection.bytesIn = number(fields[8]);
    connection.address = fields[9] == "-" ? QString() : QString::fromLatin1(fields[9]);
    const QString code = QString::fromLatin1(fields[10]);
    connection.allowed = !fields[5].contains("DENIED");
    if (code == QLatin1String("ERR_TLS_SERVER_NAME")) {
        connection.reason =
            QStringLiteral("its TLS handshake names another server: %1").arg(QString::fromUtf8(fields[11]).left(253));
    } else if (code == QLatin1String("ERR_HOST_MISMATCH")) {
        connection.reason =
            QStringLiteral("its Host header names another server: %1").arg(QString::fromUtf8(fields[11]).left(253));
    } else if (code == QLatin1String("ERR_NOT_TLS")) {
        connection.reason = QStringLiteral("the tunnel carried something else than TLS (only port 80 may carry plain "
                                           "HTTP)");
    } else {
        connection.reason =
            connection.allowed ? failure(code) : refusal(connection.method, connection.host, connection.port, granted);
        if (fields[11] != "-" && NetworkSecret::isValidName(QString::fromLatin1(fields[11]))) {
            connection.secret = QString::fromLatin1(fields[11]);
        }
    }
    return connection;
}

QString NetworkConnection::endpoint() const
{
    return QStringLiteral("%1:%2").arg(host.contains(u':') ? u'[' + host + u']' : host).arg(port);
}

} // namespace sandbox
