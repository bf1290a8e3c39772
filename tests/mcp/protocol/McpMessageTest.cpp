#include "mcp/protocol/McpMessage.h"

#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/RequestMeta.h"

#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox::mcp;

namespace {

McpMessage read(const char *json)
{
    return McpMessage::parse(QJsonDocument::fromJson(json).object());
}

} // namespace

TEST(McpMessageTest, requestIsReadOnceWithItsIdMethodParamsAndProgressToken)
{
    const McpMessage message = read(R"({"jsonrpc":"2.0","id":7,"method":"tools/call",
                                        "params":{"name":"x","_meta":{"progressToken":"p1"}}})");
    EXPECT_EQ(message.kind(), McpMessage::Kind::Request);
    EXPECT_EQ(message.id(), QJsonValue(7));
    EXPECT_EQ(message.method(), QStringLiteral("tools/call"));
    EXPECT_EQ(message.params().value(QStringLiteral("name")).toString(), QStringLiteral("x"));
    EXPECT_EQ(message.progressToken(), QJsonValue(QStringLiteral("p1")));
    EXPECT_TRUE(message.awaitsAnswer());
    EXPECT_FALSE(message.isPerRequest());
}

TEST(McpMessageTest, notificationsResponsesAndMalformedParamsOfNotificationsAreTold)
{
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").kind(), McpMessage::Kind::Notification);
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":1,"result":{}})").kind(), McpMessage::Kind::Ignored);
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","method":"notifications/x","params":[1]})").kind(), McpMessage::Kind::Ignored);
    EXPECT_FALSE(read(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").awaitsAnswer());
}

TEST(McpMessageTest, malformedMessagesCarryTheirErrorAndAUsableIdOnly)
{
    const McpMessage noVersion = read(R"({"id":"a","method":"ping"})");
    EXPECT_EQ(noVersion.kind(), McpMessage::Kind::Invalid);
    EXPECT_EQ(noVersion.errorCode(), jsonrpc::InvalidRequest);
    EXPECT_EQ(noVersion.id(), QJsonValue(QStringLiteral("a")));
    EXPECT_TRUE(noVersion.awaitsAnswer());

    const McpMessage badId = read(R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})");
    EXPECT_EQ(badId.kind(), McpMessage::Kind::Invalid);
    EXPECT_TRUE(badId.id().isNull());

    const McpMessage badParams = read(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":"x"})");
    EXPECT_EQ(badParams.errorCode(), jsonrpc::InvalidParams);
    EXPECT_EQ(badParams.id(), QJsonValue(2));

    const McpMessage notAnObject = McpMessage::parse(QJsonValue(3));
    EXPECT_EQ(notAnObject.kind(), McpMessage::Kind::Invalid);
    EXPECT_TRUE(notAnObject.id().isNull());
    EXPECT_FALSE(notAnObject.awaitsAnswer());
}

TEST(McpMessageTest, aRequestNamingItsRevisionInMetaTakesThePerRequestPath)
{
    const McpMessage discover = read(R"({"jsonrpc":"2.0","id":1,"method":"server/discover"})");
    EXPECT_TRUE(discover.isPerRequest());
    const McpMessage call = read(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":
                                     {"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
    EXPECT_TRUE(call.isPerRequest());
    EXPECT_FALSE(read(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})").isPerRequest());
}
