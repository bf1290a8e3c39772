#pragma once

#include "secrets/SecretStore.h"
#include "util/Result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QFuture>
#include <QString>

namespace sandbox::mcp {

/// The secret an HTTP client presents as `Authorization: Bearer <token>`: how it is made, kept and checked.
class BearerToken final
{
public:
    /// Where the token lives in the SecretStore (the keychain entry llm-sandbox/http-token).
    static inline const QString kSecretKey = QStringLiteral("http-token");
    /// Overrides the keychain, for machines without one and for tests.
    static constexpr const char *kEnvironmentVariable = "LLM_SANDBOX_HTTP_TOKEN";
    /// A token given by the user must be at least this long: a short one can be guessed over the network.
    static constexpr int kMinimumLength = 32;

    enum class Source
    {
        Environment,
        SecretStore,
        Created, ///< generated now and saved in the SecretStore
    };
    struct Loaded
    {
        QByteArray token;
        Source source = Source::SecretStore;
    };

    /// 32 random bytes from the system's CSPRNG, base64url without padding (43 characters).
    static QByteArray generate();
    /// Whether a token given by the user is acceptable: long enough, visible ASCII only.
    static Result<QByteArray> validate(const QByteArray &token);
    /// The token of an `Authorization` header value ("Bearer <token>", scheme case-insensitive); empty otherwise.
    static QByteArray fromAuthorizationHeader(QByteArrayView header);
    /// Compares in time that depends on neither the contents nor the length of the secret, so response timing
    /// tells an attacker nothing about how much of a guess was right.
    static bool matches(QByteArrayView presented, QByteArrayView expected);

    /// The token from `fromEnvironment` when it is set, else from `store`, else a new one saved in `store`.
    /// Errors: an invalid environment token, or a store that cannot be read or written.
    static QFuture<Result<Loaded>> load(SecretStore &store, const QByteArray &fromEnvironment);

    BearerToken() = delete;
};

} // namespace sandbox::mcp
