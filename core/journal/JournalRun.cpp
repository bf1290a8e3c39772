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

} // namespace sandbox
