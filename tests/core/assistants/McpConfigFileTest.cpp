#include "assistants/McpConfigFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <unistd.h>

namespace sandbox {
namespace {

using Json = nlohmann::ordered_json;
using Outcome = McpConfigFile::Change::Outcome;

const Json kEntry = {{"command", "/usr/bin/llm-sandbox"}, {"args", {"--mcp"}}};
const QString kName = QStringLiteral("llm-sandbox");

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

class McpConfigFileTest : public ::testing::Test
{
protected:
    QTemporaryDir m_dir;
    QString m_path = m_dir.filePath(QStringLiteral("Claude/claude_desktop_config.json"));
    McpConfigFile m_file{m_path, {}};
};

TEST_F(McpConfigFileTest, createsTheFileAndItsFolder)
{
    const Result<McpConfigFile::Change> change = m_file.install(kName, kEntry, false, false);
    ASSERT_TRUE(change.ok()) << qPrintable(change.error().message);
    EXPECT_EQ(change->outcome, Outcome::Created);
    EXPECT_TRUE(change->backupPath.isEmpty());
    EXPECT_EQ(Json::parse(contentsOf(m_path).toStdString())["mcpServers"]["llm-sandbox"], kEntry);
    EXPECT_FALSE(QFileInfo::exists(McpConfigFile::backupPathOf(m_path)));
}

TEST_F(McpConfigFileTest, backsUpThePreviousFileAndASecondRunWritesNothing)
{
    ASSERT_TRUE(QDir().mkpath(QFileInfo(m_path).absolutePath()));
    const QByteArray original = "{\r\n\t\"mcpServers\": {\"other\": {\"command\": \"x\"}},\r\n\t\"z\": [1]\r\n}";
    writeFile(m_path, original);

    const Result<McpConfigFile::Change> first = m_file.install(kName, kEntry, false, false);
    ASSERT_TRUE(first.ok()) << qPrintable(first.error().message);
    EXPECT_EQ(first->outcome, Outcome::Added);
    EXPECT_EQ(first->backupPath, McpConfigFile::backupPathOf(m_path));
    EXPECT_EQ(contentsOf(first->backupPath), original);
    const QByteArray installed = contentsOf(m_path);
    EXPECT_EQ(installed, first->after);

    // The second run finds its entry: no write, so no new backup (the old one is removed to see that).
    ASSERT_TRUE(QFile::remove(first->backupPath));
    const QDateTime modified = QFileInfo(m_path).lastModified();
    const Result<McpConfigFile::Change> second = m_file.install(kName, kEntry, false, false);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->outcome, Outcome::Unchanged);
    EXPECT_FALSE(QFileInfo::exists(McpConfigFile::backupPathOf(m_path)));
    EXPECT_EQ(QFileInfo(m_path).lastModified(), modified);
    EXPECT_EQ(contentsOf(m_path), installed);

    const Result<McpConfigFile::Change> removed = m_file.uninstall(kName, false);
    ASSERT_TRUE(removed.ok());
    EXPECT_EQ(removed->outcome, Outcome::Removed);
    EXPECT_EQ(contentsOf(m_path), original);
    EXPECT_EQ(contentsOf(McpConfigFile::backupPathOf(m_path)), installed);
    const Result<McpConfigFile::Change> again = m_file.uninstall(kName, false);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->outcome, Outcome::NotInstalled);
}

TEST_F(McpConfigFileTest, uninstallGivesBackAFileWithoutServersExactlyAndKeepsAServersObjectTheUserHad)
{
    // Claude Desktop writes its file with preferences and no "mcpServers" until a server is added.
    ASSERT_TRUE(QDir().mkpath(QFileInfo(m_path).absolutePath()));
    const QByteArray withoutServers = "{\n  \"preferences\": {\n    \"sidebarMode\": \"chat\"\n  }\n}";
    writeFile(m_path, withoutServers);
    ASSERT_TRUE(m_file.install(kName, kEntry, false, false).ok());
    ASSERT_TRUE(m_file.install(kName, kEntry, false, false).ok()); // a second run changes nothing
    ASSERT_TRUE(m_file.uninstall(kName, false).ok());
    EXPECT_EQ(contentsOf(m_path), withoutServers);

    // An empty servers object of the user's own stays.
    const QByteArray emptyServers = "{\"mcpServers\": {}, \"x\": 1}";
    writeFile(m_path, emptyServers);
    ASSERT_TRUE(m_file.install(kName, kEntry, false, false).ok());
    ASSERT_TRUE(m_file.uninstall(kName, false).ok());
    EXPECT_EQ(contentsOf(m_path), emptyServers);
}

TEST_F(McpConfigFileTest, refusesABrokenFileAndLeavesItAlone)
{
    ASSERT_TRUE(QDir().mkpath(QFileInfo(m_path).absolutePath()));
    const QByteArray broken = "{\"mcpServers\": {\"other\": {\"command\": \"x\"}},,}\n";
    writeFile(m_path, broken);
    const QDateTime modified = QFileInfo(m_path).lastModified();
    for (const bool install : {true, false}) {
        const Result<McpConfigFile::Change> change =
            install ? m_file.install(kName, kEntry, false, false) : m_file.uninstall(kName, false);
        ASSERT_FALSE(change.ok());
        EXPECT_TRUE(change.error().message.startsWith(m_path)) << qPrintable(change.error().message);
        EXPECT_TRUE(change.error().message.contains(QLatin1String("not valid JSON (parse error at line 1, column")))
            << qPrintable(change.error().message);
        EXPECT_TRUE(change.error().message.contains(QLatin1String("left as it is")));
    }
    EXPECT_EQ(contentsOf(m_path), broken);
    EXPECT_EQ(QFileInfo(m_path).lastModified(), modified);
    EXPECT_FALSE(QFileInfo::exists(McpConfigFile::backupPathOf(m_path)));
}

TEST_F(McpConfigFileTest, aDryRunWritesNothing)
{
    const Result<McpConfigFile::Change> created = m_file.install(kName, kEntry, true, false);
    ASSERT_TRUE(created.ok());
    EXPECT_EQ(created->outcome, Outcome::Created);
    EXPECT_TRUE(created->after.contains("llm-sandbox"));
    EXPECT_FALSE(QFileInfo::exists(QFileInfo(m_path).absolutePath()));

    ASSERT_TRUE(m_file.install(kName, kEntry, false, false).ok());
    const QByteArray installed = contentsOf(m_path);
    const Result<McpConfigFile::Change> removed = m_file.uninstall(kName, true);
    ASSERT_TRUE(removed.ok());
    EXPECT_EQ(removed->outcome, Outcome::Removed);
    EXPECT_FALSE(removed->after.contains("llm-sandbox"));
    EXPECT_EQ(contentsOf(m_path), installed);
    EXPECT_FALSE(QFileInfo::exists(McpConfigFile::backupPathOf(m_path)));
}

TEST_F(McpConfigFileTest, anEntryWithASecretMakesTheFileAndItsBackupPrivate)
{
    ASSERT_TRUE(QDir().mkpath(QFileInfo(m_path).absolutePath()));
    writeFile(m_path, "{}");
    ASSERT_TRUE(QFile::setPermissions(m_path, QFile::permissions(m_path) | QFileDevice::ReadOther));
    ASSERT_TRUE(m_file.install(kName, {{"url", "http://127.0.0.1:1/mcp"}}, false, true).ok());
    const QFileDevice::Permissions ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    const auto unixPermissions = [](const QString &path) {
        return QFile::permissions(path) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser);
    };
    EXPECT_EQ(unixPermissions(m_path), ownerOnly);
    EXPECT_EQ(unixPermissions(McpConfigFile::backupPathOf(m_path)), ownerOnly);
}

TEST_F(McpConfigFileTest, aFileWithASecretIsCreatedPrivateNotMadePrivateAfterwards)
{
    // Issue 44, item 10: the file and its backup were created 0644 and chmod'ed 0600, so another user could open one
    // in between and read the token written afterwards through that descriptor. inotify sees every change of mode
    // (IN_ATTRIB) of what is created in the folder, in order.
    const QString folder = QFileInfo(m_path).absolutePath();
    ASSERT_TRUE(QDir().mkpath(folder));
    writeFile(m_path, "{}");
    const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    ASSERT_GE(watch, 0);
    ASSERT_GE(::inotify_add_watch(watch, QFile::encodeName(folder).constData(), IN_CREATE | IN_ATTRIB), 0);

    ASSERT_TRUE(m_file.install(kName, {{"url", "http://127.0.0.1:1/mcp"}}, false, true).ok());

    QStringList created;
    QStringList modeChanged;
    alignas(inotify_event) char buffer[16384];
    for (ssize_t got; (got = ::read(watch, buffer, sizeof buffer)) > 0;) {
        for (char *at = buffer; at < buffer + got;) {
            const auto *event = reinterpret_cast<const inotify_event *>(at);
            (event->mask & IN_CREATE ? created : modeChanged).append(QString::fromUtf8(event->name));
            at += sizeof(inotify_event) + event->len;
        }
    }
    ::close(watch);
    EXPECT_GE(created.size(), 2) << created.join(u' ').toStdString(); // the backup's and the file's new copies
    EXPECT_TRUE(modeChanged.isEmpty()) << "chmod'ed after creation: " << modeChanged.join(u' ').toStdString();
    EXPECT_EQ(QFile::permissions(m_path) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser),
              QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

TEST_F(McpConfigFileTest, aFolderInPlaceOfTheFileIsAnError)
{
    ASSERT_TRUE(QDir().mkpath(m_path));
    const Result<McpConfigFile::Change> change = m_file.install(kName, kEntry, false, false);
    ASSERT_FALSE(change.ok());
    EXPECT_TRUE(change.error().message.contains(QLatin1String("is not a file")));
}

} // namespace
} // namespace sandbox
