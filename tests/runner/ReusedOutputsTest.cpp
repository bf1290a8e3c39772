// A compile step's output kept under the engine's key: copied out as an executable, never through a link, the
// oldest given up beyond the limit, and only valid keys and plain file names taken.
#include "ReusedOutputs.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace runner {

namespace {

namespace fs = std::filesystem;

std::string key(char digit)
{
    return std::string(64, digit);
}

std::string read(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void write(const fs::path &path, const std::string &data)
{
    std::ofstream(path, std::ios::binary) << data;
}

class ReusedOutputsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        char folder[] = "/tmp/reused-outputs-XXXXXX";
        ASSERT_NE(::mkdtemp(folder), nullptr);
        m_root = folder;
    }
    void TearDown() override { fs::remove_all(m_root); }

    fs::path m_root;
};

} // namespace

TEST_F(ReusedOutputsTest, aStoredOutputIsCopiedOutAsAnExecutable)
{
    const ReusedOutputs outputs((m_root / "outputs").string());
    write(m_root / "main", "compiled program");
    EXPECT_FALSE(outputs.fetch(key('a'), (m_root / "out").string())) << "nothing kept yet";
    outputs.store(key('a'), (m_root / "main").string());
    ASSERT_TRUE(outputs.fetch(key('a'), (m_root / "out").string()));
    EXPECT_EQ(read(m_root / "out"), "compiled program");
    struct stat info
    {
    };
    ASSERT_EQ(::stat((m_root / "out").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0755u);
    EXPECT_FALSE(outputs.fetch(key('b'), (m_root / "other").string()));
}

TEST_F(ReusedOutputsTest, linksAreNeitherStoredNorFollowed)
{
    const ReusedOutputs outputs((m_root / "outputs").string());
    write(m_root / "secret", "not an output");
    fs::create_symlink(m_root / "secret", m_root / "main");
    outputs.store(key('a'), (m_root / "main").string());
    EXPECT_FALSE(outputs.fetch(key('a'), (m_root / "out").string())) << "a link is no output";
    fs::create_directories(m_root / "outputs");
    fs::create_symlink(m_root / "secret", m_root / "outputs" / key('b'));
    EXPECT_FALSE(outputs.fetch(key('b'), (m_root / "out").string())) << "a kept link is not followed";
    write(m_root / "program", "program");
    fs::create_symlink(m_root / "secret", m_root / "linked-out");
    outputs.store(key('c'), (m_root / "program").string());
    EXPECT_FALSE(outputs.fetch(key('c'), (m_root / "linked-out").string())) << "nor is a link in its place";
    EXPECT_EQ(read(m_root / "secret"), "not an output");
}

TEST_F(ReusedOutputsTest, theOldestGoBeyondTheLimit)
{
    const ReusedOutputs outputs((m_root / "outputs").string(), 2);
    write(m_root / "main", "program");
    for (char digit : {'1', '2', '3'}) {
        outputs.store(key(digit), (m_root / "main").string());
        // Modification times are whole seconds apart at most; make the order unambiguous.
        const fs::path kept = m_root / "outputs" / key(digit);
        fs::last_write_time(kept, fs::last_write_time(kept) + std::chrono::seconds(digit - '0'));
    }
    EXPECT_FALSE(outputs.fetch(key('1'), (m_root / "out1").string()));
    EXPECT_TRUE(outputs.fetch(key('2'), (m_root / "out2").string()));
    EXPECT_TRUE(outputs.fetch(key('3'), (m_root / "out3").string()));
}

TEST(ReusedOutputs, takesOnlyHexKeysAndPlainFileNames)
{
    EXPECT_TRUE(ReusedOutputs::validKey(std::string(64, 'f')));
    EXPECT_FALSE(ReusedOutputs::validKey(std::string(63, 'f')));
    EXPECT_FALSE(ReusedOutputs::validKey(std::string(64, 'F')));
    EXPECT_FALSE(ReusedOutputs::validKey("../" + std::string(61, 'a')));
    EXPECT_TRUE(ReusedOutputs::validFile("main"));
    for (const char *bad : {"", ".", "..", "a/b", "/main"}) {
        EXPECT_FALSE(ReusedOutputs::validFile(bad)) << bad;
    }
}

} // namespace runner
