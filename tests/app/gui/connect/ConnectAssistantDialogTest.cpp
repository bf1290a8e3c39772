// The "Connect an assistant" dialog over files in a HOME of the test's own: install, remove, the HTTP entry with the
// token from the (in-memory) keychain, the clipboard snippet, and a broken file left alone.
#include "gui/connect/ConnectAssistantDialog.h"

#include "ScopedEnvironment.h"
#include "gui/widgets/CopyFeedback.h"
#include "secrets/MemorySecretStore.h"
#include "settings/UserSettings.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

using Json = nlohmann::ordered_json;

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

class ConnectAssistantDialogTest : public ::testing::Test
{
protected:
    template <typename T>
    T *child(const char *name)
    {
        T *widget = m_dialog->findChild<T *>(QString::fromLatin1(name));
        EXPECT_NE(widget, nullptr) << name;
        return widget;
    }
    void choose(const char *combo, const QString &data)
    {
        auto *box = child<QComboBox>(combo);
        box->setCurrentIndex(box->findData(data));
    }
    QString state() { return child<QLabel>("connectState")->text(); }

    QTemporaryDir m_home;
    test::ScopedEnvironment m_environment{{"HOME", m_home.path().toUtf8()},
                                          {"XDG_CONFIG_HOME", QByteArray()},
                                          {"LLM_SANDBOX_HTTP_TOKEN", QByteArray()},
                                          {"DOCKER_HOST", QByteArray()}};
    MemorySecretStore m_keychain;
    std::unique_ptr<ConnectAssistantDialog> m_dialog =
        std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("podman"));
};

TEST_F(ConnectAssistantDialogTest, installsIntoCursorAndRemovesAgainLeavingTheFileAsItWas)
{
    const QString path = m_home.filePath(QStringLiteral(".cursor/mcp.json"));
    const QByteArray original =
        "{\n    \"mcpServers\": {\n        \"other\": {\"url\": \"https://example.com/mcp\"}\n    }\n}\n";
    writeFile(path, original);
    choose("connectClient", QStringLiteral("cursor"));
    EXPECT_EQ(child<QLabel>("connectPath")->text(), path);
    EXPECT_TRUE(state().contains(QLatin1String("does not use llm-sandbox yet"))) << qPrintable(state());
    const QString preview = child<QPlainTextEdit>("connectPreview")->toPlainText();
    EXPECT_TRUE(preview.contains(QStringLiteral("\"command\": \"%1\"").arg(QCoreApplication::applicationFilePath())))
        << qPrintable(preview);
    EXPECT_TRUE(preview.contains(QLatin1String("\"BACKEND\": \"podman\""))) << qPrintable(preview);
    EXPECT_FALSE(child<QPushButton>("connectRemove")->isEnabled());

    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    const Json installed = Json::parse(contentsOf(path).toStdString());
    EXPECT_EQ(installed["mcpServers"]["other"]["url"], "https://example.com/mcp");
    EXPECT_EQ(installed["mcpServers"]["llm-sandbox"]["env"]["BACKEND"], "podman");
    EXPECT_EQ(contentsOf(path + QStringLiteral(".bak")), original);
    EXPECT_TRUE(state().contains(QLatin1String("Restart Cursor"))) << qPrintable(state());
    EXPECT_TRUE(child<QPushButton>("connectRemove")->isEnabled());

    // Another backend: the dialog says the file has other settings; Install replaces them.
    choose("connectBackend", QStringLiteral("docker"));
    EXPECT_TRUE(state().contains(QLatin1String("other settings"))) << qPrintable(state());
    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    EXPECT_EQ(Json::parse(contentsOf(path).toStdString())["mcpServers"]["llm-sandbox"]["env"]["BACKEND"], "docker");
    choose("connectClient", QStringLiteral("vscode"));
    choose("connectClient", QStringLiteral("cursor"));
    EXPECT_TRUE(state().contains(QLatin1String("Installed, as shown"))) << qPrintable(state());
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled()) << "nothing to change";

    QTest::mouseClick(child<QPushButton>("connectRemove"), Qt::LeftButton);
    EXPECT_EQ(contentsOf(path), original);
    EXPECT_TRUE(state().contains(QLatin1String("Removed"))) << qPrintable(state());
    EXPECT_FALSE(child<QPushButton>("connectRemove")->isEnabled());
}

// Issue 54: the assistants found on this computer come first, each saying its state; one connected to another
// llm-sandbox (an older path) says so.
TEST_F(ConnectAssistantDialogTest, listsTheAssistantsFoundFirstWithTheirState)
{
    ASSERT_TRUE(QDir(m_home.path()).mkpath(QStringLiteral(".gemini")));
    writeFile(m_home.filePath(QStringLiteral(".lmstudio/mcp.json")),
              R"({"mcpServers": {"llm-sandbox": {"command": "/opt/old/llm-sandbox", "args": ["--mcp"]}}})");
    m_dialog = std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("docker"));
    auto *clients = child<QComboBox>("connectClient");
    ASSERT_GE(clients->count(), 9);
    QStringList first;
    for (int row = 0; row < 2; ++row) {
        first << clients->itemData(row).toString();
    }
    EXPECT_EQ(first, QStringList({QStringLiteral("gemini"), QStringLiteral("lmstudio")}));
    EXPECT_EQ(clients->itemText(0), QStringLiteral("Gemini CLI — found, not connected"));
    EXPECT_EQ(clients->itemText(1),
              QStringLiteral("LM Studio — connected to another llm-sandbox (/opt/old/llm-sandbox)"));
    EXPECT_EQ(clients->itemText(clients->findData(QStringLiteral("windsurf"))),
              QStringLiteral("Windsurf — not found on this computer"));

    choose("connectClient", QStringLiteral("gemini"));
    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    EXPECT_EQ(clients->itemText(clients->findData(QStringLiteral("gemini"))), QStringLiteral("Gemini CLI — connected"));
    const Json installed =
        Json::parse(contentsOf(m_home.filePath(QStringLiteral(".gemini/settings.json"))).toStdString());
    EXPECT_EQ(installed["mcpServers"]["llm-sandbox"]["args"], Json::array({"--mcp"}));
}

// Goose's YAML: the preview shows the entry as it is written into the file; Install and Remove splice it in and out.
// Cherry Studio keeps its servers in its own database: the dialog offers the JSON to paste and writes nothing.
TEST_F(ConnectAssistantDialogTest, gooseGetsItsYamlEntryAndCherryStudioTheJsonToPaste)
{
    const QString goose = m_home.filePath(QStringLiteral(".config/goose/config.yaml"));
    const QByteArray original = "GOOSE_MODE: auto\nextensions:\n  developer:\n    type: builtin\n";
    writeFile(goose, original);
    ASSERT_TRUE(QDir(m_home.path()).mkpath(QStringLiteral(".config/CherryStudio")));
    m_dialog = std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("docker"));
    auto *clients = child<QComboBox>("connectClient");
    EXPECT_EQ(clients->itemText(clients->findData(QStringLiteral("goose"))),
              QStringLiteral("Goose — found, not connected"));
    EXPECT_EQ(clients->itemText(clients->findData(QStringLiteral("cherry-studio"))),
              QStringLiteral("Cherry Studio — found: paste the configuration"));

    choose("connectClient", QStringLiteral("goose"));
    const QString preview = child<QPlainTextEdit>("connectPreview")->toPlainText();
    EXPECT_TRUE(preview.startsWith(QLatin1String("extensions:\n  llm-sandbox:\n    name: llm-sandbox\n")))
        << qPrintable(preview);
    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    EXPECT_TRUE(contentsOf(goose).startsWith(QByteArray(original + "  llm-sandbox:\n")))
        << contentsOf(goose).constData();
    EXPECT_EQ(clients->itemText(clients->findData(QStringLiteral("goose"))), QStringLiteral("Goose — connected"));
    EXPECT_TRUE(state().contains(QLatin1String("Restart Goose"))) << qPrintable(state());
    QTest::mouseClick(child<QPushButton>("connectRemove"), Qt::LeftButton);
    EXPECT_EQ(contentsOf(goose), original);

    choose("connectClient", QStringLiteral("cherry-studio"));
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled());
    EXPECT_FALSE(child<QPushButton>("connectRemove")->isEnabled());
    EXPECT_TRUE(child<QPushButton>("connectCopy")->isEnabled());
    EXPECT_TRUE(child<QLabel>("connectPath")->text().startsWith(QLatin1String("None"))) << qPrintable(state());
    EXPECT_TRUE(state().contains(QLatin1String("Import from JSON"))) << qPrintable(state());
    const Json pasted = Json::parse(child<QPlainTextEdit>("connectPreview")->toPlainText().toStdString());
    EXPECT_EQ(pasted["mcpServers"]["llm-sandbox"]["name"], "llm-sandbox");
    EXPECT_EQ(pasted["mcpServers"]["llm-sandbox"]["type"], "stdio");
    EXPECT_EQ(pasted["mcpServers"]["llm-sandbox"]["command"], QCoreApplication::applicationFilePath().toStdString());
    QTest::mouseClick(child<QPushButton>("connectCopy"), Qt::LeftButton);
    EXPECT_EQ(Json::parse(QApplication::clipboard()->text().toStdString()), pasted);
}

TEST_F(ConnectAssistantDialogTest, httpEntryCarriesTheKeychainsTokenButNeverShowsIt)
{
    choose("connectClient", QStringLiteral("vscode"));
    choose("connectTransport", QStringLiteral("http"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return child<QPushButton>("connectInstall")->isEnabled(); }, 30000));
    const Result<std::optional<QByteArray>> token = m_keychain.get(QStringLiteral("http-token")).result();
    ASSERT_TRUE(token.ok() && token->has_value()) << "made on first use, as serve --http does";
    const QString preview = child<QPlainTextEdit>("connectPreview")->toPlainText();
    EXPECT_FALSE(preview.contains(QString::fromLatin1(**token)));
    EXPECT_TRUE(preview.contains(QLatin1String("\"type\": \"http\""))) << qPrintable(preview);
    EXPECT_FALSE(child<QComboBox>("connectBackend")->isEnabled());

    child<QLineEdit>("connectUrl")->setText(QStringLiteral("http://127.0.0.1:9999/mcp"));
    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    const QString path = m_home.filePath(QStringLiteral(".config/Code/User/mcp.json"));
    const Json written = Json::parse(contentsOf(path).toStdString());
    EXPECT_EQ(written["servers"]["llm-sandbox"]["url"], "http://127.0.0.1:9999/mcp");
    EXPECT_EQ(written["servers"]["llm-sandbox"]["headers"]["Authorization"], "Bearer " + token->value().toStdString());
    EXPECT_EQ(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());

    // Claude Desktop takes no HTTP entry; the snippet for any other client still can be copied.
    choose("connectClient", QStringLiteral("claude-desktop"));
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled());
    // Said whole in the state line (issue 37, item 14), not cut off inside the code box.
    EXPECT_TRUE(state().contains(QLatin1String("only starts local"))) << qPrintable(state());
    EXPECT_FALSE(state().contains(QLatin1String("below"))) << qPrintable(state());
    EXPECT_TRUE(child<QPlainTextEdit>("connectPreview")->toPlainText().isEmpty());
    ASSERT_TRUE(child<QPushButton>("connectCopy")->isEnabled());
    QTest::mouseClick(child<QPushButton>("connectCopy"), Qt::LeftButton);
    const Json snippet = Json::parse(QApplication::clipboard()->text().toStdString());
    EXPECT_EQ(snippet["mcpServers"]["llm-sandbox"]["headers"]["Authorization"],
              "Bearer " + token->value().toStdString());
    EXPECT_FALSE(QFileInfo::exists(m_home.filePath(QStringLiteral(".config/Claude"))));
}

TEST_F(ConnectAssistantDialogTest, copyConfigurationCopiesThePreviewAndSaysTheClipboardHoldsTheToken)
{
    // The copy differed from the preview ("type": "http" for Cursor, whose entry has none), and the token went to the
    // clipboard without a word.
    choose("connectClient", QStringLiteral("cursor"));
    choose("connectTransport", QStringLiteral("http"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return child<QPushButton>("connectCopy")->isEnabled(); }, 30000));
    const Result<std::optional<QByteArray>> token = m_keychain.get(QStringLiteral("http-token")).result();
    ASSERT_TRUE(token.ok() && token->has_value());
    const QString preview = child<QPlainTextEdit>("connectPreview")->toPlainText();
    ASSERT_FALSE(preview.isEmpty());
    QTest::mouseClick(child<QPushButton>("connectCopy"), Qt::LeftButton);
    const QString copied = QApplication::clipboard()->text();
    EXPECT_EQ(QString(copied).replace(QString::fromLatin1(**token), QStringLiteral("********")).trimmed(),
              preview.trimmed());
    EXPECT_TRUE(copied.contains(QString::fromLatin1(**token)));
    EXPECT_TRUE(state().contains(QLatin1String("token"))) << qPrintable(state());
    EXPECT_TRUE(state().contains(QLatin1String("clipboard"))) << qPrintable(state());
    EXPECT_TRUE(state().contains(QLatin1String("cleared"))) << qPrintable(state());

    // A stdio entry holds no secret: copied as shown, and nothing said of a token.
    choose("connectTransport", QStringLiteral("stdio"));
    QTest::mouseClick(child<QPushButton>("connectCopy"), Qt::LeftButton);
    EXPECT_EQ(QApplication::clipboard()->text().trimmed(),
              child<QPlainTextEdit>("connectPreview")->toPlainText().trimmed());
    EXPECT_FALSE(state().contains(QLatin1String("token"))) << qPrintable(state());
}

TEST(CopyFeedbackTest, aSecretLeavesTheClipboardAfterAWhileUnlessSomethingElseWasCopied)
{
    // As KeePassXC does: the token does not wait on the clipboard for whatever pastes next.
    copySecret(QStringLiteral("secret-1"), std::chrono::milliseconds(100));
    EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("secret-1"));
    EXPECT_TRUE(QTest::qWaitFor([] { return QApplication::clipboard()->text().isEmpty(); }, 5000));

    copySecret(QStringLiteral("secret-2"), std::chrono::milliseconds(100));
    QApplication::clipboard()->setText(QStringLiteral("the user's own"));
    QTest::qWait(300);
    EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("the user's own"));
}

TEST_F(ConnectAssistantDialogTest, aBrokenFileIsShownAndLeftAlone)
{
    const QString path = m_home.filePath(QStringLiteral(".config/Claude/claude_desktop_config.json"));
    const QByteArray broken = "{\"mcpServers\": {\"a\": }}";
    writeFile(path, broken);
    m_dialog = std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("docker"));
    EXPECT_TRUE(state().contains(QLatin1String("not valid JSON"))) << qPrintable(state());
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled());
    EXPECT_FALSE(child<QPushButton>("connectRemove")->isEnabled());
    EXPECT_EQ(contentsOf(path), broken);
    EXPECT_FALSE(QFileInfo::exists(path + QStringLiteral(".bak")));
}

TEST_F(ConnectAssistantDialogTest, aBrokenFileIsSaidWhollyInChinese)
{
    // Issue 37, item 15: the core's English ("it is not valid JSON (parse error at line ...); this client reads strict
    // JSON, without comments") was pasted after a Chinese prefix.
    QTranslator chinese;
    ASSERT_TRUE(chinese.load(QLocale(QStringLiteral("zh_CN")), QStringLiteral("llm-sandbox"), QStringLiteral("_"),
                             QStringLiteral(":/i18n")));
    QCoreApplication::installTranslator(&chinese);
    const auto latinWords = [](QString text, const QStringList &allowed) {
        for (const QString &word : allowed) {
            text.remove(word);
        }
        QStringList words;
        QRegularExpressionMatchIterator found = QRegularExpression(QStringLiteral("[A-Za-z]{2,}")).globalMatch(text);
        while (found.hasNext()) {
            words << found.next().captured();
        }
        return words;
    };

    // Claude Desktop reads strict JSON: a comment is an error, at line 2.
    const QString claude = m_home.filePath(QStringLiteral(".config/Claude/claude_desktop_config.json"));
    writeFile(claude, "{\n  // my servers\n  \"mcpServers\": {}\n}\n");
    m_dialog = std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("docker"));
    choose("connectClient", QStringLiteral("claude-desktop"));
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled());
    EXPECT_TRUE(state().contains(QLatin1String("JSON"))) << qPrintable(state());
    EXPECT_TRUE(state().contains(QLatin1String("2"))) << "the line: " << qPrintable(state());
    EXPECT_EQ(latinWords(state(), {QStringLiteral("JSON")}), QStringList()) << qPrintable(state());

    // Cursor's file names its servers twice.
    writeFile(m_home.filePath(QStringLiteral(".cursor/mcp.json")), R"({"mcpServers": {}, "mcpServers": {}})");
    choose("connectClient", QStringLiteral("cursor"));
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled());
    EXPECT_TRUE(state().contains(QLatin1String("mcpServers"))) << qPrintable(state());
    EXPECT_EQ(latinWords(state(), {QStringLiteral("mcpServers")}), QStringList()) << qPrintable(state());

    // ... and VS Code's holds an array where its servers go.
    writeFile(m_home.filePath(QStringLiteral(".config/Code/User/mcp.json")), R"({"servers": []})");
    choose("connectClient", QStringLiteral("vscode"));
    EXPECT_FALSE(child<QPushButton>("connectInstall")->isEnabled());
    EXPECT_TRUE(state().contains(QLatin1String("servers"))) << qPrintable(state());
    EXPECT_EQ(latinWords(state(), {QStringLiteral("servers"), QStringLiteral("JSON")}), QStringList())
        << qPrintable(state());
    QCoreApplication::removeTranslator(&chinese);
}

TEST_F(ConnectAssistantDialogTest, anHttpEntrySaysTheAppsServerMustRunAndWhetherItStartsWithTheApp)
{
    // Issue 37, item 14: an HTTP entry reaches only a running server, and its autostart is off by default.
    const bool before = UserSettings().serverStartsWithApp();
    UserSettings().setServerStartsWithApp(false);
    auto *note = child<QLabel>("connectServerNote");
    choose("connectClient", QStringLiteral("cursor"));
    m_dialog->show();
    EXPECT_FALSE(note->isVisible()) << "stdio entries start their own server";

    choose("connectTransport", QStringLiteral("http"));
    EXPECT_TRUE(note->isVisible());
    EXPECT_TRUE(note->text().contains(QLatin1String("not running"))) << qPrintable(note->text());
    EXPECT_TRUE(note->text().contains(QLatin1String("does not start with LLM Sandbox"))) << qPrintable(note->text());

    m_dialog->setServerRunning(true);
    EXPECT_TRUE(note->text().contains(QLatin1String("running now"))) << qPrintable(note->text());
    EXPECT_TRUE(note->text().contains(QLatin1String("does not start with LLM Sandbox"))) << qPrintable(note->text());

    UserSettings().setServerStartsWithApp(true);
    choose("connectTransport", QStringLiteral("stdio"));
    choose("connectTransport", QStringLiteral("http"));
    EXPECT_TRUE(note->text().contains(QLatin1String("starts whenever LLM Sandbox does"))) << qPrintable(note->text());
    UserSettings().setServerStartsWithApp(before);
}

TEST(ConnectAssistantDialogTokenTest, aTokenThatCannotBeHadIsSaidOnce)
{
    // An invalid $LLM_SANDBOX_HTTP_TOKEN answers at once with an error: the dialog said it by refreshing, which asked
    // for the token again, without end (the app crashed when HTTP was chosen without a usable token).
    QTemporaryDir home;
    test::ScopedEnvironment environment{{"HOME", home.path().toUtf8()},
                                        {"XDG_CONFIG_HOME", QByteArray()},
                                        {"LLM_SANDBOX_HTTP_TOKEN", QByteArrayLiteral("short")}};
    MemorySecretStore keychain;
    ConnectAssistantDialog dialog(keychain, QStringLiteral("docker"));
    auto *transport = dialog.findChild<QComboBox *>(QStringLiteral("connectTransport"));
    auto *client = dialog.findChild<QComboBox *>(QStringLiteral("connectClient"));
    client->setCurrentIndex(client->findData(QStringLiteral("cursor")));
    transport->setCurrentIndex(transport->findData(QStringLiteral("http")));
    const QString state = dialog.findChild<QLabel *>(QStringLiteral("connectState"))->text();
    EXPECT_TRUE(state.contains(QLatin1String("LLM_SANDBOX_HTTP_TOKEN"))) << qPrintable(state);
    EXPECT_FALSE(dialog.findChild<QPushButton *>(QStringLiteral("connectInstall"))->isEnabled());
}

} // namespace

TEST_F(ConnectAssistantDialogTest, sharingMyFoldersIsOfferedOffAndPutsThemInTheServersEnvironment)
{
    // Issue 47: the folders of Settings → Folders reach an assistant's own server only when the user says so.
    QTemporaryDir config;
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config.path());
    const QString sales = QDir(m_home.path()).canonicalPath() + QStringLiteral("/sales");
    const QString out = QDir(m_home.path()).canonicalPath() + QStringLiteral("/out");
    ASSERT_TRUE(QDir().mkpath(sales) && QDir().mkpath(out));
    UserSettings().setSharedFolders({SharedFolder{.path = sales, .name = QStringLiteral("sales")},
                                     SharedFolder{.path = out, .name = QStringLiteral("out"), .writable = true}});
    m_dialog = std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("docker"));
    choose("connectClient", QStringLiteral("cursor"));
    auto *share = child<QCheckBox>("connectShareFolders");
    ASSERT_NE(share, nullptr);
    EXPECT_EQ(share->text(), QStringLiteral("&Share my folders (2) with this assistant's sandboxes"));
    EXPECT_TRUE(share->isEnabled());
    EXPECT_FALSE(share->isChecked()) << "off by default";
    const QString path = m_home.filePath(QStringLiteral(".cursor/mcp.json"));
    EXPECT_FALSE(child<QPlainTextEdit>("connectPreview")->toPlainText().contains(QLatin1String("LLM_SANDBOX_SHARE")));

    share->click();
    const QString listed = sales + QStringLiteral(":sales;") + out + QStringLiteral(":out:rw");
    EXPECT_TRUE(child<QPlainTextEdit>("connectPreview")->toPlainText().contains(listed))
        << qPrintable(child<QPlainTextEdit>("connectPreview")->toPlainText());
    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    const Json entry = Json::parse(contentsOf(path).toStdString())["mcpServers"]["llm-sandbox"];
    EXPECT_EQ(entry["env"]["LLM_SANDBOX_SHARE"], listed.toStdString()) << entry.dump();
    EXPECT_EQ(entry["env"]["BACKEND"], "docker");

    // Unticked, Install takes the variable out again; over HTTP the server's own settings decide.
    share->click();
    EXPECT_TRUE(state().contains(QLatin1String("other settings"))) << qPrintable(state());
    QTest::mouseClick(child<QPushButton>("connectInstall"), Qt::LeftButton);
    EXPECT_FALSE(
        Json::parse(contentsOf(path).toStdString())["mcpServers"]["llm-sandbox"]["env"].contains("LLM_SANDBOX_SHARE"));
    choose("connectTransport", QStringLiteral("http"));
    EXPECT_FALSE(share->isEnabled());

    UserSettings().setSharedFolders({});
    m_dialog = std::make_unique<ConnectAssistantDialog>(m_keychain, QStringLiteral("docker"));
    EXPECT_FALSE(child<QCheckBox>("connectShareFolders")->isEnabled()) << "no folder to share";
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                       QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
}
