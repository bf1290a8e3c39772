// The host's reading of the runner's stdout: lines of JSON, and a result file's bytes after its message as they are,
// however the stream splits them.
#include "runnerclient/RunnerClient.h"

#include <QList>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

/// Hands out the bytes it was given in the pieces it was given them.
class PiecesStream final : public ContainerStream
{
public:
    explicit PiecesStream(QList<QByteArray> pieces) : m_pieces(std::move(pieces)) {}
    Result<void> write(const QByteArray &) override { return {}; }
    ReadStatus read(QByteArray &out, std::chrono::milliseconds) override
    {
        if (m_pieces.isEmpty()) {
            return ReadStatus::Closed;
        }
        out += m_pieces.takeFirst();
        return ReadStatus::Data;
    }
    void closeWrite() override {}

private:
    QList<QByteArray> m_pieces;
};

} // namespace

TEST(RunnerClientTest, aResultFilesBytesFollowItsMessageAsTheyAreHoweverTheyArrive)
{
    // Bytes that look like protocol: newlines and a whole message.
    const QByteArray bytes("a\n{\"ev\":\"pong\"}\n\x00\xff", 18);
    const QByteArray header =
        "{\"ev\":\"result_file\",\"id\":\"r1\",\"dir\":\"/data/out\",\"name\":\"x.bin\",\"type\":\"file\","
        "\"size\":18,\"raw\":18}\n";
    ASSERT_EQ(bytes.size(), 18);
    const QByteArray all = header + bytes + "{\"ev\":\"pong\"}\n";
    for (const qsizetype piece : {qsizetype(1), qsizetype(7), all.size()}) {
        QList<QByteArray> pieces;
        for (qsizetype at = 0; at < all.size(); at += piece) {
            pieces << all.mid(at, piece);
        }
        RunnerClient client(std::make_unique<PiecesStream>(pieces));
        auto first = client.next(5s);
        ASSERT_TRUE(first && first->has_value()) << "pieces of " << piece;
        const auto *file = std::get_if<RunnerResultFileEvent>(&**first);
        ASSERT_NE(file, nullptr);
        EXPECT_EQ(file->name, QStringLiteral("x.bin"));
        EXPECT_EQ(file->data, std::optional<QByteArray>(bytes));
        auto second = client.next(5s);
        ASSERT_TRUE(second && second->has_value());
        EXPECT_TRUE(std::holds_alternative<RunnerPongEvent>(**second)) << "the stream goes on after the bytes";
    }
}

TEST(RunnerClientTest, aFileAnnouncedLargerThanAMessageMayBeIsRefused)
{
    RunnerClient client(
        std::make_unique<PiecesStream>(QList<QByteArray>{"{\"ev\":\"result_file\",\"id\":\"r1\",\"dir\":\"/data/"
                                                         "out\",\"name\":\"x\",\"type\":\"file\",\"raw\":9e15}\n"}));
    auto refused = client.next(5s);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, ErrorCode::SandboxFailed);
}
