#include "assistants/McpConfigEditor.h"

#include "assistants/ConfigText.h"
#include "assistants/McpTomlEditor.h"
#include "assistants/McpYamlEditor.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace sandbox {

namespace {

using Json = nlohmann::ordered_json;
constexpr auto npos = std::string::npos;

struct Member
{
    std::string key;
    size_t keyStart = 0;
    size_t valueStart = 0;
    size_t valueEnd = 0; ///< one past the value
    size_t comma = npos; ///< the comma after the value, if another member follows
};

struct ObjectSpan
{
    size_t open = 0;  ///< the '{'
    size_t close = 0; ///< the '}'
    std::vector<Member> members;
};

/// Finds where members start and end in text that nlohmann::json accepted already (with comments when the format
/// allows them), so it never has to judge what it reads: strings, nesting and comments are all it knows.
class SpanScanner final
{
public:
    explicit SpanScanner(const std::string &text) : m_text(text) {}

    /// The top-level value's first character (after a UTF-8 byte order mark, white space and comments).
    size_t topLevelStart() const { return skipTrivia(m_text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0); }

    size_t skipTrivia(size_t pos) const
    {
        while (pos < m_text.size()) {
            const char c = m_text[pos];
            const char next = pos + 1 < m_text.size() ? m_text[pos + 1] : '\0';
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                ++pos;
            } else if (c == '/' && next == '/') {
                pos = m_text.find('\n', pos);
            } else if (c == '/' && next == '*') {
                pos = m_text.find("*/", pos + 2);
                pos = pos == npos ? npos : pos + 2;
            } else {
                break;
            }
        }
        return std::min(pos, m_text.size());
    }

    ObjectSpan object(size_t open) const
    {
        ObjectSpan span;
        span.open = open;
        size_t pos = skipTrivia(open + 1);
        while (pos < m_text.size() && m_text[pos] != '}') {
            Member member;
            member.keyStart = pos;
            const size_t keyEnd = skipString(pos);
            member.key = Json::parse(m_text.substr(pos, keyEnd - pos)).get<std::string>();
            member.valueStart = skipTrivia(skipTrivia(keyEnd) + 1); // past the ':'
            member.valueEnd = skipValue(member.valueStart);
            pos = skipTrivia(member.valueEnd);
            if (pos < m_text.size() && m_text[pos] == ',') {
                member.comma = pos;
                pos = skipTrivia(pos + 1);
            }
            span.members.push_back(std::move(member));
        }
        span.close = pos;
        return span;
    }

private:
    size_t skipString(size_t pos) const
    {
        ++pos; // the opening quote
        while (pos < m_text.size() && m_text[pos] != '"') {
            pos += m_text[pos] == '\\' ? 2 : 1;
        }
        return pos + 1;
    }

    size_t skipValue(size_t pos) const
    {
        const char first = m_text[pos];
        if (first == '"') {
            return skipString(pos);
        }
        if (first == '{' || first == '[') {
            int depth = 0;
            while (pos < m_text.size()) {
                const char c = m_text[pos];
                if (c == '"') {
                    pos = skipString(pos);
                    continue;
                }
                if (c == '/') { // outside a string only a comment starts with '/'
                    pos = skipTrivia(pos);
                    continue;
                }
                if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return pos + 1;
                }
                ++pos;
            }
            return pos;
        }
        while (pos < m_text.size() && std::string_view(",}] \t\r\n/").find(m_text[pos]) == npos) {
            ++pos; // a number, true, false or null
        }
        return pos;
    }

    const std::string &m_text;
};

size_t lineStart(const std::string &text, size_t pos)
{
    const size_t newline = pos == 0 ? npos : text.rfind('\n', pos - 1);
    return newline == npos ? 0 : newline + 1;
}

/// The spaces and tabs that start the line `pos` is on.
std::string lineIndent(const std::string &text, size_t pos)
{
    const size_t start = lineStart(text, pos);
    size_t end = start;
    while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) {
        ++end;
    }
    return text.substr(start, end - start);
}

/// Whether only spaces and tabs come before `pos` on its line.
bool startsLine(const std::string &text, size_t pos)
{
    return lineStart(text, pos) + lineIndent(text, pos).size() == pos;
}

/// How the file is laid out, so what we add looks like what is there.
struct Layout
{
    std::string newline = "\n";
    std::string unit = "  "; ///< one level of indentation
};

Layout layoutOf(const std::string &text, const ObjectSpan &top)
{
    Layout layout;
    if (text.find("\r\n") != npos) {
        layout.newline = "\r\n";
    }
    if (!top.members.empty() && startsLine(text, top.members.front().keyStart)) {
        const std::string member = lineIndent(text, top.members.front().keyStart);
        const std::string base = lineIndent(text, top.open);
        if (member.size() > base.size() && member.compare(0, base.size(), base) == 0) {
            layout.unit = member.substr(base.size());
            return layout;
        }
    }
    // Else the first indented line of the file, if any.
    for (size_t pos = 0; pos < text.size();) {
        const std::string indent = lineIndent(text, pos);
        const size_t content = pos + indent.size();
        if (!indent.empty() && content < text.size() && text[content] != '\r' && text[content] != '\n') {
            layout.unit = indent;
            break;
        }
        const size_t newline = text.find('\n', pos);
        pos = newline == npos ? npos : newline + 1;
    }
    return layout;
}

/// `value` as multi-line JSON whose first line continues where it is put and whose other lines start with `indent`
/// plus `unit` per level. JSON strings hold no raw tabs or newlines, so those nlohmann writes are all layout.
std::string render(const Json &value, const std::string &indent, const Layout &layout)
{
    const std::string dumped = value.dump(1, '\t');
    std::string result;
    size_t pos = 0;
    for (bool first = true; pos <= dumped.size(); first = false) {
        size_t end = dumped.find('\n', pos);
        end = end == npos ? dumped.size() : end;
        size_t content = pos;
        while (content < end && dumped[content] == '\t') {
            ++content;
        }
        if (!first) {
            result += layout.newline + indent;
            for (size_t level = pos; level < content; ++level) {
                result += layout.unit;
            }
        }
        result.append(dumped, content, end - content);
        pos = end + 1;
    }
    return result;
}

using Problem = McpConfigEditor::Problem;
/// A value, or the problem that stops the change.
template <typename T>
using Checked = std::variant<T, Problem>;

/// The only member named `key`, nullptr when there is none; a problem when there are several (which one a client
/// reads is its own business, so we change none of them).
Checked<const Member *> single(const ObjectSpan &object, const std::string &key)
{
    const Member *found = nullptr;
    for (const Member &member : object.members) {
        if (member.key == key) {
            if (found) {
                return Problem{.kind = Problem::Kind::DuplicateKey, .key = QString::fromStdString(key)};
            }
            found = &member;
        }
    }
    return found;
}

/// Appends `key`: `value` to `object` in `text`, after its last member (or into it when it is empty), laid out
/// like the members it has.
void insertMember(std::string &text, const ObjectSpan &object, const std::string &key, const Json &value,
                  const Layout &layout)
{
    const std::string member = Json(key).dump() + ": ";
    if (!object.members.empty()) {
        const Member &first = object.members.front();
        if (!startsLine(text, first.keyStart)) { // all on one line: so is ours
            text.insert(object.members.back().valueEnd, ", " + member + ConfigText::compactJson(value));
            return;
        }
        const std::string indent = lineIndent(text, first.keyStart);
        text.insert(object.members.back().valueEnd,
                    "," + layout.newline + indent + member + render(value, indent, layout));
        return;
    }
    const std::string base = lineIndent(text, object.open);
    const std::string indent = base + layout.unit;
    std::string insertion = layout.newline + indent + member + render(value, indent, layout);
    if (object.close == object.open + 1) {
        insertion += layout.newline + base; // "{}": the closing brace goes on a line of its own
    }
    text.insert(object.open + 1, insertion);
}

/// Removes `object`'s member `index` from `text` (which `object` was scanned from): exactly what insertMember() added.
void eraseMember(std::string &text, const ObjectSpan &object, size_t index)
{
    const std::vector<Member> &members = object.members;
    if (members.size() == 1) {
        text.erase(object.open + 1, object.close - object.open - 1);
    } else if (index > 0) {
        // From the comma before it: what insertMember() added after the previous member.
        text.erase(members[index - 1].comma, members[index].valueEnd - members[index - 1].comma);
    } else {
        // The first of several: it, its comma and the white space up to the next member's key.
        size_t end = members[0].comma + 1;
        while (end < text.size() && std::string_view(" \t\r\n").find(text[end]) != npos) {
            ++end;
        }
        text.erase(members[0].keyStart, end - members[0].keyStart);
    }
}

} // namespace

McpConfigEditor::McpConfigEditor(Format format) : m_format(std::move(format)) {}

namespace {

/// `text` with each comma that only white space and comments part from a closing bracket blanked (Zed's and VS Code's
/// settings allow them; nlohmann::json does not): the same length, so what is found in it is where it is in `text`.
std::string withoutTrailingCommas(std::string text)
{
    const SpanScanner scanner(text);
    for (size_t pos = 0; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '"') {
            for (++pos; pos < text.size() && text[pos] != '"'; ++pos) {
                pos += text[pos] == '\\' ? 1 : 0;
            }
        } else if (c == '/' && pos + 1 < text.size() && (text[pos + 1] == '/' || text[pos + 1] == '*')) {
            pos = scanner.skipTrivia(pos) - 1;
        } else if (c == ',') {
            const size_t next = scanner.skipTrivia(pos + 1);
            if (next < text.size() && (text[next] == '}' || text[next] == ']')) {
                text[pos] = ' ';
            }
        }
    }
    return text;
}

/// Line and column (from 1, as nlohmann::json counts them) of the `byte`th character read from `text` (one past
/// its end when the parser wanted more).
std::pair<int, int> lineAndColumn(const std::string &text, size_t byte)
{
    const std::string_view read = std::string_view(text).substr(0, std::min(byte, text.size()));
    const size_t lastNewline = read.rfind('\n');
    return {int(std::count(read.begin(), read.end(), '\n')) + 1,
            int(byte - (lastNewline == npos ? 0 : lastNewline + 1))};
}

Checked<Json> parse(const std::string &text, bool allowComments)
{
    try {
        Json document = Json::parse(text, nullptr, true, allowComments);
        if (!document.is_object()) {
            return Problem{.kind = Problem::Kind::TopLevelNotObject};
        }
        return document;
    } catch (const Json::parse_error &error) {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..." without the prefix.
        std::string what = error.what();
        const size_t prefix = what.find("] ");
        what = prefix == npos ? what : what.substr(prefix + 2);
        const auto [line, column] = lineAndColumn(text, error.byte);
        return Problem{.kind = Problem::Kind::NotJson,
                       .line = line,
                       .column = column,
                       .comments = !allowComments && what.find('/') != npos,
                       .parserMessage = QString::fromStdString(what)};
    }
}

/// `checked`'s problem, nullptr when it holds a value.
template <typename T>
const Problem *problemOf(const Checked<T> &checked)
{
    return std::get_if<Problem>(&checked);
}

McpYamlEditor::Shape shapeOf(const McpConfigEditor::Format &format)
{
    return {format.serversKey, format.nameKey};
}

Error errorOf(const Problem &problem)
{
    return Error{McpConfigEditor::describe(problem), ErrorCode::BadRequest};
}

/// `checked` as a Result: its value, or its problem as the error.
template <typename T>
Result<T> resultOf(const Checked<T> &checked)
{
    if (const Problem *problem = problemOf(checked)) {
        return errorOf(*problem);
    }
    return std::get<T>(checked);
}

/// What nlohmann::json parses and the scanner walks: `source`, with its trailing commas blanked where `format` allows
/// them.
std::string readableText(const std::string &source, const McpConfigEditor::Format &format)
{
    return format.trailingCommas ? withoutTrailingCommas(source) : source;
}

} // namespace

QString McpConfigEditor::describe(const Problem &problem)
{
    switch (problem.kind) {
    case Problem::Kind::NotJson:
        return QStringLiteral("it is not valid JSON (%1)").arg(problem.parserMessage) +
               (problem.comments ? QStringLiteral("; this client reads strict JSON, without comments") : QString());
    case Problem::Kind::TopLevelNotObject:
        return QStringLiteral("its top level is not a JSON object");
    case Problem::Kind::ServersNotObject:
        return QStringLiteral("its \"%1\" is not an object").arg(problem.key);
    case Problem::Kind::DuplicateKey:
        return QStringLiteral("the key \"%1\" appears twice in one object").arg(problem.key);
    case Problem::Kind::NotToml:
        return QStringLiteral("it is not valid TOML (at line %1, column %2: %3)")
            .arg(problem.line)
            .arg(problem.column)
            .arg(problem.parserMessage);
    case Problem::Kind::ServersNotTable:
        return QStringLiteral("its \"%1\" is not a table").arg(problem.key);
    case Problem::Kind::EntryNotTable:
        return QStringLiteral("its \"%1\" is not written as a table [%1] of its own (an inline table, dotted keys, or "
                              "another table between its header and its values): change it by hand")
            .arg(problem.key);
    case Problem::Kind::NotYaml:
        return QStringLiteral("it is not valid YAML (at line %1, column %2: %3)")
            .arg(problem.line)
            .arg(problem.column)
            .arg(problem.parserMessage);
    case Problem::Kind::YamlTopLevelNotMapping:
        return QStringLiteral("its top level is not a YAML mapping");
    case Problem::Kind::YamlServersNotMapping:
        return QStringLiteral("its \"%1\" is not a YAML mapping").arg(problem.key);
    case Problem::Kind::YamlServersNotSequence:
        return QStringLiteral("its \"%1\" is not a YAML sequence").arg(problem.key);
    case Problem::Kind::YamlNotLocatable:
        return (problem.key.isEmpty() ? QStringLiteral("it holds several YAML documents")
                                      : QStringLiteral("its \"%1\" is written in a way that cannot be changed safely "
                                                       "(in flow style with other entries, or an alias)")
                                            .arg(problem.key)) +
               QStringLiteral(": change it by hand");
    }
    return {};
}

Result<QByteArray> McpConfigEditor::withEntry(const QByteArray &text, const QString &name, const Json &entry) const
{
    return resultOf(m_format.toml   ? McpTomlEditor::withEntry(text, m_format.serversKey, name, entry)
                    : m_format.yaml ? McpYamlEditor::withEntry(text, shapeOf(m_format), name, entry)
                                    : changed(text, name, entry));
}

std::optional<McpConfigEditor::Problem> McpConfigEditor::problem(const QByteArray &text, const QString &name) const
{
    const std::variant<QByteArray, Problem> result =
        m_format.toml   ? McpTomlEditor::withoutEntry(text, m_format.serversKey, name)
        : m_format.yaml ? McpYamlEditor::withoutEntry(text, shapeOf(m_format), name, false)
                        : changed(text, name, Json::object());
    if (const Problem *problem = problemOf(result)) {
        return *problem;
    }
    return std::nullopt;
}

std::variant<QByteArray, McpConfigEditor::Problem> McpConfigEditor::changed(const QByteArray &text, const QString &name,
                                                                            const Json &entry) const
{
    const std::string source = text.toStdString();
    const std::string serversKey = m_format.serversKey.toStdString();
    const std::string ourName = name.toStdString();
    if (ConfigText::isBlank(source)) {
        const Json document = {{serversKey, {{ourName, entry}}}};
        return QByteArray::fromStdString(render(document, "", Layout()) + "\n");
    }
    const std::string readable = readableText(source, m_format);
    const Checked<Json> document = parse(readable, m_format.allowComments);
    if (const Problem *problem = problemOf(document)) {
        return *problem;
    }
    const SpanScanner scanner(readable);
    const ObjectSpan top = scanner.object(scanner.topLevelStart());
    const Layout layout = layoutOf(source, top);
    const Checked<const Member *> servers = single(top, serversKey);
    if (const Problem *problem = problemOf(servers)) {
        return *problem;
    }
    std::string result = source;
    const Member *serversMember = std::get<const Member *>(servers);
    if (serversMember == nullptr) {
        insertMember(result, top, serversKey, Json::object({{ourName, entry}}), layout);
        return QByteArray::fromStdString(result);
    }
    const Json &serversValue = std::get<Json>(document).at(serversKey);
    if (!serversValue.is_object()) {
        return Problem{.kind = Problem::Kind::ServersNotObject, .key = m_format.serversKey};
    }
    const ObjectSpan serversSpan = scanner.object(serversMember->valueStart);
    const Checked<const Member *> ours = single(serversSpan, ourName);
    if (const Problem *problem = problemOf(ours)) {
        return *problem;
    }
    const Member *ourMember = std::get<const Member *>(ours);
    if (ourMember == nullptr) {
        insertMember(result, serversSpan, ourName, entry, layout);
        return QByteArray::fromStdString(result);
    }
    // Ours is there: the same content (in any key order or layout) is left alone, else its value is replaced.
    if (nlohmann::json::parse(serversValue.at(ourName).dump()) == nlohmann::json::parse(entry.dump())) {
        return text;
    }
    const std::string value = startsLine(source, ourMember->keyStart)
                                  ? render(entry, lineIndent(source, ourMember->keyStart), layout)
                                  : ConfigText::compactJson(entry);
    result.replace(ourMember->valueStart, ourMember->valueEnd - ourMember->valueStart, value);
    return QByteArray::fromStdString(result);
}

Result<QByteArray> McpConfigEditor::withoutEntry(const QByteArray &text, const QString &name,
                                                 ServersObject emptyServers) const
{
    if (m_format.toml) {
        // TOML has no servers object to remove: our table's header makes it.
        return resultOf(McpTomlEditor::withoutEntry(text, m_format.serversKey, name));
    }
    if (m_format.yaml) {
        return resultOf(
            McpYamlEditor::withoutEntry(text, shapeOf(m_format), name, emptyServers == ServersObject::RemoveWhenEmpty));
    }
    const std::string source = text.toStdString();
    if (ConfigText::isBlank(source)) {
        return text;
    }
    const std::string readable = readableText(source, m_format);
    const Checked<Json> document = parse(readable, m_format.allowComments);
    if (const Problem *problem = problemOf(document)) {
        return errorOf(*problem);
    }
    const SpanScanner scanner(readable);
    const ObjectSpan top = scanner.object(scanner.topLevelStart());
    const Checked<const Member *> servers = single(top, m_format.serversKey.toStdString());
    if (const Problem *problem = problemOf(servers)) {
        return errorOf(*problem);
    }
    const Member *serversMember = std::get<const Member *>(servers);
    if (serversMember == nullptr || !std::get<Json>(document).at(m_format.serversKey.toStdString()).is_object()) {
        return text;
    }
    const ObjectSpan serversSpan = scanner.object(serversMember->valueStart);
    const Checked<const Member *> ours = single(serversSpan, name.toStdString());
    if (const Problem *problem = problemOf(ours)) {
        return errorOf(*problem);
    }
    const Member *ourMember = std::get<const Member *>(ours);
    if (ourMember == nullptr) {
        return text;
    }
    std::string result = source;
    if (serversSpan.members.size() == 1 && emptyServers == ServersObject::RemoveWhenEmpty) {
        eraseMember(result, top, size_t(serversMember - top.members.data()));
    } else {
        eraseMember(result, serversSpan, size_t(ourMember - serversSpan.members.data()));
    }
    return QByteArray::fromStdString(result);
}

bool McpConfigEditor::hasServers(const QByteArray &text) const
{
    if (m_format.toml) {
        return McpTomlEditor::hasServers(text, m_format.serversKey);
    }
    if (m_format.yaml) {
        return McpYamlEditor::hasServers(text, shapeOf(m_format));
    }
    const std::string source = text.toStdString();
    if (ConfigText::isBlank(source)) {
        return false;
    }
    const Checked<Json> document = parse(readableText(source, m_format), m_format.allowComments);
    return !problemOf(document) && std::get<Json>(document).contains(m_format.serversKey.toStdString());
}

Result<std::optional<Json>> McpConfigEditor::entry(const QByteArray &text, const QString &name) const
{
    if (m_format.toml) {
        return resultOf(McpTomlEditor::entry(text, m_format.serversKey, name));
    }
    if (m_format.yaml) {
        return resultOf(McpYamlEditor::entry(text, shapeOf(m_format), name));
    }
    const std::string source = text.toStdString();
    if (ConfigText::isBlank(source)) {
        return std::optional<Json>();
    }
    const Checked<Json> parsed = parse(readableText(source, m_format), m_format.allowComments);
    if (const Problem *problem = problemOf(parsed)) {
        return errorOf(*problem);
    }
    const Json &document = std::get<Json>(parsed);
    const auto servers = document.find(m_format.serversKey.toStdString());
    if (servers == document.end() || !servers->is_object()) {
        return std::optional<Json>();
    }
    const auto ours = servers->find(name.toStdString());
    return ours == servers->end() ? std::optional<Json>() : std::optional<Json>(*ours);
}

} // namespace sandbox
