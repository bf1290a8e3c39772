#include "mcp/http/OriginPolicy.h"

#include <QHostAddress>
#include <QUrl>

namespace sandbox::mcp {

OriginPolicy::OriginPolicy(QStringList extraOrigins, bool checkHost)
    : m_extraOrigins(std::move(extraOrigins)), m_checkHost(checkHost)
{
    for (QString &origin : m_extraOrigins) {
        origin = origin.toLower();
        while (origin.endsWith(QLatin1Char('/'))) {
            origin.chop(1);
        }
    }
}

bool OriginPolicy::allowsOrigin(QByteArrayView origin) const
{
    if (origin.isNull()) {
        return true;
    }
    const QString text = QString::fromLatin1(origin).trimmed().toLower();
    if (m_extraOrigins.contains(text)) {
        return true;
    }
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
        !url.userInfo().isEmpty() || !(url.path().isEmpty() || url.path() == QLatin1String("/"))) {
        return false; // includes "null": sandboxed frames and file:// pages
    }
    return isLoopbackHost(url.host());
}

bool OriginPolicy::allowsHost(QByteArrayView host) const
{
    if (!m_checkHost) {
        return true;
    }
    // "name[:port]" or "[v6]:port": let QUrl split it, so a port or brackets cannot smuggle another name in.
    const QUrl url(QStringLiteral("http://") + QString::fromLatin1(host.trimmed()), QUrl::StrictMode);
    if (!url.isValid() || !url.userInfo().isEmpty() || url.path() != QString()) {
        return false;
    }
    return isLoopbackHost(url.host());
}

bool OriginPolicy::isLoopbackHost(QStringView host)
{
    QString name = host.toString().toLower();
    if (name.startsWith(QLatin1Char('[')) && name.endsWith(QLatin1Char(']'))) {
        name = name.mid(1, name.size() - 2);
    }
    if (name.endsWith(QLatin1Char('.'))) {
        name.chop(1);
    }
    if (name == QLatin1String("localhost") || name.endsWith(QLatin1String(".localhost"))) {
        return true; // RFC 6761: always loopback
    }
    QHostAddress address;
    return address.setAddress(name) && address.isLoopback();
}

} // namespace sandbox::mcp
