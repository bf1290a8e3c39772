// The one llm-sandbox executable: looks at argv and builds a QCoreApplication for the
// MCP server and the command line, a QApplication only for the desktop app.
#include "backend/BackendFactory.h"
#include "cli/CliContext.h"
#include "cli/DoctorCommand.h"
#include "cli/ImagesCommand.h"
#include "cli/RunCommand.h"
#include "cli/ServeCommand.h"
#include "engine/ExecutionEngine.h"
#include "mcp/StdioServer.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#ifdef LLM_SANDBOX_HAVE_GUI
#include "AppContext.h"
#include "gui/MainWindow.h"

#include <QApplication>
#include <QMessageBox>
#endif

#include <cstdio>

namespace {

const char *const kUsage = R"(Usage:
  llm-sandbox                      open the desktop app
  llm-sandbox --mcp                serve the Model Context Protocol over stdio (for Claude Desktop etc.)
  llm-sandbox run [options] (FILE | -c CODE | -)
                                   run code in a sandbox; output passes through, the exit status is the program's
      --backend NAME               docker, podman or kubernetes (default: $BACKEND, then docker)
      -l, --lang LANG              python, javascript, java, cpp, go, r, ruby (default: from FILE, else python)
      -t, --timeout SECONDS        wall-clock limit (default 30); the whole process tree is killed
      --json                       print one JSON object: exit_code, stdout, stderr, duration_ms, timed_out,
                                   stop_reason, resource_usage, artifacts [{name, mime_type, size, path}], ...
      --policy NAME                code policy checked first: permissive, default (refuses starting other
                                   programs), strict (also network, eval, paths outside the sandbox)
      --lib NAME                   install a library first (repeatable; the install step may use the network,
                                   the code never does): pip, npm, group:artifact:version, go module, R, gem
      --artifacts-dir DIR          save charts and other artifacts there (default: a folder per run
                                   under ~/.local/share/llm-sandbox/artifacts)
  llm-sandbox images build [--backend NAME] [--copy-from NAME] [LANG...]
                                   build the sandbox images (all languages by default; unchanged ones are kept)
      --copy-from NAME             copy the images engine NAME already has (e.g. docker) instead of building
                                   them again; images it lacks are built
  llm-sandbox images list [--backend NAME]
                                   show the images and whether they are built
  llm-sandbox doctor [--backend NAME]
                                   check each backend and image; non-zero when the selected backend is unusable
  llm-sandbox serve --http HOST:PORT [--backend NAME] [--allow-remote] [--allow-origin ORIGIN]...
                                   serve MCP over Streamable HTTP at http://HOST:PORT/mcp; clients send
                                   "Authorization: Bearer TOKEN" (token made on first use, kept in the keychain)
  llm-sandbox serve --show-token   print that token
  llm-sandbox --help | --version

Exit status of `run`: the program's own, 124 when it timed out, 125 when the sandbox could not run it,
2 for a usage error.

Environment:
  BACKEND                          docker (default), podman or kubernetes
  DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH
                                   the Docker engine, as the docker CLI reads them
  CONTAINER_HOST                   Podman's API service (default unix:///run/podman/podman.sock)
  SANDBOX_MEM_LIMIT, SANDBOX_CPU_COUNT, SANDBOX_NETWORK_MODE, SANDBOX_READ_ONLY, SANDBOX_PRIVILEGED,
  SANDBOX_CAP_DROP, SANDBOX_SECURITY_OPT
                                   sandbox limits (see README)
  LLM_SANDBOX_IMAGE_<LANG>         run LANG in this image instead of the built one (e.g. LLM_SANDBOX_IMAGE_PYTHON)
  LLM_SANDBOX_BASE_IMAGE           a Debian 12 image to build on instead of running debootstrap
  LLM_SANDBOX_HTTP_TOKEN           the token `serve` requires, instead of the one in the system keychain
)";

int runMcpServer()
{
    // stdout is the protocol: nothing else may be written there.
    auto settings = sandbox::SandboxSettings::fromEnvironment();
    if (!settings) {
        std::fprintf(stderr, "llm-sandbox: %s\n", qPrintable(settings.error().message));
        return sandbox::cli::ExitUsage;
    }
    std::unique_ptr<sandbox::ExecutionEngine> engine;
    if (auto backend = sandbox::BackendFactory::create(); backend) {
        engine = std::make_unique<sandbox::ExecutionEngine>(*backend, *settings);
        engine->removeOrphanedContainers();
        // The first execute_code should not pay for a container start: the usual language is warmed now.
        engine->prewarm(QStringLiteral("python"));
    } else {
        // Still serve: the language tools work, and execute_code explains what is wrong.
        std::fprintf(stderr, "llm-sandbox: %s\n", qPrintable(backend.error().message));
    }
    sandbox::mcp::StdioServer server(engine.get());
    return server.exec();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("llm-sandbox"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LLM_SANDBOX_VERSION));
    // Debug output of our modules only on request (QT_LOGGING_RULES="sandbox.*.debug=true").
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false"));

    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        std::printf("llm-sandbox %s\n", LLM_SANDBOX_VERSION);
        return 0;
    }

    if (!first.isEmpty()) {
        QCoreApplication app(argc, argv);
        QStringList arguments = app.arguments();
        arguments.removeAt(1); // the command; QCommandLineParser sees "llm-sandbox OPTIONS..."
        if (first == QLatin1String("--mcp")) {
            if (argc > 2) {
                sandbox::cli::printError(QStringLiteral("--mcp takes no other arguments."));
                return sandbox::cli::ExitUsage;
            }
            return runMcpServer();
        }
        if (first == QLatin1String("run")) {
            return sandbox::cli::runCommand(arguments);
        }
        if (first == QLatin1String("images")) {
            return sandbox::cli::imagesCommand(arguments);
        }
        if (first == QLatin1String("doctor")) {
            return sandbox::cli::doctorCommand(arguments);
        }
        if (first == QLatin1String("serve")) {
            return sandbox::cli::serveCommand(arguments);
        }
        sandbox::cli::printError(QStringLiteral("unknown command \"%1\"; see `llm-sandbox --help`.").arg(first));
        return sandbox::cli::ExitUsage;
    }

#ifdef LLM_SANDBOX_HAVE_GUI
    QApplication app(argc, argv);
    sandbox::AppContext::Options options;
    options.source = QStringLiteral("gui");
    options.removeOrphans = true;
    auto context = sandbox::AppContext::create(options);
    if (!context) {
        QMessageBox::critical(nullptr, QObject::tr("LLM Sandbox"), context.error().message);
        return 1;
    }
    int status = 0;
    {
        // The window (and the runs it owns) goes before the context whose engines they use.
        sandbox::gui::MainWindow window(**context);
        window.show();
        status = app.exec();
    }
    return status;
#else
    sandbox::cli::printError(
        QStringLiteral("this build has no desktop app; see `llm-sandbox --help` for the commands."));
    return sandbox::cli::ExitUsage;
#endif
}
