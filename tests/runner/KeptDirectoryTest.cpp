// The Go build cache a pooled container keeps: what a run's program does to it is undone before the next run.
#include "KeptDirectory.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace runner {

namespace {

std::string contents(const std::string &path)
{
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string linkTarget(const std::string &path)
{
    char buffer[4096];
    const ssize_t length = ::readlink(path.c_str(), buffer, sizeof buffer);
    return length < 0 ? std::string() : std::string(buffer, length);
}

bool exists(const std::string &path)
{
    struct stat info
    {
    };
    return ::lstat(path.c_str(), &info) == 0;
}

class KeptDirectoryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        char pattern[] = "/tmp/kept-directory-test-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        m_root = pattern;
        // The image's compiled standard library, read-only.
        m_seed = m_root + "/seed";
        ::mkdir(m_seed.c_str(), 0755);
        ::mkdir((m_seed + "/ab").c_str(), 0755);
        std::ofstream(m_seed + "/ab/fmt-d") << "compiled fmt";
        std::ofstream(m_seed + "/README") << "the image's cache";
        m_kept = m_root + "/tmp/go-cache";
    }
    void TearDown() override { std::system(("chmod -R u+rwx '" + m_root + "'; rm -rf '" + m_root + "'").c_str()); }

    // What a compile step adds: the cache entries of the run's own package.
    void compile(const std::string &name, const std::string &body)
    {
        ::mkdir((m_kept + "/cd").c_str(), 0755);
        std::ofstream(m_kept + "/cd/" + name) << body;
    }

    std::string m_root, m_seed, m_kept;
};

} // namespace

TEST_F(KeptDirectoryTest, startsAsLinksToTheSeedsFiles)
{
    KeptDirectory kept(m_kept, m_seed, 1024);
    kept.restore();
    EXPECT_EQ(linkTarget(m_kept + "/ab/fmt-d"), m_seed + "/ab/fmt-d");
    EXPECT_EQ(linkTarget(m_kept + "/README"), m_seed + "/README");
    EXPECT_EQ(contents(m_kept + "/ab/fmt-d"), "compiled fmt");
    EXPECT_EQ(kept.recordedBytes(), 0u);
}

TEST_F(KeptDirectoryTest, whatTheCompileStepAddedIsThereForTheNextRun)
{
    KeptDirectory kept(m_kept, m_seed, 1024);
    kept.restore();
    compile("main-d", "compiled main");
    kept.record();
    EXPECT_EQ(kept.recordedBytes(), std::string("compiled main").size());

    ::system(("rm -rf '" + m_kept + "'").c_str()); // the run's program removes it all
    kept.restore();
    EXPECT_EQ(contents(m_kept + "/cd/main-d"), "compiled main");
    EXPECT_EQ(linkTarget(m_kept + "/ab/fmt-d"), m_seed + "/ab/fmt-d");
}

TEST_F(KeptDirectoryTest, whatTheRunsProgramChangedIsUndone)
{
    KeptDirectory kept(m_kept, m_seed, 1024);
    kept.restore();
    compile("main-d", "compiled main");
    kept.record();

    // A program planting entries for the next run: a changed output, a link of the seed pointed elsewhere, a
    // directory in place of a link, a new entry, a fifo, and a directory it took its permissions from.
    std::ofstream(m_kept + "/cd/main-d") << "planted";
    ::unlink((m_kept + "/ab/fmt-d").c_str());
    ::symlink("/tmp/evil", (m_kept + "/ab/fmt-d").c_str());
    ::unlink((m_kept + "/README").c_str());
    ::mkdir((m_kept + "/README").c_str(), 0755);
    std::ofstream(m_kept + "/README/inside") << "x";
    std::ofstream(m_kept + "/ab/next-d") << "planted for a program not compiled yet";
    ::mkfifo((m_kept + "/fifo").c_str(), 0600);
    ::chmod((m_kept + "/cd").c_str(), 0);

    kept.restore();
    EXPECT_EQ(contents(m_kept + "/cd/main-d"), "compiled main");
    EXPECT_EQ(linkTarget(m_kept + "/ab/fmt-d"), m_seed + "/ab/fmt-d");
    EXPECT_EQ(linkTarget(m_kept + "/README"), m_seed + "/README");
    EXPECT_FALSE(exists(m_kept + "/ab/next-d"));
    EXPECT_FALSE(exists(m_kept + "/fifo"));
    struct stat info
    {
    };
    ASSERT_EQ(::stat((m_kept + "/cd").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0755u);
}

TEST_F(KeptDirectoryTest, theDirectoryReplacedByALinkIsADirectoryAgain)
{
    KeptDirectory kept(m_kept, m_seed, 1024);
    kept.restore();
    ::system(("rm -rf '" + m_kept + "'").c_str());
    ::mkdir((m_root + "/elsewhere").c_str(), 0755);
    ASSERT_EQ(::symlink((m_root + "/elsewhere").c_str(), m_kept.c_str()), 0);

    kept.restore();
    struct stat info
    {
    };
    ASSERT_EQ(::lstat(m_kept.c_str(), &info), 0);
    EXPECT_TRUE(S_ISDIR(info.st_mode));
    EXPECT_EQ(contents(m_kept + "/ab/fmt-d"), "compiled fmt");
    EXPECT_FALSE(exists(m_root + "/elsewhere/ab")) << "the restore followed the planted link";
}

TEST_F(KeptDirectoryTest, aRecordOverItsLimitGoesBackToTheSeed)
{
    KeptDirectory kept(m_kept, m_seed, 16);
    kept.restore();
    compile("small-d", "fits");
    kept.record();
    EXPECT_EQ(kept.recordedBytes(), 4u);
    compile("large-d", std::string(100, 'x'));
    kept.record();
    EXPECT_EQ(kept.recordedBytes(), 0u);

    kept.restore();
    EXPECT_FALSE(exists(m_kept + "/cd"));
    EXPECT_EQ(linkTarget(m_kept + "/ab/fmt-d"), m_seed + "/ab/fmt-d");
}

TEST_F(KeptDirectoryTest, withoutASeedItStartsEmpty)
{
    KeptDirectory kept(m_kept, {}, 1024);
    std::system(("mkdir -p '" + m_kept + "/left' && touch '" + m_kept + "/left/over'").c_str());
    kept.restore();
    EXPECT_FALSE(exists(m_kept + "/left"));
    EXPECT_TRUE(exists(m_kept));
}

} // namespace runner
