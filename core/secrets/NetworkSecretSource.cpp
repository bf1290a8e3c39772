#include "secrets/NetworkSecretSource.h"

#include "util/FutureWait.h"

#include <QThread>
#include <future>

namespace sandbox {

QStringList RunSecrets::hostsWithin(const NetworkAllowList &granted) const
{
    QStringList hosts;
    for (const GrantedSecret &secret : secrets) {
        for (const QString &host : secret.binding.hosts) {
            const bool reachable = std::any_of(granted.hosts().cbegin(), granted.hosts().cend(),
                                               [&host](const NetworkHost &allowed) { return allowed.covers(host); });
            if (reachable && !hosts.contains(host)) {
                hosts << host;
            }
        }
    }
    return hosts;
}

StoredNetworkSecrets::StoredNetworkSecrets(std::shared_ptr<SecretStore> store, QObject *home, QString secretsFile)
    : m_store(std::move(store)), m_home(home), m_hasHome(home != nullptr), m_secretsFile(std::move(secretsFile))
{}

template <typename T>
T StoredNetworkSecrets::ask(const std::function<QFuture<T>(SecretStore &)> &call)
{
    if (!m_hasHome || QThread::currentThread() == m_home->thread()) {
        // The home thread itself (a command's main thread): its loop, nested, until the keychain answers.
        return waitInEventLoop(call(*m_store));
    }
    auto answer = std::make_shared<std::promise<T>>();
    std::future<T> answered = answer->get_future();
    const bool queued =
        m_home && QMetaObject::invokeMethod(
                      m_home,
                      [store = m_store, call, answer, home = m_home] {
                          call(*store).then(home.data(), [answer](const T &value) { answer->set_value(value); });
                      },
                      Qt::QueuedConnection);
    // The keychain store ends each call within its own timeout; this one only guards against a home that is gone.
    if (!queued || answered.wait_for(std::chrono::minutes(3)) != std::future_status::ready) {
        return T(Error{QStringLiteral("The system keychain did not answer."), ErrorCode::Unavailable});
    }
    return answered.get();
}

Result<InterceptionAuthority> StoredNetworkSecrets::authority()
{
    std::lock_guard lock(m_authorityMutex);
    if (m_authority) {
        return *m_authority;
    }
    using Stored = Result<std::optional<QByteArray>>;
    const Stored stored =
        ask<Stored>([](SecretStore &store) { return store.get(InterceptionAuthority::keychainKey()); });
    if (!stored) {
        return stored.error();
    }
    if (stored->has_value()) {
        if (auto existing = InterceptionAuthority::fromPem(**stored)) {
            m_authority = *existing;
            return *existing;
        }
    }
    // None yet, or one that is not usable any more: a new one replaces it.
    auto made = InterceptionAuthority::generate();
    if (!made) {
        return made.error();
    }
    const QByteArray pem = made->toPem();
    const Result<void> kept =
        ask<Result<void>>([pem](SecretStore &store) { return store.set(InterceptionAuthority::keychainKey(), pem); });
    if (!kept) {
        return kept.error();
    }
    m_authority = *made;
    return *made;
}

Result<RunSecrets> StoredNetworkSecrets::secretsFor(const NetworkAllowList &granted)
{
    auto bindings = NetworkSecretsFile::load(m_secretsFile);
    if (!bindings) {
        return bindings.error();
    }
    RunSecrets run;
    for (const NetworkSecret &binding : *bindings) {
        if (!binding.isReachableWith(granted)) {
            continue;
        }
        using Stored = Result<std::optional<QByteArray>>;
        const QString key = NetworkSecret::keychainKey(binding.name);
        const Stored value = ask<Stored>([key](SecretStore &store) { return store.get(key); });
        if (!value) {
            return Error{QStringLiteral("The secret %1 for %2 could not be read from the system keychain: %3")
                             .arg(binding.name, binding.hosts.join(QStringLiteral(", ")), value.error().message),
                         ErrorCode::Unavailable};
        }
        if (!value->has_value() || !NetworkSecret::checkValue(**value)) {
            return Error{QStringLiteral("The secret %1 has no usable value in the system keychain: set it again with "
                                        "`llm-sandbox secrets set %1`, or remove it.")
                             .arg(binding.name),
                         ErrorCode::Unavailable};
        }
        run.secrets << GrantedSecret{binding, **value, GrantedSecret::makePlaceholder(binding.name)};
    }
    if (run.secrets.isEmpty() && !granted.isReadOnly()) {
        return run;
    }
    auto made = authority();
    if (!made) {
        return Error{
            QStringLiteral("The egress proxy's certificate authority is not available: %1").arg(made.error().message),
            ErrorCode::Unavailable};
    }
    run.authority = *made;
    return run;
}

} // namespace sandbox
