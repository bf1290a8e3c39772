#include "cli/CliContext.h"

#include "ErrorText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

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

int displayWidth(const QString &text)
{
    int width = 0;
    for (const char32_t c : text.toUcs4()) {
        // East Asian Wide and Fullwidth (Unicode TR 11): Hangul Jamo, CJK and its punctuation, Hangul syllables,
        // compatibility ideographs, vertical and small forms, fullwidth forms, the supplementary ideographs.
        const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) ||
                          (c >= 0x3041 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
                          (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE10 && c <= 0xFE19) ||
                          (c >= 0xFE30 && c <= 0xFE6F) || (c >= 0xFF00 && c <= 0xFF60) ||
                          (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
        width += wide ? 2 : 1;
    }
    return width;
}

QString padded(const QString &text, int columns)
{
    const QString fill(std::max(0, std::abs(columns) - displayWidth(text)), QLatin1Char(' '));
    return columns < 0 ? text + fill : fill + text;
}

QString truncated(const QString &text, int columns)
{
    qsizetype end = 0;
    for (int width = 0; end < text.size(); ++end) {
        // A surrogate pair is one character: measured, and kept or dropped, whole.
        const qsizetype length = text.at(end).isHighSurrogate() && end + 1 < text.size() ? 2 : 1;
        width += displayWidth(text.mid(end, length));
        if (width > columns) {
            break;
        }
        end += length - 1;
    }
    return text.left(end);
}

void printColumns(const QList<QStringList> &rows)
{
    QList<int> widths(rows.isEmpty() ? 0 : rows.first().size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype column = 0; column < row.size() && column < widths.size(); ++column) {
            widths[column] = std::max(widths[column], displayWidth(row[column]));
        }
    }
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype column = 0; column < row.size(); ++column) {
            line += column + 1 < row.size() ? padded(row[column], -(widths.value(column) + 2)) : row[column];
        }
        out() << line << Qt::endl;
    }
}

QCommandLineOption backendOption(const QString &description)
{
    return QCommandLineOption(
        QStringLiteral("backend"),
        description.isEmpty() ? Cli::tr("docker, podman or kubernetes (default: $BACKEND, then docker).") : description,
        QStringLiteral("NAME"));
}

void printError(const QString &message)
{
    err() << "llm-sandbox: " << message << Qt::endl;
}

void printError(const Error &error)
{
    printError(errorLine(error));
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

namespace {

/// Where the usage text's descriptions start.
constexpr int kUsageColumn = 35;

/// Appends `syntax` (untranslated; it may take several lines) and `description` (translated; its later lines are
/// indented to the description column) to `usage`: beside the syntax when it fits, else on the line below.
void addUsage(QString &usage, QLatin1StringView syntax, const QString &description = {})
{
    usage += syntax;
    if (!description.isEmpty()) {
        const QString indent(kUsageColumn, QLatin1Char(' '));
        const qsizetype lastLine = syntax.size() - syntax.lastIndexOf(QLatin1Char('\n')) - 1;
        usage += lastLine < kUsageColumn ? QString(kUsageColumn - lastLine, QLatin1Char(' ')) : u'\n' + indent;
        usage += QString(description).replace(QLatin1Char('\n'), u'\n' + indent);
    }
    usage += u'\n';
}

} // namespace

QString usageText()
{
    QString usage = Cli::tr("Usage:") + u'\n';
    addUsage(usage, "  llm-sandbox"_L1, Cli::tr("open the desktop app"));
    addUsage(usage, "  llm-sandbox --new-instance"_L1,
             Cli::tr("open another desktop app window even when one runs with these settings\n(else the running "
                     "one comes forward)"));
    addUsage(usage, "  llm-sandbox --quit-after-start"_L1,
             Cli::tr("open the desktop app's window and quit at once: checks that the app starts"));
    addUsage(usage, "  llm-sandbox --mcp"_L1,
             Cli::tr("serve the Model Context Protocol over stdio (for Claude Desktop etc.)"));
    addUsage(usage, "  llm-sandbox run [options] (FILE | -c CODE | -)"_L1,
             Cli::tr("run code in a sandbox; output passes through, the exit status is the program's"));
    addUsage(usage, "      --backend NAME"_L1,
             Cli::tr("docker, podman or kubernetes (default: $BACKEND, then the app's setting,\nthen docker)"));
    addUsage(usage, "      -l, --lang LANG"_L1,
             Cli::tr("python, javascript, java, cpp, go, r, ruby (default: from FILE, else python)"));
    addUsage(usage, "      -t, --timeout SECONDS"_L1,
             Cli::tr("wall-clock limit (default 30, or the app's setting); the whole process tree\nis killed"));
    addUsage(usage, "      --json"_L1,
             Cli::tr("print one JSON object: exit_code, stdout, stderr, duration_ms, timed_out,\n"
                     "stop_reason, resource_usage, artifacts [{name, mime_type, size, path}], ..."));
    addUsage(usage, "      --policy NAME"_L1,
             Cli::tr("code policy checked first: permissive, default (refuses starting other\n"
                     "programs), strict (also network, eval, paths outside the sandbox)"));
    addUsage(usage, "      --lib NAME"_L1,
             Cli::tr("install a library first (repeatable; the install step may use the network,\n"
                     "the code never does): pip, npm, group:artifact:version, go module, R, gem"));
    addUsage(usage, "      --artifacts-dir DIR"_L1,
             Cli::tr("save charts and other artifacts there (default: a folder per run\n"
                     "under ~/.local/share/llm-sandbox/artifacts)"));
    addUsage(usage, "  llm-sandbox images build [--backend NAME] [--copy-from NAME] [LANG...]"_L1,
             Cli::tr("build the sandbox images (all languages by default; unchanged ones are kept)"));
    addUsage(usage, "      --copy-from NAME"_L1,
             Cli::tr("copy the images engine NAME already has (e.g. docker) instead of building\n"
                     "them again; images it lacks are built"));
    addUsage(usage, "  llm-sandbox images list [--backend NAME]"_L1,
             Cli::tr("show the images and whether they are built"));
    addUsage(usage, "  llm-sandbox images push [--registry HOST[:PORT]] [--backend docker|podman] [LANG...]"_L1,
             Cli::tr("build what is missing, then push the images (all languages by default) to the\n"
                     "registry as HOST[:PORT]/llm-sandbox/LANG:TAG, where the kubernetes backend\n"
                     "pulls them from (default registry: $LLM_SANDBOX_REGISTRY)"));
    addUsage(usage, "  llm-sandbox images login REGISTRY [--username NAME] [--backend docker|podman]"_L1,
             Cli::tr("check a login with the registry, then keep it in the system keychain for\n"
                     "images push; the password (or token) is read from stdin, never from argv"));
    addUsage(usage, "  llm-sandbox images logout REGISTRY"_L1, Cli::tr("remove that login from the keychain"));
    addUsage(usage, "  llm-sandbox doctor [--backend NAME]"_L1,
             Cli::tr("check each backend and image; non-zero when the selected backend is unusable"));
    addUsage(usage,
             "  llm-sandbox serve --http HOST:PORT [--backend NAME] [--allow-remote] [--allow-origin ORIGIN]..."_L1,
             Cli::tr("serve MCP over Streamable HTTP at http://HOST:PORT/mcp; clients send\n"
                     "\"Authorization: Bearer TOKEN\" (token made on first use, kept in the keychain)"));
    addUsage(usage, "  llm-sandbox serve --show-token"_L1, Cli::tr("print that token"));
    addUsage(usage,
             "  llm-sandbox history [--limit N] [--json] [--language LANG] [--source SOURCE] [--status STATUS]"_L1,
             Cli::tr("list the recorded runs of every face (GUI, CLI, MCP, HTTP), newest first"));
    addUsage(usage, "  llm-sandbox show RUN_ID [--json]"_L1,
             Cli::tr("everything recorded about one run: code, output, artifacts (with their paths),\n"
                     "settings, resource usage and, for MCP runs, the tool call and its reply;\n"
                     "exit status 2 for an unknown RUN_ID"));
    addUsage(usage, "  llm-sandbox ps [--backend NAME] [--json]"_L1,
             Cli::tr("the sandboxes llm-sandbox runs on the backend (of every llm-sandbox process):\n"
                     "language, owner process, session, age, CPU, memory and limit, processes;\n"
                     "kubernetes needs metrics-server for CPU and memory"));
    addUsage(usage,
             "  llm-sandbox install-mcp [--client claude-desktop|cursor|vscode] [--transport stdio|http] "
             "[--backend NAME]\n                          [--url URL] [--dry-run]"_L1,
             Cli::tr("add llm-sandbox to the assistant's MCP configuration file (other servers and\n"
                     "settings are kept byte for byte; the previous file is kept as FILE.bak)"));
    addUsage(usage, "  llm-sandbox uninstall-mcp [--client NAME] [--dry-run]"_L1,
             Cli::tr("remove it again, and nothing else"));
    addUsage(usage, "  llm-sandbox secrets set NAME --host HOST [--header 'Authorization: Bearer {}']"_L1,
             Cli::tr("keep a secret in the system keychain (its value typed, or read from stdin); a run\n"
                     "allowed to reach HOST sees only a placeholder in $NAME, which its egress proxy\n"
                     "replaces in that header of its HTTPS requests to HOST"));
    addUsage(usage, "  llm-sandbox secrets list [--json] | secrets remove NAME"_L1,
             Cli::tr("show the secrets (never their values), or forget one"));
    addUsage(usage, "  llm-sandbox libraries list [--json] | libraries prune [LANG...]"_L1,
             Cli::tr("the library sets installed once and kept for later calls (in\n"
                     "~/.cache/llm-sandbox/libraries), or remove them"));
    addUsage(usage, "  llm-sandbox --help | --version"_L1);
    usage += u'\n';
    usage +=
        Cli::tr(
            "Exit status of `run`: the program's own, 124 when it timed out, 125 when the sandbox could not run it\n"
            "(engine unreachable, image missing, install failed), 126 when the code policy refused the code, 130 when\n"
            "cancelled, 2 for a usage error or a bad request.") +
        u'\n';
    usage += u'\n' + Cli::tr("Environment:") + u'\n';
    addUsage(usage, "  BACKEND"_L1, Cli::tr("docker (default), podman or kubernetes"));
    addUsage(usage, "  LLM_SANDBOX_DEFAULT_TIMEOUT"_L1,
             Cli::tr("seconds a run may take when it names no timeout (default 30)"));
    addUsage(usage, "  DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH"_L1,
             Cli::tr("the Docker engine, as the docker CLI reads them"));
    addUsage(usage, "  CONTAINER_HOST"_L1, Cli::tr("Podman's API service (default unix:///run/podman/podman.sock)"));
    addUsage(usage,
             "  SANDBOX_MEM_LIMIT, SANDBOX_CPU_COUNT, SANDBOX_NETWORK_MODE, SANDBOX_READ_ONLY, SANDBOX_PRIVILEGED,\n"
             "  SANDBOX_CAP_DROP, SANDBOX_SECURITY_OPT"_L1,
             Cli::tr("sandbox limits (see README)"));
    addUsage(usage, "  LLM_SANDBOX_IMAGE_<LANG>"_L1,
             Cli::tr("run LANG in this image instead of the built one (e.g. LLM_SANDBOX_IMAGE_PYTHON)"));
    addUsage(usage, "  LLM_SANDBOX_BASE_IMAGE"_L1,
             Cli::tr("a Debian 13 image to build on instead of running debootstrap"));
    addUsage(usage, "  LLM_SANDBOX_HTTP_TOKEN"_L1,
             Cli::tr("the token `serve` requires, instead of the one in the system keychain"));
    addUsage(usage, "  LLM_SANDBOX_SECRETS_FILE"_L1,
             Cli::tr("the secrets' names, hosts and headers (default ~/.config/llm-sandbox/secrets.json)"));
    addUsage(usage, "  LLM_SANDBOX_PROXY_TRUST"_L1,
             Cli::tr("a PEM file of certificates the egress proxy trusts besides the system's when it\n"
                     "adds a secret"));
    addUsage(usage, "  LLM_SANDBOX_LIBRARY_CACHE, LLM_SANDBOX_LIBRARY_CACHE_SIZE"_L1,
             Cli::tr("the library cache's folder (\"off\": none) and size (default 2g)"));
    addUsage(usage, "  LLM_SANDBOX_INSTALL_SCRATCH"_L1, Cli::tr("a library install's scratch space (default 2g)"));
    addUsage(usage, "  LLM_SANDBOX_JOURNAL"_L1,
             Cli::tr("the run journal's file (default ~/.local/share/llm-sandbox/journal.sqlite),\n"
                     "or \"off\" to record nothing"));
    return usage;
}

} // namespace sandbox::cli
