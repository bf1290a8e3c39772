#pragma once

#include "artifacts/Artifact.h"
#include "backend/ContainerBackend.h"
#include "engine/RunProgress.h"
#include "engine/RunRequest.h"
#include "engine/RunResult.h"
#include "util/Result.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace sandbox {

enum class OutputStream
{
    Stdout,
    Stderr
};

/// Everything observable about a run. The run journal, the GUI's live log and MCP progress
/// notifications all subscribe through this one interface (ExecutionEngine::subscribe). Callbacks arrive on the
/// thread that executes the run: implementations must be quick, and thread-safe unless they are subscribed
/// (the engine serializes the callbacks to one subscribed observer).
class RunObserver
{
public:
    virtual ~RunObserver() = default;

    virtual void runStarted(const QString &runId, const RunRequest &request)
    {
        Q_UNUSED(runId)
        Q_UNUSED(request)
    }
    /// A status line for long work (image builds, library installs, container start).
    virtual void runProgress(const QString &runId, const RunProgress &progress)
    {
        Q_UNUSED(runId)
        Q_UNUSED(progress)
    }
    virtual void runOutput(const QString &runId, OutputStream stream, const QByteArray &chunk)
    {
        Q_UNUSED(runId)
        Q_UNUSED(stream)
        Q_UNUSED(chunk)
    }
    virtual void runArtifact(const QString &runId, const Artifact &artifact)
    {
        Q_UNUSED(runId)
        Q_UNUSED(artifact)
    }
    /// The container the program of the run executes in (a warm one of the pool, one started for it, its
    /// session's), once it is handed the program: what tells a busy sandbox from a warm one.
    virtual void runContainer(const QString &runId, const QString &containerId)
    {
        Q_UNUSED(runId)
        Q_UNUSED(containerId)
    }
    /// The resource use of the run's container, about twice a second while the program runs (the engine's stats
    /// API; none for a run shorter than a third of a second). Arrives on a thread of its own.
    virtual void runSample(const QString &runId, const ContainerStats &sample)
    {
        Q_UNUSED(runId)
        Q_UNUSED(sample)
    }
    /// Exactly once per started run; `error` is set when infrastructure failed (then `result` is empty).
    virtual void runFinished(const QString &runId, const RunResult &result, const std::optional<Error> &error)
    {
        Q_UNUSED(runId)
        Q_UNUSED(result)
        Q_UNUSED(error)
    }
};

} // namespace sandbox
