// `install-mcp` / `uninstall-mcp` through the real binary, with HOME pointed at a folder of the test's own: the files
// are found where each client documents them, and every byte that is not ours is kept.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace sandbox {
namespace {

using Json = nlohmann::ordered_json;

struct Finished
{
    int exitCode = -1;
    QString out;
    QString err;
};

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    ASSERT_TRUE(QDir().mkpath(QFileInfo(path).absolutePath()));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

class InstallMcpCommandTest : public ::testing::Test
{
protected:
    Finished run(const QStringList &arguments, const QList<QPair<QString, QString>> &extra = {})
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), m_home.path());
        environment.remove(QStringLiteral("XDG_CONFIG_HOME"));
        for (const QString &name : {QStringLiteral("BACKEND"), QStringLiteral("DOCKER_HOST"),
                                    QStringLiteral("CONTAINER_HOST"), QStringLiteral("LLM_SANDBOX_HTTP_TOKEN")}) {
            environment.remove(name);
        }
        for (const auto &[name, value] : extra) {
            environment.insert(name, value);
        }
        process.setProcessEnvironment(environment);
        process.start(m_binary, arguments);
        EXPECT_TRUE(process.waitForFinished(30000));
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

    QString home(const QString &relative) const { return m_home.filePath(relative); }

    QTemporaryDir m_home;
    const QString m_binary = qEnvironmentVariable("LLM_SANDBOX_BIN");
    const QString m_claude = home(QStringLiteral(".config/Claude/claude_desktop_config.json"));
};

TEST_F(InstallMcpCommandTest, addsItselfToClaudeDesktopKeepingTheRestByteForByte)
{
    // Tabs, CRLF, no final newline, unicode, nested objects, other servers and top-level settings.
    const QByteArray original =
        "{\r\n\t\"globalShortcut\": \"Alt+\xE2\x8C\x98\",\r\n\t\"mcpServers\": {\r\n\t\t"
        "\"filesystem\": {\"command\": \"npx\", \"args\": [\"-y\", \"/home/\xE5\xBC\xA0\"]},\r\n"
        "\t\t\"git\": {\r\n\t\t\t\"command\": \"uvx\",\r\n\t\t\t\"env\": {\"A\": {\"b\": [1, "
        "2.5e3, null, true]}}\r\n\t\t}\r\n\t},\r\n\t\"preferences\": {\"sidebarMode\": "
        "\"chat\"}\r\n}";
    writeFile(m_claude, original);

    const Finished installed =
        run({QStringLiteral("install-mcp"), QStringLiteral("--backend"), QStringLiteral("podman")},
            {{QStringLiteral("CONTAINER_HOST"), QStringLiteral("unix:///run/podman/test.sock")}});
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    EXPECT_TRUE(installed.out.contains(QStringLiteral("Added the llm-sandbox server to ") + m_claude))
        << qPrintable(installed.out);
    EXPECT_TRUE(installed.out.contains(QLatin1String("Restart Claude Desktop")));
    EXPECT_EQ(contentsOf(m_claude + QStringLiteral(".bak")), original);

    const QByteArray after = contentsOf(m_claude);
    const Json document = Json::parse(after.toStdString());
    const Json &ours = document["mcpServers"]["llm-sandbox"];
    EXPECT_EQ(ours["command"], QFileInfo(m_binary).canonicalFilePath().toStdString());
    EXPECT_EQ(ours["args"], Json::array({"--mcp"}));
    EXPECT_EQ(ours["env"], Json::parse(R"({"BACKEND": "podman", "CONTAINER_HOST": "unix:///run/podman/test.sock"})"));
    EXPECT_TRUE(after.contains("\t\t},\r\n\t\t\"llm-sandbox\": {\r\n\t\t\t\"command\": ")) << after.constData();
    EXPECT_FALSE(after.endsWith('\n'));

    // A second run: nothing written, no new backup.
    ASSERT_TRUE(QFile::remove(m_claude + QStringLiteral(".bak")));
    const QDateTime modified = QFileInfo(m_claude).lastModified();
    const Finished again = run({QStringLiteral("install-mcp"), QStringLiteral("--backend"), QStringLiteral("podman")},
                               {{QStringLiteral("CONTAINER_HOST"), QStringLiteral("unix:///run/podman/test.sock")}});
    ASSERT_EQ(again.exitCode, 0) << qPrintable(again.err);
    EXPECT_TRUE(again.out.contains(QLatin1String("nothing changed"))) << qPrintable(again.out);
    EXPECT_EQ(contentsOf(m_claude), after);
    EXPECT_EQ(QFileInfo(m_claude).lastModified(), modified);
    EXPECT_FALSE(QFileInfo::exists(m_claude + QStringLiteral(".bak")));

    // Uninstalling gives the original bytes back.
    const Finished removed = run({QStringLiteral("uninstall-mcp")});
    ASSERT_EQ(removed.exitCode, 0) << qPrintable(removed.err);
    EXPECT_TRUE(removed.out.contains(QLatin1String("Removed the llm-sandbox server"))) << qPrintable(removed.out);
    EXPECT_EQ(contentsOf(m_claude), original);
    EXPECT_EQ(contentsOf(m_claude + QStringLiteral(".bak")), after);
    const Finished nothing = run({QStringLiteral("uninstall-mcp")});
    EXPECT_EQ(nothing.exitCode, 0);
    EXPECT_TRUE(nothing.out.contains(QLatin1String("has no llm-sandbox server"))) << qPrintable(nothing.out);
}

TEST_F(InstallMcpCommandTest, uninstallGivesBackAClaudeFileThatHadNoServersByteForByte)
{
    // What Claude Desktop writes before any server is added: preferences only.
    const QByteArray original = "{\n  \"preferences\": {\n    \"quickEntryShortcut\": \"off\"\n  }\n}\n";
    writeFile(m_claude, original);
    const Finished installed = run({QStringLiteral("install-mcp")});
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    ASSERT_TRUE(contentsOf(m_claude).contains("\"mcpServers\": {\n    \"llm-sandbox\""));
    const Finished removed = run({QStringLiteral("uninstall-mcp")});
    ASSERT_EQ(removed.exitCode, 0) << qPrintable(removed.err);
    EXPECT_EQ(contentsOf(m_claude), original);
}

TEST_F(InstallMcpCommandTest, refusesABrokenFileAndLeavesItUntouched)
{
    const QByteArray broken = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n  }\n}\n";
    writeFile(m_claude, broken);
    for (const QString &command : {QStringLiteral("install-mcp"), QStringLiteral("uninstall-mcp")}) {
        const Finished refused = run({command});
        EXPECT_EQ(refused.exitCode, 1) << qPrintable(command);
        EXPECT_TRUE(refused.err.contains(m_claude + QStringLiteral(": it is not valid JSON (parse error at line 4")))
            << qPrintable(refused.err);
        EXPECT_TRUE(refused.err.contains(QLatin1String("left as it is")));
    }
    EXPECT_EQ(contentsOf(m_claude), broken);
    EXPECT_FALSE(QFileInfo::exists(m_claude + QStringLiteral(".bak")));
}

TEST_F(InstallMcpCommandTest, dryRunPrintsTheDiffAndWritesNothing)
{
    const QByteArray original = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}\n";
    writeFile(m_claude, original);
    const Finished dry = run({QStringLiteral("install-mcp"), QStringLiteral("--dry-run")},
                             {{QStringLiteral("BACKEND"), QStringLiteral("docker")},
                              {QStringLiteral("DOCKER_HOST"), QStringLiteral("tcp://10.0.0.2:2376")}});
    ASSERT_EQ(dry.exitCode, 0) << qPrintable(dry.err);
    EXPECT_TRUE(dry.out.startsWith(QStringLiteral("--- %1\n+++ %1\n").arg(m_claude))) << qPrintable(dry.out);
    EXPECT_TRUE(dry.out.contains(QLatin1String(
        "\n-    \"a\": {\"command\": \"x\"}\n+    \"a\": {\"command\": \"x\"},\n+    \"llm-sandbox\": {\n")))
        << qPrintable(dry.out);
    EXPECT_TRUE(dry.out.contains(QLatin1String("+        \"DOCKER_HOST\": \"tcp://10.0.0.2:2376\"\n")))
        << qPrintable(dry.out);
    EXPECT_TRUE(dry.err.contains(QLatin1String("nothing was written")));
    EXPECT_EQ(contentsOf(m_claude), original);
    EXPECT_FALSE(QFileInfo::exists(m_claude + QStringLiteral(".bak")));

    const Finished dryCursor = run({QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cursor"),
                                    QStringLiteral("--dry-run")});
    ASSERT_EQ(dryCursor.exitCode, 0) << qPrintable(dryCursor.err);
    EXPECT_TRUE(dryCursor.out.startsWith(QStringLiteral("--- /dev/null\n"))) << qPrintable(dryCursor.out);
    EXPECT_FALSE(QFileInfo::exists(home(QStringLiteral(".cursor"))));
}

TEST_F(InstallMcpCommandTest, httpEntryForVsCodeHasTheServersTokenAndIsPrivate)
{
    const QString token = QStringLiteral("0123456789abcdef0123456789abcdef-test");
    const Finished installed = run({QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("vscode"),
                                    QStringLiteral("--transport"), QStringLiteral("http"), QStringLiteral("--url"),
                                    QStringLiteral("http://127.0.0.1:9123/mcp")},
                                   {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), token}});
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    const QString path = home(QStringLiteral(".config/Code/User/mcp.json"));
    EXPECT_TRUE(installed.out.contains(QStringLiteral("Created ") + path)) << qPrintable(installed.out);
    const Json document = Json::parse(contentsOf(path).toStdString());
    EXPECT_EQ(document["servers"]["llm-sandbox"].dump(),
              R"({"type":"http","url":"http://127.0.0.1:9123/mcp","headers":{"Authorization":"Bearer )" +
                  token.toStdString() + R"("}})");
    EXPECT_EQ(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());

    // Cursor's folder does not exist yet: it is made.
    const Finished cursor = run({QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cursor")});
    ASSERT_EQ(cursor.exitCode, 0) << qPrintable(cursor.err);
    EXPECT_EQ(Json::parse(contentsOf(home(QStringLiteral(".cursor/mcp.json")))
                              .toStdString())["mcpServers"]["llm-sandbox"]["env"]["BACKEND"],
              "docker");
}

TEST_F(InstallMcpCommandTest, shareWritesTheFoldersIntoTheServersEnvironment)
{
    // Issue 47: nothing is shared unless asked; --share PATH[:NAME][:rw], repeated, becomes LLM_SANDBOX_SHARE.
    ASSERT_TRUE(QDir(m_home.path()).mkpath(QStringLiteral("Sales Data")));
    ASSERT_TRUE(QDir(m_home.path()).mkpath(QStringLiteral("out")));
    const QString sales = QDir(m_home.path()).canonicalPath() + QStringLiteral("/Sales Data");
    const QString out = QDir(m_home.path()).canonicalPath() + QStringLiteral("/out");

    Finished plain = run({QStringLiteral("install-mcp")});
    ASSERT_EQ(plain.exitCode, 0) << qPrintable(plain.err);
    EXPECT_FALSE(Json::parse(contentsOf(m_claude).toStdString())["mcpServers"]["llm-sandbox"]["env"].contains(
        "LLM_SANDBOX_SHARE"));

    Finished shared = run({QStringLiteral("install-mcp"), QStringLiteral("--share"), sales, QStringLiteral("--share"),
                           out + QStringLiteral(":results:rw")});
    ASSERT_EQ(shared.exitCode, 0) << qPrintable(shared.err);
    const Json entry = Json::parse(contentsOf(m_claude).toStdString())["mcpServers"]["llm-sandbox"];
    EXPECT_EQ(entry["env"]["LLM_SANDBOX_SHARE"],
              QString(sales + QStringLiteral(":Sales-Data;") + out + QStringLiteral(":results:rw")).toStdString())
        << entry.dump();
    EXPECT_EQ(entry["env"]["BACKEND"], "docker") << "the backend's variables stay first";

    const QByteArray before = contentsOf(m_claude);
    for (const QStringList &refused :
         {QStringList{QStringLiteral("install-mcp"), QStringLiteral("--share"), m_home.path()},
          QStringList{QStringLiteral("install-mcp"), QStringLiteral("--share"), home(QStringLiteral("missing"))},
          QStringList{QStringLiteral("install-mcp"), QStringLiteral("--share"), sales + QStringLiteral(":x"),
                      QStringLiteral("--share"), out + QStringLiteral(":x")},
          QStringList{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cursor"),
                      QStringLiteral("--transport"), QStringLiteral("http"), QStringLiteral("--share"), sales}}) {
        const Finished finished = run(
            refused, {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), QStringLiteral("0123456789abcdef0123456789abcdef")}});
        EXPECT_EQ(finished.exitCode, 2) << qPrintable(refused.join(QLatin1Char(' '))) << qPrintable(finished.err);
    }
    EXPECT_EQ(contentsOf(m_claude), before);
    EXPECT_FALSE(QFileInfo::exists(home(QStringLiteral(".cursor"))));
}

TEST_F(InstallMcpCommandTest, networkAllowWritesTheHostsIntoTheServersEnvironment)
{
    // Issue 48: nothing is allowed unless asked; --network-allow becomes LLM_SANDBOX_NETWORK_ALLOW, read as the server
    // will read it.
    Finished allowed = run({QStringLiteral("install-mcp"), QStringLiteral("--network-allow"),
                            QStringLiteral("api.test,*.data.test:8443"), QStringLiteral("--network-allow"),
                            QStringLiteral("registries")});
    ASSERT_EQ(allowed.exitCode, 0) << qPrintable(allowed.err);
    const Json entry = Json::parse(contentsOf(m_claude).toStdString())["mcpServers"]["llm-sandbox"];
    const std::string hosts = entry["env"]["LLM_SANDBOX_NETWORK_ALLOW"];
    EXPECT_EQ(hosts.rfind("api.test, *.data.test:8443, pypi.org:443, ", 0), 0u) << entry.dump();

    const QByteArray before = contentsOf(m_claude);
    for (const QStringList &refused :
         {QStringList{QStringLiteral("install-mcp"), QStringLiteral("--network-allow"), QStringLiteral("http://x/")},
          QStringList{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cursor"),
                      QStringLiteral("--transport"), QStringLiteral("http"), QStringLiteral("--network-allow"),
                      QStringLiteral("api.test")}}) {
        const Finished finished = run(
            refused, {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), QStringLiteral("0123456789abcdef0123456789abcdef")}});
        EXPECT_EQ(finished.exitCode, 2) << qPrintable(refused.join(QLatin1Char(' '))) << qPrintable(finished.err);
    }
    EXPECT_EQ(contentsOf(m_claude), before);
}

/// One assistant's file as people have it (issue 54): where it is under HOME, what it holds before we come, and how
/// our entry must look there for stdio and for HTTP.
struct ClientFixture
{
    const char *client;
    const char *path;
    QByteArray original;
    bool comments;         ///< the file is JSON with comments
    const char *urlKey;    ///< where an HTTP entry keeps the address
    const char *httpType;  ///< the "type" of an HTTP entry ("" none)
    const char *stdioType; ///< the "type" of a stdio entry ("" none)
    const char *serversKey = "mcpServers";
};

class InstallMcpClientTest : public InstallMcpCommandTest, public ::testing::WithParamInterface<ClientFixture>
{
};

// Each client's own file: our entry lands in its servers object, in the shape the client documents; every other
// byte stays; uninstall gives the file back byte for byte, for stdio and for HTTP alike.
TEST_P(InstallMcpClientTest, installsInTheClientsOwnShapeAndUninstallGivesTheFileBack)
{
    const ClientFixture &fixture = GetParam();
    const QString path = home(QString::fromLatin1(fixture.path));
    const QString token = QStringLiteral("0123456789abcdef0123456789abcdef-test");
    for (const QString &transport : {QStringLiteral("stdio"), QStringLiteral("http")}) {
        SCOPED_TRACE(transport.toStdString());
        writeFile(path, fixture.original);
        const Finished installed = run({QStringLiteral("install-mcp"), QStringLiteral("--client"),
                                        QString::fromLatin1(fixture.client), QStringLiteral("--transport"), transport,
                                        QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9123/mcp")},
                                       {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), token}});
        ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
        EXPECT_TRUE(installed.out.contains(path)) << qPrintable(installed.out);
        const QByteArray after = contentsOf(path);
        const Json document = Json::parse(after.toStdString(), nullptr, true, fixture.comments);
        const std::string servers = fixture.serversKey;
        ASSERT_TRUE(document.contains(servers)) << after.constData();
        const Json entry = document[servers]["llm-sandbox"];
        const char *type = transport == QLatin1String("http") ? fixture.httpType : fixture.stdioType;
        EXPECT_EQ(entry.contains("type"), *type != '\0') << entry.dump();
        if (*type != '\0') {
            EXPECT_EQ(entry["type"], type);
        }
        if (transport == QLatin1String("http")) {
            EXPECT_EQ(entry[fixture.urlKey], "http://127.0.0.1:9123/mcp") << entry.dump();
            EXPECT_EQ(entry["headers"]["Authorization"], "Bearer " + token.toStdString());
        } else {
            EXPECT_EQ(entry["command"], m_binary.toStdString()) << entry.dump();
            EXPECT_EQ(entry["args"], Json::array({"--mcp"}));
        }
        // What was there before is all still there (only our entry is new).
        const Json original = Json::parse(fixture.original.toStdString(), nullptr, true, fixture.comments);
        Json without = document;
        without[servers].erase("llm-sandbox");
        if (without[servers].empty() && !original.contains(servers)) {
            without.erase(servers); // install-mcp added it for our entry
        }
        EXPECT_EQ(without.dump(), original.dump());

        const Finished removed =
            run({QStringLiteral("uninstall-mcp"), QStringLiteral("--client"), QString::fromLatin1(fixture.client)});
        ASSERT_EQ(removed.exitCode, 0) << qPrintable(removed.err);
        EXPECT_EQ(contentsOf(path), fixture.original);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Clients, InstallMcpClientTest,
    ::testing::Values(
        ClientFixture{
            "claude-code", ".claude.json",
            "{\n  \"numStartups\": 12,\n  \"projects\": {\n    \"/home/u/app\": {\n      \"mcpServers\": {}\n"
            "    }\n  },\n  \"mcpServers\": {\n    \"git\": {\n      \"type\": \"stdio\",\n      \"command\": "
            "\"uvx\",\n      \"args\": [\"mcp-server-git\"],\n      \"env\": {}\n    }\n  }\n}\n",
            false, "url", "http", "stdio"},
        ClientFixture{
            "gemini", ".gemini/settings.json",
            "// Gemini CLI settings\n{\n  \"theme\": \"Dracula\", /* mine */\n  \"mcpServers\": {\n    \"git\": "
            "{\"command\": \"uvx\", \"args\": [\"mcp-server-git\"], \"trust\": false}\n  }\n}\n",
            true, "httpUrl", "", ""},
        ClientFixture{"qwen-code", ".qwen/settings.json", "{\r\n\t\"theme\": \"Qwen Dark\"\r\n}\r\n", true, "httpUrl",
                      "", ""},
        ClientFixture{"windsurf", ".codeium/windsurf/mcp_config.json",
                      "{\"mcpServers\": {\"web\": {\"serverUrl\": \"https://example.org/mcp\"}}}", false, "serverUrl",
                      "", ""},
        ClientFixture{
            "cline", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
            "{\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", "
            "\"@modelcontextprotocol/server-github\"],\n      \"disabled\": false,\n      \"autoApprove\": []\n "
            "   }\n  }\n}",
            false, "url", "streamableHttp", ""},
        ClientFixture{"lmstudio", ".lmstudio/mcp.json",
                      "{\n  \"mcpServers\": {\n    \"hf\": {\n      \"url\": \"https://huggingface.co/mcp\"\n    }\n  "
                      "}\n}\n",
                      false, "url", "", ""},
        // Zed's settings.json as Zed makes it: comments before the object; the servers are "context_servers".
        ClientFixture{"zed", ".config/zed/settings.json",
                      "// Zed settings\n//\n// For information on how to configure Zed, see the Zed\n// documentation\n"
                      "{\n  \"ui_font_size\": 16,\n  \"context_servers\": {\n    \"git\": {\n      \"command\": "
                      "\"uvx\",\n      \"args\": [\"mcp-server-git\"] // mine\n    }\n  }\n}\n",
                      true, "url", "", "", "context_servers"}),
    [](const ::testing::TestParamInfo<ClientFixture> &info) {
        return QString::fromLatin1(info.param.client).replace(u'-', u'_').toStdString();
    });

// Codex CLI's config.toml: our table [mcp_servers.llm-sandbox] at the end, in the file's line endings, every other
// byte the same, removed byte for byte; over HTTP the token is a fixed header (http_headers); $CODEX_HOME moves it.
TEST_F(InstallMcpCommandTest, codexGetsATomlTableAndUninstallGivesTheFileBack)
{
    const QByteArray original = "# Codex\r\nmodel = \"o3\"  # mine\r\n\r\n[mcp_servers.docs]\r\ncommand = \"npx\"\r\n";
    const QString path = home(QStringLiteral(".codex/config.toml"));
    writeFile(path, original);
    const QStringList install{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("codex")};
    Finished installed = run(install);
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    QByteArray after = contentsOf(path);
    const QByteArray table = original + "\r\n[mcp_servers.llm-sandbox]\r\ncommand = \"" + m_binary.toUtf8() +
                             "\"\r\nargs = [\"--mcp\"]\r\nenv = { BACKEND = \"docker\"";
    EXPECT_TRUE(after.startsWith(table)) << after.constData();
    EXPECT_TRUE(after.endsWith(" }\r\n")) << after.constData();
    EXPECT_EQ(run(install).exitCode, 0);
    EXPECT_EQ(contentsOf(path), after) << "a second install changes nothing";
    const QStringList uninstall{QStringLiteral("uninstall-mcp"), QStringLiteral("--client"), QStringLiteral("codex")};
    ASSERT_EQ(run(uninstall).exitCode, 0);
    EXPECT_EQ(contentsOf(path), original);

    const QString token = QStringLiteral("0123456789abcdef0123456789abcdef-test");
    installed = run(install + QStringList{QStringLiteral("--transport"), QStringLiteral("http"),
                                          QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9123/mcp")},
                    {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), token}});
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    after = contentsOf(path);
    const QByteArray httpTable = "[mcp_servers.llm-sandbox]\r\nurl = \"http://127.0.0.1:9123/mcp\"\r\n"
                                 "http_headers = { Authorization = \"Bearer " +
                                 token.toUtf8() + "\" }\r\n";
    EXPECT_TRUE(after.endsWith(httpTable)) << after.constData();
    EXPECT_EQ(QFileInfo(path).permissions() & (QFile::ReadGroup | QFile::ReadOther), 0) << "it holds the token";
    ASSERT_EQ(run(uninstall).exitCode, 0);
    EXPECT_EQ(contentsOf(path), original);

    // A broken file is refused with its line, and left as it is.
    writeFile(path, "model = \"o3\"\n[mcp_servers\n");
    const Finished refused = run(install);
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_TRUE(refused.err.contains(QLatin1String("not valid TOML (at line 2"))) << qPrintable(refused.err);
    EXPECT_EQ(contentsOf(path), "model = \"o3\"\n[mcp_servers\n");

    const QString elsewhere = home(QStringLiteral("codex-home"));
    ASSERT_EQ(run(install, {{QStringLiteral("CODEX_HOME"), elsewhere}}).exitCode, 0);
    EXPECT_TRUE(contentsOf(elsewhere + QStringLiteral("/config.toml")).startsWith("[mcp_servers.llm-sandbox]\n"));
}

// Goose's and Continue's config.yaml: a member of Goose's "extensions" mapping and an item of Continue's "mcpServers"
// sequence, each in the client's own keys, spliced into the user's YAML; uninstall gives the file back byte for byte.
TEST_F(InstallMcpCommandTest, gooseAndContinueGetYamlEntriesAndUninstallGivesTheFileBack)
{
    const QString token = QStringLiteral("0123456789abcdef0123456789abcdef-test");
    struct Case
    {
        const char *client;
        const char *path;
        QByteArray original;
        QByteArray stdioStart; ///< how our stdio entry begins
        QByteArray httpLines;  ///< lines of our HTTP entry
    };
    const QList<Case> cases{
        {"goose", ".config/goose/config.yaml",
         "GOOSE_PROVIDER: openai\r\nextensions:\r\n  developer:\r\n    enabled: true\r\n    type: builtin\r\n"
         "# mine\r\nGOOSE_MODE: auto\r\n",
         "  llm-sandbox:\r\n    name: llm-sandbox\r\n    description: ",
         "    type: streamable_http\r\n    uri: \"http://127.0.0.1:9123/mcp\"\r\n    headers:\r\n"
         "      Authorization: Bearer " +
             token.toUtf8() + "\r\n    timeout: 300\r\n"},
        {"continue", ".continue/config.yaml",
         "name: Local Assistant\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: web\n    type: streamable-http\n"
         "    url: https://example.org/mcp\n",
         "  - name: llm-sandbox\n    type: stdio\n    command: ",
         "    type: streamable-http\n    url: \"http://127.0.0.1:9123/mcp\"\n    requestOptions:\n      headers:\n"
         "        Authorization: Bearer " +
             token.toUtf8() + "\n"},
    };
    for (const Case &each : cases) {
        SCOPED_TRACE(each.client);
        const QString path = home(QString::fromLatin1(each.path));
        writeFile(path, each.original);
        const QStringList install{QStringLiteral("install-mcp"), QStringLiteral("--client"),
                                  QString::fromLatin1(each.client)};
        const Finished installed = run(install);
        ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
        const QByteArray after = contentsOf(path);
        EXPECT_TRUE(after.contains(each.stdioStart)) << after.constData();
        EXPECT_TRUE(after.contains(m_binary.toUtf8())) << after.constData();
        EXPECT_TRUE(after.contains("BACKEND: docker")) << after.constData();
        EXPECT_EQ(run(install).exitCode, 0);
        EXPECT_EQ(contentsOf(path), after) << "a second install changes nothing";
        const QStringList uninstall{QStringLiteral("uninstall-mcp"), QStringLiteral("--client"),
                                    QString::fromLatin1(each.client)};
        ASSERT_EQ(run(uninstall).exitCode, 0);
        EXPECT_EQ(contentsOf(path), each.original);

        const Finished http =
            run(install + QStringList{QStringLiteral("--transport"), QStringLiteral("http"), QStringLiteral("--url"),
                                      QStringLiteral("http://127.0.0.1:9123/mcp")},
                {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), token}});
        ASSERT_EQ(http.exitCode, 0) << qPrintable(http.err);
        EXPECT_TRUE(contentsOf(path).contains(each.httpLines)) << contentsOf(path).constData();
        EXPECT_EQ(QFileInfo(path).permissions() & (QFile::ReadGroup | QFile::ReadOther), 0) << "it holds the token";
        ASSERT_EQ(run(uninstall).exitCode, 0);
        EXPECT_EQ(contentsOf(path), each.original);

        // A broken file is refused with its line, and left as it is.
        writeFile(path, "extensions:\n  a: [1,\nmcpServers: x\n");
        const Finished refused = run(install);
        EXPECT_NE(refused.exitCode, 0);
        EXPECT_TRUE(refused.err.contains(QLatin1String("not valid YAML (at line "))) << qPrintable(refused.err);
        EXPECT_EQ(contentsOf(path), "extensions:\n  a: [1,\nmcpServers: x\n");
    }
}

// Cherry Studio keeps its servers in its own database: install-mcp prints the JSON to paste and where, and writes
// nothing; uninstall-mcp says where to remove it.
TEST_F(InstallMcpCommandTest, cherryStudioGetsTheJsonToPasteAndNothingIsWritten)
{
    const Finished installed =
        run({QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cherry-studio")});
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    const Json pasted = Json::parse(installed.out.toStdString());
    EXPECT_EQ(pasted["mcpServers"]["llm-sandbox"]["name"], "llm-sandbox");
    EXPECT_EQ(pasted["mcpServers"]["llm-sandbox"]["command"], m_binary.toStdString());
    EXPECT_TRUE(installed.err.contains(QLatin1String("Import from JSON"))) << qPrintable(installed.err);
    EXPECT_FALSE(QFileInfo::exists(home(QStringLiteral(".config/CherryStudio"))));
    const Finished removed =
        run({QStringLiteral("uninstall-mcp"), QStringLiteral("--client"), QStringLiteral("cherry-studio")});
    EXPECT_EQ(removed.exitCode, 0);
    EXPECT_TRUE(removed.err.contains(QStringLiteral("Settings → MCP Servers"))) << qPrintable(removed.err);
}

// Claude Code's project scope: the project's .mcp.json, shared with everyone who works on it.
TEST_F(InstallMcpCommandTest, claudeCodeProjectScopeWritesTheProjectsMcpJson)
{
    ASSERT_TRUE(QDir(m_home.path()).mkpath(QStringLiteral("app")));
    const Finished installed = run({QStringLiteral("install-mcp"), QStringLiteral("--client"),
                                    QStringLiteral("claude-code"), QStringLiteral("--project"), home("app")});
    ASSERT_EQ(installed.exitCode, 0) << qPrintable(installed.err);
    const Json document = Json::parse(contentsOf(home(QStringLiteral("app/.mcp.json"))).toStdString());
    EXPECT_EQ(document["mcpServers"]["llm-sandbox"]["type"], "stdio");
    EXPECT_FALSE(QFileInfo::exists(home(QStringLiteral(".claude.json")))) << "the user's own file is left alone";
    const Finished removed = run({QStringLiteral("uninstall-mcp"), QStringLiteral("--client"),
                                  QStringLiteral("claude-code"), QStringLiteral("--project"), home("app")});
    ASSERT_EQ(removed.exitCode, 0) << qPrintable(removed.err);
}

TEST_F(InstallMcpCommandTest, usageErrorsSaySoAndTouchNothing)
{
    const struct
    {
        QStringList arguments;
        const char *message;
    } cases[] = {
        {{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("emacs")}, "unknown client"},
        {{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cursor"),
          QStringLiteral("--project"), QStringLiteral(".")},
         "--project is for claude-code"},
        {{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("claude-code"),
          QStringLiteral("--project"), QStringLiteral("/nonexistent/folder")},
         "is not a folder"},
        {{QStringLiteral("install-mcp"), QStringLiteral("--transport"), QStringLiteral("sse")}, "unknown transport"},
        {{QStringLiteral("install-mcp"), QStringLiteral("--transport"), QStringLiteral("http")}, "only starts local"},
        {{QStringLiteral("install-mcp"), QStringLiteral("--backend"), QStringLiteral("lxc")}, "unknown backend"},
        {{QStringLiteral("install-mcp"), QStringLiteral("--client"), QStringLiteral("cursor"),
          QStringLiteral("--transport"), QStringLiteral("http"), QStringLiteral("--url"), QStringLiteral("ftp://x")},
         "is not an http://"},
        {{QStringLiteral("uninstall-mcp"), QStringLiteral("extra")}, "takes no arguments"},
    };
    for (const auto &testCase : cases) {
        const Finished finished =
            run(testCase.arguments,
                {{QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), QStringLiteral("0123456789abcdef0123456789abcdef")}});
        EXPECT_EQ(finished.exitCode, 2) << qPrintable(testCase.arguments.join(QLatin1Char(' ')));
        EXPECT_TRUE(finished.err.contains(QLatin1String(testCase.message))) << qPrintable(finished.err);
    }
    EXPECT_FALSE(QFileInfo::exists(home(QStringLiteral(".config/Claude"))));
    EXPECT_FALSE(QFileInfo::exists(home(QStringLiteral(".cursor"))));
}

} // namespace
} // namespace sandbox
