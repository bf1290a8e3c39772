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

QString languageText(const QString &name)
{
    auto language = LanguageRegistry::instance().find(name);
    return language ? language->displayName : name;
}

} // namespace sandbox::gui
