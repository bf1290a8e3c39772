// Issue 47: what a sandbox reads at /data/NAME is llm-sandbox's copy of the shared folder, made without following a
// link, leaving the folder, or changing the user's files.
#include "folders/FolderSnapshot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sandbox;

namespace {

void write(const QString &path, const QByteArray &data, QFile::Permissions permissions = {})
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << qPrintable(path);
    file.write(data);
    file.close();
    if (permissions) {
        file.setPermissions(permissions);
    }
}

QByteArray read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

struct Folders
{
    Folders()
    {
        EXPECT_TRUE(QDir(temporary.path()).mkpath(QStringLiteral("data/sub")));
        EXPECT_TRUE(QDir(temporary.path()).mkpath(QStringLiteral("outside")));
        folder = SharedFolder::parse(temporary.filePath(QStringLiteral("data")) + QStringLiteral(":sales")).value();
    }
    QTemporaryDir temporary;
    SharedFolder folder;
    [[nodiscard]] QString data(const QString &name) const { return folder.path + QLatin1Char('/') + name; }
    [[nodiscard]] QString cache() const { return temporary.filePath(QStringLiteral("cache")); }
};

} // namespace

TEST(FolderSnapshot, aPrivateFileIsCopiedReadableAndTheUsersFileIsLeftAsItWas)
{
    Folders folders;
    write(folders.data(QStringLiteral("sales.csv")), "region,total\nnorth,12\n", QFile::ReadOwner | QFile::WriteOwner);
    write(folders.data(QStringLiteral("sub/notes.txt")), "notes");
    struct stat before
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(folders.data(QStringLiteral("sales.csv"))).constData(), &before), 0);

    auto report = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(report) << qPrintable(report.error().message);
    EXPECT_EQ(report->files, 2);
    EXPECT_EQ(report->copied, 2);
    EXPECT_EQ(report->bytes, 22 + 5);
    EXPECT_TRUE(report->skipped.isEmpty());
    const QString copy = report->view + QStringLiteral("/sales.csv");
    EXPECT_EQ(read(copy), "region,total\nnorth,12\n");
    struct stat copied
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(copy).constData(), &copied), 0);
    EXPECT_EQ(copied.st_mode & 07777, 0644u) << "readable by the sandbox's own uid, never executable";
    struct stat view
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(report->view + QStringLiteral("/sub")).constData(), &view), 0);
    EXPECT_EQ(view.st_mode & 07777, 0755u);
    struct stat cacheRoot
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(folders.cache()).constData(), &cacheRoot), 0);

    struct stat after
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(folders.data(QStringLiteral("sales.csv"))).constData(), &after), 0);
    EXPECT_EQ(after.st_mode, before.st_mode) << "the user's file keeps its mode";
    EXPECT_EQ(after.st_uid, before.st_uid);
    EXPECT_EQ(after.st_gid, before.st_gid);
    EXPECT_EQ(after.st_ctim.tv_sec, before.st_ctim.tv_sec) << "nor its inode (no chmod, chown or ACL)";
    EXPECT_EQ(after.st_ctim.tv_nsec, before.st_ctim.tv_nsec);
    EXPECT_FALSE(report->view.contains(folders.folder.path)) << "the copy's path is not the user's";
}

TEST(FolderSnapshot, linksFifosAndOtherFileSystemsAreLeftOutAndSaidSo)
{
    Folders folders;
    write(folders.temporary.filePath(QStringLiteral("outside/id_rsa")), "PRIVATE KEY", QFile::ReadOwner);
    write(folders.data(QStringLiteral("kept.txt")), "kept");
    ASSERT_TRUE(QFile::link(folders.temporary.filePath(QStringLiteral("outside/id_rsa")),
                            folders.data(QStringLiteral("id_rsa"))));
    ASSERT_TRUE(QFile::link(QStringLiteral("/etc/shadow"), folders.data(QStringLiteral("shadow"))));
    ASSERT_TRUE(QFile::link(QStringLiteral("../outside"), folders.data(QStringLiteral("up"))));
    ASSERT_EQ(::link(QFile::encodeName(folders.temporary.filePath(QStringLiteral("outside/id_rsa"))).constData(),
                     QFile::encodeName(folders.data(QStringLiteral("hard"))).constData()),
              0);
    ASSERT_EQ(::mkfifo(QFile::encodeName(folders.data(QStringLiteral("pipe"))).constData(), 0600), 0);

    auto report = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(report) << qPrintable(report.error().message);
    EXPECT_EQ(report->files, 1);
    QStringList skipped;
    for (const FolderSnapshot::Skipped &item : report->skipped) {
        skipped << item.path + QStringLiteral(": ") + item.reason;
    }
    skipped.sort();
    EXPECT_EQ(skipped, (QStringList{QStringLiteral("hard: a hard link (its other names may be outside the folder)"),
                                    QStringLiteral("id_rsa: a symbolic link"),
                                    QStringLiteral("pipe: not a regular file (a FIFO, socket or device)"),
                                    QStringLiteral("shadow: a symbolic link"), QStringLiteral("up: a symbolic link")}));
    EXPECT_EQ(QDir(report->view).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
              (QStringList{QStringLiteral("kept.txt"), QStringLiteral("sub")}));
}

TEST(FolderSnapshot, aCopyFolderAnotherUserCouldOpenIsRefused)
{
    Folders folders;
    ASSERT_TRUE(QDir().mkdir(folders.cache()));
    ASSERT_TRUE(QFile::setPermissions(folders.cache(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                           QFile::ReadOther | QFile::ExeOther));
    auto refused = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("no one else can open")))
        << qPrintable(refused.error().message);
    EXPECT_TRUE(FolderSnapshot::root().startsWith(QStringLiteral("/var/tmp/llm-sandbox-")));
}

TEST(FolderSnapshot, anUpdateCopiesWhatChangedAndRemovesWhatWentAndALimitChangesNothing)
{
    Folders folders;
    write(folders.data(QStringLiteral("a.csv")), "1");
    write(folders.data(QStringLiteral("b.csv")), "2");
    write(folders.data(QStringLiteral("sub/c.csv")), "3");
    auto first = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(first);
    EXPECT_EQ(first->copied, 3);

    auto unchanged = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(unchanged);
    EXPECT_EQ(unchanged->copied, 0) << "nothing changed, nothing copied";

    write(folders.data(QStringLiteral("a.csv")), "one, longer");
    ASSERT_TRUE(QFile::remove(folders.data(QStringLiteral("b.csv"))));
    ASSERT_TRUE(QDir(folders.data(QStringLiteral("sub"))).removeRecursively());
    write(folders.data(QStringLiteral("sub")), "now a file");
    auto changed = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(changed) << qPrintable(changed.error().message);
    EXPECT_EQ(changed->copied, 2);
    EXPECT_EQ(read(changed->view + QStringLiteral("/a.csv")), "one, longer");
    EXPECT_FALSE(QFile::exists(changed->view + QStringLiteral("/b.csv")));
    EXPECT_EQ(read(changed->view + QStringLiteral("/sub")), "now a file");

    write(folders.data(QStringLiteral("d.csv")), "4");
    auto tooMany = FolderSnapshot::update(folders.folder, {.maxFiles = 2, .maxBytes = 1 << 20}, folders.cache());
    ASSERT_FALSE(tooMany);
    EXPECT_EQ(tooMany.error().code, ErrorCode::LimitReached);
    EXPECT_TRUE(tooMany.error().message.contains(QStringLiteral("more than 2 files")))
        << qPrintable(tooMany.error().message);
    EXPECT_FALSE(QFile::exists(changed->view + QStringLiteral("/d.csv"))) << "a folder over a limit changes nothing";
    auto tooBig = FolderSnapshot::update(folders.folder, {.maxFiles = 10, .maxBytes = 4}, folders.cache());
    ASSERT_FALSE(tooBig);
    EXPECT_EQ(tooBig.error().code, ErrorCode::LimitReached);
}

// The copy is walked again only when the folder changed (inotify): every kind of change, deep in the folder too,
// reaches the next update.
TEST(FolderSnapshot, everyChangeDeepInTheFolderReachesTheNextUpdate)
{
    Folders folders;
    ASSERT_TRUE(QDir(folders.folder.path).mkpath(QStringLiteral("sub/deeper")));
    write(folders.data(QStringLiteral("sub/deeper/a.csv")), "1,2");
    write(folders.data(QStringLiteral("sub/b.csv")), "b");
    auto first = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(first);
    ASSERT_EQ(first->files, 2);
    auto again = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(again);
    EXPECT_EQ(again->files, 2);
    EXPECT_EQ(again->copied, 0);
    // The copy's version says whether a sandbox's copy of it (Kubernetes) is still the folder as it is.
    EXPECT_EQ(again->version, first->version) << "nothing changed";

    write(folders.data(QStringLiteral("sub/deeper/a.csv")), "3,4"); // same size
    auto rewritten = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(rewritten);
    EXPECT_EQ(read(rewritten->view + QStringLiteral("/sub/deeper/a.csv")), "3,4");
    EXPECT_GT(rewritten->version, again->version);

    // A hard link made into the folder to a file outside it is not in the copy; chmod reaches the next update too.
    write(folders.temporary.filePath(QStringLiteral("outside/key")), "KEY", QFile::ReadOwner);
    ASSERT_EQ(::link(QFile::encodeName(folders.temporary.filePath(QStringLiteral("outside/key"))).constData(),
                     QFile::encodeName(folders.data(QStringLiteral("sub/key"))).constData()),
              0);
    auto linked = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(linked);
    EXPECT_EQ(linked->files, 2);
    EXPECT_FALSE(QFile::exists(linked->view + QStringLiteral("/sub/key")));
    ASSERT_EQ(linked->skipped.size(), 1);

    ASSERT_TRUE(QDir(folders.data(QStringLiteral("sub/deeper"))).removeRecursively());
    auto removed = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(removed);
    EXPECT_EQ(removed->files, 1) << "b.csv";
    EXPECT_FALSE(QFileInfo::exists(removed->view + QStringLiteral("/sub/deeper")));
    EXPECT_GT(removed->version, linked->version) << "a removal is a change too";

    QDir(removed->view).removeRecursively(); // a copy removed behind its back is made again
    auto remade = FolderSnapshot::update(folders.folder, {}, folders.cache());
    ASSERT_TRUE(remade);
    EXPECT_TRUE(QFileInfo(remade->view + QStringLiteral("/sub")).isDir());
}
