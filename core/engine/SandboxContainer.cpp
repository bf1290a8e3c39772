#include "engine/SandboxContainer.h"

#include "engine/EgressProxy.h"

namespace sandbox {

SandboxContainer::SandboxContainer(ContainerBackend &backend, std::shared_ptr<PendingRemovals> removals, QString id,
                                   QString poolKey, std::unique_ptr<RunnerClient> runner)
    : m_backend(backend), m_removals(std::move(removals)), m_id(std::move(id)), m_poolKey(std::move(poolKey)),
      m_runner(std::move(runner))
{}

SandboxContainer::~SandboxContainer()
{
    m_removals->remove(m_backend, m_id);
}

void SandboxContainer::keepEgressProxy(std::unique_ptr<EgressProxyContainer> proxy)
{
    m_egressProxy = std::move(proxy);
}

void SandboxContainer::markUsed()
{
    ++m_uses;
    m_lastUsed = std::chrono::steady_clock::now();
}

} // namespace sandbox
