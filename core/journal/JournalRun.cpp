#include "journal/JournalRun.h"

#include <QJsonArray>

namespace sandbox {

QString toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Running:
        return QStringLiteral("running");
    case RunStatus::Finished:
        return QStringLiteral("finished");
    case RunStatus::Failed:
        return QStringLiteral("failed");
    case RunStatus::Interrupted:
        return QStringLiteral("interrupted");
    }
    return QStringLiteral("running");
}

std::optional<RunStatus> runStatusFromString(const QString &text)
{
    for (RunStatus status : {RunStatus::Running, RunStatus::Finished, RunStatus::Failed, RunStatus::Interrupted}) {
        if (text.compare(toString(status), Qt::CaseInsensitive) == 0) {
            return status;
        }
    }
    return std::nullopt;
}

RunOutcome runOutcomeOf(RunStatus status, std::optional<StopReason> reason, std::optional<int> exitCode)
{
    switch (status) {
    case RunStatus::Running:
        return RunOutcome::Running;
    case RunStatus::Failed:
        return RunOutcome::Failed;
    case RunStatus::Interrupted:
        return RunOutcome::Interrupted;
    case RunStatus::Finished:
        break;
    }
    if (reason == StopReason::TimedOut) {
        return RunOutcome::TimedOut;
    }
    if (reason == StopReason::CompileFailed) {
        return RunOutcome::ExitedWithError;
    }
    if (reason != StopReason::Exited) {
        return RunOutcome::Stopped;
    }
    return exitCode == 0 ? RunOutcome::Succeeded : RunOutcome::ExitedWithError;
}

QStringList JournalRun::networkAllowed() const
{
    QStringList hosts;
    for (const QJsonValue &host : network.value(QStringLiteral("allowed")).toArray()) {
        if (host.isString()) {
            hosts << host.toString();
        }
    }
    return hosts;
}

QList<NetworkConnection> JournalRun::networkConnections() const
{
    return NetworkConnection::listFromJson(network.value(QStringLiteral("connections")).toArray());
}

} // namespace sandbox
