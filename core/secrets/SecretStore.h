#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <QFuture>
#include <QString>
#include <optional>

namespace sandbox {

/// Secrets (tokens, keys) by name, kept out of QSettings: a settings file may only hold the names.
///
/// Asynchronous because a real keychain answers over D-Bus and may have to ask the user to unlock it first; nobody
/// waits for it in a nested event loop. Implementations finish the futures on the thread that called them (which
/// must run an event loop) or at once.
class SecretStore
{
public:
    virtual ~SecretStore() = default;

    /// The secret stored under `key`, std::nullopt when there is none, an Error when the store cannot be used.
    virtual QFuture<Result<std::optional<QByteArray>>> get(const QString &key) = 0;
    /// Stores `secret` under `key`, replacing what was there.
    virtual QFuture<Result<void>> set(const QString &key, const QByteArray &secret) = 0;
    /// Removes `key`; removing a key that does not exist succeeds.
    virtual QFuture<Result<void>> remove(const QString &key) = 0;

protected:
    SecretStore() = default;
    SecretStore(const SecretStore &) = default;
    SecretStore &operator=(const SecretStore &) = default;
};

} // namespace sandbox
