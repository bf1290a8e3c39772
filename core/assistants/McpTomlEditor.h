#pragma once

#include "assistants/McpConfigEditor.h"

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

namespace sandbox {

/// McpConfigEditor's work on a TOML file (Codex's config.toml), where a server is the table [SERVERS.NAME]:
///
///     [mcp_servers.llm-sandbox]
///     command = "/usr/bin/llm-sandbox"
///     args = ["--mcp"]
///     env = { BACKEND = "docker" }
///
/// toml++ parses the text (a broken file is refused with its line and column) and says on which lines the entry's
/// header and values are; the entry is spliced into the bytes, never re-serialised with the rest. A new entry goes at
/// the end of the file after a blank line, in the file's line endings; an existing one is replaced where it is, from
/// its header to the end of its last value's line (comments after it belong to what follows). An entry written
/// another way (an inline table, dotted keys, or with another table between its header and its values) is refused
/// rather than guessed at.
namespace McpTomlEditor {

using Json = nlohmann::ordered_json;
using Problem = McpConfigEditor::Problem;

/// `text` with the table [`serversKey`.`name`] holding `entry` (an object of strings, numbers, booleans, arrays and
/// objects); `text` itself when the entry is there with the same content.
std::variant<QByteArray, Problem> withEntry(const QByteArray &text, const QString &serversKey, const QString &name,
                                            const Json &entry);
/// `text` without that table and the blank line before it; `text` itself when there is none.
std::variant<QByteArray, Problem> withoutEntry(const QByteArray &text, const QString &serversKey, const QString &name);
/// The table as JSON (nullopt when there is none): what McpConfigFile::entry() reports.
std::variant<std::optional<Json>, Problem> entry(const QByteArray &text, const QString &serversKey,
                                                 const QString &name);
/// Whether `text` is valid TOML with the key `serversKey`.
bool hasServers(const QByteArray &text, const QString &serversKey);

} // namespace McpTomlEditor

} // namespace sandbox
