#include "gui/RunText.h"

#include "lang/LanguageRegistry.h"

#include <QCoreApplication>
#include <QHash>

namespace sandbox::gui {

QString runSourceText(std::optional<RunSource> source)
{
    if (!source) {
        return QCoreApplication::translate("RunText", "unknown");
    }
    switch (*source) {
    case RunSource::Gui:
        return QCoreApplication::translate("RunText", "Console");
    case RunSource::Cli:
        return QCoreApplication::translate("RunText", "Command line");
    case RunSource::Mcp:
        return QStringLiteral("MCP");
    case RunSource::Http:
        return QStringLiteral("HTTP");
    case RunSource::Replay:
        return QCoreApplication::translate("RunText", "Replay");
    }
    return {};
}

QString runSourceText(const JournalRun &run)
{
    const QString source = runSourceText(run.source);
    return run.clientName.isEmpty() ? source : source + QStringLiteral(" · ") + run.clientName;
}

QString runStatusText(RunStatus status)
{
    switch (status) {
    case RunStatus::Running:
        return QCoreApplication::translate("RunText", "Running");
    case RunStatus::Finished:
        return QCoreApplication::translate("RunText", "Finished");
    case RunStatus::Failed:
        return QCoreApplication::translate("RunText", "Failed");
    case RunStatus::Interrupted:
        return QCoreApplication::translate("RunText", "Interrupted");
    }
    return {};
}

QString stopReasonText(std::optional<StopReason> reason)
{
    if (!reason) {
        return {};
    }
    switch (*reason) {
    case StopReason::Exited:
        return QCoreApplication::translate("RunText", "exited");
    case StopReason::TimedOut:
        return QCoreApplication::translate("RunText", "timed out");
    case StopReason::OutOfMemory:
        return QCoreApplication::translate("RunText", "out of memory");
    case StopReason::CpuLimit:
        return QCoreApplication::translate("RunText", "CPU-time limit");
    case StopReason::OutputLimit:
        return QCoreApplication::translate("RunText", "output limit");
    case StopReason::Cancelled:
        return QCoreApplication::translate("RunText", "stopped");
    case StopReason::CompileFailed:
        return QCoreApplication::translate("RunText", "compile error");
    }
    return {};
}

QString runOutcomeText(const JournalRun &run)
{
    if (run.status == RunStatus::Running) {
        return {};
    }
    if (run.status == RunStatus::Failed) {
        const QString firstLine = run.error.section(QLatin1Char('\n'), 0, 0);
        return firstLine.isEmpty() ? QCoreApplication::translate("RunText", "error") : firstLine;
    }
    QStringList parts;
    if (run.exitCode) {
        parts << QCoreApplication::translate("RunText", "exit %1").arg(*run.exitCode);
    }
    if (run.wasStopped()) {
        parts << stopReasonText(run.stopReason);
    }
    return parts.join(QStringLiteral(", "));
}

QString durationText(qint64 milliseconds)
{
    if (milliseconds < 1000) {
        return QCoreApplication::translate("RunText", "%1 ms").arg(milliseconds);
    }
    if (milliseconds < 60'000) {
        return QCoreApplication::translate("RunText", "%1 s")
            .arg(double(milliseconds) / 1000.0, 0, 'f', milliseconds < 10'000 ? 2 : 1);
    }
    const qint64 seconds = milliseconds / 1000;
    return QCoreApplication::translate("RunText", "%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
}

QString backendText(const QString &name)
{
    // Product names, the same in every language.
    static const QHash<QString, QString> titles{{QStringLiteral("docker"), QStringLiteral("Docker")},
                                                {QStringLiteral("podman"), QStringLiteral("Podman")},
                                                {QStringLiteral("kubernetes"), QStringLiteral("Kubernetes")}};
    return titles.value(name, name);
}

QString languageText(const QString &name)
{
    auto language = LanguageRegistry::instance().find(name);
    return language ? language->displayName : name;
}

} // namespace sandbox::gui
