#include "assistants/AssistantClient.h"

#include <QDir>

namespace sandbox {

QList<AssistantClient> AssistantClient::all()
{
    return {AssistantClient(Kind::ClaudeDesktop), AssistantClient(Kind::Cursor), AssistantClient(Kind::VsCode)};
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
    case Kind::Cursor:
        return QStringLiteral("cursor");
    case Kind::VsCode:
        return QStringLiteral("vscode");
    }
    return {};
}

QString AssistantClient::title() const
{
    switch (m_kind) {
    case Kind::ClaudeDesktop:
        return QStringLiteral("Claude Desktop");
    case Kind::Cursor:
        return QStringLiteral("Cursor");
    case Kind::VsCode:
        return QStringLiteral("VS Code");
    }
    return {};
}

QString AssistantClient::serversKey() const
{
    return m_kind == Kind::VsCode ? QStringLiteral("servers") : QStringLiteral("mcpServers");
}

bool AssistantClient::allowsComments() const
{
    return m_kind == Kind::VsCode;
}

bool AssistantClient::supportsHttp() const
{
    return m_kind != Kind::ClaudeDesktop;
}

bool AssistantClient::writesType() const
{
    return m_kind == Kind::VsCode;
}

QString AssistantClient::configPath(const QString &home, const QString &configHome, const QString &appData) const
{
    if (m_kind == Kind::Cursor) {
        return home + QStringLiteral("/.cursor/mcp.json");
    }
    const QString file = m_kind == Kind::ClaudeDesktop ? QStringLiteral("Claude/claude_desktop_config.json")
                                                       : QStringLiteral("Code/User/mcp.json");
#if defined(Q_OS_WIN)
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

QString AssistantClient::configPath() const
{
    return QDir::cleanPath(configPath(QDir::homePath(), qEnvironmentVariable("XDG_CONFIG_HOME"),
                                      QDir::fromNativeSeparators(qEnvironmentVariable("APPDATA"))));
}

} // namespace sandbox
