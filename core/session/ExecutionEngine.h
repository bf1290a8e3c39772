#pragma once

#include "images/ImageCatalog.h"
#include "session/RunObserver.h"
#include "session/RunRequest.h"
#include "session/RunResult.h"
#include "session/SandboxSettings.h"
#include "util/Result.h"

#include <QList>

#include <memory>
#include <mutex>
#include <stop_token>

namespace sandbox {

class ContainerBackend;

/// Runs code in sandboxes. Blocking and thread-safe: callers that must stay responsive
/// (the MCP server, the GUI) call run() from a worker thread; several runs may proceed at once.
class ExecutionEngine final
{
public:
    ExecutionEngine(std::shared_ptr<ContainerBackend> backend, SandboxSettings settings);
    ~ExecutionEngine();

    /// Runs one request to the end. Infrastructure failures (engine unreachable, image missing,
    /// bad request) are errors; a program that fails is a normal result with its exit code.
    /// Requesting `stop` cancels the run (the program is killed).
    Result<RunResult> run(const RunRequest &request, std::stop_token stop = {}, RunObserver *observer = nullptr);

    /// Observers see every run of this engine (the journal, the live log).
    void addObserver(RunObserver *observer);
    void removeObserver(RunObserver *observer);

    ContainerBackend &backend() const { return *m_backend; }
    const SandboxSettings &settings() const { return m_settings; }
    const ImageCatalog &catalog() const { return m_catalog; }

    /// Label on every container the engine creates (value: the run id).
    static QString containerLabel() { return QStringLiteral("io.llm-sandbox.run"); }

private:
    class Run;

    QList<RunObserver *> observersFor(RunObserver *extra) const;

    std::shared_ptr<ContainerBackend> m_backend;
    SandboxSettings m_settings;
    ImageCatalog m_catalog;
    mutable std::mutex m_observersMutex;
    QList<RunObserver *> m_observers;
};

} // namespace sandbox
