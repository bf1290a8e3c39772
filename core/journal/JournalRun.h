#pragma once

#include "engine/RunResult.h"
#include "engine/RunSource.h"
#include "folders/SavedResult.h"
#include "util/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbox {

/// A file a run produced, as the journal keeps it (the bytes are on disk, not in the database).
struct JournalArtifact
{
    QString name;
    QString mimeType;
    qint64 size = 0;
    int width = 0;
    int height = 0;
    QString path;       ///< absolute path of the stored file under the data folder
    QString chartTitle; ///< the chart's title, when it is one whose data was read (ChartData)
    QJsonObject chart;  ///< that data (read with a run, not in lists of artifacts)
};

/// Where a journal run stands.
enum class RunStatus
{
    Running,
    Finished,   ///< the program ran and ended (any exit code, a timeout, a cancel)
    Failed,     ///< infrastructure error: the program could not be run
    Interrupted ///< the process recording it ended before the run did
};

/// "running", "finished", "failed", "interrupted".
QString toString(RunStatus status);
std::optional<RunStatus> runStatusFromString(const QString &text);

/// How a run ended, as every face names, colours and counts it (JournalRun::outcome()).
enum class RunOutcome
{
    Succeeded,       ///< exited with 0
    ExitedWithError, ///< exited with another code, or its compile step failed
    TimedOut,
    Stopped,     ///< cancelled, out of memory, a CPU or output limit
    Failed,      ///< could not run (infrastructure)
    Interrupted, ///< the process recording it ended before the run did
    Running,
};

/// How many RunOutcome values there are.
inline constexpr int kRunOutcomeCount = 7;

/// The outcome of a run that stands at `status`, ended by `reason` with `exitCode`.
RunOutcome runOutcomeOf(RunStatus status, std::optional<StopReason> reason, std::optional<int> exitCode);

/// One sample of a run's container (JournalReader::samples): RunObserver::runSample as the journal keeps it.
struct JournalSample
{
    qint64 atMs = 0;             ///< since the run started
    double cpuCores = 0;         ///< CPU in use, in cores
    qint64 memoryBytes = 0;      ///< memory in use
    qint64 memoryLimitBytes = 0; ///< the container's limit; 0: unknown
    qint64 pids = -1;            ///< -1: unknown
};

/// One run as the journal recorded it.
struct JournalRun
{
    QString id;                        ///< the engine's run id
    qint64 seq = 0;                    ///< journal-wide sequence number of the last change to this run
    std::optional<RunSource> source;   ///< none: a name this version does not know
    QString clientName, clientVersion; ///< MCP clientInfo, if any
    QString backend, endpoint, image;
    QString language;
    QString code;
    QStringList libraries;
    qint64 timeoutMs = 0;
    /// The SandboxSettings values that shaped the run (memory, cpus, network, ...) and, once it finished in a
    /// sandbox, `enforced_limits`: the limits its runner found in force (EnforcedLimits::toJson()).
    QJsonObject settings;
    QString sessionId;
    QString replayOf; ///< original run id when this is a replay
    QDateTime startedAt, finishedAt;
    qint64 durationMs = 0;
    RunStatus status = RunStatus::Running;
    std::optional<int> exitCode;
    std::optional<StopReason> stopReason; ///< once it ran to an end; none while running or when it could not run
    QString error;                        ///< infrastructure failure text, when status == Failed
    std::optional<ErrorCode> errorCode;   ///< and its code
    bool coldStart = false;               ///< a container was started for the run (RunResult::coldStart)
    bool librariesCached = false;         ///< its libraries came from the library cache (RunResult::librariesCached)
    bool stopRequested = false;           ///< a person asked to stop it (RunJournal::requestStop)
    qint64 wallMs = 0, cpuMs = 0, peakMemoryKb = 0;
    QByteArray stdoutData, stderrData; ///< as recorded so far (capped)
    qint64 outputCap = 0;              ///< the journal's cap per stream for this run, in bytes
    bool outputTruncated = false;      ///< the journal cap or the engine's output cap was reached
    QList<JournalArtifact> artifacts;
    /// The user's shared folders the run could read (RunResult::sharedFolders).
    QList<SharedFolderUse> sharedFolders;
    /// The hosts the run asked its egress proxy for, distinct, in the order first asked (a summary's); empty: the run
    /// had no network.
    QStringList networkHosts;
    /// What the run was allowed to reach and every request its egress proxy logged (networkToJson(); a run's details
    /// only); empty: no network.
    QJsonObject network;
    /// The files llm-sandbox saved into the user's shared folders for the run, in the order they were saved.
    QList<SavedResult> savedResults;
    // What the assistant asked, exactly (MCP runs only):
    QJsonObject mcpRequest;  ///< the tools/call request as the client sent it (JSON-RPC message)
    QJsonObject mcpResponse; ///< the result as it was returned (text and image items)
    QString protocolVersion;

    /// Whether it was stopped rather than ending on its own: a timeout, a limit, a cancel, a failed compile.
    bool wasStopped() const { return stopReason && *stopReason != StopReason::Exited; }
    RunOutcome outcome() const { return runOutcomeOf(status, stopReason, exitCode); }
    /// Whether the run asked for network and got some (its details: network is not empty).
    bool hasNetwork() const { return !network.isEmpty(); }
    /// What the run was allowed to reach (network's "allowed": NetworkHost::text() each), in the order granted.
    QStringList networkAllowed() const;
    /// Every request its egress proxy logged (network's "connections"), in the order they ended.
    QList<NetworkConnection> networkConnections() const;
};

/// What a run gained since a reader last looked (JournalReader::runSince, JournalFeed's followers): its summary as it
/// is now and only what was added to it, so a view appends instead of showing the whole run again.
struct JournalRunUpdate
{
    /// The summary now, with the shared folders and saved results; everything (code, output, artifacts, MCP exchange)
    /// when `whole`.
    JournalRun run;
    bool whole = false;
    QByteArray stdoutAdded, stderrAdded;     ///< output written after the offsets asked for (not when `whole`)
    QList<JournalArtifact> artifactsAdded;   ///< artifacts from the position asked for (not when `whole`)
    qint64 stdoutBytes = 0, stderrBytes = 0; ///< the recorded output's length now: the next offsets
    int artifactCount = 0;                   ///< the run's artifacts now: the next position
    bool hasExchange = false;                ///< run.mcpRequest/mcpResponse are set (whole, or read once it ended)
};

/// Which runs JournalReader::list() and count() return. Empty / invalid members match everything.
struct RunFilter
{
    QString language;
    std::optional<RunStatus> status;
    std::optional<RunOutcome> outcome; ///< ended so (JournalRun::outcome())
    QList<RunSource> sources;          ///< started from one of these (an assistant: {Mcp, Http}); empty: from anywhere
    QDateTime from, to;                ///< started within [from, to] when valid
    QString text;                      ///< substring of code, stdout or stderr
    bool sampled = false;              ///< only runs with resource samples, or still running (they may get some)
};

/// An artifact with the run that made it: a row of the artifact gallery.
struct JournalArtifactEntry
{
    QString runId;
    int position = 0; ///< its place among the run's artifacts
    QDateTime startedAt;
    QString language;
    std::optional<RunSource> source;
    QString clientName;
    JournalArtifact artifact;
};

/// Which artifacts JournalReader::artifacts() returns; the empty filter matches all.
struct ArtifactFilter
{
    RunFilter runs;     ///< of the runs this matches
    QString runId;      ///< of this run only
    QString connection; ///< of the runs this MCP connection asked for (RunRequest::connection) only
    QString mimeType;   ///< exactly this type, or a type beginning with it when it ends in '/' ("image/")
};

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::JournalRun)
Q_DECLARE_METATYPE(sandbox::JournalRunUpdate)
