#include "mcp/http/RoutingHeaders.h"

#include "mcp/protocol/RequestMeta.h"

#include <QStringDecoder>
#include <algorithm>

namespace sandbox::mcp {

namespace {

std::optional<QByteArray> find(const RoutingHeaders::Headers &headers, QByteArrayView name)
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return std::nullopt;
}

/// Spaces and tabs around a field value are not part of it (RFC 9110, 5.5).
QByteArray trimmed(const QByteArray &value)
{
    qsizetype begin = 0;
    qsizetype end = value.size();
    while (begin < end && (value[begin] == ' ' || value[begin] == '\t')) {
        ++begin;
    }
    while (end > begin && (value[end - 1] == ' ' || value[end - 1] == '\t')) {
        --end;
    }
    return value.mid(begin, end - begin);
}

/// Canonical base64 only: whole quads, padding only at the end. Qt's decoder would take a missing "=" too.
bool isStrictBase64(const QByteArray &text)
{
    if (text.isEmpty() || text.size() % 4 != 0) {
        return false;
    }
    const qsizetype padding = text.endsWith("==") ? 2 : text.endsWith('=') ? 1 : 0;
    return std::all_of(text.begin(), text.end() - padding, [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    });
}

QString describe(const std::optional<QString> &value)
{
    return value ? QStringLiteral("'%1'").arg(value->left(100)) : QStringLiteral("(missing)");
}

/// The mismatch of one mirrored header, or nothing. `expected` is the body's value as the header must spell it.
std::optional<QString> compare(const RoutingHeaders::Headers &headers, const QByteArray &name, const QString &expected,
                               bool numeric = false)
{
    const std::optional<QByteArray> raw = find(headers, name);
    if (!raw) {
        return QStringLiteral("Header mismatch: the %1 header is required (the body has '%2').")
            .arg(QString::fromLatin1(name), expected.left(100));
    }
    const std::optional<QString> value = RoutingHeaders::decode(*raw);
    if (!value) {
        return QStringLiteral("Header mismatch: the %1 header is not a valid value (malformed base64 or characters a "
                              "header cannot carry).")
            .arg(QString::fromLatin1(name));
    }
    // Integers may be spelled differently ("42.0" is 42): compared as numbers.
    const bool same =
        numeric ? (value->toDouble() == expected.toDouble() && !value->trimmed().isEmpty()) : *value == expected;
    if (!same) {
        return QStringLiteral("Header mismatch: %1 header value %2 does not match body value '%3'")
            .arg(QString::fromLatin1(name), describe(value), expected.left(100));
    }
    return std::nullopt;
}

} // namespace

std::optional<QString> RoutingHeaders::decode(const QByteArray &value)
{
    const QByteArray text = trimmed(value);
    static const QByteArray prefix = "=?base64?";
    static const QByteArray suffix = "?=";
    if (text.size() >= prefix.size() + suffix.size() && text.startsWith(prefix) && text.endsWith(suffix)) {
        const QByteArray encoded = text.mid(prefix.size(), text.size() - prefix.size() - suffix.size());
        if (!isStrictBase64(encoded)) {
            return std::nullopt;
        }
        const QByteArray bytes = QByteArray::fromBase64(encoded);
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        QString decoded = utf8(bytes);
        if (utf8.hasError()) {
            return std::nullopt;
        }
        return decoded;
    }
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return (byte >= 0x20 && byte <= 0x7e) || byte == '\t';
    });
    if (!plain) {
        return std::nullopt;
    }
    return QString::fromLatin1(text);
}

std::optional<QString> RoutingHeaders::mismatch(const Headers &headers, const QJsonObject &request,
                                                const ToolRegistry &tools)
{
    const QJsonObject params = request.value(QStringLiteral("params")).toObject();
    const std::optional<QByteArray> version = find(headers, "mcp-protocol-version");
    if (!version || trimmed(*version).isEmpty()) {
        return QStringLiteral("Header mismatch: the MCP-Protocol-Version header is required.");
    }
    const QJsonValue bodyVersion =
        params.value(QStringLiteral("_meta")).toObject().value(RequestMeta::kProtocolVersion);
    if (bodyVersion.isString()) {
        if (auto problem = compare(headers, "MCP-Protocol-Version", bodyVersion.toString())) {
            return problem;
        }
    }
    const QString method = request.value(QStringLiteral("method")).toString();
    if (auto problem = compare(headers, "Mcp-Method", method)) {
        return problem;
    }
    const QString nameField =
        method == QLatin1String("resources/read") ? QStringLiteral("uri") : QStringLiteral("name");
    const bool named = method == QLatin1String("tools/call") || method == QLatin1String("prompts/get") ||
                       method == QLatin1String("resources/read");
    if (named && params.value(nameField).isString()) {
        if (auto problem = compare(headers, "Mcp-Name", params.value(nameField).toString())) {
            return problem;
        }
    }
    if (method != QLatin1String("tools/call")) {
        return std::nullopt;
    }
    const Tool *tool = tools.find(params.value(QStringLiteral("name")).toString());
    if (!tool) {
        return std::nullopt; // the dispatcher answers an unknown tool
    }
    const QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
    for (const auto &[argument, header] : tool->headerArguments) {
        const QJsonValue value = arguments.value(argument);
        const QByteArray name = "Mcp-Param-" + header.toLatin1();
        std::optional<QString> problem;
        if (value.isString()) {
            problem = compare(headers, name, value.toString());
        } else if (value.isBool()) {
            problem = compare(headers, name, value.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
        } else if (value.isDouble()) {
            problem = compare(headers, name, QString::number(value.toDouble(), 'g', 17), true);
        }
        // null or absent: the client sends no header, and one it sends anyway says nothing the body contradicts.
        if (problem) {
            return problem;
        }
    }
    return std::nullopt;
}

} // namespace sandbox::mcp
