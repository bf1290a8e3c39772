#pragma once

#include "fakes/FakeRunGate.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace sandbox::test {

/// One `output` event of a scripted run.
struct FakeOutputChunk
{
    QString stream = QStringLiteral("stdout"); ///< stdout or stderr
    QByteArray data;
};

/// One `artifact` event of a scripted run: a file the run left in its output directory.
struct FakeArtifact
{
    QString name;
    QByteArray data;
};

/// A `run` request as the fake runner received it.
struct FakeRun
{
    QString containerId;
    QJsonObject request; ///< the request exactly as sent
    QString id;          ///< the run's id (the engine's run id)
    QByteArray code;     ///< the data of the request's first file: the engine puts the source there
    QStringList steps;   ///< the names of the request's steps ("compile", "run", "install")
    bool keepFiles = false;
    bool keepProcesses = false;
    /// The container's files after the request's own were written (absolute path -> data).
    QHash<QString, QByteArray> files;
};

/// What a fake run does, in the order of the real runner's events: `output`, then (when `gate` is set) it waits
/// until the gate opens, is cancelled or the container ends, then `outputAfterGate`, the files it writes, its
/// artifacts and `done`. A cancelled run skips what follows the gate and ends with reason `cancelled`, exit 137.
struct FakeRunScript
{
    QList<FakeOutputChunk> output;
    std::shared_ptr<FakeRunGate> gate;
    QList<FakeOutputChunk> outputAfterGate;
    /// Files the run writes, relative to the request's workdir (kept with keep_files, e.g. in a session).
    QHash<QString, QByteArray> writesFiles;
    QList<FakeArtifact> artifacts;
    /// An `error` event before `done` (a step the runner could not start); use with reason "error".
    QString errorMessage;
    int exitCode = 0;
    QString reason = QStringLiteral("exit"); ///< exit, timeout, oom, cpu_limit, output_limit, cancelled, error
    QString failedStep;                      ///< empty: null
    qint64 wallMs = 1;
    qint64 cpuMs = 1;
    qint64 maxRssKb = 1024;
    bool outputTruncated = false;
    int artifactsDropped = 0;
    bool processesSurvived = false;
    /// The container dies after `output` (and the gate): its stream ends without a `done`.
    bool containerDies = false;

    /// A run that writes `text` to stdout and exits with `exitCode`.
    static FakeRunScript printing(const QByteArray &text, int exitCode = 0)
    {
        FakeRunScript script;
        script.output.append({QStringLiteral("stdout"), text});
        script.exitCode = exitCode;
        return script;
    }
    /// A run that waits for `gate` before it ends.
    static FakeRunScript heldBy(std::shared_ptr<FakeRunGate> gate)
    {
        FakeRunScript script;
        script.gate = std::move(gate);
        return script;
    }
};

} // namespace sandbox::test
