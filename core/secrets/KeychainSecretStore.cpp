#include "secrets/KeychainSecretStore.h"

#include <QLoggingCategory>
#include <QPromise>
#include <QTimer>
#include <functional>
#include <memory>
#include <qt6keychain/keychain.h>

namespace sandbox {

Q_LOGGING_CATEGORY(lcSecrets, "sandbox.secrets", QtInfoMsg)

namespace {

Error keychainError(const QKeychain::Job &job)
{
    QString detail = job.errorString();
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        // The usual cause on Linux servers and containers; QtKeychain itself only says "Unknown error".
        detail += QStringLiteral("; no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)");
    }
    switch (job.error()) {
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return Error{QStringLiteral("access to the system keychain was denied (%1)").arg(detail)};
    case QKeychain::CouldNotDeleteEntry:
        return Error{QStringLiteral("the system keychain could not delete the entry (%1)").arg(detail)};
    default:
        return Error{QStringLiteral("no usable system keychain (%1)").arg(detail)};
    }
}

/// Starts `job` and turns its finished() signal into a future; whichever comes first of the job and the timeout
/// finishes it.
template <typename T>
QFuture<T> runJob(QKeychain::Job *job, std::chrono::milliseconds timeout,
                  std::function<T(const QKeychain::Job &)> onFinished)
{
    struct State
    {
        QPromise<T> promise;
        bool done = false;
    };
    auto state = std::make_shared<State>();
    state->promise.start();
    QFuture<T> future = state->promise.future();

    job->setAutoDelete(true);
    // Never QSettings: a "fallback" there would be the secret in a plain-text file.
    job->setInsecureFallback(false);
    QObject::connect(job, &QKeychain::Job::finished, job, [state, onFinished](QKeychain::Job *finished) {
        if (std::exchange(state->done, true)) {
            return;
        }
        state->promise.addResult(onFinished(*finished));
        state->promise.finish();
    });
    // Parented to the job: once the job is gone (it deletes itself after finished()) the timer cannot fire.
    QTimer::singleShot(timeout, job, [state, timeout, key = job->key()] {
        if (std::exchange(state->done, true)) {
            return;
        }
        qCWarning(lcSecrets) << "the keychain did not answer for" << key << "within" << timeout.count() << "ms";
        state->promise.addResult(T(Error{QStringLiteral("the system keychain did not answer within %1 seconds")
                                             .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count())}));
        state->promise.finish();
    });
    job->start();
    return future;
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString service, std::chrono::milliseconds timeout)
    : m_service(std::move(service)), m_timeout(timeout)
{}

QFuture<Result<std::optional<QByteArray>>> KeychainSecretStore::get(const QString &key)
{
    using Reply = Result<std::optional<QByteArray>>;
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(key);
    return runJob<Reply>(job, m_timeout, [](const QKeychain::Job &finished) -> Reply {
        if (finished.error() == QKeychain::EntryNotFound) {
            return std::optional<QByteArray>();
        }
        if (finished.error() != QKeychain::NoError) {
            return keychainError(finished);
        }
        return std::optional<QByteArray>(static_cast<const QKeychain::ReadPasswordJob &>(finished).binaryData());
    });
}

QFuture<Result<void>> KeychainSecretStore::set(const QString &key, const QByteArray &secret)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setKey(key);
    job->setBinaryData(secret);
    return runJob<Result<void>>(job, m_timeout, [](const QKeychain::Job &finished) -> Result<void> {
        if (finished.error() != QKeychain::NoError) {
            return keychainError(finished);
        }
        return {};
    });
}

QFuture<Result<void>> KeychainSecretStore::remove(const QString &key)
{
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    job->setKey(key);
    return runJob<Result<void>>(job, m_timeout, [](const QKeychain::Job &finished) -> Result<void> {
        if (finished.error() != QKeychain::NoError && finished.error() != QKeychain::EntryNotFound) {
            return keychainError(finished);
        }
        return {};
    });
}

} // namespace sandbox
