#include "assistants/McpTomlEditor.h"

#include "assistants/ConfigText.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <toml++/toml.h>

namespace sandbox::McpTomlEditor {

namespace {

std::variant<toml::table, Problem> parse(const std::string &text)
{
    try {
        return toml::parse(text);
    } catch (const toml::parse_error &error) {
        return Problem{.kind = Problem::Kind::NotToml,
                       .line = int(error.source().begin.line),
                       .column = int(error.source().begin.column),
                       .parserMessage = QString::fromStdString(std::string(error.description()))};
    }
}

/// `text` as a TOML basic string.
std::string basicString(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                static const char digits[] = "0123456789ABCDEF";
                out += "\\u00";
                out += digits[(static_cast<unsigned char>(c) >> 4) & 0xf];
                out += digits[static_cast<unsigned char>(c) & 0xf];
            } else {
                out += c;
            }
        }
    }
    return out + '"';
}

/// The key as TOML writes it: bare when it may be, else a basic string.
std::string keyText(std::string_view key)
{
    const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
    return bare ? std::string(key) : basicString(key);
}

std::string valueText(const Json &value)
{
    if (value.is_string()) {
        return basicString(value.get<std::string>());
    }
    if (value.is_array()) {
        std::string out = "[";
        for (size_t i = 0; i < value.size(); ++i) {
            out += (i == 0 ? "" : ", ") + valueText(value[i]);
        }
        return out + "]";
    }
    if (value.is_object()) {
        if (value.empty()) {
            return "{}";
        }
        std::string out = "{ ";
        bool first = true;
        for (const auto &[key, member] : value.items()) {
            out += (first ? "" : ", ") + keyText(key) + " = " + valueText(member);
            first = false;
        }
        return out + " }";
    }
    return value.dump(); // numbers and booleans are written alike
}

std::string block(const std::string &serversKey, const std::string &name, const Json &entry, const std::string &eol)
{
    std::string out = "[" + keyText(serversKey) + "." + keyText(name) + "]" + eol;
    for (const auto &[key, value] : entry.items()) {
        out += keyText(key) + " = " + valueText(value) + eol;
    }
    return out;
}

Json toJson(const toml::node &node)
{
    if (const toml::table *table = node.as_table()) {
        Json object = Json::object();
        for (const auto &[key, value] : *table) {
            object[std::string(key.str())] = toJson(value);
        }
        return object;
    }
    if (const toml::array *array = node.as_array()) {
        Json list = Json::array();
        for (const toml::node &element : *array) {
            list.push_back(toJson(element));
        }
        return list;
    }
    if (const auto *text = node.as_string()) {
        return text->get();
    }
    if (const auto *integer = node.as_integer()) {
        return integer->get();
    }
    if (const auto *number = node.as_floating_point()) {
        return number->get();
    }
    if (const auto *flag = node.as_boolean()) {
        return flag->get();
    }
    std::string other; // dates and times, as TOML writes them
    node.visit([&](const auto &value) {
        std::ostringstream stream;
        stream << value;
        other = stream.str();
    });
    return other;
}

/// Byte offset of the start of line `line` (from 1), or the text's size.
size_t lineStart(const std::string &text, size_t line)
{
    size_t offset = 0;
    for (size_t current = 1; current < line && offset < text.size(); ++current) {
        const size_t newline = text.find('\n', offset);
        offset = newline == std::string::npos ? text.size() : newline + 1;
    }
    return offset;
}

/// The last line any value (or table header) under `node` reaches.
size_t lastLine(const toml::node &node)
{
    size_t last = node.source().end.line;
    if (const toml::table *table = node.as_table()) {
        for (const auto &[key, value] : *table) {
            last = std::max({last, size_t(key.source().end.line), lastLine(value)});
        }
    } else if (const toml::array *array = node.as_array()) {
        for (const toml::node &element : *array) {
            last = std::max(last, lastLine(element));
        }
    }
    return last;
}

/// Whether a table header other than those under `ours` begins on a line in (`first`, `last`]: the tables our header
/// makes (mcp_servers, when nothing made it before) begin on its line.
bool foreignHeaderWithin(const toml::node &node, const toml::table *ours, size_t first, size_t last)
{
    if (&node == ours) {
        return false;
    }
    if (const toml::table *table = node.as_table()) {
        const size_t line = table->source().begin.line;
        if (!table->is_inline() && line > first && line <= last) {
            return true;
        }
        for (const auto &[key, value] : *table) {
            if (foreignHeaderWithin(value, ours, first, last)) {
                return true;
            }
        }
    } else if (const toml::array *array = node.as_array()) {
        for (const toml::node &element : *array) {
            if (foreignHeaderWithin(element, ours, first, last)) {
                return true;
            }
        }
    }
    return false;
}

struct Span
{
    size_t begin = 0; ///< the header line's first byte
    size_t end = 0;   ///< after the last value's line (its line ending included)
};

struct Found
{
    const toml::table *table = nullptr; ///< nullptr: no entry
    Span span;
};

/// The entry in `document` parsed from `text`, where it is, or why it cannot be changed.
std::variant<Found, Problem> find(const std::string &text, const toml::table &document, const std::string &serversKey,
                                  const std::string &name)
{
    const toml::node *servers = document.get(serversKey);
    if (servers == nullptr) {
        return Found{};
    }
    if (!servers->is_table()) {
        return Problem{.kind = Problem::Kind::ServersNotTable, .key = QString::fromStdString(serversKey)};
    }
    const toml::node *ours = servers->as_table()->get(name);
    if (ours == nullptr) {
        return Found{};
    }
    const Problem notTable{.kind = Problem::Kind::EntryNotTable,
                           .key = QString::fromStdString(serversKey + "." + name)};
    const toml::table *table = ours->as_table();
    if (table == nullptr || table->is_inline()) {
        return notTable;
    }
    // A table of its own begins at its header's "[" (one made by dotted keys begins at a key).
    const size_t first = table->source().begin.line;
    const size_t begin = lineStart(text, first);
    const size_t bracket = begin + table->source().begin.column - 1;
    if (bracket >= text.size() || text[bracket] != '[' || text.find_first_not_of(" \t", begin) != bracket) {
        return notTable;
    }
    const size_t last = lastLine(*table);
    if (foreignHeaderWithin(document, table, first, last)) {
        return notTable;
    }
    return Found{table, Span{begin, lineStart(text, last + 1)}};
}

/// `text` parsed, with the entry found in it; the entry points into `document`, whose nodes live on the heap.
struct Located
{
    toml::table document;
    Found ours;
};

std::variant<Located, Problem> locate(const std::string &text, const QString &serversKey, const QString &name)
{
    auto document = parse(text);
    if (const Problem *problem = std::get_if<Problem>(&document)) {
        return *problem;
    }
    Located located{std::move(std::get<toml::table>(document)), {}};
    auto found = find(text, located.document, serversKey.toStdString(), name.toStdString());
    if (const Problem *problem = std::get_if<Problem>(&found)) {
        return *problem;
    }
    located.ours = std::get<Found>(found);
    return located;
}

} // namespace

std::variant<QByteArray, Problem> withEntry(const QByteArray &text, const QString &serversKey, const QString &name,
                                            const Json &entry)
{
    const std::string source = text.toStdString();
    const std::string eol = ConfigText::lineEnding(source);
    const std::string ourBlock = block(serversKey.toStdString(), name.toStdString(), entry, eol);
    if (ConfigText::isBlank(source)) {
        return QByteArray::fromStdString(ourBlock);
    }
    auto located = locate(source, serversKey, name);
    if (const Problem *problem = std::get_if<Problem>(&located)) {
        return *problem;
    }
    const Found &ours = std::get<Located>(located).ours;
    std::string result = source;
    if (ours.table == nullptr) {
        // At the end, after a blank line (withoutEntry() takes both away again).
        if (result.back() != '\n') {
            result += eol;
        }
        return QByteArray::fromStdString(result + eol + ourBlock);
    }
    if (nlohmann::json::parse(toJson(*ours.table).dump()) == nlohmann::json::parse(entry.dump())) {
        return text;
    }
    result.replace(ours.span.begin, ours.span.end - ours.span.begin, ourBlock);
    return QByteArray::fromStdString(result);
}

std::variant<QByteArray, Problem> withoutEntry(const QByteArray &text, const QString &serversKey, const QString &name)
{
    // Blank text parses as an empty document, which has no entry.
    const std::string source = text.toStdString();
    auto located = locate(source, serversKey, name);
    if (const Problem *problem = std::get_if<Problem>(&located)) {
        return *problem;
    }
    const Found &ours = std::get<Located>(located).ours;
    if (ours.table == nullptr) {
        return text;
    }
    std::string result = source;
    size_t begin = ours.span.begin;
    // The blank line before it.
    const std::string eol = ConfigText::lineEnding(source);
    if (begin >= 2 * eol.size() && source.compare(begin - 2 * eol.size(), 2 * eol.size(), eol + eol) == 0) {
        begin -= eol.size();
    }
    result.erase(begin, ours.span.end - begin);
    return QByteArray::fromStdString(result);
}

std::variant<std::optional<Json>, Problem> entry(const QByteArray &text, const QString &serversKey, const QString &name)
{
    auto document = parse(text.toStdString());
    if (const Problem *problem = std::get_if<Problem>(&document)) {
        return *problem;
    }
    const toml::node *servers = std::get<toml::table>(document).get(serversKey.toStdString());
    const toml::node *ours =
        servers != nullptr && servers->is_table() ? servers->as_table()->get(name.toStdString()) : nullptr;
    return ours == nullptr ? std::optional<Json>() : std::optional<Json>(toJson(*ours));
}

bool hasServers(const QByteArray &text, const QString &serversKey)
{
    auto document = parse(text.toStdString());
    return std::holds_alternative<toml::table>(document) &&
           std::get<toml::table>(document).contains(serversKey.toStdString());
}

} // namespace sandbox::McpTomlEditor
