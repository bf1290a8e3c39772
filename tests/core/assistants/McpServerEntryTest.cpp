#include "assistants/McpServerEntry.h"

#include "assistants/AssistantClient.h"

#include <gtest/gtest.h>

namespace sandbox {
namespace {

using Json = nlohmann::ordered_json;

QProcessEnvironment environment(std::initializer_list<std::pair<const char *, const char *>> variables)
{
    QProcessEnvironment result;
    for (const auto &[name, value] : variables) {
        result.insert(QString::fromLatin1(name), QString::fromLatin1(value));
    }
    return result;
}

TEST(McpServerEntryTest, stdioEntryCarriesTheBackendsVariablesAsSet)
{
    const QProcessEnvironment env = environment({{"DOCKER_HOST", "unix:///run/user/1000/docker.sock"},
                                                 {"CONTAINER_HOST", "unix:///run/podman/podman.sock"},
                                                 {"KUBECONFIG", "/home/me/.kube/config"},
                                                 {"NAMESPACE", "sandboxes"},
                                                 {"DOCKER_TLS_VERIFY", ""}});
    const auto claude = AssistantClient::of(AssistantClient::Kind::ClaudeDesktop);
    const Result<McpServerEntry> docker =
        McpServerEntry::stdio(QStringLiteral("/opt/bin/llm-sandbox"), QStringLiteral("docker"), env);
    ASSERT_TRUE(docker.ok());
    EXPECT_EQ(docker->toJson(claude).dump(),
              R"({"command":"/opt/bin/llm-sandbox","args":["--mcp"],"env":)"
              R"({"BACKEND":"docker","DOCKER_HOST":"unix:///run/user/1000/docker.sock"}})");
    const Result<McpServerEntry> kubernetes =
        McpServerEntry::stdio(QStringLiteral("/opt/bin/llm-sandbox"), QStringLiteral("Kubernetes"), env);
    ASSERT_TRUE(kubernetes.ok());
    EXPECT_EQ(kubernetes->toJson(claude)["env"].dump(),
              R"({"BACKEND":"kubernetes","KUBECONFIG":"/home/me/.kube/config","NAMESPACE":"sandboxes"})");
    const Result<McpServerEntry> podman =
        McpServerEntry::stdio(QStringLiteral("/opt/bin/llm-sandbox"), QStringLiteral("podman"), {});
    ASSERT_TRUE(podman.ok());
    EXPECT_EQ(podman->toJson(claude)["env"].dump(), R"({"BACKEND":"podman"})");
    // VS Code names the transport, first.
    EXPECT_EQ(podman->toJson(AssistantClient::of(AssistantClient::Kind::VsCode)).begin().value(), "stdio");
    EXPECT_FALSE(podman->holdsSecret());
}

TEST(McpServerEntryTest, sharedFoldersTravelInTheServersEnvironment)
{
    const auto claude = AssistantClient::of(AssistantClient::Kind::ClaudeDesktop);
    Result<McpServerEntry> entry =
        McpServerEntry::stdio(QStringLiteral("/opt/bin/llm-sandbox"), QStringLiteral("docker"), {});
    ASSERT_TRUE(entry.ok());
    entry->setSharedFolders({});
    EXPECT_EQ(entry->toJson(claude)["env"].dump(), R"({"BACKEND":"docker"})") << "nothing shared: no variable";
    entry->setSharedFolders(
        {SharedFolder{.path = QStringLiteral("/home/me/Sales Data"), .name = QStringLiteral("sales")},
         SharedFolder{.path = QStringLiteral("/home/me/out"), .name = QStringLiteral("out"), .writable = true}});
    EXPECT_EQ(entry->toJson(claude)["env"].dump(),
              R"({"BACKEND":"docker","LLM_SANDBOX_SHARE":"/home/me/Sales Data:sales;/home/me/out:out:rw"})");
    EXPECT_NE(QString::fromUtf8(entry->genericSnippet()).indexOf(QStringLiteral("LLM_SANDBOX_SHARE")), -1);

    Result<McpServerEntry> http = McpServerEntry::http(QStringLiteral("http://127.0.0.1:8080/mcp"), "tok");
    ASSERT_TRUE(http.ok());
    http->setSharedFolders({SharedFolder{.path = QStringLiteral("/home/me/out"), .name = QStringLiteral("out")}});
    EXPECT_FALSE(http->toJson(claude).contains("env")) << "an HTTP server shares what its own settings say";
}

TEST(McpServerEntryTest, theAllowedHostsTravelInTheServersEnvironment)
{
    const auto claude = AssistantClient::of(AssistantClient::Kind::ClaudeDesktop);
    Result<McpServerEntry> entry =
        McpServerEntry::stdio(QStringLiteral("/opt/bin/llm-sandbox"), QStringLiteral("docker"), {});
    ASSERT_TRUE(entry.ok());
    entry->setNetworkAllow({});
    EXPECT_EQ(entry->toJson(claude)["env"].dump(), R"({"BACKEND":"docker"})") << "nothing allowed: no variable";
    entry->setNetworkAllow(*NetworkAllowList::parse(QStringLiteral("api.test, *.data.test:8443")));
    EXPECT_EQ(entry->toJson(claude)["env"].dump(),
              R"({"BACKEND":"docker","LLM_SANDBOX_NETWORK_ALLOW":"api.test, *.data.test:8443"})");
}

TEST(McpServerEntryTest, httpEntryHasTheUrlAndTheBearerToken)
{
    const Result<McpServerEntry> entry =
        McpServerEntry::http(QStringLiteral("http://127.0.0.1:8080/mcp"), QByteArray("tok-123"));
    ASSERT_TRUE(entry.ok());
    EXPECT_TRUE(entry->holdsSecret());
    EXPECT_EQ(entry->toJson(AssistantClient::of(AssistantClient::Kind::VsCode)).dump(),
              R"({"type":"http","url":"http://127.0.0.1:8080/mcp","headers":{"Authorization":"Bearer tok-123"}})");
    EXPECT_EQ(entry->toJson(AssistantClient::of(AssistantClient::Kind::Cursor)).dump(),
              R"({"url":"http://127.0.0.1:8080/mcp","headers":{"Authorization":"Bearer tok-123"}})");
    EXPECT_EQ(entry->toMaskedJson(AssistantClient::of(AssistantClient::Kind::Cursor)).dump().find("tok-123"),
              std::string::npos);
    const Json snippet = Json::parse(entry->genericSnippet().toStdString());
    EXPECT_EQ(snippet["mcpServers"]["llm-sandbox"]["headers"]["Authorization"], "Bearer tok-123");
}

TEST(McpServerEntryTest, refusesWhatNoClientCouldUse)
{
    EXPECT_FALSE(McpServerEntry::stdio(QStringLiteral("llm-sandbox"), QStringLiteral("docker"), {}).ok());
    const Result<McpServerEntry> backend =
        McpServerEntry::stdio(QStringLiteral("/usr/bin/llm-sandbox"), QStringLiteral("lxc"), {});
    ASSERT_FALSE(backend.ok());
    EXPECT_TRUE(backend.error().message.contains(QLatin1String("docker, podman, kubernetes")));
    for (const char *url : {"ftp://host/mcp", "127.0.0.1:8080", "http:///mcp", ""}) {
        EXPECT_FALSE(McpServerEntry::http(QString::fromLatin1(url), "t").ok()) << url;
    }
    EXPECT_FALSE(McpServerEntry::http(QStringLiteral("http://127.0.0.1:8080/mcp"), {}).ok());
}

TEST(AssistantClientTest, documentedPerUserLocations)
{
    const QString home = QStringLiteral("/home/me");
    const auto path = [&](const char *name, const QString &configHome) {
        return AssistantClient::fromName(QString::fromLatin1(name))->configPath(home, configHome, QString());
    };
#if defined(Q_OS_LINUX)
    EXPECT_EQ(path("claude-desktop", {}), QStringLiteral("/home/me/.config/Claude/claude_desktop_config.json"));
    EXPECT_EQ(path("vscode", {}), QStringLiteral("/home/me/.config/Code/User/mcp.json"));
    EXPECT_EQ(path("vscode", QStringLiteral("/xdg")), QStringLiteral("/xdg/Code/User/mcp.json"));
    EXPECT_EQ(path("claude-desktop", QStringLiteral("relative")),
              QStringLiteral("/home/me/.config/Claude/claude_desktop_config.json"));
#endif
#if !defined(Q_OS_WIN)
    EXPECT_EQ(path("goose", {}), QStringLiteral("/home/me/.config/goose/config.yaml"));
    EXPECT_EQ(path("goose", QStringLiteral("/xdg")), QStringLiteral("/xdg/goose/config.yaml"));
    EXPECT_EQ(path("zed", {}), QStringLiteral("/home/me/.config/zed/settings.json"));
#endif
    EXPECT_EQ(path("continue", {}), QStringLiteral("/home/me/.continue/config.yaml"));
    EXPECT_EQ(path("cursor", {}), QStringLiteral("/home/me/.cursor/mcp.json"));
    EXPECT_EQ(path("claude-code", {}), QStringLiteral("/home/me/.claude.json"));
    EXPECT_EQ(path("gemini", {}), QStringLiteral("/home/me/.gemini/settings.json"));
    EXPECT_EQ(path("windsurf", {}), QStringLiteral("/home/me/.codeium/windsurf/mcp_config.json"));
    EXPECT_EQ(path("lmstudio", {}), QStringLiteral("/home/me/.lmstudio/mcp.json"));
    EXPECT_EQ(AssistantClient::configPathForProject(QStringLiteral("/work/app/")),
              QStringLiteral("/work/app/.mcp.json"));
    EXPECT_FALSE(AssistantClient::fromName(QStringLiteral("emacs")).has_value());
    EXPECT_EQ(AssistantClient::fromName(QStringLiteral("gemini"))->entryStyle().urlKey, QStringLiteral("httpUrl"));
    EXPECT_EQ(AssistantClient::fromName(QStringLiteral("vscode"))->serversKey(), QStringLiteral("servers"));
    EXPECT_FALSE(AssistantClient::fromName(QStringLiteral("claude-desktop"))->supportsHttp());
    EXPECT_EQ(AssistantClient::fromName(QStringLiteral("zed"))->serversKey(), QStringLiteral("context_servers"));
    EXPECT_TRUE(AssistantClient::fromName(QStringLiteral("zed"))->configFormat().trailingCommas);
    EXPECT_EQ(AssistantClient::fromName(QStringLiteral("continue"))->configFormat().nameKey, QStringLiteral("name"));
    // Cherry Studio keeps its servers in its own database: no file is ever written for it.
    const auto cherry = AssistantClient::fromName(QStringLiteral("cherry-studio"));
    ASSERT_TRUE(cherry.has_value());
    EXPECT_FALSE(cherry->editsFile());
    EXPECT_TRUE(cherry->configPath().isEmpty());
}

// Each client's own keys, as its documentation shows them.
TEST(McpServerEntryTest, gooseContinueAndCherryStudioEntriesUseTheirClientsKeys)
{
    const auto entry =
        McpServerEntry::stdio(QStringLiteral("/usr/bin/llm-sandbox"), QStringLiteral("docker"), environment({}));
    ASSERT_TRUE(entry.ok());
    const nlohmann::ordered_json goose = entry->toJson(*AssistantClient::fromName(QStringLiteral("goose")));
    EXPECT_EQ(goose["name"], "llm-sandbox");
    EXPECT_EQ(goose["type"], "stdio");
    EXPECT_EQ(goose["cmd"], "/usr/bin/llm-sandbox");
    EXPECT_EQ(goose["envs"]["BACKEND"], "docker");
    EXPECT_EQ(goose["enabled"], true);
    EXPECT_EQ(goose["timeout"], 300);
    EXPECT_FALSE(goose.contains("command"));
    const auto remote = McpServerEntry::http(QStringLiteral("http://127.0.0.1:8931/mcp"), "tok");
    ASSERT_TRUE(remote.ok());
    EXPECT_EQ(remote->toJson(*AssistantClient::fromName(QStringLiteral("goose"))).dump(),
              R"({"name":"llm-sandbox","description":"Runs code safely in containers and returns its output and )"
              R"(charts","enabled":true,"type":"streamable_http","uri":"http://127.0.0.1:8931/mcp","headers":)"
              R"({"Authorization":"Bearer tok"},"timeout":300})");
    EXPECT_EQ(remote->toJson(*AssistantClient::fromName(QStringLiteral("continue"))).dump(),
              R"({"name":"llm-sandbox","type":"streamable-http","url":"http://127.0.0.1:8931/mcp",)"
              R"("requestOptions":{"headers":{"Authorization":"Bearer tok"}}})");
    EXPECT_EQ(remote->toJson(*AssistantClient::fromName(QStringLiteral("cherry-studio"))).dump(),
              R"({"name":"llm-sandbox","type":"streamableHttp","baseUrl":"http://127.0.0.1:8931/mcp",)"
              R"("headers":{"Authorization":"Bearer tok"}})");
    EXPECT_EQ(remote->toJson(*AssistantClient::fromName(QStringLiteral("zed"))).dump(),
              R"({"url":"http://127.0.0.1:8931/mcp","headers":{"Authorization":"Bearer tok"}})");
}

} // namespace
} // namespace sandbox
