// The one llm-sandbox executable: looks at argv and dispatches. The MCP server and the command line get a
// QCoreApplication, only the desktop app a QApplication; each face assembles itself through AppContext.
#include "AppTranslations.h"
#include "cli/CliContext.h"
#include "cli/DoctorCommand.h"
#include "cli/HistoryCommand.h"
#include "cli/ImagesCommand.h"
#include "cli/InstallMcpCommand.h"
#include "cli/LibrariesCommand.h"
#include "cli/McpCommand.h"
#include "cli/PsCommand.h"
#include "cli/RunCommand.h"
#include "cli/SecretsCommand.h"
#include "cli/ServeCommand.h"
#include "cli/ShowCommand.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#ifdef LLM_SANDBOX_HAVE_GUI
#include "gui/GuiApplication.h"
#include "gui/widgets/ImageDecoderProcess.h"
#endif

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("llm-sandbox"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LLM_SANDBOX_VERSION));
    // Debug output of our modules only on request (QT_LOGGING_RULES="sandbox.*.debug=true").
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false"));

    using namespace sandbox::cli;
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    const bool quitAfterStart = first == QLatin1String("--quit-after-start");
    const bool newInstance = first == QLatin1String("--new-instance");
#ifdef LLM_SANDBOX_HAVE_GUI
    if (first.isEmpty() || quitAfterStart || newInstance) {
        return sandbox::gui::runDesktopApp(argc, argv, {.quitAfterStart = quitAfterStart, .newInstance = newInstance});
    }
    // The desktop app's helper that decodes a sandbox's images (not a command for people: no help, no translation).
    if (first == QLatin1String("--decode-image")) {
        return sandbox::gui::ImageDecoderProcess::runHelper(argc, argv);
    }
#endif

    QCoreApplication app(argc, argv);
    sandbox::installUserTranslations(); // before any text for a person, --help's included
    if (first.isEmpty() || quitAfterStart || newInstance) {
        printError(Cli::tr("this build has no desktop app; see `llm-sandbox --help` for the commands."));
        return ExitUsage;
    }
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        std::fputs(qPrintable(usageText()), stdout);
        return 0;
    }
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        std::printf("llm-sandbox %s\n", LLM_SANDBOX_VERSION);
        return 0;
    }
    QStringList arguments = app.arguments();
    arguments.removeAt(1); // the command; QCommandLineParser sees "llm-sandbox OPTIONS..."
    using Command = int (*)(const QStringList &);
    const std::pair<const char *, Command> commands[] = {
        {"--mcp", mcpCommand},
        {"run", runCommand},
        {"images", imagesCommand},
        {"doctor", doctorCommand},
        {"serve", serveCommand},
        {"history", historyCommand},
        {"show", showCommand},
        {"ps", psCommand},
        {"install-mcp", installMcpCommand},
        {"uninstall-mcp", uninstallMcpCommand},
        {"secrets", secretsCommand},
        {"libraries", librariesCommand},
    };
    for (const auto &[name, command] : commands) {
        if (first == QLatin1String(name)) {
            return command(arguments);
        }
    }
    printError(Cli::tr("unknown command \"%1\"; see `llm-sandbox --help`.").arg(first));
    return ExitUsage;
}
