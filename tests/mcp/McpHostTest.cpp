// McpHost's target provider: asked for each new client, kept by each client (no engine needed: the targets are
// engines that cannot be made, each with its own reason).
#include "mcp/McpHost.h"

#include "mcp/McpTestSupport.h"

#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

/// The text execute_code answers on `dispatcher`.
QString executeCodeAnswer(McpDispatcher &dispatcher, int id)
{
    const QJsonObject result = replyTo(dispatcher, toolCall(id, QStringLiteral("execute_code"),
                                                            {{QStringLiteral("code"), QStringLiteral("1")}}))
                                   .object()
                                   .value(QStringLiteral("result"))
                                   .toObject();
    EXPECT_TRUE(result.value(QStringLiteral("isError")).toBool());
    return firstText(result);
}

} // namespace

TEST(McpHost, eachNewClientGetsTheTargetOfItsTimeAndKeepsIt)
{
    QString reason = QStringLiteral("first engine");
    int asked = 0;
    McpHost host([&]() -> McpHost::Target {
        ++asked;
        return {Error{reason, ErrorCode::Unavailable}, nullptr};
    });
    const McpDispatcher::Factory factory = host.dispatcherFactory(RunSource::Http);
    EXPECT_EQ(asked, 0) << "asked when a client comes, not before";

    std::unique_ptr<McpDispatcher> before = factory([](const QJsonObject &, const QJsonValue &) {});
    initializeSession(*before);
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(executeCodeAnswer(*before, 1).contains(QStringLiteral("first engine")));

    // The face changes its engine (the desktop app after its backend settings changed).
    reason = QStringLiteral("second engine");
    std::unique_ptr<McpDispatcher> after = factory([](const QJsonObject &, const QJsonValue &) {});
    initializeSession(*after);
    EXPECT_EQ(asked, 2);
    EXPECT_TRUE(executeCodeAnswer(*after, 1).contains(QStringLiteral("second engine")));
    // The client that came before keeps its own.
    EXPECT_TRUE(executeCodeAnswer(*before, 2).contains(QStringLiteral("first engine")));
    EXPECT_EQ(asked, 2) << "asked once per client, not per call";
}

TEST(McpHost, aFixedEngineServesEveryClient)
{
    McpHost host(Result<ExecutionEngine *>(Error{QStringLiteral("no engine here"), ErrorCode::Unavailable}), nullptr);
    const McpDispatcher::Factory factory = host.dispatcherFactory(RunSource::Mcp);
    for (int client = 0; client < 2; ++client) {
        std::unique_ptr<McpDispatcher> dispatcher = factory([](const QJsonObject &, const QJsonValue &) {});
        initializeSession(*dispatcher);
        EXPECT_TRUE(executeCodeAnswer(*dispatcher, 1).contains(QStringLiteral("no engine here")));
    }
}
