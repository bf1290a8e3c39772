#pragma once

#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// An assistant whose per-user MCP configuration file `install-mcp` edits: where the file is and how our entry looks
/// there (each documented by the client, see the README's "Connect an assistant").
class AssistantClient final
{
public:
    enum class Kind
    {
        ClaudeDesktop,
        Cursor,
        VsCode,
    };

    /// Every client, in the order the command line and the dialog list them.
    static QList<AssistantClient> all();
    /// The client named `name` ("claude-desktop", "cursor", "vscode"), nullopt for another name.
    static std::optional<AssistantClient> fromName(const QString &name);
    static AssistantClient of(Kind kind);

    Kind kind() const { return m_kind; }
    /// "claude-desktop", "cursor", "vscode": the --client value.
    QString name() const;
    /// "Claude Desktop", "Cursor", "VS Code".
    QString title() const;
    /// The member of the file's top-level object that holds the servers: "mcpServers", or "servers" for VS Code.
    QString serversKey() const;
    /// VS Code's mcp.json is JSON with comments (its other files are too); the others are read as strict JSON.
    bool allowsComments() const;
    /// Claude Desktop's file only launches local (stdio) servers: remote ones are added in its settings instead.
    bool supportsHttp() const;
    /// VS Code entries name their transport in "type" ("stdio", "http").
    bool writesType() const;

    /// Where the file is for the user whose home folder is `home`: on Linux under `configHome` ($XDG_CONFIG_HOME,
    /// normally ~/.config) for the Electron apps; on macOS under ~/Library/Application Support; on Windows under
    /// `appData` (%APPDATA%). Cursor keeps its file in ~/.cursor everywhere.
    QString configPath(const QString &home, const QString &configHome, const QString &appData) const;
    /// configPath() for this process's user ($HOME, $XDG_CONFIG_HOME, %APPDATA%).
    QString configPath() const;

    bool operator==(const AssistantClient &other) const { return m_kind == other.m_kind; }

private:
    explicit AssistantClient(Kind kind) : m_kind(kind) {}

    Kind m_kind;
};

} // namespace sandbox
