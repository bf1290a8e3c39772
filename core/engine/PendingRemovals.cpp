#include "engine/PendingRemovals.h"

#include <QLoggingCategory>
#include <thread>

Q_LOGGING_CATEGORY(lcRemovals, "sandbox.container")

namespace sandbox {

void PendingRemovals::remove(ContainerBackend &backend, const QString &containerId)
{
    // Removed (force: killed first) while the runner may still hold its stream: the container can exit on its own
    // meanwhile, and Podman then refuses a removal that races with that exit. A refused removal is retried briefly.
    Result<void> removed = backend.removeContainer(containerId);
    for (int attempt = 1; !removed && removed.error().code != ErrorCode::EngineUnreachable && attempt <= 3; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250 * attempt));
        removed = backend.removeContainer(containerId);
    }
    if (removed) {
        return;
    }
    qCWarning(lcRemovals).noquote() << removed.error().message;
    if (removed.error().code == ErrorCode::EngineUnreachable) {
        const std::lock_guard lock(m_mutex);
        m_ids.append(containerId);
    }
}

int PendingRemovals::retry(ContainerBackend &backend)
{
    QStringList ids;
    {
        const std::lock_guard lock(m_mutex);
        ids.swap(m_ids);
    }
    QStringList left;
    for (const QString &id : std::as_const(ids)) {
        // A container the engine no longer has (removed with it, or by hand) is as good as removed.
        if (auto removed = backend.removeContainer(id);
            !removed && removed.error().code == ErrorCode::EngineUnreachable) {
            left.append(id);
        }
    }
    if (ids.size() > left.size()) {
        qCInfo(lcRemovals) << "removed" << ids.size() - left.size() << "container(s) left while the engine was away";
    }
    const std::lock_guard lock(m_mutex);
    m_ids.append(left);
    return int(m_ids.size());
}

bool PendingRemovals::empty() const
{
    const std::lock_guard lock(m_mutex);
    return m_ids.isEmpty();
}

} // namespace sandbox
