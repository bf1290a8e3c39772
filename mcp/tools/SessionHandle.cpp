#include "mcp/tools/SessionHandle.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <array>

namespace sandbox::mcp {

namespace {

constexpr QChar kSeparator = QLatin1Char('.');

} // namespace

QString SessionHandle::newSecret()
{
    std::array<quint32, 6> words; // 24 bytes
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    const QByteArray bytes(reinterpret_cast<const char *>(words.data()), sizeof words);
    return QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString SessionHandle::ownerOf(const QString &secret)
{
    return QStringLiteral("handle:") +
           QString::fromLatin1(QCryptographicHash::hash(secret.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString SessionHandle::handle(const QString &id, const QString &secret)
{
    return id + kSeparator + secret;
}

SessionHandle SessionHandle::resolve(const QString &argument, const QString &caller)
{
    const qsizetype separator = argument.indexOf(kSeparator);
    if (separator < 0) {
        return SessionHandle{argument, caller};
    }
    return SessionHandle{argument.left(separator), ownerOf(argument.mid(separator + 1))};
}

} // namespace sandbox::mcp
