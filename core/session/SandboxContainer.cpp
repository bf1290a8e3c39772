#include "session/SandboxContainer.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcContainer, "sandbox.container")

namespace sandbox {

SandboxContainer::SandboxContainer(ContainerBackend &backend, QString id, QString poolKey,
                                   std::unique_ptr<RunnerClient> runner)
    : m_backend(backend), m_id(std::move(id)), m_poolKey(std::move(poolKey)), m_runner(std::move(runner))
{
}

SandboxContainer::~SandboxContainer()
{
    if (m_runner) {
        m_runner->close();
    }
    if (auto removed = m_backend.removeContainer(m_id); !removed) {
        qCWarning(lcContainer).noquote() << removed.error().message;
    }
}

void SandboxContainer::markUsed()
{
    ++m_uses;
    m_lastUsed = std::chrono::steady_clock::now();
}

} // namespace sandbox
