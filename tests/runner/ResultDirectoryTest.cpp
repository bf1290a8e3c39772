// A writable shared folder's directory: before each run one link per entry at the top of the folder's read-only copy,
// after it what the run added, everything but those links, regular files directly in it with their bytes.
#include "ResultDirectory.h"

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace runner {

namespace {

struct Seen
{
    std::string type;
    std::uint64_t size = 0;
    std::optional<std::string> data;
    bool operator==(const Seen &) const = default;
};

std::string linkTarget(const std::string &path)
{
    char buffer[4096];
    const ssize_t length = ::readlink(path.c_str(), buffer, sizeof buffer);
    return length < 0 ? std::string() : std::string(buffer, length);
}

ino_t inodeOf(const std::string &path)
{
    struct stat info
    {
    };
    return ::lstat(path.c_str(), &info) == 0 ? info.st_ino : 0;
}

class ResultDirectoryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        char pattern[] = "/tmp/result-directory-test-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        m_root = pattern;
        m_seed = m_root + "/seed";
        m_dir = m_root + "/out";
        ::mkdir(m_seed.c_str(), 0755);
        ::mkdir((m_seed + "/sub").c_str(), 0755);
        ::mkdir(m_dir.c_str(), 0755);
        std::ofstream(m_seed + "/sales.csv") << "region,total\n";
        std::ofstream(m_seed + "/sub/more.csv") << "x\n";
    }
    void TearDown() override { std::system(("rm -rf '" + m_root + "'").c_str()); }

    static std::map<std::string, Seen> collect(ResultDirectory &directory, std::uint64_t maxFiles = 10,
                                               std::uint64_t maxBytes = 100)
    {
        std::map<std::string, Seen> seen;
        directory.collect(maxFiles, maxBytes, [&](const ResultDirectory::File &file) {
            seen[file.name] =
                Seen{file.type, file.size, file.data ? std::optional<std::string>(*file.data) : std::nullopt};
        });
        return seen;
    }

    std::string m_root;
    std::string m_seed;
    std::string m_dir;
};

} // namespace

TEST_F(ResultDirectoryTest, theFoldersOwnLinksAreNoResultsAndWhatARunAddedIs)
{
    ResultDirectory directory(m_dir, m_seed);
    directory.restore();
    EXPECT_EQ(linkTarget(m_dir + "/sales.csv"), m_seed + "/sales.csv");
    EXPECT_EQ(linkTarget(m_dir + "/sub"), m_seed + "/sub") << "a folder is one link: its tree stays read-only";
    EXPECT_TRUE(collect(directory).empty()) << "a run that wrote nothing leaves nothing to save";

    std::ofstream(m_dir + "/summary.csv") << "a,b\n";
    std::ofstream(m_dir + "/big.bin") << std::string(101, 'x');
    ::mkdir((m_dir + "/made").c_str(), 0755);
    std::ofstream(m_dir + "/made/new.csv") << "n";
    ASSERT_EQ(::symlink("/etc/passwd", (m_dir + "/link").c_str()), 0);
    ASSERT_EQ(::mkfifo((m_dir + "/pipe").c_str(), 0600), 0);
    // A link of the folder's own name that points elsewhere is the run's, not the folder's.
    ASSERT_EQ(::unlink((m_dir + "/sales.csv").c_str()), 0);
    ASSERT_EQ(::symlink("/etc/shadow", (m_dir + "/sales.csv").c_str()), 0);

    const std::map<std::string, Seen> expected{
        {"summary.csv", {"file", 4, "a,b\n"}},       {"big.bin", {"file", 101, std::nullopt}},
        {"made/new.csv", {"file", 1, std::nullopt}}, {"link", {"symlink", 0, std::nullopt}},
        {"pipe", {"fifo", 0, std::nullopt}},         {"sales.csv", {"symlink", 0, std::nullopt}},
    };
    EXPECT_EQ(collect(directory), expected);

    // The next run starts from the folder again.
    directory.restore();
    EXPECT_TRUE(collect(directory).empty());
    EXPECT_EQ(linkTarget(m_dir + "/sales.csv"), m_seed + "/sales.csv");
    EXPECT_FALSE(std::ifstream(m_dir + "/summary.csv").good());
}

TEST_F(ResultDirectoryTest, anUntouchedDirectoryIsLeftAsItIsAndAChangeToTheFolderIsFollowed)
{
    ResultDirectory directory(m_dir, m_seed);
    directory.restore();
    const ino_t link = inodeOf(m_dir + "/sales.csv");
    directory.restore();
    EXPECT_EQ(inodeOf(m_dir + "/sales.csv"), link) << "nothing was done again";

    // The folder's copy gains a file between runs: the next run has its link.
    std::ofstream(m_seed + "/march.csv") << "m\n";
    directory.restore();
    EXPECT_EQ(linkTarget(m_dir + "/march.csv"), m_seed + "/march.csv");
    EXPECT_EQ(inodeOf(m_dir + "/sales.csv"), link);

    // A change by the code, even with the directory's times set back, is seen.
    struct stat before
    {
    };
    ASSERT_EQ(::stat(m_dir.c_str(), &before), 0);
    ASSERT_EQ(::unlink((m_dir + "/sales.csv").c_str()), 0);
    ASSERT_EQ(::symlink("/etc/shadow", (m_dir + "/sales.csv").c_str()), 0);
    const timespec times[2] = {before.st_atim, before.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, m_dir.c_str(), times, 0), 0);
    directory.restore();
    EXPECT_EQ(linkTarget(m_dir + "/sales.csv"), m_seed + "/sales.csv");
}

TEST_F(ResultDirectoryTest, filesPastTheCountAreNamedWithoutTheirBytes)
{
    ResultDirectory directory(m_dir, m_seed);
    directory.restore();
    for (const char *name : {"a", "b", "c"}) {
        std::ofstream(m_dir + "/" + name) << name;
    }
    int withData = 0;
    for (const auto &[name, seen] : collect(directory, 2)) {
        withData += seen.data.has_value();
    }
    EXPECT_EQ(withData, 2);
}

} // namespace runner
