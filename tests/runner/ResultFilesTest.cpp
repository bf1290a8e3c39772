// What a run leaves in a writable shared folder's directory, for llm-sandbox to save: everything but the folder's own
// links, regular files directly in it with their bytes within the limits, the rest named only.
#include "ResultFiles.h"

#include "KeptDirectory.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
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

class ResultFilesTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        char pattern[] = "/tmp/result-files-test-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        m_root = pattern;
        m_seed = m_root + "/seed";
        m_dir = m_root + "/data/out";
        ::mkdir(m_seed.c_str(), 0755);
        ::mkdir((m_seed + "/sub").c_str(), 0755);
        std::ofstream(m_seed + "/sales.csv") << "region,total\n";
        std::ofstream(m_seed + "/sub/more.csv") << "x\n";
    }
    void TearDown() override { std::system(("rm -rf '" + m_root + "'").c_str()); }

    std::map<std::string, Seen> collect(std::uint64_t maxFiles = 10, std::uint64_t maxBytes = 100) const
    {
        std::map<std::string, Seen> seen;
        ResultFiles(m_dir, m_seed, maxFiles, maxBytes).collect([&](const ResultFiles::File &file) {
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

TEST_F(ResultFilesTest, theFoldersOwnLinksAreNoResultsAndWhatARunAddedIs)
{
    KeptDirectory(m_dir, m_seed, 0).restore();
    EXPECT_TRUE(collect().empty()) << "a run that wrote nothing leaves nothing to save";

    std::ofstream(m_dir + "/summary.csv") << "a,b\n";
    std::ofstream(m_dir + "/big.bin") << std::string(101, 'x');
    std::ofstream(m_dir + "/sub/new.csv") << "n";
    ASSERT_EQ(::symlink("/etc/passwd", (m_dir + "/link").c_str()), 0);
    ASSERT_EQ(::mkfifo((m_dir + "/pipe").c_str(), 0600), 0);
    // A link of the folder's own name that points elsewhere is the run's, not the folder's.
    ASSERT_EQ(::unlink((m_dir + "/sales.csv").c_str()), 0);
    ASSERT_EQ(::symlink("/etc/shadow", (m_dir + "/sales.csv").c_str()), 0);

    const std::map<std::string, Seen> expected{
        {"summary.csv", {"file", 4, "a,b\n"}},      {"big.bin", {"file", 101, std::nullopt}},
        {"sub/new.csv", {"file", 1, std::nullopt}}, {"link", {"symlink", 0, std::nullopt}},
        {"pipe", {"fifo", 0, std::nullopt}},        {"sales.csv", {"symlink", 0, std::nullopt}},
    };
    EXPECT_EQ(collect(), expected);

    // The next run starts from the folder again.
    KeptDirectory(m_dir, m_seed, 0).restore();
    EXPECT_TRUE(collect().empty());
}

TEST_F(ResultFilesTest, filesPastTheCountAreNamedWithoutTheirBytes)
{
    KeptDirectory(m_dir, m_seed, 0).restore();
    for (const char *name : {"a", "b", "c"}) {
        std::ofstream(m_dir + "/" + name) << name;
    }
    int withData = 0;
    for (const auto &[name, seen] : collect(2)) {
        withData += seen.data.has_value();
    }
    EXPECT_EQ(withData, 2);
}

} // namespace runner
