// Codex's config.toml through McpConfigEditor with Format::toml: the entry is the table [mcp_servers.llm-sandbox],
// spliced into the user's bytes, which are otherwise left exactly as they were.
#include "assistants/McpConfigEditor.h"

#include <gtest/gtest.h>

namespace sandbox {
namespace {

using Json = nlohmann::ordered_json;
using Kind = McpConfigEditor::Problem::Kind;

const Json kEntry = {{"command", "/usr/bin/llm-sandbox"}, {"args", {"--mcp"}}, {"env", {{"BACKEND", "docker"}}}};

const McpConfigEditor kCodex({.serversKey = QStringLiteral("mcp_servers"), .toml = true});

QByteArray install(const QByteArray &text, const Json &entry = kEntry)
{
    const Result<QByteArray> result = kCodex.withEntry(text, QStringLiteral("llm-sandbox"), entry);
    EXPECT_TRUE(result.ok()) << (result ? "" : qPrintable(result.error().message));
    return result ? *result : QByteArray();
}

QByteArray uninstall(const QByteArray &text)
{
    const Result<QByteArray> result = kCodex.withoutEntry(text, QStringLiteral("llm-sandbox"));
    EXPECT_TRUE(result.ok()) << (result ? "" : qPrintable(result.error().message));
    return result ? *result : QByteArray();
}

/// A user's file as people write them: comments, odd spacing, CRLF, a BOM, other servers and tables after them.
const QByteArray kUsersFile = "\xEF\xBB\xBF# Codex settings\r\n"
                              "model   =  \"o3\"   # the default\r\n"
                              "\r\n"
                              "[mcp_servers.docs]\r\n"
                              "command = \"npx\"\r\n"
                              "args = [\r\n"
                              "    \"-y\", 'docs-server',\r\n"
                              "]\r\n"
                              "\r\n"
                              "# profiles come last\r\n"
                              "[profiles.fast]\r\n"
                              "model = \"o4-mini\"\r\n";

} // namespace

TEST(McpTomlEditor, anEmptyFileGetsTheTableAlone)
{
    EXPECT_EQ(install(""), "[mcp_servers.llm-sandbox]\n"
                           "command = \"/usr/bin/llm-sandbox\"\n"
                           "args = [\"--mcp\"]\n"
                           "env = { BACKEND = \"docker\" }\n");
    EXPECT_EQ(uninstall(install("")), "");
    // Blank text is an empty document: nothing to remove, no entry.
    EXPECT_EQ(uninstall(" \r\n"), " \r\n");
    const auto none = kCodex.entry("\n", QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
}

TEST(McpTomlEditor, theTableGoesAtTheEndInTheFilesLineEndingsAndEveryOtherByteStays)
{
    const QByteArray installed = install(kUsersFile);
    EXPECT_EQ(installed, kUsersFile + "\r\n"
                                      "[mcp_servers.llm-sandbox]\r\n"
                                      "command = \"/usr/bin/llm-sandbox\"\r\n"
                                      "args = [\"--mcp\"]\r\n"
                                      "env = { BACKEND = \"docker\" }\r\n");
    // Idempotent, readable back, and removed to the original byte for byte.
    EXPECT_EQ(install(installed), installed);
    const auto entry = kCodex.entry(installed, QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(entry.ok());
    ASSERT_TRUE(entry->has_value());
    EXPECT_EQ(nlohmann::json::parse((*entry)->dump()), nlohmann::json::parse(kEntry.dump()));
    EXPECT_EQ(uninstall(installed), kUsersFile);
    EXPECT_TRUE(kCodex.hasServers(kUsersFile));
    EXPECT_FALSE(kCodex.hasServers("model = \"o3\"\n"));
}

TEST(McpTomlEditor, anEntryElsewhereInTheFileIsReplacedWhereItIsUpToItsLastValue)
{
    const QByteArray before = "[mcp_servers.llm-sandbox]   # ours, moved by hand\n"
                              "command = \"/opt/old/llm-sandbox\"\n"
                              "args = [\n"
                              "  \"--mcp\",\n"
                              "]\n"
                              "[mcp_servers.llm-sandbox.env]\n"
                              "BACKEND = \"podman\"\n"
                              "\n"
                              "# the next server\n"
                              "[mcp_servers.docs]\n"
                              "command = \"npx\"\n";
    EXPECT_EQ(install(before), "[mcp_servers.llm-sandbox]\n"
                               "command = \"/usr/bin/llm-sandbox\"\n"
                               "args = [\"--mcp\"]\n"
                               "env = { BACKEND = \"docker\" }\n"
                               "\n"
                               "# the next server\n"
                               "[mcp_servers.docs]\n"
                               "command = \"npx\"\n");
    // The same content in another layout is left alone.
    const QByteArray same = "[mcp_servers.llm-sandbox]\n"
                            "env.BACKEND = 'docker'\n"
                            "args = ['--mcp']\n"
                            "command = '/usr/bin/llm-sandbox'\n";
    EXPECT_EQ(install(same), same);
    EXPECT_EQ(uninstall(before), "\n# the next server\n[mcp_servers.docs]\ncommand = \"npx\"\n");
}

TEST(McpTomlEditor, valuesAreWrittenAsTomlStringsAndReadBackTheSame)
{
    const Json entry = {{"command", "/home/ana \"x\"\\bin/llm-sandbox"},
                        {"args", {"--mcp"}},
                        {"env", {{"LLM_SANDBOX_SHARE", "/home/ana/données:data\tx"}, {"odd key", "1"}}}};
    const QByteArray installed = install("", entry);
    EXPECT_TRUE(installed.contains(R"(command = "/home/ana \"x\"\\bin/llm-sandbox")")) << installed.toStdString();
    EXPECT_TRUE(installed.contains(R"("odd key" = "1")")) << installed.toStdString();
    const auto read = kCodex.entry(installed, QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(nlohmann::json::parse((*read)->dump()), nlohmann::json::parse(entry.dump()));
}

TEST(McpTomlEditor, aBrokenFileOrAnEntryInAnotherFormIsRefusedAndNamed)
{
    auto problem = kCodex.problem("model = \"o3\"\n[mcp_servers.docs\ncommand = 1\n", QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->kind, Kind::NotToml);
    EXPECT_EQ(problem->line, 2);
    EXPECT_GT(problem->column, 0);
    const Result<QByteArray> refused = kCodex.withEntry("a = 1\na = 2\n", QStringLiteral("llm-sandbox"), kEntry);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains("not valid TOML (at line 2")) << refused.error().message.toStdString();

    problem = kCodex.problem("mcp_servers = 3\n", QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->kind, Kind::ServersNotTable);
    // An inline table, dotted keys, and a table between the header and its values: not guessed at.
    for (const QByteArray &text : {QByteArray("[mcp_servers]\nllm-sandbox = { command = \"x\" }\n"),
                                   QByteArray("mcp_servers.llm-sandbox.command = \"x\"\n"),
                                   QByteArray("[mcp_servers.llm-sandbox]\ncommand = \"x\"\n[other]\na = 1\n"
                                              "[mcp_servers.llm-sandbox.env]\nB = \"1\"\n")}) {
        problem = kCodex.problem(text, QStringLiteral("llm-sandbox"));
        ASSERT_TRUE(problem) << text.toStdString();
        EXPECT_EQ(problem->kind, Kind::EntryNotTable) << text.toStdString();
        EXPECT_EQ(problem->key, QStringLiteral("mcp_servers.llm-sandbox"));
        EXPECT_FALSE(kCodex.withoutEntry(text, QStringLiteral("llm-sandbox")).ok());
    }
    // Without our entry nothing stops an install.
    EXPECT_FALSE(kCodex.problem(kUsersFile, QStringLiteral("llm-sandbox")));
}

} // namespace sandbox
