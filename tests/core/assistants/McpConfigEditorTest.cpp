#include "assistants/McpConfigEditor.h"

#include <gtest/gtest.h>

namespace sandbox {
namespace {

using Json = nlohmann::ordered_json;

const Json kEntry = {{"command", "/usr/bin/llm-sandbox"}, {"args", {"--mcp"}}, {"env", {{"BACKEND", "docker"}}}};

McpConfigEditor claude()
{
    return McpConfigEditor({.serversKey = QStringLiteral("mcpServers"), .allowComments = false});
}

McpConfigEditor vscode()
{
    return McpConfigEditor({.serversKey = QStringLiteral("servers"), .allowComments = true});
}

QByteArray install(const McpConfigEditor &editor, const QByteArray &text, const Json &entry = kEntry)
{
    const Result<QByteArray> result = editor.withEntry(text, QStringLiteral("llm-sandbox"), entry);
    EXPECT_TRUE(result.ok()) << (result ? "" : qPrintable(result.error().message));
    return result ? *result : QByteArray();
}

QByteArray uninstall(const McpConfigEditor &editor, const QByteArray &text,
                     McpConfigEditor::ServersObject emptyServers = McpConfigEditor::ServersObject::Keep)
{
    const Result<QByteArray> result = editor.withoutEntry(text, QStringLiteral("llm-sandbox"), emptyServers);
    EXPECT_TRUE(result.ok()) << (result ? "" : qPrintable(result.error().message));
    return result ? *result : QByteArray();
}

/// The installed text is the original with one piece inserted: every byte of the original is still there, in order.
void expectOnlyInserted(const QByteArray &original, const QByteArray &installed)
{
    qsizetype prefix = 0;
    while (prefix < original.size() && original[prefix] == installed[prefix]) {
        ++prefix;
    }
    const QByteArray rest = original.mid(prefix);
    EXPECT_TRUE(installed.endsWith(rest)) << installed.constData();
    EXPECT_GT(installed.size(), original.size());
}

TEST(McpConfigEditorTest, addsOurServerAfterTheOthersAndKeepsEveryOtherByte)
{
    const QByteArray original = R"({
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]
    },
    "github": {"command": "docker", "env": {"TOKEN": "x"}}
  },
  "preferences": {"sidebarMode": "chat"}
}
)";
    const QByteArray installed = install(claude(), original);
    EXPECT_EQ(installed.toStdString(), R"({
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]
    },
    "github": {"command": "docker", "env": {"TOKEN": "x"}},
    "llm-sandbox": {
      "command": "/usr/bin/llm-sandbox",
      "args": [
        "--mcp"
      ],
      "env": {
        "BACKEND": "docker"
      }
    }
  },
  "preferences": {"sidebarMode": "chat"}
}
)");
    // Other servers and settings in their order; ours last.
    const Json parsed = Json::parse(installed.toStdString());
    EXPECT_EQ(parsed.begin().key(), "globalShortcut");
    std::vector<std::string> servers;
    for (const auto &[name, value] : parsed["mcpServers"].items()) {
        servers.push_back(name);
    }
    EXPECT_EQ(servers, (std::vector<std::string>{"filesystem", "github", "llm-sandbox"}));
    EXPECT_EQ(uninstall(claude(), installed), original);
}

TEST(McpConfigEditorTest, followsTabsCrlfUnicodeAndAMissingFinalNewline)
{
    const QByteArray original = "{\r\n\t\"mcpServers\": {\r\n\t\t\"d\\u00e9j\\u00e0\": {\r\n\t\t\t\"command\": "
                                "\"/opt/\xE6\xB2\x99\xE7\x9B\x92/run\",\r\n\t\t\t\"env\": {\"nested\": {\"deep\": [1, "
                                "{\"x\": null}]}}\r\n\t\t}\r\n\t},\r\n\t\"theme\": \"\xF0\x9F\x8C\x99\"\r\n}";
    const QByteArray installed = install(claude(), original);
    expectOnlyInserted(original, installed);
    EXPECT_TRUE(installed.contains("\t\t},\r\n\t\t\"llm-sandbox\": {\r\n\t\t\t\"command\": \"/usr/bin/llm-sandbox\""))
        << installed.constData();
    EXPECT_FALSE(installed.endsWith('\n'));
    EXPECT_EQ(installed.count("\r\n"), installed.count('\n')) << "no bare LF";
    EXPECT_EQ(uninstall(claude(), installed), original);
}

TEST(McpConfigEditorTest, aSecondInstallChangesNothing)
{
    const QByteArray installed = install(claude(), "{\"mcpServers\": {}}\n");
    EXPECT_EQ(install(claude(), installed), installed);
    // Ours with the same content in another key order and layout is the same entry.
    const QByteArray reordered =
        R"({"mcpServers": {"llm-sandbox": {"env": {"BACKEND": "docker"}, "args": ["--mcp"], "command": "/usr/bin/llm-sandbox"}}})";
    EXPECT_EQ(install(claude(), reordered), reordered);
}

TEST(McpConfigEditorTest, anEmptyServersObjectComesBackEmpty)
{
    const QByteArray original = "{\n    \"mcpServers\": {},\n    \"other\": true\n}\n";
    const QByteArray installed = install(claude(), original);
    EXPECT_TRUE(installed.contains("    \"mcpServers\": {\n        \"llm-sandbox\": {\n            \"command\""))
        << installed.constData();
    EXPECT_TRUE(installed.contains("\n        }\n    },\n    \"other\": true")) << installed.constData();
    EXPECT_EQ(uninstall(claude(), installed), original);
}

TEST(McpConfigEditorTest, aFileWithoutServersGetsTheServersObject)
{
    const QByteArray original = "{\n  \"preferences\": {\"quickEntry\": false}\n}\n";
    const QByteArray installed = install(claude(), original);
    expectOnlyInserted(original, installed);
    EXPECT_EQ(Json::parse(installed.toStdString())["mcpServers"]["llm-sandbox"], kEntry);
    EXPECT_EQ(Json::parse(installed.toStdString())["preferences"], Json::parse(R"({"quickEntry": false})"));
    // Removing ours leaves the servers object, empty.
    EXPECT_EQ(uninstall(claude(), installed),
              "{\n  \"preferences\": {\"quickEntry\": false},\n  \"mcpServers\": {}\n}\n");
}

TEST(McpConfigEditorTest, theServersObjectWeAddedGoesWithOurEntryWhenAsked)
{
    const auto added = McpConfigEditor::ServersObject::RemoveWhenEmpty;
    for (const QByteArray &original :
         {QByteArray("{\n  \"preferences\": {\"quickEntry\": false}\n}\n"), QByteArray("{\"a\": 1, \"b\": [2]}"),
          QByteArray("{}"), QByteArray("{\r\n\t\"z\": null\r\n}\r\n")}) {
        const QByteArray installed = install(claude(), original);
        ASSERT_TRUE(claude().hasServers(installed));
        EXPECT_EQ(uninstall(claude(), installed, added), original) << installed.constData();
    }
    // Another server joined ours meanwhile: the object stays, with it.
    const QByteArray original = "{\n  \"x\": 1\n}\n";
    const QByteArray withOther =
        *claude().withEntry(install(claude(), original), QStringLiteral("other"), Json{{"command", "other"}});
    const QByteArray removed = uninstall(claude(), withOther, added);
    EXPECT_TRUE(removed.contains("\"mcpServers\": {\n    \"other\"")) << removed.constData();
    EXPECT_FALSE(removed.contains("llm-sandbox"));
}

TEST(McpConfigEditorTest, anEmptyFileBecomesAConfigurationWithOurServer)
{
    for (const QByteArray &empty : {QByteArray(), QByteArray(" \n")}) {
        const QByteArray created = install(vscode(), empty);
        EXPECT_EQ(Json::parse(created.toStdString()),
                  Json::parse(R"({"servers": {"llm-sandbox": )" + kEntry.dump() + "}}"));
        EXPECT_TRUE(created.startsWith("{\n  \"servers\": {\n    \"llm-sandbox\": {\n      \"command\""));
        EXPECT_TRUE(created.endsWith("}\n"));
    }
}

TEST(McpConfigEditorTest, aSingleLineFileStaysOnOneLine)
{
    const QByteArray original = R"({"mcpServers":{"a":{"command":"a"}},"x":1})";
    const QByteArray installed = install(claude(), original);
    EXPECT_FALSE(installed.contains('\n'));
    expectOnlyInserted(original, installed);
    EXPECT_EQ(uninstall(claude(), installed), original);
}

TEST(McpConfigEditorTest, updatesOurEntryInPlaceAndLeavesTheRest)
{
    const QByteArray original = R"({
  "mcpServers": {
    "llm-sandbox": {"command": "/old/llm-sandbox", "args": ["--mcp"]},
    "other": {"command": "other"}
  }
}
)";
    const Json entry = {{"command", "/new/llm-sandbox"}, {"args", {"--mcp"}}};
    const QByteArray updated = install(claude(), original, entry);
    EXPECT_TRUE(updated.startsWith("{\n  \"mcpServers\": {\n    \"llm-sandbox\": {\n      \"command\": \"/new/"))
        << updated.constData();
    EXPECT_TRUE(updated.endsWith("    },\n    \"other\": {\"command\": \"other\"}\n  }\n}\n")) << updated.constData();
    // Removing ours when it is the first of several keeps the others exactly.
    EXPECT_EQ(uninstall(claude(), updated),
              "{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"other\"}\n  }\n}\n");
}

TEST(McpConfigEditorTest, sharingFoldersChangesOnlyOurEntrysEnvironment)
{
    // Issue 47: install-mcp --share, or the Connect dialog's "Share my folders", writes LLM_SANDBOX_SHARE into our
    // entry; installing again without them takes it out. Every other byte stays.
    const QByteArray before = R"({
  "mcpServers": {
    "other": {"command": "other", "env": {"LLM_SANDBOX_SHARE": "not ours"}},
    "llm-sandbox": {"command": "/usr/bin/llm-sandbox", "args": ["--mcp"], "env": {"BACKEND": "docker"}}
  },
  "theme": "dark"
}
)";
    Json shared = kEntry;
    shared["env"]["LLM_SANDBOX_SHARE"] = "/home/me/sales:sales;/home/me/out:out:rw";
    const QByteArray withFolders = install(claude(), before, shared);
    const qsizetype ours = withFolders.indexOf("\"llm-sandbox\"");
    ASSERT_GT(ours, 0);
    EXPECT_EQ(withFolders.left(ours), before.left(before.indexOf("\"llm-sandbox\""))) << withFolders.constData();
    EXPECT_TRUE(withFolders.endsWith("\n  },\n  \"theme\": \"dark\"\n}\n")) << withFolders.constData();
    EXPECT_EQ(Json::parse(withFolders.toStdString())["mcpServers"]["llm-sandbox"], shared);
    EXPECT_EQ(Json::parse(withFolders.toStdString())["mcpServers"]["other"]["env"]["LLM_SANDBOX_SHARE"], "not ours");
    EXPECT_EQ(install(claude(), withFolders, shared), withFolders) << "the same folders again change nothing";

    const QByteArray without = install(claude(), withFolders, kEntry);
    EXPECT_EQ(without.indexOf("/home/me/sales"), -1) << without.constData();
    EXPECT_EQ(Json::parse(without.toStdString())["mcpServers"]["llm-sandbox"], kEntry);
    EXPECT_EQ(without.left(ours), withFolders.left(ours));
}

TEST(McpConfigEditorTest, removesOurEntryFromTheMiddle)
{
    const QByteArray text = R"({"mcpServers": {
  "a": 1,
  "llm-sandbox": {"command": "x"},
  "b": 2
}})";
    EXPECT_EQ(uninstall(claude(), text), "{\"mcpServers\": {\n  \"a\": 1,\n  \"b\": 2\n}}");
}

TEST(McpConfigEditorTest, vsCodeCommentsAreKept)
{
    const QByteArray original = R"(// My servers
{
	/* servers VS Code starts */
	"servers": {
		// the memory server
		"memory": {"type": "stdio", "command": "npx", "args": ["{", "//not a comment"]} // trailing
	},
	"inputs": []
}
)";
    const QByteArray installed = install(vscode(), original);
    expectOnlyInserted(original, installed);
    EXPECT_TRUE(installed.contains("\"//not a comment\"]},\n\t\t\"llm-sandbox\": {\n\t\t\t\"command\""))
        << installed.constData();
    EXPECT_EQ(install(vscode(), installed), installed);
    EXPECT_EQ(uninstall(vscode(), installed), original);
    // The same file for a client that reads strict JSON is refused.
    const Result<QByteArray> strict = claude().withEntry(original, QStringLiteral("llm-sandbox"), kEntry);
    ASSERT_FALSE(strict.ok());
    EXPECT_TRUE(strict.error().message.contains(QLatin1String("not valid JSON"))) << qPrintable(strict.error().message);
    EXPECT_TRUE(strict.error().message.contains(QLatin1String("without comments")))
        << qPrintable(strict.error().message);
}

// Zed's settings.json: comments, and commas before closing brackets (which nlohmann::json alone refuses), are kept as
// they are; ours goes after the last server and comes out again byte for byte.
TEST(McpConfigEditorTest, zedTrailingCommasAreKept)
{
    const McpConfigEditor zed(
        {.serversKey = QStringLiteral("context_servers"), .allowComments = true, .trailingCommas = true});
    const QByteArray original = "// Zed settings\n"
                                "{\n"
                                "  \"theme\": \"One Dark\",\n"
                                "  \"context_servers\": {\n"
                                "    \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\", \",]\",],},\n"
                                "  },\n"
                                "  \"languages\": {\"Python\": {\"tab_size\": 4,},}, // mine\n"
                                "}\n";
    const QByteArray installed = install(zed, original);
    expectOnlyInserted(original, installed);
    EXPECT_TRUE(installed.contains("\",],},\n    \"llm-sandbox\": {\n      \"command\": \"/usr/bin/llm-sandbox\""))
        << installed.constData();
    EXPECT_TRUE(installed.contains("\"BACKEND\": \"docker\"\n      }\n    },\n  },\n")) << installed.constData();
    EXPECT_EQ(install(zed, installed), installed);
    const auto entry = zed.entry(installed, QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(entry.ok() && entry->has_value());
    EXPECT_EQ(nlohmann::json::parse((*entry)->dump()), nlohmann::json::parse(kEntry.dump()));
    EXPECT_EQ(uninstall(zed, installed), original);
    // Without servers: the member goes after the last one, and out again.
    const QByteArray bare = "{\n  \"vim_mode\": true,\n}\n";
    EXPECT_EQ(uninstall(zed, install(zed, bare), McpConfigEditor::ServersObject::RemoveWhenEmpty), bare);
    // A comma where no member follows but no bracket closes is still an error, with where it is.
    const Result<QByteArray> broken = zed.withEntry("{\"a\": 1,, }", QStringLiteral("llm-sandbox"), kEntry);
    ASSERT_FALSE(broken.ok());
    EXPECT_TRUE(broken.error().message.contains(QLatin1String("line 1, column"))) << qPrintable(broken.error().message);
}

TEST(McpConfigEditorTest, aByteOrderMarkIsKept)
{
    const QByteArray original = "\xEF\xBB\xBF{\"mcpServers\": {\"a\": {}}}";
    const QByteArray installed = install(claude(), original);
    EXPECT_TRUE(installed.startsWith("\xEF\xBB\xBF{\"mcpServers\""));
    EXPECT_EQ(uninstall(claude(), installed), original);
}

TEST(McpConfigEditorTest, refusesWhatItCannotEditSafely)
{
    const struct
    {
        QByteArray text;
        const char *message;
    } cases[] = {
        {R"({"mcpServers": {"a": 1,}})", "not valid JSON"},
        {R"({"mcpServers": )", "not valid JSON"},
        {"{\"mcpServers\": {}} trailing", "not valid JSON"},
        {"[1, 2]", "top level is not a JSON object"},
        {R"({"mcpServers": []})", "\"mcpServers\" is not an object"},
        {R"({"mcpServers": {}, "mcpServers": {}})", "appears twice"},
        {R"({"mcpServers": {"llm-sandbox": {}, "llm-sandbox": {}}})", "appears twice"},
        {"{\"a\": \"\xC3\x28\"}", "not valid JSON"},
    };
    for (const auto &testCase : cases) {
        const Result<QByteArray> installed = claude().withEntry(testCase.text, QStringLiteral("llm-sandbox"), kEntry);
        ASSERT_FALSE(installed.ok()) << testCase.text.constData();
        EXPECT_TRUE(installed.error().message.contains(QLatin1String(testCase.message)))
            << qPrintable(installed.error().message);
        EXPECT_EQ(installed.error().code, ErrorCode::BadRequest);
    }
    const Result<QByteArray> trailingComma =
        vscode().withoutEntry("{\"servers\": {\"llm-sandbox\": {},},}", QStringLiteral("llm-sandbox"));
    ASSERT_FALSE(trailingComma.ok());
    EXPECT_TRUE(trailingComma.error().message.contains(QLatin1String("line 1, column")))
        << qPrintable(trailingComma.error().message);
}

TEST(McpConfigEditorTest, whatStopsAChangeIsAlsoDataForAppsThatWordItThemselves)
{
    // Issue 37, item 15: the desktop app words the problem in the user's language from these fields.
    using Kind = McpConfigEditor::Problem::Kind;
    const QString name = QStringLiteral("llm-sandbox");
    EXPECT_FALSE(claude().problem(R"({"mcpServers": {"a": {}}})", name).has_value());
    EXPECT_FALSE(claude().problem("", name).has_value());

    const QByteArray commented = "{\n  \"mcpServers\": {},\n  // mine\n  \"a\": 1\n}\n";
    const std::optional<McpConfigEditor::Problem> strict = claude().problem(commented, name);
    ASSERT_TRUE(strict.has_value());
    EXPECT_EQ(strict->kind, Kind::NotJson);
    EXPECT_TRUE(strict->comments);
    // Where the parser's own message says it stopped.
    EXPECT_EQ(strict->line, 3);
    EXPECT_TRUE(
        strict->parserMessage.contains(QStringLiteral("line %1, column %2").arg(strict->line).arg(strict->column)))
        << qPrintable(strict->parserMessage) << " " << strict->column;
    EXPECT_EQ(McpConfigEditor::describe(*strict), claude().withEntry(commented, name, kEntry).error().message);
    EXPECT_FALSE(vscode().problem(commented, name).has_value()) << "VS Code's files may have comments";

    const std::optional<McpConfigEditor::Problem> cut = claude().problem("{\n\"mcpServers\": ", name);
    ASSERT_TRUE(cut.has_value());
    EXPECT_FALSE(cut->comments);
    EXPECT_TRUE(cut->parserMessage.contains(QStringLiteral("line %1, column %2").arg(cut->line).arg(cut->column)))
        << qPrintable(cut->parserMessage);

    EXPECT_EQ(claude().problem("[1, 2]", name)->kind, Kind::TopLevelNotObject);
    const std::optional<McpConfigEditor::Problem> array = claude().problem(R"({"mcpServers": []})", name);
    ASSERT_TRUE(array.has_value());
    EXPECT_EQ(array->kind, Kind::ServersNotObject);
    EXPECT_EQ(array->key, QStringLiteral("mcpServers"));
    const std::optional<McpConfigEditor::Problem> twice =
        claude().problem(R"({"mcpServers": {"llm-sandbox": {}, "llm-sandbox": {}}})", name);
    ASSERT_TRUE(twice.has_value());
    EXPECT_EQ(twice->kind, Kind::DuplicateKey);
    EXPECT_EQ(twice->key, name);
}

TEST(McpConfigEditorTest, removingWhatIsNotThereChangesNothing)
{
    for (const QByteArray &text : {QByteArray(), QByteArray("{}"), QByteArray(R"({"mcpServers": {"a": {}}})"),
                                   QByteArray(R"({"mcpServers": "odd"})")}) {
        EXPECT_EQ(uninstall(claude(), text), text);
    }
    const Result<std::optional<Json>> entry =
        claude().entry(R"({"mcpServers": {"llm-sandbox": {"command": "x"}}})", QStringLiteral("llm-sandbox"));
    ASSERT_TRUE(entry.ok());
    ASSERT_TRUE(entry->has_value());
    EXPECT_EQ((**entry)["command"], "x");
}

} // namespace
} // namespace sandbox
