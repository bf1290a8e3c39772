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

} // namespace sandbox
