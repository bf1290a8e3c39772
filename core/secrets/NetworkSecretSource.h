#pragma once

#include "network/InterceptionAuthority.h"
#include "network/NetworkSecret.h"
#include "secrets/SecretStore.h"

#include <QPointer>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace sandbox {

/// What a run's egress proxy needs to add the user's secrets to its requests: the secrets bound to hosts the run may
/// reach, with their values and placeholders, and the authority it signs its certificates for those hosts with.
struct RunSecrets
{
    QList<GrantedSecret> secrets;
    InterceptionAuthority authority;

    [[nodiscard]] bool isEmpty() const { return secrets.isEmpty(); }
    [[nodiscard]] bool hasAuthority() const { return !authority.certificatePem.isEmpty(); }
    /// The hosts the proxy opens to add a secret: every bound host the run may reach, lower case, each once.
    [[nodiscard]] QStringList hostsWithin(const NetworkAllowList &granted) const;
};

/// Where a run with network gets the user's secrets from (SandboxSettings::networkSecrets).
class NetworkSecretSource
{
public:
    virtual ~NetworkSecretSource() = default;
    /// The secrets of a run allowed `granted`: those bound to a host it may reach, each with a new placeholder, and the
    /// authority when there are any or the run may only read (its proxy then opens every tunnel). Neither: empty, and
    /// nothing is asked of a keychain. Called on a run's thread.
    virtual Result<RunSecrets> secretsFor(const NetworkAllowList &granted) = 0;

protected:
    NetworkSecretSource() = default;
    NetworkSecretSource(const NetworkSecretSource &) = default;
    NetworkSecretSource &operator=(const NetworkSecretSource &) = default;
};

/// The secrets the user stored: bindings from the secrets file (NetworkSecretsFile), values and the authority (made
/// on first need) from `store` — the system keychain, asked on the thread of `home` through its event loop (QtKeychain
/// answers there), or any store that answers at once when `home` is null.
class StoredNetworkSecrets final : public NetworkSecretSource
{
public:
    StoredNetworkSecrets(std::shared_ptr<SecretStore> store, QObject *home,
                         QString secretsFile = NetworkSecretsFile::path());

    Result<RunSecrets> secretsFor(const NetworkAllowList &granted) override;

private:
    template <typename T>
    T ask(const std::function<QFuture<T>(SecretStore &)> &call);
    Result<InterceptionAuthority> authority();

    std::shared_ptr<SecretStore> m_store;
    QPointer<QObject> m_home;
    const bool m_hasHome;
    const QString m_secretsFile;
    std::mutex m_authorityMutex;
    std::optional<InterceptionAuthority> m_authority;
};

} // namespace sandbox
