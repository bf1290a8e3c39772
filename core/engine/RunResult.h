#pragma once

#include "artifacts/Artifact.h"
#include "engine/EnforcedLimits.h"
#include "folders/SavedResult.h"
#include "folders/SharedFolder.h"
#include "network/NetworkConnection.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// Why a run stopped.
enum class StopReason
{
    Exited,        ///< the program ended on its own (any exit code)
    TimedOut,      ///< the wall-clock timeout killed it
    OutOfMemory,   ///< the kernel's OOM killer ended it
    CpuLimit,      ///< a process used up its CPU-time limit (RLIMIT_CPU) and was killed
    OutputLimit,   ///< it wrote more than the output cap and was killed
    Cancelled,     ///< the caller cancelled it
    CompileFailed, ///< the compile step failed; the program never ran
    StoppedByUser  ///< a person stopped it from the desktop app (ExecutionEngine::stopRun), whoever started it
};

/// "exit", "timeout", "oom", "cpu_limit", "output_limit", "cancelled", "compile_failed", "stopped_by_user": the
/// journal's and JSON's word.
QString toString(StopReason reason);
/// The reason `text` (toString()) names, if any.
std::optional<StopReason> stopReasonFromString(QStringView text);

/// What came back from a run.
struct RunResult
{
    QString runId; ///< the engine's id of the run (also the container label's value)
    int exitCode = -1;
    QByteArray stdoutData;
    QByteArray stderrData;
    qint64 durationMs = 0; ///< wall time of the whole run as the caller saw it
    StopReason reason = StopReason::Exited;
    bool outputTruncated = false;
    // Resource usage of the program as measured inside the sandbox.
    qint64 wallMs = 0;
    qint64 cpuMs = 0;
    qint64 peakMemoryKb = 0;
    QList<Artifact> artifacts;
    int artifactsDropped = 0;
    /// The limits in force in the sandbox the run used, as its runner reported them.
    EnforcedLimits enforcedLimits;
    /// A container was started for this run (none was warm, or it installs libraries): its duration includes that.
    bool coldStart = false;
    /// Whether the run's libraries came from the library cache (LibraryCache) instead of an install.
    bool librariesCached = false;
    /// The user's folders the run could read at /data/NAME.
    QList<SharedFolderUse> sharedFolders;
    /// What the run wrote to /data/NAME of writable folders that llm-sandbox saved into them after the run, and what it
    /// did not save.
    QList<SavedResult> savedResults;
    QList<RefusedResult> refusedResults;
    /// The run asked for network (RunRequest::network): what it was allowed, and every request its egress proxy
    /// logged. Otherwise both empty and the result says nothing of a network.
    std::optional<NetworkAllowList> networkGranted;
    QList<NetworkConnection> network;

    bool timedOut() const { return reason == StopReason::TimedOut; }
};

} // namespace sandbox
