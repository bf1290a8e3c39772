#include "backend/DockerAttachStream.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QByteArray frame(char stream, const QByteArray &payload)
{
    QByteArray header(8, '\0');
    header[0] = stream;
    const quint32 size = quint32(payload.size());
    header[4] = char(size >> 24);
    header[5] = char(size >> 16);
    header[6] = char(size >> 8);
    header[7] = char(size);
    return header + payload;
}

} // namespace

TEST(DockerAttachStream, splitsStdoutFromStderr)
{
    QByteArray buffer = frame(1, "out1") + frame(2, "err") + frame(1, "out2");
    QByteArray out, err;
    DockerAttachStream::demultiplex(buffer, out, err);
    EXPECT_EQ(out, "out1out2");
    EXPECT_EQ(err, "err");
    EXPECT_TRUE(buffer.isEmpty());
}

TEST(DockerAttachStream, keepsAPartialFrameForTheNextRead)
{
    const QByteArray whole = frame(1, "hello world");
    QByteArray buffer = whole.left(10);
    QByteArray out, err;
    DockerAttachStream::demultiplex(buffer, out, err);
    EXPECT_TRUE(out.isEmpty());
    EXPECT_EQ(buffer.size(), 10);
    buffer += whole.mid(10);
    DockerAttachStream::demultiplex(buffer, out, err);
    EXPECT_EQ(out, "hello world");
}

TEST(DockerAttachStream, passesBinaryPayloadsUnchanged)
{
    const QByteArray binary("\x00\xff\xfe\n\x01", 5);
    QByteArray buffer = frame(1, binary);
    QByteArray out, err;
    DockerAttachStream::demultiplex(buffer, out, err);
    EXPECT_EQ(out, binary);
}
