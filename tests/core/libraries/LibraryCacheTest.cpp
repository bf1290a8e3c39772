// Library sets installed once (issue 49): kept per user, verified before use, evicted least recently used first.
#include "libraries/LibraryCache.h"

#include "engine/LibraryInstallPlan.h"
#include "lang/LanguageRegistry.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <thread>

using namespace sandbox;

namespace {

LibraryCache::Entry entry(const QString &key, const char *language = "python")
{
    LibraryCache::Entry made;
    made.key = key;
    made.language = QString::fromLatin1(language);
    made.libraries = {QStringLiteral("six")};
    made.image = QStringLiteral("llm-sandbox/python:1");
    made.unpackedBytes = 4096;
    return made;
}

QString key(char digit)
{
    return QString(64, QLatin1Char(digit));
}

TEST(LibraryCache, keysAnInstallByWhatItsResultDependsOn)
{
    const Language &python = *LanguageRegistry::instance().find(QStringLiteral("python"));
    const auto plan = [&](const QStringList &libraries, const QHash<QString, QString> &variables = {}) {
        return *LibraryInstallPlan::make(python, libraries, QStringLiteral("/sandbox"),
                                         [variables](const char *name) { return variables.value(name); });
    };
    const QString base = LibraryCache::keyFor(python, "img:1", "builder:1", {"a", "b"}, plan({"a", "b"}));
    EXPECT_EQ(base.size(), 64);
    EXPECT_EQ(LibraryCache::keyFor(python, "img:1", "builder:1", {"b", "a"}, plan({"b", "a"})), base)
        << "the same set in another order";
    EXPECT_NE(LibraryCache::keyFor(python, "img:2", "builder:1", {"a", "b"}, plan({"a", "b"})), base)
        << "another image";
    EXPECT_NE(LibraryCache::keyFor(python, "img:1", "builder:1", {"a", "c"}, plan({"a", "c"})), base);
    EXPECT_NE(LibraryCache::keyFor(python, "img:1", "builder:1", {"a", "b"},
                                   plan({"a", "b"}, {{"LLM_SANDBOX_PIP_INDEX_URL", "https://mirror.example/simple"}})),
              base)
        << "another index";
}

TEST(LibraryCache, keepsASetForTheUserAloneAndFindsItVerified)
{
    QTemporaryDir home;
    const QString folder = home.filePath(QStringLiteral("cache/libraries"));
    LibraryCache cache(folder, 1024 * 1024);
    EXPECT_FALSE(cache.find(key('a')));
    ASSERT_TRUE(cache.store(entry(key('a')), "archive-a"));
    EXPECT_EQ(QFileInfo(folder).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::ExeOther), 0);
    EXPECT_EQ(QFileInfo(folder + "/" + key('a') + ".tar.gz").permissions() & (QFile::ReadGroup | QFile::ReadOther), 0);
    auto hit = cache.find(key('a'));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->archive, "archive-a");
    EXPECT_EQ(hit->unpackedBytes, 4096);

    // Another process (or anyone) changed the archive: refused, removed, never used.
    QFile archive(folder + "/" + key('a') + ".tar.gz");
    ASSERT_TRUE(archive.open(QIODevice::WriteOnly));
    archive.write("tampered");
    archive.close();
    QString problem;
    EXPECT_FALSE(cache.find(key('a'), &problem));
    EXPECT_TRUE(problem.contains("did not match")) << qPrintable(problem);
    EXPECT_TRUE(cache.entries().isEmpty());
    EXPECT_FALSE(LibraryCache(QString(), 1024).find(key('a'))) << "no folder: no cache";
}

TEST(LibraryCache, staysUnderItsCapByRemovingTheLeastRecentlyUsed)
{
    QTemporaryDir home;
    LibraryCache cache(home.path(), 25);
    ASSERT_TRUE(cache.store(entry(key('a')), QByteArray(10, 'a')));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(cache.store(entry(key('b'), "go"), QByteArray(10, 'b')));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(cache.find(key('a'))) << "a is used again: b is now the oldest";
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(cache.store(entry(key('c')), QByteArray(10, 'c')));
    EXPECT_TRUE(cache.find(key('a')));
    EXPECT_FALSE(cache.find(key('b'))) << "evicted";
    EXPECT_TRUE(cache.find(key('c')));
    EXPECT_FALSE(cache.store(entry(key('d')), QByteArray(26, 'd'))) << "larger than the whole cache";

    EXPECT_EQ(*cache.prune({QStringLiteral("go")}), 0);
    EXPECT_EQ(*cache.prune({QStringLiteral("python")}), 20);
    EXPECT_TRUE(cache.entries().isEmpty());
}

} // namespace
