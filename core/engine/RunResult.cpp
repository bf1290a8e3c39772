#include "engine/RunResult.h"

namespace sandbox {

QString toString(StopReason reason)
{
    switch (reason) {
    case StopReason::Exited:
        return QStringLiteral("exit");
    case StopReason::TimedOut:
        return QStringLiteral("timeout");
    case StopReason::OutOfMemory:
        return QStringLiteral("oom");
    case StopReason::CpuLimit:
        return QStringLiteral("cpu_limit");
    case StopReason::OutputLimit:
        return QStringLiteral("output_limit");
    case StopReason::Cancelled:
        return QStringLiteral("cancelled");
    case StopReason::CompileFailed:
        return QStringLiteral("compile_failed");
    case StopReason::StoppedByUser:
        return QStringLiteral("stopped_by_user");
    }
    return QStringLiteral("exit");
}

std::optional<StopReason> stopReasonFromString(QStringView text)
{
    for (int reason = int(StopReason::Exited); reason <= int(StopReason::StoppedByUser); ++reason) {
        if (text == toString(StopReason(reason))) {
            return StopReason(reason);
        }
    }
    return std::nullopt;
}

} // namespace sandbox
