#include "journal/JournalRun.h"

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

QString toString(RunSource source)
{
    switch (source) {
    case RunSource::Gui:
        return QStringLiteral("gui");
    case RunSource::Cli:
        return QStringLiteral("cli");
    case RunSource::Mcp:
        return QStringLiteral("mcp");
    case RunSource::Http:
        return QStringLiteral("http");
    case RunSource::Replay:
        return QStringLiteral("replay");
    }
    return QStringLiteral("cli");
}

std::optional<RunSource> runSourceFromString(const QString &text)
{
    for (RunSource source : kRunSources) {
        if (text == toString(source)) {
            return source;
        }
    }
    return std::nullopt;
}

QString toString(const QList<RunSource> &sources)
{
    QStringList names;
    for (const RunSource source : sources) {
        names << toString(source);
    }
    return names.join(QLatin1Char(','));
}

QList<RunSource> runSourcesFromString(const QString &text)
{
    QList<RunSource> sources;
    for (const QString &name : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<RunSource> source = runSourceFromString(name.trimmed());
        if (!source) {
            return {};
        }
        sources << *source;
    }
    return sources;
}

} // namespace sandbox
