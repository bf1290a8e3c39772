#pragma once

#include "backend/ContainerBackend.h"
#include "engine/EnforcedLimits.h"
#include "engine/PendingRemovals.h"
#include "runnerclient/RunnerClient.h"

#include <chrono>
#include <memory>

namespace sandbox {

class EgressProxyContainer;

/// A started sandbox container whose runner answered: ready for runs. Removes the
/// container when destroyed, however the run that used it ended (through `removals`: later, when the engine does not
/// answer then).
class SandboxContainer final
{
public:
    SandboxContainer(ContainerBackend &backend, std::shared_ptr<PendingRemovals> removals, QString id, QString poolKey,
                     std::unique_ptr<RunnerClient> runner);
    // Where things are inside every sandbox container (the images put them there).
    /// The working directory of runs: a tmpfs, emptied before each run outside sessions.
    static QString workdir() { return QStringLiteral("/sandbox"); }
    /// Where a run leaves the files (charts) that come back as artifacts.
    static QString outputDir() { return QStringLiteral("/sandbox/output"); }
    /// The runner, the container's main process.
    static QString runnerPath() { return QStringLiteral("/opt/llm-sandbox/llm-sandbox-runner"); }
    /// Runs one file in a session's persistent interpreter (resources/session/client.sh).
    static QString sessionClientPath() { return QStringLiteral("/opt/llm-sandbox/session/client.sh"); }

    ~SandboxContainer();
    SandboxContainer(const SandboxContainer &) = delete;
    SandboxContainer &operator=(const SandboxContainer &) = delete;

    const QString &id() const { return m_id; }
    const QString &poolKey() const { return m_poolKey; }
    RunnerClient &runner() { return *m_runner; }
    /// The limits the runner found in force when the container started.
    const EnforcedLimits &enforcedLimits() const { return m_enforcedLimits; }
    void setEnforcedLimits(EnforcedLimits limits) { m_enforcedLimits = std::move(limits); }
    /// The requested limits not in force that SANDBOX_ALLOW_UNENFORCED_LIMITS accepted (a sentence; empty: none).
    const QString &acceptedWeakerIsolation() const { return m_acceptedWeakerIsolation; }
    void setAcceptedWeakerIsolation(QString note) { m_acceptedWeakerIsolation = std::move(note); }

    /// The egress proxy of a sandbox with network (ExecutionEngine::Run::startNetwork): kept, and removed after the
    /// sandbox, whose volumes it holds. Null: no network.
    void keepEgressProxy(std::unique_ptr<EgressProxyContainer> proxy);
    EgressProxyContainer *egressProxy() const { return m_egressProxy.get(); }

    /// Whether its libraries were unpacked from the library cache (ExecutionEngine::LibraryInstall), not installed
    /// for it.
    bool librariesCached() const { return m_librariesCached; }
    void setLibrariesCached(bool cached) { m_librariesCached = cached; }

    int uses() const { return m_uses; }
    void markUsed();
    std::chrono::steady_clock::time_point lastUsed() const { return m_lastUsed; }

private:
    ContainerBackend &m_backend;
    std::shared_ptr<PendingRemovals> m_removals;
    QString m_id;
    QString m_poolKey;
    std::unique_ptr<RunnerClient> m_runner;
    std::unique_ptr<EgressProxyContainer> m_egressProxy; ///< removed after the sandbox (~SandboxContainer)
    EnforcedLimits m_enforcedLimits;
    QString m_acceptedWeakerIsolation;
    bool m_librariesCached = false;
    int m_uses = 0;
    std::chrono::steady_clock::time_point m_lastUsed = std::chrono::steady_clock::now();
};

} // namespace sandbox
