#include "secrets/RegistryCredentialStore.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandbox {

RegistryCredentialStore::RegistryCredentialStore(SecretStore &store) : m_store(store) {}

QString RegistryCredentialStore::secretKey(const QString &registry)
{
    return QStringLiteral("registry/") + RegistryCredentials::registryHost(registry);
}

QFuture<Result<std::optional<RegistryCredentials>>> RegistryCredentialStore::load(const QString &registry)
{
    using Reply = Result<std::optional<RegistryCredentials>>;
    const QString host = RegistryCredentials::registryHost(registry);
    return m_store.get(secretKey(registry)).then([host](const Result<std::optional<QByteArray>> &stored) -> Reply {
        if (!stored) {
            return stored.error();
        }
        if (!stored->has_value()) {
            return std::optional<RegistryCredentials>();
        }
        const QJsonObject entry = QJsonDocument::fromJson(**stored).object();
        RegistryCredentials credentials{.username = entry.value(QStringLiteral("username")).toString(),
                                        .password = entry.value(QStringLiteral("password")).toString(),
                                        .serverAddress = host};
        if (credentials.password.isEmpty()) {
            // Never the entry's text in the message: it is the secret.
            return Error{QStringLiteral("the keychain entry %1 is not a registry login: remove it with "
                                        "`llm-sandbox images logout %2` and log in again")
                             .arg(secretKey(host), host)};
        }
        return std::optional<RegistryCredentials>(credentials);
    });
}

QFuture<Result<void>> RegistryCredentialStore::save(const RegistryCredentials &credentials)
{
    const QJsonObject entry{{QStringLiteral("username"), credentials.username},
                            {QStringLiteral("password"), credentials.password}};
    return m_store.set(secretKey(credentials.serverAddress), QJsonDocument(entry).toJson(QJsonDocument::Compact));
}

QFuture<Result<void>> RegistryCredentialStore::remove(const QString &registry)
{
    return m_store.remove(secretKey(registry));
}

} // namespace sandbox
