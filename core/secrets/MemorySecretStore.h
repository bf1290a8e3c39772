#pragma once

#include "secrets/SecretStore.h"

#include <QHash>
#include <mutex>

namespace sandbox {

/// A SecretStore in memory, for tests (and for a program that must not touch the user's keychain). Futures are
/// finished when returned. setUnavailable() makes it behave like a machine without a keychain daemon.
class MemorySecretStore final : public SecretStore
{
public:
    MemorySecretStore() = default;

    QFuture<Result<std::optional<QByteArray>>> get(const QString &key) override;
    QFuture<Result<void>> set(const QString &key, const QByteArray &secret) override;
    QFuture<Result<void>> remove(const QString &key) override;

    /// Every call fails with `reason` from now on; an empty reason makes the store usable again.
    void setUnavailable(const QString &reason);

private:
    mutable std::mutex m_mutex;
    QHash<QString, QByteArray> m_secrets;
    QString m_unavailable;
};

} // namespace sandbox
