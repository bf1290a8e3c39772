#include "mcp/http/BearerToken.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <array>

namespace sandbox::mcp {

QByteArray BearerToken::generate()
{
    std::array<quint32, 8> words; // 32 bytes
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    const QByteArray bytes(reinterpret_cast<const char *>(words.data()), sizeof words);
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

Result<QByteArray> BearerToken::validate(const QByteArray &token)
{
    if (token.size() < kMinimumLength) {
        return Error{QStringLiteral("%1 must be at least %2 characters long (it has %3).")
                         .arg(QLatin1String(kEnvironmentVariable))
                         .arg(kMinimumLength)
                         .arg(token.size())};
    }
    for (const char c : token) {
        if (c <= 0x20 || c >= 0x7f) {
            return Error{QStringLiteral("%1 may only hold visible ASCII characters (no spaces).")
                             .arg(QLatin1String(kEnvironmentVariable))};
        }
    }
    return token;
}

QByteArray BearerToken::fromAuthorizationHeader(QByteArrayView header)
{
    const QByteArrayView trimmed = header.trimmed();
    constexpr QByteArrayView scheme("bearer ");
    if (trimmed.size() <= scheme.size() || trimmed.first(scheme.size()).compare(scheme, Qt::CaseInsensitive) != 0) {
        return {};
    }
    return trimmed.sliced(scheme.size()).trimmed().toByteArray();
}

bool BearerToken::matches(QByteArrayView presented, QByteArrayView expected)
{
    if (expected.isEmpty()) {
        return false; // a server without a token accepts nobody
    }
    // Comparing digests makes the loop length fixed whatever the lengths of the inputs.
    const QByteArray a = QCryptographicHash::hash(presented, QCryptographicHash::Sha256);
    const QByteArray b = QCryptographicHash::hash(expected, QCryptographicHash::Sha256);
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i) {
        difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    }
    return difference == 0;
}

QFuture<Result<BearerToken::Loaded>> BearerToken::load(SecretStore &store, const QByteArray &fromEnvironment)
{
    if (!fromEnvironment.isEmpty()) {
        Result<QByteArray> valid = validate(fromEnvironment);
        if (!valid) {
            return QtFuture::makeReadyFuture(Result<Loaded>(valid.error()));
        }
        return QtFuture::makeReadyFuture(Result<Loaded>(Loaded{*valid, Source::Environment}));
    }
    // `store` must outlive the future; unwrap() chains the save of a new token behind the read.
    return store.get(kSecretKey)
        .then(QtFuture::Launch::Sync,
              [&store](const Result<std::optional<QByteArray>> &stored) -> QFuture<Result<Loaded>> {
                  if (!stored) {
                      return QtFuture::makeReadyFuture(Result<Loaded>(stored.error()));
                  }
                  if (stored->has_value() && !(*stored)->isEmpty()) {
                      return QtFuture::makeReadyFuture(Result<Loaded>(Loaded{**stored, Source::SecretStore}));
                  }
                  const QByteArray token = generate();
                  return store.set(kSecretKey, token).then(QtFuture::Launch::Sync, [token](const Result<void> &saved) {
                      return saved ? Result<Loaded>(Loaded{token, Source::Created}) : Result<Loaded>(saved.error());
                  });
              })
        .unwrap();
}

} // namespace sandbox::mcp
