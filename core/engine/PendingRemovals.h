#pragma once

#include "backend/ContainerBackend.h"

#include <QStringList>
#include <mutex>

namespace sandbox {

/// Removes an engine's containers, and keeps those it could not remove because the container engine did not answer
/// (stopped, restarting under a run) until it answers again: a restart of Docker or of Podman's service under a run
/// leaves no container of a program that goes on running. Thread-safe.
class PendingRemovals final
{
public:
    /// Removes `containerId` (force: killed first), retrying a refusal briefly; when the engine does not answer, the
    /// container is kept for retry().
    void remove(ContainerBackend &backend, const QString &containerId);
    /// Removes the containers kept; those the engine still does not answer for stay. Returns how many stay.
    int retry(ContainerBackend &backend);
    bool empty() const;

private:
    mutable std::mutex m_mutex;
    QStringList m_ids;
};

} // namespace sandbox
