// The 2026-07-28 routing headers against the body they mirror (docs/specification/2026-07-28/basic/transports/
// streamable-http.mdx: "Standard Request Headers", "Value Encoding", "Server Validation").
#include "mcp/http/RoutingHeaders.h"

#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox::mcp;

namespace {

ToolRegistry tools()
{
    ToolRegistry registry;
    registry.add(Tool{.name = QStringLiteral("execute_sql"),
                      .title = {},
                      .description = QStringLiteral("Execute SQL on Google Cloud Spanner"),
                      .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}},
                      .outputSchema = {},
                      .annotations = {},
                      .longRunning = false,
                      .handler = {},
                      .headerArguments = {{QStringLiteral("region"), QStringLiteral("Region")},
                                          {QStringLiteral("shard"), QStringLiteral("Shard")}}});
    return registry;
}

QJsonObject meta()
{
    return QJsonObject{{QStringLiteral("io.modelcontextprotocol/protocolVersion"), QStringLiteral("2026-07-28")},
                       {QStringLiteral("io.modelcontextprotocol/clientCapabilities"), QJsonObject()}};
}

// The specification's "Resulting HTTP request" example.
QJsonObject executeSql(const QJsonObject &arguments)
{
    return QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), 1},
                       {QStringLiteral("method"), QStringLiteral("tools/call")},
                       {QStringLiteral("params"), QJsonObject{{QStringLiteral("_meta"), meta()},
                                                              {QStringLiteral("name"), QStringLiteral("execute_sql")},
                                                              {QStringLiteral("arguments"), arguments}}}};
}

const QJsonObject kSpecArguments{{QStringLiteral("region"), QStringLiteral("us-west1")},
                                 {QStringLiteral("query"), QStringLiteral("SELECT * FROM users")}};

RoutingHeaders::Headers specHeaders()
{
    return {{"Content-Type", "application/json"},
            {"MCP-Protocol-Version", "2026-07-28"},
            {"Mcp-Method", "tools/call"},
            {"Mcp-Name", "execute_sql"},
            {"Mcp-Param-Region", "us-west1"}};
}

RoutingHeaders::Headers replaced(RoutingHeaders::Headers headers, const QByteArray &name, const QByteArray &value)
{
    headers.removeIf([&](const auto &header) { return header.first.compare(name, Qt::CaseInsensitive) == 0; });
    if (!value.isNull()) {
        headers.append({name, value});
    }
    return headers;
}

TEST(RoutingHeadersTest, theSpecificationExampleMatches)
{
    EXPECT_EQ(RoutingHeaders::mismatch(specHeaders(), executeSql(kSpecArguments), tools()), std::nullopt);
}

TEST(RoutingHeadersTest, headerNamesAreCaseInsensitiveAndValuesTrimmed)
{
    RoutingHeaders::Headers headers{{"mcp-protocol-version", "2026-07-28"},
                                    {"MCP-METHOD", "tools/call"},
                                    {"mcp-name", "  execute_sql\t"},
                                    {"MCP-PARAM-REGION", "us-west1"}};
    EXPECT_EQ(RoutingHeaders::mismatch(headers, executeSql(kSpecArguments), tools()), std::nullopt);
}

TEST(RoutingHeadersTest, aMissingOrDifferentStandardHeaderIsAMismatch)
{
    const QJsonObject body = executeSql(kSpecArguments);
    EXPECT_TRUE(RoutingHeaders::mismatch(replaced(specHeaders(), "MCP-Protocol-Version", {}), body, tools()));
    EXPECT_TRUE(RoutingHeaders::mismatch(replaced(specHeaders(), "MCP-Protocol-Version", "2025-11-25"), body, tools()));
    EXPECT_TRUE(RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Method", {}), body, tools()));
    // Values are case-sensitive.
    EXPECT_TRUE(RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Method", "TOOLS/CALL"), body, tools()));
    EXPECT_TRUE(RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Name", {}), body, tools()));
    const std::optional<QString> wrongName =
        RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Name", "foo"), body, tools());
    ASSERT_TRUE(wrongName);
    EXPECT_EQ(*wrongName, QStringLiteral("Header mismatch: Mcp-Name header value 'foo' does not match body value "
                                         "'execute_sql'"));
}

TEST(RoutingHeadersTest, aMirroredArgumentNeedsItsHeaderWhenItHasAValue)
{
    EXPECT_TRUE(
        RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Param-Region", {}), executeSql(kSpecArguments), tools()));
    EXPECT_TRUE(RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Param-Region", "eu-west1"),
                                         executeSql(kSpecArguments), tools()));
    // null or absent: no header expected.
    QJsonObject withoutRegion = kSpecArguments;
    withoutRegion.insert(QStringLiteral("region"), QJsonValue::Null);
    EXPECT_EQ(
        RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Param-Region", {}), executeSql(withoutRegion), tools()),
        std::nullopt);
}

TEST(RoutingHeadersTest, numbersCompareAsNumbers)
{
    QJsonObject arguments = kSpecArguments;
    arguments.insert(QStringLiteral("shard"), 42);
    EXPECT_EQ(
        RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Param-Shard", "42.0"), executeSql(arguments), tools()),
        std::nullopt);
    EXPECT_TRUE(
        RoutingHeaders::mismatch(replaced(specHeaders(), "Mcp-Param-Shard", "43"), executeSql(arguments), tools()));
}

TEST(RoutingHeadersTest, decodesTheSpecificationsEncodingExamples)
{
    EXPECT_EQ(RoutingHeaders::decode("us-west1"), QStringLiteral("us-west1"));
    EXPECT_EQ(RoutingHeaders::decode("=?base64?SGVsbG8sIOS4lueVjA==?="), QStringLiteral("Hello, 世界"));
    EXPECT_EQ(RoutingHeaders::decode("=?base64?IHBhZGRlZCA=?="), QStringLiteral(" padded "));
    EXPECT_EQ(RoutingHeaders::decode("=?base64?bGluZTEKbGluZTI=?="), QStringLiteral("line1\nline2"));
    EXPECT_EQ(RoutingHeaders::decode("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="), QStringLiteral("=?base64?literal?="));
    // Without both markers the value is literal.
    EXPECT_EQ(RoutingHeaders::decode("=?base64?SGVsbG8="), QStringLiteral("=?base64?SGVsbG8="));
    EXPECT_EQ(RoutingHeaders::decode("SGVsbG8="), QStringLiteral("SGVsbG8="));
}

TEST(RoutingHeadersTest, refusesMalformedBase64AndRawControlCharacters)
{
    EXPECT_EQ(RoutingHeaders::decode("=?base64?SGVsbG8?="), std::nullopt);     // padding missing
    EXPECT_EQ(RoutingHeaders::decode("=?base64?SGVs!!!bG8=?="), std::nullopt); // not base64
    EXPECT_EQ(RoutingHeaders::decode("=?base64?/w==?="), std::nullopt);        // not UTF-8
    EXPECT_EQ(RoutingHeaders::decode("caf\xc3\xa9"), std::nullopt);            // non-ASCII must be encoded
    EXPECT_EQ(RoutingHeaders::decode(QByteArray("a\x01"
                                                "b",
                                                3)),
              std::nullopt);
}

} // namespace
