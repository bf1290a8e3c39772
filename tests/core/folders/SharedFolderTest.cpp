// Issue 47: the folders a user shares with sandboxes, as `run --share` and LLM_SANDBOX_SHARE name them.
#include "folders/SharedFolder.h"

#include "ScopedEnvironment.h"
#include "settings/SandboxSettings.h"

#include <QDir>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

TEST(SharedFolder, readsPathNameAndWhetherResultsMayBeSavedThere)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("Sales Data 2026")));
    const QString sales = QDir(dir.path()).canonicalPath() + QStringLiteral("/Sales Data 2026");

    auto plain = SharedFolder::parse(sales);
    ASSERT_TRUE(plain) << qPrintable(plain.error().message);
    EXPECT_EQ(plain->path, sales);
    EXPECT_EQ(plain->name, QStringLiteral("Sales-Data-2026"));
    EXPECT_FALSE(plain->writable);
    EXPECT_EQ(plain->mountPath(), QStringLiteral("/data/Sales-Data-2026"));

    auto named = SharedFolder::parse(sales + QStringLiteral(":sales:rw"));
    ASSERT_TRUE(named) << qPrintable(named.error().message);
    EXPECT_EQ(named->name, QStringLiteral("sales"));
    EXPECT_TRUE(named->writable);
    EXPECT_EQ(SharedFolder::parse(named->text()).value(), *named) << "text() reads back";

    auto readOnly = SharedFolder::parse(sales + QStringLiteral(":sales:ro"));
    ASSERT_TRUE(readOnly);
    EXPECT_FALSE(readOnly->writable);
}

TEST(SharedFolder, refusesWhatCannotBeSharedWithAReason)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    for (const QString &text : {QStringLiteral("/"), QDir::homePath(), QStringLiteral("/etc"),
                                QStringLiteral("/proc/self"), QStringLiteral("/dev")}) {
        auto refused = SharedFolder::parse(text);
        ASSERT_FALSE(refused) << qPrintable(text);
        EXPECT_EQ(refused.error().code, ErrorCode::BadRequest) << qPrintable(text);
    }
    EXPECT_EQ(SharedFolder::parse(dir.filePath(QStringLiteral("missing"))).error().code, ErrorCode::NotFound);
    for (const char *name : {".hidden", "-dash", "a/b", "../up", "sp ace", "new\nline"}) {
        auto refused = SharedFolder::parse(dir.path() + QLatin1Char(':') + QString::fromUtf8(name));
        ASSERT_FALSE(refused) << name;
        EXPECT_TRUE(refused.error().message.contains(QStringLiteral("cannot name a shared folder"))) << name;
    }
    EXPECT_FALSE(SharedFolder::nameIsValid(QString(65, QLatin1Char('a'))));
    EXPECT_TRUE(SharedFolder::nameIsValid(QString(64, QLatin1Char('a'))));
}

TEST(SharedFolder, aListNamesEachFolderOnceAndComesFromLlmSandboxShare)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QDir root(dir.path());
    ASSERT_TRUE(root.mkpath(QStringLiteral("a/data")) && root.mkpath(QStringLiteral("b/data")));
    const QString a = root.canonicalPath() + QStringLiteral("/a/data");
    const QString b = root.canonicalPath() + QStringLiteral("/b/data");

    auto clash = SharedFolder::parseList(a + QLatin1Char(';') + b);
    ASSERT_FALSE(clash);
    EXPECT_TRUE(clash.error().message.contains(QStringLiteral("Two shared folders are named \"data\"")));

    auto both = SharedFolder::parseList(a + QStringLiteral(";\n") + b + QStringLiteral(":results:rw\n"));
    ASSERT_TRUE(both) << qPrintable(both.error().message);
    ASSERT_EQ(both->size(), 2);
    EXPECT_EQ(SharedFolder::parseList(SharedFolder::listText(*both)).value(), *both);

    {
        const sandbox::test::ScopedEnvironment share{{"LLM_SANDBOX_SHARE", SharedFolder::listText(*both).toUtf8()}};
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings) << qPrintable(settings.error().message);
        EXPECT_EQ(settings->sharedFolders, *both);
    }
    const sandbox::test::ScopedEnvironment bad{{"LLM_SANDBOX_SHARE", QByteArray("/proc")}};
    auto refused = SandboxSettings::fromEnvironment();
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("LLM_SANDBOX_SHARE")))
        << qPrintable(refused.error().message);
    EXPECT_TRUE(SandboxSettings().sharedFolders.isEmpty()) << "nothing is shared by default";
}

TEST(SharedFolder, resultsReplaceAFileOnlyWhenTheUserAllowsIt)
{
    EXPECT_FALSE(SandboxSettings().shareOverwrite) << "a result never replaces a file by default";
    {
        const sandbox::test::ScopedEnvironment allowed{{"LLM_SANDBOX_SHARE_OVERWRITE", QByteArray("1")}};
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings) << qPrintable(settings.error().message);
        EXPECT_TRUE(settings->shareOverwrite);
    }
    const sandbox::test::ScopedEnvironment bad{{"LLM_SANDBOX_SHARE_OVERWRITE", QByteArray("sometimes")}};
    auto refused = SandboxSettings::fromEnvironment();
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("LLM_SANDBOX_SHARE_OVERWRITE")))
        << qPrintable(refused.error().message);
}

TEST(SharedFolder, aReadOnlyFolderNamedLikeAModeStaysReadOnlyInText)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = QDir(dir.path()).canonicalPath();
    for (const char *name : {"rw", "ro"}) {
        const SharedFolder readOnly{.path = path, .name = QString::fromLatin1(name), .writable = false};
        auto read = SharedFolder::parse(readOnly.text());
        ASSERT_TRUE(read) << qPrintable(read.error().message);
        EXPECT_EQ(*read, readOnly) << qPrintable(readOnly.text());
        EXPECT_EQ(SharedFolder::parseList(SharedFolder::listText({readOnly})).value(), QList<SharedFolder>{readOnly});
    }
}
