#include "secrets/MemorySecretStore.h"

#include <QtCore/qfuture.h>

namespace sandbox {

QFuture<Result<std::optional<QByteArray>>> MemorySecretStore::get(const QString &key)
{
    const std::lock_guard lock(m_mutex);
    using Reply = Result<std::optional<QByteArray>>;
    if (!m_unavailable.isEmpty()) {
        return QtFuture::makeReadyFuture(Reply(Error{m_unavailable}));
    }
    const auto found = m_secrets.constFind(key);
    return QtFuture::makeReadyFuture(
        Reply(found == m_secrets.cend() ? std::nullopt : std::optional<QByteArray>(*found)));
}

QFuture<Result<void>> MemorySecretStore::set(const QString &key, const QByteArray &secret)
{
    const std::lock_guard lock(m_mutex);
    if (!m_unavailable.isEmpty()) {
        return QtFuture::makeReadyFuture(Result<void>(Error{m_unavailable}));
    }
    m_secrets.insert(key, secret);
    return QtFuture::makeReadyFuture(Result<void>());
}

QFuture<Result<void>> MemorySecretStore::remove(const QString &key)
{
    const std::lock_guard lock(m_mutex);
    if (!m_unavailable.isEmpty()) {
        return QtFuture::makeReadyFuture(Result<void>(Error{m_unavailable}));
    }
    m_secrets.remove(key);
    return QtFuture::makeReadyFuture(Result<void>());
}

void MemorySecretStore::setUnavailable(const QString &reason)
{
    const std::lock_guard lock(m_mutex);
    m_unavailable = reason;
}

} // namespace sandbox
