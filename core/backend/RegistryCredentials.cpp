#include "backend/RegistryCredentials.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandbox {

namespace {

QJsonObject toJson(const RegistryCredentials &credentials)
{
    return QJsonObject{{QStringLiteral("username"), credentials.username},
                       {QStringLiteral("password"), credentials.password},
                       {QStringLiteral("serveraddress"), credentials.serverAddress}};
}

} // namespace

QString RegistryCredentials::registryHost(const QString &nameOrReference)
{
    QString host = nameOrReference.trimmed();
    if (const qsizetype scheme = host.indexOf(QLatin1String("://")); scheme >= 0) {
        host = host.mid(scheme + 3);
    }
    host = host.section(QLatin1Char('/'), 0, 0).toLower();
    // Docker Hub answers under several names; its logins are one.
    if (host == QLatin1String("index.docker.io") || host == QLatin1String("registry-1.docker.io")) {
        return QStringLiteral("docker.io");
    }
    return host;
}

QByteArray RegistryCredentials::registryAuthHeader() const
{
    const QByteArray json = isEmpty() ? QByteArray("{}") : QJsonDocument(toJson(*this)).toJson(QJsonDocument::Compact);
    return json.toBase64(QByteArray::Base64UrlEncoding);
}

QByteArray RegistryCredentials::authRequestBody() const
{
    return QJsonDocument(toJson(*this)).toJson(QJsonDocument::Compact);
}

QString RegistryCredentials::redact(QString text) const
{
    if (password.isEmpty()) {
        return text;
    }
    const QString hidden = QStringLiteral("***");
    return text.replace(password, hidden).replace(QString::fromLatin1(registryAuthHeader()), hidden);
}

} // namespace sandbox
