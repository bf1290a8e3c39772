#include "assistants/AssistantClient.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace sandbox {

namespace {

/// A file of an Electron app's (or a VS Code extension's) data folder: ~/.config (or $XDG_CONFIG_HOME) on Linux,
/// ~/Library/Application Support on macOS, %APPDATA% on Windows.
QString appDataFile(const QString &file, const QString &home, const QString &configHome, const QString &appData)
{
#if defined(Q_OS_WIN)
    Q_UNUSED(home)
    Q_UNUSED(configHome)
    return appData + QLatin1Char('/') + file;
#elif defined(Q_OS_MACOS)
    Q_UNUSED(configHome)
    Q_UNUSED(appData)
    return home + QStringLiteral("/Library/Application Support/") + file;
#else
    Q_UNUSED(appData)
    // Electron's appData folder: $XDG_CONFIG_HOME when set (and absolute), else ~/.config.
    const QString base = QDir::isAbsolutePath(configHome) ? configHome : home + QStringLiteral("/.config");
    return base + QLatin1Char('/') + file;
#endif
}

/// A file under ~/.config (or $XDG_CONFIG_HOME) on Linux and macOS, where Goose and Zed keep theirs, and under
/// `windowsFile` in %APPDATA% on Windows.
QString xdgConfigFile(const QString &file, const QString &windowsFile, const QString &home, const QString &configHome,
                      const QString &appData)
{
#if defined(Q_OS_WIN)
    Q_UNUSED(home)
    Q_UNUSED(configHome)
    Q_UNUSED(file)
    return appData + QLatin1Char('/') + windowsFile;
#else
    Q_UNUSED(appData)
    Q_UNUSED(windowsFile)
    const QString base = QDir::isAbsolutePath(configHome) ? configHome : home + QStringLiteral("/.config");
    return base + QLatin1Char('/') + file;
#endif
}

/// Cline's settings live in VS Code's storage for the extension (saoudrizwan.claude-dev).
const QLatin1String kClineFolder("Code/User/globalStorage/saoudrizwan.claude-dev");

} // namespace

QList<AssistantClient> AssistantClient::all()
{
    QList<AssistantClient> clients;
    for (Kind kind :
         {Kind::ClaudeDesktop, Kind::ClaudeCode, Kind::Cursor, Kind::VsCode, Kind::Codex, Kind::Gemini, Kind::QwenCode,
          Kind::Windsurf, Kind::Cline, Kind::LmStudio, Kind::Goose, Kind::Zed, Kind::Continue, Kind::CherryStudio}) {
        clients.append(AssistantClient(kind));
    }
    return clients;
}

QStringList AssistantClient::names()
{
    QStringList names;
    for (const AssistantClient &client : all()) {
        names << client.name();
    }
    return names;
}

std::optional<AssistantClient> AssistantClient::fromName(const QString &name)
{
    for (const AssistantClient &client : all()) {
        if (client.name() == name.trimmed().toLower()) {
            return client;
        }
    }
    return std::nullopt;
}

AssistantClient AssistantClient::of(Kind kind)
{
    return AssistantClient(kind);
}

QString AssistantClient::name() const
{
    switch (m_kind) {
    case Kind::ClaudeDesktop:
        return QStringLiteral("claude-desktop");
    case Kind::ClaudeCode:
        return QStringLiteral("claude-code");
    case Kind::Cursor:
        return QStringLiteral("cursor");
    case Kind::VsCode:
        return QStringLiteral("vscode");
    case Kind::Codex:
        return QStringLiteral("codex");
    case Kind::Gemini:
        return QStringLiteral("gemini");
    case Kind::QwenCode:
        return QStringLiteral("qwen-code");
    case Kind::Windsurf:
        return QStringLiteral("windsurf");
    case Kind::Cline:
        return QStringLiteral("cline");
    case Kind::LmStudio:
        return QStringLiteral("lmstudio");
    case Kind::Goose:
        return QStringLiteral("goose");
    case Kind::Zed:
        return QStringLiteral("zed");
    case Kind::Continue:
        return QStringLiteral("continue");
    case Kind::CherryStudio:
        return QStringLiteral("cherry-studio");
    }
    return {};
}

QString AssistantClient::title() const
{
    switch (m_kind) {
    case Kind::ClaudeDesktop:
        return QStringLiteral("Claude Desktop");
    case Kind::ClaudeCode:
        return QStringLiteral("Claude Code");
    case Kind::Cursor:
        return QStringLiteral("Cursor");
    case Kind::VsCode:
        return QStringLiteral("VS Code");
    case Kind::Codex:
        return QStringLiteral("Codex CLI");
    case Kind::Gemini:
        return QStringLiteral("Gemini CLI");
    case Kind::QwenCode:
        return QStringLiteral("Qwen Code");
    case Kind::Windsurf:
        return QStringLiteral("Windsurf");
    case Kind::Cline:
        return QStringLiteral("Cline");
    case Kind::LmStudio:
        return QStringLiteral("LM Studio");
    case Kind::Goose:
        return QStringLiteral("Goose");
    case Kind::Zed:
        return QStringLiteral("Zed");
    case Kind::Continue:
        return QStringLiteral("Continue");
    case Kind::CherryStudio:
        return QStringLiteral("Cherry Studio");
    }
    return {};
}

QString AssistantClient::serversKey() const
{
    switch (m_kind) {
    case Kind::VsCode:
        return QStringLiteral("servers");
    case Kind::Codex:
        return QStringLiteral("mcp_servers");
    case Kind::Goose:
        return QStringLiteral("extensions");
    case Kind::Zed:
        return QStringLiteral("context_servers");
    default:
        return QStringLiteral("mcpServers");
    }
}

McpConfigEditor::Format AssistantClient::configFormat() const
{
    return {.serversKey = serversKey(),
            .allowComments = allowsComments(),
            .toml = m_kind == Kind::Codex,
            .yaml = m_kind == Kind::Goose || m_kind == Kind::Continue,
            .nameKey = m_kind == Kind::Continue ? QStringLiteral("name") : QString(),
            .trailingCommas = m_kind == Kind::VsCode || m_kind == Kind::Zed};
}

bool AssistantClient::allowsComments() const
{
    return m_kind == Kind::VsCode || m_kind == Kind::Gemini || m_kind == Kind::QwenCode || m_kind == Kind::Zed;
}

bool AssistantClient::supportsHttp() const
{
    return m_kind != Kind::ClaudeDesktop;
}

AssistantClient::EntryStyle AssistantClient::entryStyle() const
{
    switch (m_kind) {
    case Kind::ClaudeCode:
    case Kind::VsCode:
        return commonStyle();
    case Kind::Gemini:
    case Kind::QwenCode:
        // "url" is their older SSE transport; Streamable HTTP is "httpUrl".
        return {{}, {}, QStringLiteral("httpUrl")};
    case Kind::Windsurf:
        return {{}, {}, QStringLiteral("serverUrl")};
    case Kind::Codex:
        // A table with "url" is Streamable HTTP; its fixed headers are "http_headers".
        return {{}, {}, QStringLiteral("url"), QStringLiteral("http_headers")};
    case Kind::Cline:
        // A "url" alone is SSE to Cline.
        return {{}, QStringLiteral("streamableHttp"), QStringLiteral("url")};
    case Kind::Goose: {
        EntryStyle goose{QStringLiteral("stdio"), QStringLiteral("streamable_http"), QStringLiteral("uri")};
        goose.commandKey = QStringLiteral("cmd");
        goose.environmentKey = QStringLiteral("envs");
        goose.named = true;
        goose.description = QStringLiteral("Runs code safely in containers and returns its output and charts");
        goose.timeoutSeconds = 300;
        return goose;
    }
    case Kind::Continue: {
        EntryStyle continueStyle{QStringLiteral("stdio"), QStringLiteral("streamable-http"), QStringLiteral("url"),
                                 QStringLiteral("requestOptions.headers")};
        continueStyle.named = true;
        return continueStyle;
    }
    case Kind::CherryStudio: {
        // What its "Import from JSON" reads: a remote server's address is its "baseUrl".
        EntryStyle cherry{QStringLiteral("stdio"), QStringLiteral("streamableHttp"), QStringLiteral("baseUrl")};
        cherry.named = true;
        return cherry;
    }
    case Kind::Zed:
    case Kind::ClaudeDesktop:
    case Kind::Cursor:
    case Kind::LmStudio:
        break;
    }
    return {{}, {}, QStringLiteral("url")};
}

QString AssistantClient::configPath(const QString &home, const QString &configHome, const QString &appData) const
{
    switch (m_kind) {
    case Kind::ClaudeDesktop:
        return appDataFile(QStringLiteral("Claude/claude_desktop_config.json"), home, configHome, appData);
    case Kind::ClaudeCode:
        return home + QStringLiteral("/.claude.json");
    case Kind::Cursor:
        return home + QStringLiteral("/.cursor/mcp.json");
    case Kind::VsCode:
        return appDataFile(QStringLiteral("Code/User/mcp.json"), home, configHome, appData);
    case Kind::Codex:
        return home + QStringLiteral("/.codex/config.toml");
    case Kind::Gemini:
        return home + QStringLiteral("/.gemini/settings.json");
    case Kind::QwenCode:
        return home + QStringLiteral("/.qwen/settings.json");
    case Kind::Windsurf:
        return home + QStringLiteral("/.codeium/windsurf/mcp_config.json");
    case Kind::Cline:
        return appDataFile(kClineFolder + QStringLiteral("/settings/cline_mcp_settings.json"), home, configHome,
                           appData);
    case Kind::LmStudio:
        return home + QStringLiteral("/.lmstudio/mcp.json");
    case Kind::Goose:
        return xdgConfigFile(QStringLiteral("goose/config.yaml"), QStringLiteral("Block/goose/config/config.yaml"),
                             home, configHome, appData);
    case Kind::Zed:
        return xdgConfigFile(QStringLiteral("zed/settings.json"), QStringLiteral("Zed/settings.json"), home, configHome,
                             appData);
    case Kind::Continue:
        return home + QStringLiteral("/.continue/config.yaml");
    case Kind::CherryStudio:
        break;
    }
    return {};
}

QString AssistantClient::configPath() const
{
    if (!editsFile()) {
        return {};
    }
    if (m_kind == Kind::Codex && !qEnvironmentVariableIsEmpty("CODEX_HOME")) {
        return QDir::cleanPath(QDir::fromNativeSeparators(qEnvironmentVariable("CODEX_HOME")) +
                               QStringLiteral("/config.toml"));
    }
    return QDir::cleanPath(configPath(QDir::homePath(), qEnvironmentVariable("XDG_CONFIG_HOME"),
                                      QDir::fromNativeSeparators(qEnvironmentVariable("APPDATA"))));
}

QString AssistantClient::configPathForProject(const QString &folder)
{
    return QDir::cleanPath(QDir(folder).absoluteFilePath(QStringLiteral(".mcp.json")));
}

QString AssistantClient::presenceFolder() const
{
    const QString file = configPath();
    switch (m_kind) {
    case Kind::CherryStudio:
        // Electron's data folder for the app named CherryStudio.
        return appDataFile(QStringLiteral("CherryStudio"), QDir::homePath(), qEnvironmentVariable("XDG_CONFIG_HOME"),
                           QDir::fromNativeSeparators(qEnvironmentVariable("APPDATA")));
    case Kind::ClaudeCode:
        return QDir::homePath() + QStringLiteral("/.claude");
    case Kind::Cline:
        // settings/ is made with the file; the extension's own folder when it first ran.
        return QFileInfo(QFileInfo(file).absolutePath()).absolutePath();
    default:
        return QFileInfo(file).absolutePath();
    }
}

QString AssistantClient::programName() const
{
    switch (m_kind) {
    case Kind::ClaudeCode:
        return QStringLiteral("claude");
    case Kind::Cursor:
        return QStringLiteral("cursor");
    case Kind::VsCode:
        return QStringLiteral("code");
    case Kind::Codex:
        return QStringLiteral("codex");
    case Kind::Gemini:
        return QStringLiteral("gemini");
    case Kind::QwenCode:
        return QStringLiteral("qwen");
    case Kind::Windsurf:
        return QStringLiteral("windsurf");
    case Kind::LmStudio:
        return QStringLiteral("lms");
    case Kind::Goose:
        return QStringLiteral("goose");
    case Kind::Zed:
        return QStringLiteral("zed");
    case Kind::Continue:
        return QStringLiteral("cn"); // the Continue CLI
    case Kind::ClaudeDesktop:
    case Kind::Cline:
    case Kind::CherryStudio:
        break;
    }
    return {};
}

bool AssistantClient::isPresent() const
{
    if ((editsFile() && QFileInfo(configPath()).exists()) || QFileInfo(presenceFolder()).isDir()) {
        return true;
    }
    const QString program = programName();
    return !program.isEmpty() && !QStandardPaths::findExecutable(program).isEmpty();
}

} // namespace sandbox
