#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

namespace sandbox {

/// Adds, replaces and removes one server entry in the text of an assistant's MCP configuration file, touching no
/// byte outside that entry: other servers and settings keep their order, formatting, comments and line endings.
///
/// JSON: the text is first validated with nlohmann::json (so nothing here parses JSON by hand; trailing commas, which
/// it does not take, are blanked in the copy it reads where the format allows them); a small scanner over the validated
/// text then only finds where members start and end. A new entry is indented like its neighbours (tabs
/// or spaces, CRLF or LF). TOML (McpTomlEditor): toml++ parses the text and says where the entry's table and its values
/// are; the entry is the table [SERVERS.NAME], added at the end of the file. YAML (McpYamlEditor): yaml-cpp parses the
/// text and says where the servers and each entry begin. Removing an entry removes exactly what
/// adding it inserted, so adding then removing gives the original bytes back. Pure functions over bytes: McpConfigFile
/// does the reading and writing.
class McpConfigEditor final
{
public:
    struct Format
    {
        QString serversKey = QStringLiteral("mcpServers"); ///< the top-level member holding the servers
        bool allowComments = false;                        ///< JSON with comments (VS Code); trailing commas never
        bool toml = false; ///< TOML (Codex's config.toml) instead of JSON: the servers are the tables [serversKey.NAME]
        bool yaml = false; ///< YAML (Goose's, Continue's config.yaml) instead of JSON
        /// YAML: the servers are a sequence of mappings, each named by this member (Continue's "name"); empty: a
        /// mapping by name (Goose's "extensions").
        QString nameKey;
        bool trailingCommas = false; ///< JSON with comments may also have a comma before a closing bracket (Zed)
    };

    /// What withoutEntry() does with the servers object when ours was its only member.
    enum class ServersObject
    {
        Keep,            ///< it stays, empty (the user's file had it before we came)
        RemoveWhenEmpty, ///< it goes too (withEntry() added it: the file had none)
    };

    /// Why a text cannot be changed, as data: the errors below say it in English (for the command line, logs and
    /// models); the desktop app words it in the user's language from this.
    struct Problem
    {
        enum class Kind
        {
            NotJson,                ///< the parser stopped at `line`, `column`
            TopLevelNotObject,      ///< the top level is an array, a string, ...
            ServersNotObject,       ///< the member `key` holding the servers is not an object
            DuplicateKey,           ///< `key` appears twice in one object
            NotToml,                ///< the TOML parser stopped at `line`, `column`
            ServersNotTable,        ///< TOML: `key` holding the servers is not a table
            EntryNotTable,          ///< TOML: the entry `key` is not written as a table [SERVERS.NAME] of its own
            NotYaml,                ///< the YAML parser stopped at `line`, `column`
            YamlTopLevelNotMapping, ///< YAML: the top level is not a mapping
            YamlServersNotMapping,  ///< YAML: `key` holding the servers is not a mapping
            YamlServersNotSequence, ///< YAML: `key` holding the servers is not a sequence
            YamlNotLocatable, ///< YAML: `key` (empty: the document) is written in a way not changed safely: in flow
                              ///< style with other members, an alias, several documents
        };
        Kind kind = Kind::NotJson;
        int line = 0;          ///< NotJson, NotToml: the line where the parser stopped (from 1)
        int column = 0;        ///< ... and the column (from 1; 0 when it stopped at the line's end)
        bool comments = false; ///< NotJson: it stopped at a comment, which this format does not allow
        QString key;           ///< ServersNotObject, DuplicateKey, ServersNotTable, EntryNotTable: the key
        QString parserMessage; ///< NotJson, NotToml: the parser's own (English) words
    };

    explicit McpConfigEditor(Format format);

    /// `text` with servers[`name`] = `entry`: added as the last server, or replacing the value of an existing one
    /// (in place). `text` unchanged when the entry is there already with the same content. Empty (or only white
    /// space) text is an empty configuration. Errors (ErrorCode::BadRequest): the text is not valid JSON, its top
    /// level or the servers member is not an object, or a key it needs appears twice.
    Result<QByteArray> withEntry(const QByteArray &text, const QString &name,
                                 const nlohmann::ordered_json &entry) const;
    /// `text` without servers[`name`]; unchanged when there is none. When it was the only server, the servers object
    /// stays empty or goes as `emptyServers` says. Errors as withEntry().
    Result<QByteArray> withoutEntry(const QByteArray &text, const QString &name,
                                    ServersObject emptyServers = ServersObject::Keep) const;
    /// Whether `text` has the servers member (false for empty or invalid text).
    bool hasServers(const QByteArray &text) const;
    /// servers[`name`] in `text`, nullopt when there is none. Errors as withEntry().
    Result<std::optional<nlohmann::ordered_json>> entry(const QByteArray &text, const QString &name) const;
    /// What stops withEntry(`text`, `name`, ...) (and so any change of the entry `name`), nullopt when nothing does.
    std::optional<Problem> problem(const QByteArray &text, const QString &name) const;
    /// The English sentence of `problem`: the message of the errors above.
    static QString describe(const Problem &problem);

private:
    std::variant<QByteArray, Problem> changed(const QByteArray &text, const QString &name,
                                              const nlohmann::ordered_json &entry) const;

    Format m_format;
};

} // namespace sandbox
