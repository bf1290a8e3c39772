#include "assistants/McpYamlEditor.h"

#include "assistants/ConfigText.h"

#include <algorithm>
#include <regex>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace sandbox::McpYamlEditor {

namespace {

constexpr auto npos = std::string::npos;

/// The text split into lines: where each begins, and the text's size after the last.
class Lines final
{
public:
    explicit Lines(const std::string &text) : m_text(text)
    {
        m_starts.push_back(0);
        for (size_t pos = text.find('\n'); pos != npos; pos = text.find('\n', pos + 1)) {
            if (pos + 1 < text.size()) {
                m_starts.push_back(pos + 1);
            }
        }
    }

    size_t count() const { return m_text.empty() ? 0 : m_starts.size(); }
    /// Where line `line` (from 0) begins; the text's size for a line past the last.
    size_t start(size_t line) const { return line < count() ? m_starts[line] : m_text.size(); }
    /// The line (from 0) that byte `pos` is on.
    size_t lineOf(size_t pos) const
    {
        return size_t(std::upper_bound(m_starts.begin(), m_starts.end(), pos) - m_starts.begin()) - 1;
    }
    /// Whether line `line` holds nothing but white space or a comment.
    bool isTrivia(size_t line) const
    {
        const size_t begin = start(line);
        const size_t first = m_text.find_first_not_of(" \t\r", begin);
        return first == npos || first >= start(line + 1) || m_text[first] == '\n' || m_text[first] == '#';
    }
    /// After the last line in [`first`, `end`) that is not trivia: where what belongs to a block ends (the blank and
    /// comment lines after it belong to what follows). start(`first`) when there is none.
    size_t contentEnd(size_t first, size_t end) const
    {
        for (size_t line = end; line > first; --line) {
            if (!isTrivia(line - 1)) {
                return start(line);
            }
        }
        return start(first);
    }

private:
    const std::string &m_text;
    std::vector<size_t> m_starts;
};

Problem notLocatable(const std::string &key)
{
    return Problem{.kind = Problem::Kind::YamlNotLocatable, .key = QString::fromStdString(key)};
}

/// The single document of `text` (null for an empty one).
std::variant<YAML::Node, Problem> parse(const std::string &text)
{
    try {
        std::vector<YAML::Node> documents = YAML::LoadAll(text);
        if (documents.size() > 1) {
            return notLocatable({});
        }
        return documents.empty() ? YAML::Node() : documents.front();
    } catch (const YAML::Exception &error) {
        return Problem{.kind = Problem::Kind::NotYaml,
                       .line = error.mark.line + 1,
                       .column = error.mark.column + 1,
                       .parserMessage = QString::fromStdString(error.msg)};
    }
}

/// A plain (unquoted) scalar as YAML 1.2's core schema reads it; quoted ones are strings.
Json scalarJson(const YAML::Node &node)
{
    const std::string &text = node.Scalar();
    if (node.Tag() != "?") {
        return text;
    }
    static const std::regex null("null|Null|NULL|~|");
    static const std::regex truth("true|True|TRUE");
    static const std::regex falsity("false|False|FALSE");
    static const std::regex integer("[-+]?[0-9]+");
    static const std::regex number(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    if (std::regex_match(text, null)) {
        return nullptr;
    }
    if (std::regex_match(text, truth) || std::regex_match(text, falsity)) {
        return std::regex_match(text, truth);
    }
    try {
        if (std::regex_match(text, integer)) {
            return std::stoll(text);
        }
        if (std::regex_match(text, number)) {
            return std::stod(text);
        }
    } catch (const std::out_of_range &) {
    }
    return text;
}

Json toJson(const YAML::Node &node)
{
    switch (node.Type()) {
    case YAML::NodeType::Map: {
        Json object = Json::object();
        for (const auto &member : node) {
            object[member.first.Scalar()] = toJson(member.second);
        }
        return object;
    }
    case YAML::NodeType::Sequence: {
        Json list = Json::array();
        for (const auto &element : node) {
            list.push_back(toJson(element));
        }
        return list;
    }
    case YAML::NodeType::Scalar:
        return scalarJson(node);
    default:
        return nullptr;
    }
}

/// `text` as a YAML scalar: plain where that reads back as the same string, else double-quoted (a JSON string is a
/// YAML double-quoted scalar).
std::string scalarText(const std::string &text)
{
    // Words of these characters parted by single spaces: no ':', '#', quote or bracket a YAML reader could take apart.
    static const std::regex plain("[A-Za-z_/][A-Za-z0-9_/.@+=-]*( [A-Za-z0-9_/.@+=-]+)*");
    static const std::regex special("(y|yes|n|no|on|off|true|false|null)", std::regex::icase);
    if (std::regex_match(text, plain) && !std::regex_match(text, special)) {
        return text;
    }
    return Json(text).dump();
}

std::string valueText(const Json &value)
{
    return value.is_string() ? scalarText(value.get<std::string>())
                             : ConfigText::compactJson(value); // arrays in flow style
}

/// `key`: `value` as block YAML (a mapping's entry), each line starting with `indent`, nested mappings `unit` deeper.
std::string memberText(const std::string &indent, const std::string &key, const Json &value, const std::string &unit,
                       const std::string &eol)
{
    if (!value.is_object() || value.empty()) {
        return indent + scalarText(key) + ": " + valueText(value) + eol;
    }
    std::string out = indent + scalarText(key) + ":" + eol;
    for (const auto &[member, inner] : value.items()) {
        out += memberText(indent + unit, member, inner, unit, eol);
    }
    return out;
}

/// A sequence's item `entry` with its dash at `indent`: "- first: ..." and the other members under the first.
std::string sequenceItem(const std::string &indent, const Json &entry, const std::string &unit, const std::string &eol)
{
    std::string out;
    const std::string keys = indent + "  ";
    for (const auto &[member, value] : entry.items()) {
        out += memberText(keys, member, value, unit, eol);
    }
    return out.replace(indent.size(), 2, "- ");
}

/// Where the flow collection starting at `open` ends (one past its closing bracket), npos when it does not.
size_t flowEnd(const std::string &text, size_t open)
{
    int depth = 0;
    for (size_t pos = open; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '"') {
            for (++pos; pos < text.size() && text[pos] != '"'; ++pos) {
                pos += text[pos] == '\\' ? 1 : 0;
            }
        } else if (c == '\'') {
            for (++pos; pos < text.size(); ++pos) {
                if (text[pos] == '\'' && (pos + 1 >= text.size() || text[pos + 1] != '\'')) {
                    break;
                }
                pos += text[pos] == '\'' ? 1 : 0; // '' is a quote inside
            }
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return pos + 1;
        }
    }
    return npos;
}

/// Whether `text` at `pos` is the key `key`, bare or quoted.
bool keyAt(const std::string &text, size_t pos, const std::string &key)
{
    if (text.compare(pos, key.size(), key) == 0) {
        return true;
    }
    return pos + key.size() + 1 < text.size() && (text[pos] == '"' || text[pos] == '\'') &&
           text.compare(pos + 1, key.size(), key) == 0 && text[pos + 1 + key.size()] == text[pos];
}

/// Where the servers are in the text and what our entry's place among them is.
struct Located
{
    YAML::Node document;
    bool serversFound = false;
    size_t serversLine = 0;    ///< the servers key's line
    size_t serversEndLine = 0; ///< the line of the next top-level key (or the line count)
    YAML::Node servers;        ///< the servers value
    bool flow = false;         ///< the servers value is an empty flow collection ("{}", "[]")
    size_t flowBegin = 0;      ///< ... where it begins
    size_t flowEndPos = 0;     ///< ... and where it ends
    std::string childIndent;   ///< the indentation of the servers' entries (of their dash, for a sequence)
    std::string unit = "  ";   ///< one level of indentation inside an entry
    size_t insertAt = 0;       ///< where a new entry goes (block style)
    bool ours = false;         ///< our entry is there
    size_t ourBegin = 0;       ///< ... from this byte
    size_t ourEnd = 0;         ///< ... to this one
    int entries = 0;           ///< how many entries the servers have
    YAML::Node ourValue;       ///< our entry (the mapping's value, or the sequence's item)
};

std::string indentOf(const std::string &text, const Lines &lines, size_t line)
{
    const size_t begin = lines.start(line);
    size_t end = begin;
    while (end < text.size() && text[end] == ' ') {
        ++end;
    }
    return text.substr(begin, end - begin);
}

std::variant<Located, Problem> locate(const std::string &text, const Shape &shape, const std::string &name)
{
    auto parsed = parse(text);
    if (const Problem *problem = std::get_if<Problem>(&parsed)) {
        return *problem;
    }
    Located at;
    at.document = std::get<YAML::Node>(parsed);
    const Lines lines(text);
    const std::string serversKey = shape.serversKey.toStdString();
    const YAML::Node &document = at.document;
    if (document.IsNull()) {
        return at;
    }
    if (!document.IsMap()) {
        return Problem{.kind = Problem::Kind::YamlTopLevelNotMapping};
    }
    if (document.Style() == YAML::EmitterStyle::Flow) {
        return notLocatable(serversKey);
    }
    // The servers key, and the line where the top-level key after it begins.
    for (auto member = document.begin(); member != document.end(); ++member) {
        if (!member->first.IsScalar() || member->first.Scalar() != serversKey) {
            continue;
        }
        if (at.serversFound) {
            return Problem{.kind = Problem::Kind::DuplicateKey, .key = shape.serversKey};
        }
        at.serversFound = true;
        const YAML::Mark mark = member->first.Mark();
        if (!keyAt(text, size_t(mark.pos), serversKey)) {
            return notLocatable(serversKey);
        }
        at.serversLine = lines.lineOf(size_t(mark.pos));
        at.servers = member->second;
        auto next = member;
        at.serversEndLine = ++next == document.end() ? lines.count() : lines.lineOf(size_t(next->first.Mark().pos));
    }
    if (!at.serversFound) {
        return at;
    }
    const bool sequence = !shape.nameKey.isEmpty();
    const YAML::Node &servers = at.servers;
    const size_t keyLineEnd = lines.start(at.serversLine + 1);
    if (servers.IsNull()) {
        // "extensions:" with nothing after it but a comment: entries go on the lines below.
        const size_t colon = text.find(':', lines.start(at.serversLine) + serversKey.size());
        const size_t after = text.find_first_not_of(" \t\r", colon + 1);
        if (colon >= keyLineEnd || (after < keyLineEnd && text[after] != '\n' && text[after] != '#')) {
            return notLocatable(serversKey);
        }
        at.childIndent = "  ";
        at.insertAt = lines.contentEnd(at.serversLine, at.serversEndLine);
        return at;
    }
    if (sequence ? !servers.IsSequence() : !servers.IsMap()) {
        return Problem{.kind = sequence ? Problem::Kind::YamlServersNotSequence : Problem::Kind::YamlServersNotMapping,
                       .key = shape.serversKey};
    }
    if (servers.Style() == YAML::EmitterStyle::Flow) {
        // Only an empty one, or one holding nothing but our entry (which we wrote there as JSON), is changed.
        const size_t begin = size_t(servers.Mark().pos);
        const size_t end =
            begin < text.size() && (text[begin] == '{' || text[begin] == '[') ? flowEnd(text, begin) : npos;
        if (end == npos || lines.lineOf(begin) != at.serversLine) {
            return notLocatable(serversKey);
        }
        at.flow = true;
        at.flowBegin = begin;
        at.flowEndPos = end;
    }
    // The entries: where each begins (a mapping's key, a sequence item's dash) and which is ours.
    std::vector<size_t> beginLines;
    int ourIndex = -1;
    for (auto member = servers.begin(); member != servers.end(); ++member) {
        const YAML::Node item = sequence ? *member : member->first;
        const YAML::Node value = sequence ? *member : member->second;
        size_t pos = size_t(item.Mark().pos);
        if (sequence && !at.flow) {
            // Back from the item's first key over white space to its dash.
            while (pos > 0 && std::string_view(" \t\r\n").find(text[pos - 1]) != npos) {
                --pos;
            }
            if (pos == 0 || text[pos - 1] != '-') {
                return notLocatable(serversKey);
            }
            --pos;
        }
        if (lines.lineOf(pos) <= at.serversLine && !at.flow) {
            return notLocatable(serversKey); // an alias, or something else not written here
        }
        const std::string key = sequence ? (item.IsMap() && item[shape.nameKey.toStdString()].IsScalar()
                                                ? item[shape.nameKey.toStdString()].Scalar()
                                                : std::string())
                                         : (item.IsScalar() ? item.Scalar() : std::string());
        if (key == name) {
            if (ourIndex >= 0) {
                return Problem{.kind = Problem::Kind::DuplicateKey, .key = QString::fromStdString(name)};
            }
            ourIndex = int(beginLines.size());
            at.ourValue = value;
        }
        beginLines.push_back(lines.lineOf(pos));
        ++at.entries;
    }
    if (at.flow) {
        if (at.entries > (ourIndex >= 0 ? 1 : 0)) {
            return notLocatable(serversKey);
        }
        at.ours = ourIndex >= 0;
        return at;
    }
    const size_t first = beginLines.front();
    at.childIndent = indentOf(text, lines, first);
    if (sequence) {
        at.childIndent = text.substr(lines.start(first), text.find('-', lines.start(first)) - lines.start(first));
    } else {
        // One level inside an entry: how deep the first entry's first member is below its key.
        const YAML::Node firstValue = servers.begin()->second;
        if (firstValue.IsMap() && firstValue.size() > 0 && firstValue.Style() != YAML::EmitterStyle::Flow) {
            const YAML::Mark inner = firstValue.begin()->first.Mark();
            if (size_t(inner.column) > at.childIndent.size()) {
                at.unit = std::string(size_t(inner.column) - at.childIndent.size(), ' ');
            }
        }
    }
    at.insertAt = lines.contentEnd(at.serversLine, at.serversEndLine);
    if (ourIndex >= 0) {
        const size_t end =
            size_t(ourIndex) + 1 < beginLines.size() ? beginLines[size_t(ourIndex) + 1] : at.serversEndLine;
        at.ours = true;
        at.ourBegin = lines.start(beginLines[size_t(ourIndex)]);
        at.ourEnd = lines.contentEnd(beginLines[size_t(ourIndex)], end);
    }
    return at;
}

/// The entry as a sequence item holds it: the name member first.
Json itemOf(const Shape &shape, const std::string &name, const Json &entry)
{
    Json item = Json::object();
    item[shape.nameKey.toStdString()] = name;
    for (const auto &[key, value] : entry.items()) {
        if (key != shape.nameKey.toStdString()) {
            item[key] = value;
        }
    }
    return item;
}

} // namespace

std::variant<QByteArray, Problem> withEntry(const QByteArray &text, const Shape &shape, const QString &name,
                                            const Json &wanted)
{
    const std::string source = text.toStdString();
    const std::string eol = ConfigText::lineEnding(source);
    const std::string ourName = name.toStdString();
    const bool sequence = !shape.nameKey.isEmpty();
    const Json entry = sequence ? itemOf(shape, ourName, wanted) : wanted;
    const auto block = [&](const std::string &indent, const std::string &unit) {
        return sequence ? sequenceItem(indent, entry, unit, eol) : memberText(indent, ourName, entry, unit, eol);
    };
    const std::string servers = scalarText(shape.serversKey.toStdString()) + ":" + eol;
    if (ConfigText::isBlank(source)) {
        return QByteArray::fromStdString(servers + block("  ", "  "));
    }
    auto located = locate(source, shape, ourName);
    if (const Problem *problem = std::get_if<Problem>(&located)) {
        return *problem;
    }
    const Located &at = std::get<Located>(located);
    std::string result = source;
    if (at.ours) {
        if (nlohmann::json::parse(toJson(at.ourValue).dump()) == nlohmann::json::parse(entry.dump())) {
            return text;
        }
        if (at.flow) {
            const Json flow = sequence ? Json::array({entry}) : Json::object({{ourName, entry}});
            return QByteArray::fromStdString(
                result.replace(at.flowBegin, at.flowEndPos - at.flowBegin, ConfigText::compactJson(flow)));
        }
        // Replaced where it is, indented as it was.
        const Lines lines(source);
        const size_t line = lines.lineOf(at.ourBegin);
        std::string indent = indentOf(source, lines, line);
        return QByteArray::fromStdString(result.replace(at.ourBegin, at.ourEnd - at.ourBegin, block(indent, at.unit)));
    }
    if (at.flow) {
        // An empty "{}" or "[]" takes the entry as JSON, on its line.
        const Json flow = sequence ? Json::array({entry}) : Json::object({{ourName, entry}});
        return QByteArray::fromStdString(
            result.replace(at.flowBegin, at.flowEndPos - at.flowBegin, ConfigText::compactJson(flow)));
    }
    const std::string indent = at.serversFound ? at.childIndent : "  ";
    std::string insertion = (at.serversFound ? "" : servers) + block(indent, at.unit);
    const size_t insertAt = at.serversFound ? at.insertAt : source.size();
    if (insertAt == source.size() && source.back() != '\n') {
        insertion = eol + insertion;
    }
    return QByteArray::fromStdString(result.insert(insertAt, insertion));
}

std::variant<QByteArray, Problem> withoutEntry(const QByteArray &text, const Shape &shape, const QString &name,
                                               bool removeServers)
{
    const std::string source = text.toStdString();
    auto located = locate(source, shape, name.toStdString());
    if (const Problem *problem = std::get_if<Problem>(&located)) {
        return *problem;
    }
    const Located &at = std::get<Located>(located);
    if (!at.ours) {
        return text;
    }
    std::string result = source;
    const Lines lines(source);
    if (removeServers && at.entries == 1) {
        const size_t begin = lines.start(at.serversLine);
        return QByteArray::fromStdString(
            result.erase(begin, lines.contentEnd(at.serversLine, at.serversEndLine) - begin));
    }
    if (at.flow) {
        return QByteArray::fromStdString(
            result.replace(at.flowBegin, at.flowEndPos - at.flowBegin, shape.nameKey.isEmpty() ? "{}" : "[]"));
    }
    return QByteArray::fromStdString(result.erase(at.ourBegin, at.ourEnd - at.ourBegin));
}

std::variant<std::optional<Json>, Problem> entry(const QByteArray &text, const Shape &shape, const QString &name)
{
    const std::string source = text.toStdString();
    if (ConfigText::isBlank(source)) {
        return std::optional<Json>();
    }
    auto located = locate(source, shape, name.toStdString());
    if (const Problem *problem = std::get_if<Problem>(&located)) {
        return *problem;
    }
    const Located &at = std::get<Located>(located);
    return at.ours ? std::optional<Json>(toJson(at.ourValue)) : std::optional<Json>();
}

bool hasServers(const QByteArray &text, const Shape &shape)
{
    const std::string source = text.toStdString();
    if (ConfigText::isBlank(source)) {
        return false;
    }
    auto located = locate(source, shape, {});
    return std::holds_alternative<Located>(located) && std::get<Located>(located).serversFound;
}

} // namespace sandbox::McpYamlEditor
