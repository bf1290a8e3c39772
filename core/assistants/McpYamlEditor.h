#pragma once

#include "assistants/McpConfigEditor.h"

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

namespace sandbox {

/// McpConfigEditor's work on a YAML file, in either of the two shapes clients use:
///
///     extensions:                      # Goose: a mapping from the server's name to its entry
///       llm-sandbox:
///         type: stdio
///         cmd: /usr/bin/llm-sandbox
///
///     mcpServers:                      # Continue: a sequence of entries, each naming itself
///       - name: llm-sandbox
///         command: /usr/bin/llm-sandbox
///
/// yaml-cpp parses the text (a broken file is refused with its line and column) and says where the servers key and
/// each entry begin; an entry runs to the line before the next one (or the next top-level key), less the blank and
/// comment lines at its end, which belong to what follows. The entry is spliced into the bytes in block style,
/// indented like its neighbours, never re-serialised with the rest; an empty flow collection (`extensions: {}`) takes
/// it as JSON, which is YAML too. Removing gives back exactly what adding inserted. Anything it cannot locate for
/// certain (a servers value in flow style with members, an alias, several documents) is refused, not guessed at.
namespace McpYamlEditor {

using Json = nlohmann::ordered_json;
using Problem = McpConfigEditor::Problem;

/// How the servers are kept: under `serversKey`, a mapping by name, or (`nameKey` set) a sequence of mappings whose
/// member `nameKey` names each.
struct Shape
{
    QString serversKey;
    QString nameKey; ///< empty: a mapping
};

/// `text` with the entry `name` being `entry` (for a sequence, `entry` holds the name member itself); `text` itself
/// when the entry is there with the same content.
std::variant<QByteArray, Problem> withEntry(const QByteArray &text, const Shape &shape, const QString &name,
                                            const Json &entry);
/// `text` without that entry; when it was the only one and `removeServers`, without the servers key too.
std::variant<QByteArray, Problem> withoutEntry(const QByteArray &text, const Shape &shape, const QString &name,
                                               bool removeServers);
/// The entry as JSON (plain scalars typed as YAML's core schema reads them), nullopt when there is none.
std::variant<std::optional<Json>, Problem> entry(const QByteArray &text, const Shape &shape, const QString &name);
/// Whether `text` is valid YAML with the key `serversKey` at its top level.
bool hasServers(const QByteArray &text, const Shape &shape);

} // namespace McpYamlEditor

} // namespace sandbox
