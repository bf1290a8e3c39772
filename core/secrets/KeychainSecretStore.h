#pragma once

#include "secrets/SecretStore.h"

#include <chrono>

namespace sandbox {

/// The system keychain through QtKeychain: the Secret Service (GNOME Keyring, KeePassXC, ...) or KWallet on Linux,
/// the Keychain on macOS, the Credential Store on Windows. Entries live under one service name.
///
/// QtKeychain's jobs are QObjects: call from a thread that runs an event loop (the main thread); the futures finish
/// there. Never falls back to a plain-text file: without a keychain every call fails with an Error that says so.
class KeychainSecretStore final : public SecretStore
{
public:
    static inline const QString kDefaultService = QStringLiteral("llm-sandbox");

    /// `timeout` bounds each call, so a keychain that never answers (a hung D-Bus peer) becomes an Error; it is
    /// generous because unlocking a keychain may wait for the user to type a password.
    explicit KeychainSecretStore(QString service = kDefaultService,
                                 std::chrono::milliseconds timeout = std::chrono::minutes(2));

    QFuture<Result<std::optional<QByteArray>>> get(const QString &key) override;
    QFuture<Result<void>> set(const QString &key, const QByteArray &secret) override;
    QFuture<Result<void>> remove(const QString &key) override;

    const QString &service() const { return m_service; }

private:
    const QString m_service;
    const std::chrono::milliseconds m_timeout;
};

} // namespace sandbox
