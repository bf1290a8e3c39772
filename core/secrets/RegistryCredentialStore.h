#pragma once

#include "backend/RegistryCredentials.h"
#include "secrets/SecretStore.h"

namespace sandbox {

/// Registry logins (`images login`) in a SecretStore: one entry per registry host, named "registry/HOST[:PORT]",
/// holding the username and the password. Nothing of them goes anywhere else.
class RegistryCredentialStore final
{
public:
    explicit RegistryCredentialStore(SecretStore &store);

    /// The entry of `registry` ("host[:port]", a reference starting with it, or a URL): the same for all of them.
    static QString secretKey(const QString &registry);

    /// The login stored for `registry` (its serverAddress is `registry`'s host), std::nullopt when there is none.
    QFuture<Result<std::optional<RegistryCredentials>>> load(const QString &registry);
    /// Stores `credentials` under their serverAddress's entry, replacing what was there.
    QFuture<Result<void>> save(const RegistryCredentials &credentials);
    /// Removes the login of `registry`; removing one that is not there succeeds.
    QFuture<Result<void>> remove(const QString &registry);

private:
    SecretStore &m_store;
};

} // namespace sandbox
