// The Go image's GOCACHEPROG: the go command's protocol over the image's read-only cache and the run's own one.
#include "GoBuildCache.h"

#include "Base64.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace runner {

namespace {

std::string id(char fill)
{
    return std::string(32, fill);
}

std::string hexOf(const std::string &bytes)
{
    std::string out;
    char pair[3];
    for (const unsigned char byte : bytes) {
        std::snprintf(pair, sizeof pair, "%02x", byte);
        out += pair;
    }
    return out;
}

class GoBuildCacheTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        char pattern[] = "/tmp/go-build-cache-test-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        m_root = pattern;
        m_image = m_root + "/image";
        m_run = m_root + "/run";
        // An entry as the go command writes it when the image is built (cmd/go/internal/cache).
        const std::string action = id('\x11'), output = id('\x22');
        ::mkdir(m_image.c_str(), 0755);
        ::mkdir((m_image + "/11").c_str(), 0755);
        ::mkdir((m_image + "/22").c_str(), 0755);
        std::ofstream(m_image + "/22/" + hexOf(output) + "-d") << "compiled fmt";
        char entry[256];
        std::snprintf(entry, sizeof entry, "v1 %s %s %20d %20lld\n", hexOf(action).c_str(), hexOf(output).c_str(), 12,
                      1700000000000000000LL);
        std::ofstream(m_image + "/11/" + hexOf(action) + "-a") << entry;
    }
    void TearDown() override { std::system(("rm -rf '" + m_root + "'").c_str()); }

    std::string m_root, m_image, m_run;
};

} // namespace

TEST_F(GoBuildCacheTest, getFindsTheImagesEntriesAndPutGoesToTheRunsOwnCache)
{
    GoBuildCache cache(m_run, {m_image});
    const auto fromImage = cache.get(id('\x11'));
    ASSERT_TRUE(fromImage.has_value());
    EXPECT_EQ(fromImage->outputId, id('\x22'));
    EXPECT_EQ(fromImage->size, 12);
    EXPECT_EQ(fromImage->diskPath, m_image + "/22/" + hexOf(id('\x22')) + "-d");
    EXPECT_FALSE(cache.get(id('\x33')).has_value());

    const auto stored = cache.put(id('\x33'), id('\x44'), "my package");
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->rfind(m_run + "/44/", 0), 0u) << *stored;
    const auto mine = cache.get(id('\x33'));
    ASSERT_TRUE(mine.has_value());
    EXPECT_EQ(mine->size, 10);
    EXPECT_EQ(mine->diskPath, *stored);
    // A later run has a fresh writable cache: it sees the image's entries, not this run's.
    GoBuildCache next(m_root + "/next-run", {m_image});
    EXPECT_TRUE(next.get(id('\x11')).has_value());
    EXPECT_FALSE(next.get(id('\x33')).has_value());
}

TEST_F(GoBuildCacheTest, speaksTheGoCommandsProtocol)
{
    using nlohmann::json;
    std::stringstream in;
    in << json{{"ID", 1}, {"Command", "get"}, {"ActionID", base64Encode(id('\x11'))}}.dump() << '\n';
    in << json{{"ID", 2}, {"Command", "get"}, {"ActionID", base64Encode(id('\x55'))}}.dump() << '\n';
    in << json{{"ID", 3},
               {"Command", "put"},
               {"ActionID", base64Encode(id('\x55'))},
               {"OutputID", base64Encode(id('\x66'))},
               {"BodySize", 5}}
              .dump()
       << "\n\n" // as the go command sends it: an empty line, then the body
       << json(base64Encode("hello")).dump() << '\n';
    in << json{{"ID", 4}, {"Command", "get"}, {"ActionID", base64Encode(id('\x55'))}}.dump() << '\n';
    in << json{{"ID", 5}, {"Command", "put"}, {"ActionID", "bm90IGFuIGlk"}, {"BodySize", 0}}.dump() << '\n';
    in << json{{"ID", 6}, {"Command", "close"}}.dump() << '\n';
    std::stringstream out;

    EXPECT_EQ(GoBuildCache(m_run, {m_image}).serve(in, out), 0);

    std::vector<json> responses;
    for (std::string line; std::getline(out, line);) {
        responses.push_back(json::parse(line));
    }
    ASSERT_EQ(responses.size(), 7u);
    EXPECT_EQ(responses[0], (json{{"ID", 0}, {"KnownCommands", {"get", "put", "close"}}}));
    EXPECT_EQ(responses[1]["OutputID"], base64Encode(id('\x22')));
    EXPECT_EQ(responses[1]["Size"], 12);
    EXPECT_EQ(responses[2], (json{{"ID", 2}, {"Miss", true}}));
    const std::string diskPath = responses[3]["DiskPath"];
    std::ifstream stored(diskPath);
    std::string body;
    std::getline(stored, body);
    EXPECT_EQ(body, "hello");
    EXPECT_EQ(responses[4]["DiskPath"], diskPath);
    EXPECT_EQ(responses[4]["OutputID"], base64Encode(id('\x66')));
    EXPECT_TRUE(responses[5].contains("Err"));
    EXPECT_EQ(responses[6], (json{{"ID", 6}}));
}

} // namespace runner
