#include "engine/SandboxContainer.h"

#include <QLoggingCategory>
#include <thread>

Q_LOGGING_CATEGORY(lcContainer, "sandbox.container")

namespace sandbox {

SandboxContainer::SandboxContainer(ContainerBackend &backend, QString id, QString poolKey,
                                   std::unique_ptr<RunnerClient> runner)
    : m_backend(backend), m_id(std::move(id)), m_poolKey(std::move(poolKey)), m_runner(std::move(runner))
{}

SandboxContainer::~SandboxContainer()
{
    // Removed (force: killed first) while the runner still holds its stream: closing the
    // stream first lets the container exit on its own, and Podman then refuses a removal that
    // races with that exit. A refused removal is retried briefly.
    Result<void> removed = m_backend.removeContainer(m_id);
    for (int attempt = 1; !removed && attempt <= 3; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250 * attempt));
        removed = m_backend.removeContainer(m_id);
    }
    if (!removed) {
        qCWarning(lcContainer).noquote() << removed.error().message;
    }
}

void SandboxContainer::markUsed()
{
    ++m_uses;
    m_lastUsed = std::chrono::steady_clock::now();
}

} // namespace sandbox
