// Goose's and Continue's config.yaml through McpConfigEditor with Format::yaml: our entry is spliced into the user's
// bytes in block style (a mapping's member for Goose, a sequence's item for Continue), which are otherwise left exactly
// as they were, and removing it gives them back.
#include "assistants/McpConfigEditor.h"

#include <gtest/gtest.h>

namespace sandbox {
namespace {

using Json = nlohmann::ordered_json;
using Kind = McpConfigEditor::Problem::Kind;

const QString kName = QStringLiteral("llm-sandbox");
const Json kEntry = {{"command", "/usr/bin/llm-sandbox"}, {"args", {"--mcp"}}, {"env", {{"BACKEND", "docker"}}}};

const McpConfigEditor kGoose({.serversKey = QStringLiteral("extensions"), .yaml = true});
const McpConfigEditor
    kContinue({.serversKey = QStringLiteral("mcpServers"), .yaml = true, .nameKey = QStringLiteral("name")});

QByteArray install(const McpConfigEditor &editor, const QByteArray &text, const Json &entry = kEntry)
{
    const Result<QByteArray> result = editor.withEntry(text, kName, entry);
    EXPECT_TRUE(result.ok()) << (result ? "" : qPrintable(result.error().message));
    return result ? *result : QByteArray();
}

QByteArray uninstall(const McpConfigEditor &editor, const QByteArray &text,
                     McpConfigEditor::ServersObject servers = McpConfigEditor::ServersObject::Keep)
{
    const Result<QByteArray> result = editor.withoutEntry(text, kName, servers);
    EXPECT_TRUE(result.ok()) << (result ? "" : qPrintable(result.error().message));
    return result ? *result : QByteArray();
}

Json entryOf(const McpConfigEditor &editor, const QByteArray &text)
{
    const auto entry = editor.entry(text, kName);
    EXPECT_TRUE(entry.ok()) << (entry ? "" : qPrintable(entry.error().message));
    return entry && entry->has_value() ? **entry : Json();
}

bool sameJson(const Json &a, const Json &b)
{
    return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

/// Goose's file as `goose configure` leaves it, with a user's comments and an entry of their own after the others.
const QByteArray kGooseFile = "# goose settings\n"
                              "GOOSE_PROVIDER: anthropic\n"
                              "extensions:\n"
                              "  developer:\n"
                              "    bundled: true\n"
                              "    enabled: true\n"
                              "    name: developer\n"
                              "    timeout: 300\n"
                              "    type: builtin\n"
                              "  memory:   # mine\n"
                              "    enabled: false\n"
                              "    type: builtin\n"
                              "\n"
                              "# the model\n"
                              "GOOSE_MODEL: claude-sonnet-4-5\n";

/// Continue's file with CRLF line endings and its sequence at the key's own indentation, as some editors write it.
const QByteArray kContinueFile = "name: Local Assistant\r\n"
                                 "version: 1.0.0\r\n"
                                 "schema: v1\r\n"
                                 "models:\r\n"
                                 "  - name: Llama\r\n"
                                 "    provider: ollama\r\n"
                                 "mcpServers:\r\n"
                                 "- name: SQLite\r\n"
                                 "  command: npx\r\n"
                                 "  args:\r\n"
                                 "    - \"-y\"\r\n"
                                 "    - mcp-sqlite   # the server\r\n";

} // namespace

TEST(McpYamlEditor, gooseGetsAMemberAfterItsLastExtensionAndEveryOtherByteStays)
{
    const QByteArray installed = install(kGoose, kGooseFile);
    QByteArray expected = kGooseFile;
    // After the last extension's last line: the blank line and the comment after it belong to what follows.
    expected.insert(expected.indexOf("    type: builtin\n\n") + 18, "  llm-sandbox:\n"
                                                                    "    command: /usr/bin/llm-sandbox\n"
                                                                    "    args: [\"--mcp\"]\n"
                                                                    "    env:\n"
                                                                    "      BACKEND: docker\n");
    EXPECT_EQ(installed, expected);
    EXPECT_EQ(install(kGoose, installed), installed) << "a second install changes nothing";
    EXPECT_TRUE(sameJson(entryOf(kGoose, installed), kEntry));
    EXPECT_EQ(uninstall(kGoose, installed), kGooseFile);
    EXPECT_TRUE(kGoose.hasServers(kGooseFile));
    EXPECT_FALSE(kGoose.hasServers("GOOSE_MODEL: x\n"));
}

TEST(McpYamlEditor, continueGetsAnItemAtItsSequencesIndentationInTheFilesLineEndings)
{
    const QByteArray installed = install(kContinue, kContinueFile);
    EXPECT_EQ(installed, kContinueFile + "- name: llm-sandbox\r\n"
                                         "  command: /usr/bin/llm-sandbox\r\n"
                                         "  args: [\"--mcp\"]\r\n"
                                         "  env:\r\n"
                                         "    BACKEND: docker\r\n");
    EXPECT_EQ(install(kContinue, installed), installed);
    Json item = {{"name", "llm-sandbox"}};
    item.update(kEntry);
    EXPECT_TRUE(sameJson(entryOf(kContinue, installed), item));
    EXPECT_EQ(uninstall(kContinue, installed), kContinueFile);
    // The other item is not ours, whatever it holds.
    EXPECT_TRUE(entryOf(kContinue, kContinueFile).is_null());
}

TEST(McpYamlEditor, anEntryElsewhereIsReplacedWhereItIsAndTheOthersStay)
{
    const QByteArray before = "extensions:\n"
                              "    llm-sandbox:\n"
                              "        cmd: /old/llm-sandbox\n"
                              "        envs: {}\n"
                              "    # the next one is mine\n"
                              "    git:\n"
                              "        cmd: uvx\n";
    EXPECT_EQ(install(kGoose, before), "extensions:\n"
                                       "    llm-sandbox:\n"
                                       "        command: /usr/bin/llm-sandbox\n"
                                       "        args: [\"--mcp\"]\n"
                                       "        env:\n"
                                       "            BACKEND: docker\n"
                                       "    # the next one is mine\n"
                                       "    git:\n"
                                       "        cmd: uvx\n");
    EXPECT_EQ(uninstall(kGoose, before), "extensions:\n"
                                         "    # the next one is mine\n"
                                         "    git:\n"
                                         "        cmd: uvx\n");
    const QByteArray sequence = "mcpServers:\n  - name: llm-sandbox\n    command: old\n  - name: web\n    url: x\n";
    EXPECT_EQ(install(kContinue, sequence), "mcpServers:\n"
                                            "  - name: llm-sandbox\n"
                                            "    command: /usr/bin/llm-sandbox\n"
                                            "    args: [\"--mcp\"]\n"
                                            "    env:\n"
                                            "      BACKEND: docker\n"
                                            "  - name: web\n    url: x\n");
    EXPECT_EQ(uninstall(kContinue, sequence), "mcpServers:\n  - name: web\n    url: x\n");
}

TEST(McpYamlEditor, aFileWithoutServersGetsTheKeyAtTheEndAndLosesItAgain)
{
    const QByteArray before = "GOOSE_MODE: auto\n";
    const QByteArray installed = install(kGoose, before);
    EXPECT_EQ(installed, "GOOSE_MODE: auto\n"
                         "extensions:\n"
                         "  llm-sandbox:\n"
                         "    command: /usr/bin/llm-sandbox\n"
                         "    args: [\"--mcp\"]\n"
                         "    env:\n"
                         "      BACKEND: docker\n");
    EXPECT_EQ(uninstall(kGoose, installed, McpConfigEditor::ServersObject::RemoveWhenEmpty), before);
    EXPECT_EQ(install(kGoose, ""), installed.mid(before.size()));
    EXPECT_EQ(uninstall(kGoose, install(kGoose, ""), McpConfigEditor::ServersObject::RemoveWhenEmpty), "");
    // A last line without its line ending gets one first.
    EXPECT_TRUE(install(kGoose, "GOOSE_MODE: auto").startsWith("GOOSE_MODE: auto\nextensions:\n  llm-sandbox:\n"));

    // "extensions:" with nothing under it takes the entry below, and has nothing under it again afterwards.
    const QByteArray empty = "extensions:   # none yet\nGOOSE_MODE: auto\n";
    const QByteArray filled = install(kGoose, empty);
    EXPECT_TRUE(filled.startsWith("extensions:   # none yet\n  llm-sandbox:\n    command:")) << filled.constData();
    EXPECT_TRUE(filled.endsWith("      BACKEND: docker\nGOOSE_MODE: auto\n")) << filled.constData();
    EXPECT_EQ(uninstall(kGoose, filled), empty);
}

TEST(McpYamlEditor, anEmptyFlowCollectionTakesTheEntryAsJsonOnItsLine)
{
    const QByteArray goose = "extensions: {}\nGOOSE_MODE: auto\n";
    const QByteArray installed = install(kGoose, goose);
    EXPECT_EQ(installed, "extensions: {\"llm-sandbox\": {\"command\": \"/usr/bin/llm-sandbox\", \"args\": "
                         "[\"--mcp\"], \"env\": {\"BACKEND\": \"docker\"}}}\nGOOSE_MODE: auto\n");
    EXPECT_EQ(install(kGoose, installed), installed);
    EXPECT_TRUE(sameJson(entryOf(kGoose, installed), kEntry));
    EXPECT_EQ(uninstall(kGoose, installed), goose);

    const QByteArray continueFile = "mcpServers: []\r\n";
    EXPECT_EQ(uninstall(kContinue, install(kContinue, continueFile)), continueFile);
}

TEST(McpYamlEditor, scalarsAreTypedAsYamlReadsThemSoAnInstalledEntryIsRecognised)
{
    const Json goose = {{"name", "llm-sandbox"},
                        {"description", "Runs code in containers"},
                        {"enabled", true},
                        {"type", "stdio"},
                        {"cmd", "/opt/LLM Sandbox/llm-sandbox"},
                        {"args", {"--mcp"}},
                        {"envs",
                         {{"CONTAINER_HOST", "unix:///run/podman/podman.sock"},
                          {"ODD", "true"},
                          {"NUMBER", "8080"},
                          {"TEXT", "中文 # not a comment"}}},
                        {"timeout", 300}};
    const QByteArray installed = install(kGoose, "", goose);
    EXPECT_TRUE(installed.contains("    enabled: true\n")) << installed.constData();
    EXPECT_TRUE(installed.contains("    description: Runs code in containers\n")) << installed.constData();
    EXPECT_TRUE(installed.contains("      TEXT: \"中文 # not a comment\"\n")) << installed.constData();
    EXPECT_TRUE(installed.contains("      ODD: \"true\"\n")) << installed.constData();
    EXPECT_TRUE(installed.contains("      CONTAINER_HOST: \"unix:///run/podman/podman.sock\"\n"));
    EXPECT_TRUE(sameJson(entryOf(kGoose, installed), goose)) << entryOf(kGoose, installed).dump();
    EXPECT_EQ(install(kGoose, installed, goose), installed);
}

TEST(McpYamlEditor, whatCannotBeChangedSafelyIsRefusedWithWhereAndWhy)
{
    const auto problemOf = [](const McpConfigEditor &editor, const QByteArray &text) {
        const std::optional<McpConfigEditor::Problem> problem = editor.problem(text, kName);
        EXPECT_TRUE(problem.has_value()) << text.constData();
        EXPECT_FALSE(editor.withEntry(text, kName, kEntry).ok());
        EXPECT_FALSE(editor.withoutEntry(text, kName).ok());
        return problem.value_or(McpConfigEditor::Problem{});
    };
    const McpConfigEditor::Problem broken = problemOf(kGoose, "extensions:\n  a: [1, 2\nGOOSE_MODE: auto\n");
    EXPECT_EQ(broken.kind, Kind::NotYaml);
    EXPECT_GE(broken.line, 2);
    EXPECT_GT(broken.column, 0);
    EXPECT_TRUE(McpConfigEditor::describe(broken).startsWith(QStringLiteral("it is not valid YAML (at line ")));
    EXPECT_EQ(problemOf(kGoose, "- a\n- b\n").kind, Kind::YamlTopLevelNotMapping);
    EXPECT_EQ(problemOf(kGoose, "extensions:\n  - a\n").kind, Kind::YamlServersNotMapping);
    EXPECT_EQ(problemOf(kContinue, "mcpServers:\n  a: b\n").kind, Kind::YamlServersNotSequence);
    const McpConfigEditor::Problem flow = problemOf(kGoose, "extensions: {dev: {type: builtin}}\n");
    EXPECT_EQ(flow.kind, Kind::YamlNotLocatable);
    EXPECT_EQ(flow.key, QStringLiteral("extensions"));
    EXPECT_EQ(problemOf(kGoose, "a: 1\n---\nb: 2\n").kind, Kind::YamlNotLocatable);
    EXPECT_EQ(problemOf(kGoose, "extensions:\n  llm-sandbox: {}\n  llm-sandbox: {}\n").kind, Kind::DuplicateKey);
    EXPECT_EQ(problemOf(kContinue, "mcpServers:\n  - name: llm-sandbox\n  - name: llm-sandbox\n").kind,
              Kind::DuplicateKey);
    EXPECT_EQ(problemOf(kGoose, "base: &b\n  x: 1\nextensions: *b\n").kind, Kind::YamlNotLocatable);
    EXPECT_EQ(problemOf(kGoose, "extensions: null\n").kind, Kind::YamlNotLocatable);
}

} // namespace sandbox
