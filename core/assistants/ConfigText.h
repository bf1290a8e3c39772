#pragma once

#include <nlohmann/json.hpp>
#include <string>

/// What the JSON, TOML and YAML editors of an assistant's configuration file (McpConfigEditor, McpTomlEditor,
/// McpYamlEditor) read and write of a text alike.
namespace sandbox::ConfigText {

/// Whether `text` holds nothing but white space (an empty configuration).
inline bool isBlank(const std::string &text)
{
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

/// The line ending the file uses: CRLF when it has one, else LF.
inline std::string lineEnding(const std::string &text)
{
    return text.find("\r\n") != std::string::npos ? "\r\n" : "\n";
}

/// `value` as JSON on one line with a space after each colon and comma, as such files are written by hand (a YAML
/// flow collection too).
inline std::string compactJson(const nlohmann::ordered_json &value)
{
    if (!value.is_structured() || value.empty()) {
        return value.dump();
    }
    std::string result(1, value.is_object() ? '{' : '[');
    for (auto item = value.begin(); item != value.end(); ++item) {
        if (item != value.begin()) {
            result += ", ";
        }
        if (value.is_object()) {
            result += nlohmann::ordered_json(item.key()).dump() + ": ";
        }
        result += compactJson(item.value());
    }
    return result + (value.is_object() ? '}' : ']');
}

} // namespace sandbox::ConfigText
