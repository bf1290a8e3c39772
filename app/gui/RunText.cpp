#include "gui/RunText.h"

#include "lang/LanguageRegistry.h"

#include <QCoreApplication>

namespace sandbox::gui {

QString runSourceText(const JournalRun &run)
{
    QString source = run.source.isEmpty() ? QCoreApplication::translate("RunText", "unknown") : run.source;
    if (source == QLatin1String("mcp")) {
        source = QStringLiteral("MCP");
    } else if (source == QLatin1String("gui")) {
        source = QCoreApplication::translate("RunText", "Console");
    } else if (source == QLatin1String("cli")) {
        source = QCoreApplication::translate("RunText", "Command line");
    } else if (source == QLatin1String("http")) {
        source = QStringLiteral("HTTP");
    } else if (source == QLatin1String("replay")) {
        source = QCoreApplication::translate("RunText", "Replay");
    }
    if (!run.clientName.isEmpty()) {
        source += QStringLiteral(" · ") + run.clientName;
    }
    return source;
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

QString stopReasonText(const QString &reason)
{
    if (reason == QLatin1String("exit")) {
        return QCoreApplication::translate("RunText", "exited");
    }
    if (reason == QLatin1String("timeout")) {
        return QCoreApplication::translate("RunText", "timed out");
    }
    if (reason == QLatin1String("oom")) {
        return QCoreApplication::translate("RunText", "out of memory");
    }
    if (reason == QLatin1String("cpu_limit")) {
        return QCoreApplication::translate("RunText", "CPU-time limit");
    }
    if (reason == QLatin1String("output_limit")) {
        return QCoreApplication::translate("RunText", "output limit");
    }
    if (reason == QLatin1String("cancelled")) {
        return QCoreApplication::translate("RunText", "stopped");
    }
    if (reason == QLatin1String("compile_failed")) {
        return QCoreApplication::translate("RunText", "compile error");
    }
    return reason;
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
    if (!run.stopReason.isEmpty() && run.stopReason != QLatin1String("exit")) {
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

QString languageText(const QString &name)
{
    auto language = LanguageRegistry::instance().find(name);
    return language ? language->displayName : name;
}

} // namespace sandbox::gui
