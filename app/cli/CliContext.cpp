#include "cli/CliContext.h"

#include <algorithm>

namespace sandbox::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

void printColumns(const QList<QStringList> &rows)
{
    QList<qsizetype> widths(rows.isEmpty() ? 0 : rows.first().size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype column = 0; column < row.size() && column < widths.size(); ++column) {
            widths[column] = std::max(widths[column], row[column].size());
        }
    }
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype column = 0; column < row.size(); ++column) {
            line += column + 1 < row.size() ? row[column].leftJustified(widths.value(column) + 2) : row[column];
        }
        out() << line << Qt::endl;
    }
}

QCommandLineOption backendOption(const QString &description)
{
    return QCommandLineOption(QStringLiteral("backend"), description, QStringLiteral("NAME"));
}

void printError(const QString &message)
{
    err() << "llm-sandbox: " << message << Qt::endl;
}

std::optional<int> parseOrExit(QCommandLineParser &parser, const QStringList &arguments)
{
    if (!parser.parse(arguments)) {
        printError(parser.errorText());
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return 0;
    }
    return std::nullopt;
}

int exitStatusFor(const Error &error)
{
    switch (error.code) {
    case ErrorCode::BadRequest:
    case ErrorCode::NotFound:
    case ErrorCode::Unavailable:
        return ExitUsage;
    case ErrorCode::PolicyRefused:
    case ErrorCode::LimitsNotEnforced:
        return ExitRefused;
    case ErrorCode::Cancelled:
        return ExitCancelled;
    case ErrorCode::Internal:
    case ErrorCode::EngineUnreachable:
    case ErrorCode::EngineFailed:
    case ErrorCode::ImageMissing:
    case ErrorCode::LimitReached:
    case ErrorCode::InstallFailed:
    case ErrorCode::SandboxFailed:
        break;
    }
    return ExitFailure;
}

QString usageText()
{
    return QStringLiteral(R"(Usage:
  llm-sandbox                      open the desktop app
  llm-sandbox --quit-after-start   open the desktop app's window and quit at once: checks that the app starts
  llm-sandbox --mcp                serve the Model Context Protocol over stdio (for Claude Desktop etc.)
  llm-sandbox run [options] (FILE | -c CODE | -)
                                   run code in a sandbox; output passes through, the exit status is the program's
      --backend NAME               docker, podman or kubernetes (default: $BACKEND, then the app's setting,
                                   then docker)
      -l, --lang LANG              python, javascript, java, cpp, go, r, ruby (default: from FILE, else python)
      -t, --timeout SECONDS        wall-clock limit (default 30, or the app's setting); the whole process tree
                                   is killed
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
  llm-sandbox images push [--registry HOST[:PORT]] [--backend docker|podman] [LANG...]
                                   build what is missing, then push the images (all languages by default) to the
                                   registry as HOST[:PORT]/llm-sandbox/LANG:TAG, where the kubernetes backend
                                   pulls them from (default registry: $LLM_SANDBOX_REGISTRY)
  llm-sandbox images login REGISTRY [--username NAME] [--backend docker|podman]
                                   check a login with the registry, then keep it in the system keychain for
                                   images push; the password (or token) is read from stdin, never from argv
  llm-sandbox images logout REGISTRY
                                   remove that login from the keychain
  llm-sandbox doctor [--backend NAME]
                                   check each backend and image; non-zero when the selected backend is unusable
  llm-sandbox serve --http HOST:PORT [--backend NAME] [--allow-remote] [--allow-origin ORIGIN]...
                                   serve MCP over Streamable HTTP at http://HOST:PORT/mcp; clients send
                                   "Authorization: Bearer TOKEN" (token made on first use, kept in the keychain)
  llm-sandbox serve --show-token   print that token
  llm-sandbox history [--limit N] [--json] [--language LANG] [--source SOURCE] [--status STATUS]
                                   list the recorded runs of every face (GUI, CLI, MCP, HTTP), newest first
  llm-sandbox show RUN_ID [--json] everything recorded about one run: code, output, artifacts (with their paths),
                                   settings, resource usage and, for MCP runs, the tool call and its reply;
                                   exit status 2 for an unknown RUN_ID
  llm-sandbox ps [--backend NAME] [--json]
                                   the sandboxes llm-sandbox runs on the backend (of every llm-sandbox process):
                                   language, owner process, session, age, CPU, memory and limit, processes;
                                   kubernetes needs metrics-server for CPU and memory
  llm-sandbox install-mcp [--client claude-desktop|cursor|vscode] [--transport stdio|http] [--backend NAME]
                          [--url URL] [--dry-run]
                                   add llm-sandbox to the assistant's MCP configuration file (other servers and
                                   settings are kept byte for byte; the previous file is kept as FILE.bak)
  llm-sandbox uninstall-mcp [--client NAME] [--dry-run]
                                   remove it again, and nothing else
  llm-sandbox --help | --version

Exit status of `run`: the program's own, 124 when it timed out, 125 when the sandbox could not run it
(engine unreachable, image missing, install failed), 126 when the code policy refused the code, 130 when
cancelled, 2 for a usage error or a bad request.

Environment:
  BACKEND                          docker (default), podman or kubernetes
  LLM_SANDBOX_DEFAULT_TIMEOUT      seconds a run may take when it names no timeout (default 30)
  DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH
                                   the Docker engine, as the docker CLI reads them
  CONTAINER_HOST                   Podman's API service (default unix:///run/podman/podman.sock)
  SANDBOX_MEM_LIMIT, SANDBOX_CPU_COUNT, SANDBOX_NETWORK_MODE, SANDBOX_READ_ONLY, SANDBOX_PRIVILEGED,
  SANDBOX_CAP_DROP, SANDBOX_SECURITY_OPT
                                   sandbox limits (see README)
  LLM_SANDBOX_IMAGE_<LANG>         run LANG in this image instead of the built one (e.g. LLM_SANDBOX_IMAGE_PYTHON)
  LLM_SANDBOX_BASE_IMAGE           a Debian 13 image to build on instead of running debootstrap
  LLM_SANDBOX_HTTP_TOKEN           the token `serve` requires, instead of the one in the system keychain
  LLM_SANDBOX_JOURNAL              the run journal's file (default ~/.local/share/llm-sandbox/journal.sqlite),
                                   or "off" to record nothing
)");
}

} // namespace sandbox::cli
