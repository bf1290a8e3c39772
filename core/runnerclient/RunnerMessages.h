#pragma once

#include "engine/EnforcedLimits.h"
#include "engine/RunObserver.h"
#include "util/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <chrono>
#include <optional>
#include <variant>

namespace sandbox {

// The messages of the runner protocol (runner/PROTOCOL.md, runner/Protocol.h), typed. Nothing else in the
// engine builds or reads their JSON.

/// A file of a `run` or `put_file` request; `path` is relative to the request's workdir.
struct RunnerFile
{
    QString path;
    QByteArray data;
    int mode = 0644;
};

/// One step of a run: a program and its arguments.
struct RunnerStep
{
    QString name;
    QStringList argv;
    /// The language's preloaded interpreter the runner may run this step as a fork of (Language::preloaded).
    QStringList preload;
    /// A compile step's output file, which a warm container keeps under `reuseKey` for the same program and copies
    /// out instead of running the step (runner/ReusedOutputs.h); empty: none.
    QString reuseKey;
    QString reuseFile;
};

/// A directory the runner keeps from run to run instead of emptying it (runner/KeptDirectory.h).
struct RunnerKeptDir
{
    QString path;
    QString seed; ///< a read-only directory it starts as links to; empty: none
    bool operator==(const RunnerKeptDir &) const = default;
};

/// A writable shared folder's directory (runner/ResultDirectory.h): made `seed`'s links at the start of each run, what
/// the run added sent after it (RunnerResultFileEvent).
struct RunnerResultDir
{
    QString path;
    QString seed;
    bool operator==(const RunnerResultDir &) const = default;
};

/// `run`: write the files, run the steps, stream output, send the artifacts and `done`.
struct RunnerRunRequest
{
    QString id;
    QString workdir;
    QList<RunnerFile> files;
    QList<RunnerStep> steps;
    QMap<QString, QString> env; ///< the whole environment of the steps
    std::chrono::milliseconds timeout{30000};
    std::chrono::milliseconds cpuLimit{0}; ///< per process (RLIMIT_CPU); 0: none
    qint64 maxOutputBytes = 1024 * 1024;
    QString outputDir; ///< empty: no artifacts are collected
    qint64 maxArtifactBytes = 10 * 1024 * 1024;
    int maxArtifacts = 32;
    bool keepFiles = false;
    QStringList scratchDirs;
    QList<RunnerKeptDir> keptDirs;
    QList<RunnerResultDir> resultDirs;
    int maxResultFiles = 100;
    qint64 maxResultBytes = 100 * 1024 * 1024;
    bool keepProcesses = false;
};

/// `cancel`: kills the run `id`.
struct RunnerCancelRequest
{
    QString id;
};

/// `put_file`: writes one file below `workdir`, outside of any run.
struct RunnerPutFileRequest
{
    QString id;
    QString workdir;
    RunnerFile file;
};

/// `get_file`: reads one file below `workdir`, refused when larger than `maxBytes`.
struct RunnerGetFileRequest
{
    QString id;
    QString workdir;
    QString path;
    qint64 maxBytes = 10 * 1024 * 1024;
};

/// `ping`, answered with `pong`.
struct RunnerPingRequest
{
};

using RunnerRequest =
    std::variant<RunnerRunRequest, RunnerCancelRequest, RunnerPutFileRequest, RunnerGetFileRequest, RunnerPingRequest>;

/// `ready`: the runner started and speaks protocol `version`; `limits` are those it found in force.
struct RunnerReadyEvent
{
    int version = 0;
    EnforcedLimits limits; ///< `reported` false when the runner sent none
};

/// `output`: a chunk of a step's stdout or stderr.
struct RunnerOutputEvent
{
    QString id;
    QString step;
    OutputStream stream = OutputStream::Stdout;
    QByteArray data;
};

/// `step`: a step ended.
struct RunnerStepEvent
{
    QString id;
    QString step;
    int exitCode = 0;
    qint64 wallMs = 0;
    qint64 cpuMs = 0;
    qint64 maxRssKb = 0;
};

/// `artifact`: a file the run left in its output directory.
struct RunnerArtifactEvent
{
    QString id;
    QString name;
    QByteArray data;
};

/// `result_file`: something a run left in one of its result directories. Only a regular file directly in it, within
/// the request's limits, comes with its bytes (`data` set); the rest is named for the host to say why it was not
/// saved.
struct RunnerResultFileEvent
{
    QString id;
    QString dir;
    QString name; ///< relative to `dir`
    QString type; ///< "file", "symlink", "fifo", "socket" or "device"
    qint64 size = 0;
    std::optional<QByteArray> data;
};

/// `error`: a request the runner could not carry out; `id` is empty when it belongs to no request.
struct RunnerErrorEvent
{
    QString id;
    QString message;
};

/// Why the runner ended a run (`done`'s reason).
enum class RunnerDoneReason
{
    Exit,
    Timeout,
    OutOfMemory,
    CpuLimit,
    OutputLimit,
    Cancelled,
    Error,
};

/// `done`: the last message of a run.
struct RunnerDoneEvent
{
    QString id;
    int exitCode = -1;
    RunnerDoneReason reason = RunnerDoneReason::Exit;
    QString failedStep; ///< empty unless the run ended at a step other than the last
    qint64 wallMs = 0;
    qint64 cpuMs = 0;
    qint64 maxRssKb = 0;
    bool outputTruncated = false;
    int artifactsDropped = 0;
    bool processesSurvived = false; ///< some of the run's processes outlived SIGKILL: the container is spent
};

/// `file`: the answer to put_file (no data) or get_file.
struct RunnerFileEvent
{
    QString id;
    QString path;
    qint64 size = 0;
    QByteArray data;
};

/// `pong`: the answer to ping.
struct RunnerPongEvent
{
};

using RunnerEvent =
    std::variant<RunnerReadyEvent, RunnerOutputEvent, RunnerStepEvent, RunnerArtifactEvent, RunnerResultFileEvent,
                 RunnerErrorEvent, RunnerDoneEvent, RunnerFileEvent, RunnerPongEvent>;

/// The request as one protocol message (without the newline).
QJsonObject toJson(const RunnerRequest &request);
/// The request `json` holds; an error (BadRequest) when it is not a well-formed request.
Result<RunnerRequest> runnerRequestFromJson(const QJsonObject &json);

/// The event as one protocol message (without the newline).
QJsonObject toJson(const RunnerEvent &event);
/// The event `json` holds; an error (SandboxFailed) when it is not a well-formed event: unknown type, a required
/// field missing or of the wrong type, data that is not base64. `payload`: the bytes that followed a message with
/// `"raw":N` (a result file's content, sent as it is).
Result<RunnerEvent> runnerEventFromJson(const QJsonObject &json, const QByteArray &payload = {});

/// The id of the request an event answers (empty for ready, pong and errors of no request).
QString eventId(const RunnerEvent &event);

} // namespace sandbox
