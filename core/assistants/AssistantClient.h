#pragma once

#include "assistants/McpConfigEditor.h"

#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// An assistant whose per-user MCP configuration file `install-mcp` edits: where the file is and how our entry looks
/// there (each as the client's own documentation describes it; see the user guide's "Connect an assistant"). They keep
/// their servers in a JSON object (with comments for some), Codex in TOML tables, Goose in a YAML mapping and Continue
/// in a YAML sequence.
class AssistantClient final
{
public:
    enum class Kind
    {
        ClaudeDesktop,
        ClaudeCode,
        Cursor,
        VsCode,
        Codex,
        Gemini,
        QwenCode,
        Windsurf,
        Cline,
        LmStudio,
        Goose,
        Zed,
        Continue,
        CherryStudio,
    };

    /// How a client's entry names its transport and the server's address.
    struct EntryStyle
    {
        QString stdioType;                              ///< the "type" of a stdio entry; empty: the entry has none
        QString httpType;                               ///< the "type" of an HTTP entry; empty: none
        QString urlKey;                                 ///< the member holding an HTTP server's address
        QString headersKey = QStringLiteral("headers"); ///< the member holding an HTTP server's headers; "a.b": b in a
        QString commandKey = QStringLiteral("command"); ///< the member holding the program a stdio entry starts
        QString environmentKey = QStringLiteral("env"); ///< ... and the one holding its environment
        bool named = false;     ///< the entry names itself first: "name": "llm-sandbox" (Goose, Continue)
        QString description;    ///< a "description" member after the name, when not empty (Goose)
        int timeoutSeconds = 0; ///< an "enabled": true and a "timeout" member, when not 0 (Goose)
    };
    /// The form most clients read (Claude Code's, VS Code's): "type" "stdio" or "http", the address in "url".
    static EntryStyle commonStyle() { return {QStringLiteral("stdio"), QStringLiteral("http"), QStringLiteral("url")}; }

    /// Every client, in the order the command line and the dialog list them.
    static QList<AssistantClient> all();
    /// Every client's name (the --client values), in that order.
    static QStringList names();
    /// The client named `name` ("claude-desktop", "claude-code", ...), nullopt for another name.
    static std::optional<AssistantClient> fromName(const QString &name);
    static AssistantClient of(Kind kind);

    Kind kind() const { return m_kind; }
    /// "claude-desktop", "claude-code", "cursor", "vscode", "codex", "gemini", "qwen-code", "windsurf", "cline",
    /// "lmstudio", "goose", "zed", "continue", "cherry-studio": the --client value.
    QString name() const;
    /// "Claude Desktop", "Claude Code", "Cursor", "VS Code", "Gemini CLI", ...
    QString title() const;
    /// The member of the file's top-level object that holds the servers: "mcpServers", "servers" for VS Code,
    /// "mcp_servers" for Codex, "extensions" for Goose, "context_servers" for Zed.
    QString serversKey() const;
    /// VS Code's mcp.json, Zed's settings.json and the Gemini CLI's (and Qwen Code's) settings.json are JSON with
    /// comments (VS Code's and Zed's with trailing commas too); the other JSON files are read as strict JSON.
    bool allowsComments() const;
    /// Claude Desktop's file only launches local (stdio) servers: remote ones are added in its settings instead.
    bool supportsHttp() const;
    EntryStyle entryStyle() const;
    /// How its file is edited: serversKey(), allowsComments(), TOML for Codex, YAML for Goose and Continue.
    McpConfigEditor::Format configFormat() const;
    /// Whether install-mcp writes its file. Cherry Studio keeps its servers in its own database, which no other
    /// program should edit: the user pastes our entry into its settings (Settings → MCP Servers → Add Server →
    /// Import from JSON), as install-mcp and the dialog say.
    bool editsFile() const { return m_kind != Kind::CherryStudio; }
    /// Whether the file may hold a project's servers instead of the user's: Claude Code's .mcp.json in a project's
    /// folder (configPathForProject()).
    bool hasProjectScope() const { return m_kind == Kind::ClaudeCode; }

    /// Where the file is for the user whose home folder is `home` (empty when !editsFile()): on Linux under
    /// `configHome` ($XDG_CONFIG_HOME, normally ~/.config) for the Electron apps (and Cline, which lives in VS Code's
    /// storage); on macOS under
    /// ~/Library/Application Support; on Windows under `appData` (%APPDATA%). Goose and Zed use ~/.config (or
    /// $XDG_CONFIG_HOME) on Linux and macOS alike. The command-line assistants, Cursor, Windsurf, LM Studio and
    /// Continue keep theirs in a folder of the home folder everywhere (Codex in $CODEX_HOME when set).
    QString configPath(const QString &home, const QString &configHome, const QString &appData) const;
    /// configPath() for this process's user ($HOME, $XDG_CONFIG_HOME, %APPDATA%).
    QString configPath() const;
    /// The file of the project in `folder` (hasProjectScope()): Claude Code's `folder`/.mcp.json.
    static QString configPathForProject(const QString &folder);
    /// Whether the assistant seems to be on this machine: its configuration folder exists (it made it when it first
    /// ran) or its program is on the PATH.
    bool isPresent() const;

    bool operator==(const AssistantClient &other) const { return m_kind == other.m_kind; }

private:
    explicit AssistantClient(Kind kind) : m_kind(kind) {}
    /// The folder the assistant makes for itself (whose existence says it is installed), and its program's name.
    QString presenceFolder() const;
    QString programName() const;

    Kind m_kind;
};

} // namespace sandbox
