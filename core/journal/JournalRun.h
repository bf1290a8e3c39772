#pragma once
// PLACEHOLDER (branch gui-history): the contract of /work/journal-api.md, until branch `journal` lands.

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

struct JournalArtifact
{
    QString name;
    QString mimeType;
    qint64 size = 0;
    int width = 0;
    int height = 0;
    QString path;
};

enum class RunStatus
{
    Running,
    Finished,
    Failed,
    Interrupted
};

inline QString toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return QStringLiteral("running");
    case RunStatus::Finished: return QStringLiteral("finished");
    case RunStatus::Failed: return QStringLiteral("failed");
    case RunStatus::Interrupted: return QStringLiteral("interrupted");
    }
    return {};
}

inline std::optional<RunStatus> runStatusFromString(const QString &text)
{
    for (RunStatus status : {RunStatus::Running, RunStatus::Finished, RunStatus::Failed, RunStatus::Interrupted}) {
        if (toString(status) == text) {
            return status;
        }
    }
    return std::nullopt;
}

struct JournalRun
{
    QString id;
    qint64 seq = 0;
    QString source;
    QString clientName, clientVersion;
    QString backend, endpoint, image;
    QString language;
    QString code;
    QStringList libraries;
    qint64 timeoutMs = 0;
    QJsonObject settings;
    QString sessionId;
    QString replayOf;
    QDateTime startedAt, finishedAt;
    qint64 durationMs = 0;
    RunStatus status = RunStatus::Running;
    std::optional<int> exitCode;
    QString stopReason;
    QString error;
    qint64 wallMs = 0, cpuMs = 0, peakMemoryKb = 0;
    QByteArray stdoutData, stderrData;
    qint64 outputCap = 0;
    bool outputTruncated = false;
    QList<JournalArtifact> artifacts;
    QJsonObject mcpRequest;
    QJsonObject mcpResponse;
    QString protocolVersion;
};

struct RunFilter
{
    QString language;
    std::optional<RunStatus> status;
    QString source;
    QDateTime from, to;
    QString text;
};

} // namespace sandbox
