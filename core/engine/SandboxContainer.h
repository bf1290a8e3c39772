#pragma once

#include "backend/ContainerBackend.h"
#include "runnerclient/RunnerClient.h"

#include <chrono>
#include <memory>

namespace sandbox {

/// A started sandbox container whose runner answered: ready for runs. Removes the
/// container when destroyed, however the run that used it ended.
class SandboxContainer final
{
public:
    SandboxContainer(ContainerBackend &backend, QString id, QString poolKey, std::unique_ptr<RunnerClient> runner);
    ~SandboxContainer();
    SandboxContainer(const SandboxContainer &) = delete;
    SandboxContainer &operator=(const SandboxContainer &) = delete;

    const QString &id() const { return m_id; }
    const QString &poolKey() const { return m_poolKey; }
    RunnerClient &runner() { return *m_runner; }

    int uses() const { return m_uses; }
    void markUsed();
    std::chrono::steady_clock::time_point lastUsed() const { return m_lastUsed; }

private:
    ContainerBackend &m_backend;
    QString m_id;
    QString m_poolKey;
    std::unique_ptr<RunnerClient> m_runner;
    int m_uses = 0;
    std::chrono::steady_clock::time_point m_lastUsed = std::chrono::steady_clock::now();
};

} // namespace sandbox
