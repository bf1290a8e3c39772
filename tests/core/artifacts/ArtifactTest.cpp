// The artifact metadata the host derives from a file's bytes: pixel size from the image
// header (PNG, GIF, JPEG, WebP), MIME type sniffing, and the per-run byte budget.
#include "artifacts/Artifact.h"

#include "artifacts/ArtifactBudget.h"
#include "artifacts/MimeTypes.h"
#include "artifacts/RasterImageSize.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QByteArray bytes(std::initializer_list<int> values)
{
    QByteArray out;
    for (int value : values) {
        out.append(char(value));
    }
    return out;
}

QByteArray png(quint32 width, quint32 height)
{
    QByteArray data("\x89PNG\r\n\x1a\n");
    data += bytes({0, 0, 0, 13}) + "IHDR";
    for (quint32 value : {width, height}) {
        data += bytes({int(value >> 24) & 0xff, int(value >> 16) & 0xff, int(value >> 8) & 0xff, int(value) & 0xff});
    }
    data += bytes({8, 6, 0, 0, 0}) + bytes({0, 0, 0, 0}); // bit depth, colour type, ..., CRC
    return data;
}

QByteArray gif(int width, int height)
{
    return QByteArray("GIF89a") + bytes({width & 0xff, width >> 8, height & 0xff, height >> 8, 0xf7, 0, 0});
}

/// A JPEG with an APP0 (JFIF) segment, a DHT segment, then a start-of-frame `marker`.
QByteArray jpeg(int marker, int width, int height)
{
    QByteArray data = bytes({0xff, 0xd8});
    data += bytes({0xff, 0xe0, 0, 16}) + QByteArray("JFIF\0", 5) + bytes({1, 1, 0, 0, 1, 0, 1, 0, 0});
    data += bytes({0xff, 0xc4, 0, 4, 0, 0}); // Huffman table (C4): not a frame header
    data += bytes({0xff, marker, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3});
    data += QByteArray(9, '\0');
    return data;
}

QByteArray webpHeader(const char *chunk)
{
    return QByteArray("RIFF") + bytes({100, 0, 0, 0}) + "WEBP" + chunk + bytes({80, 0, 0, 0});
}

} // namespace

TEST(RasterImageSize, pngSizeComesFromTheIhdrChunk)
{
    EXPECT_EQ(pngImageSize(png(640, 480)), QSize(640, 480));
    EXPECT_EQ(rasterImageSize(png(1, 70000)), QSize(1, 70000));
}

TEST(RasterImageSize, truncatedOrForeignPngHasNoSize)
{
    EXPECT_FALSE(pngImageSize(png(640, 480).left(23)));
    QByteArray noIhdr = png(640, 480);
    noIhdr.replace(12, 4, "IDAT");
    EXPECT_FALSE(pngImageSize(noIhdr));
    EXPECT_FALSE(pngImageSize(gif(10, 10)));
    EXPECT_FALSE(pngImageSize(png(0, 480)));
    EXPECT_FALSE(pngImageSize(png(0x7fffffff, 480))) << "implausible dimensions are a corrupt header";
}

TEST(RasterImageSize, gifSizeIsTheLittleEndianScreenDescriptor)
{
    EXPECT_EQ(gifImageSize(gif(300, 2)), QSize(300, 2));
    EXPECT_EQ(rasterImageSize(QByteArray("GIF87a") + bytes({0x10, 0x01, 0x20, 0x00})), QSize(272, 32));
    EXPECT_FALSE(gifImageSize(QByteArray("GIF89a") + bytes({1, 0})));
}

TEST(RasterImageSize, jpegSizeComesFromTheFirstFrameHeaderPastOtherSegments)
{
    EXPECT_EQ(jpegImageSize(jpeg(0xc0, 800, 600)), QSize(800, 600)) << "baseline";
    EXPECT_EQ(jpegImageSize(jpeg(0xc2, 1024, 77)), QSize(1024, 77)) << "progressive";
    EXPECT_EQ(rasterImageSize(jpeg(0xc1, 5, 6)), QSize(5, 6));
}

TEST(RasterImageSize, jpegFillBytesAndStandaloneMarkersAreSkipped)
{
    QByteArray data = bytes({0xff, 0xd8, 0xff, 0xff, 0xd0});
    data += jpeg(0xc0, 33, 44).mid(2);
    EXPECT_EQ(jpegImageSize(data), QSize(33, 44));
}

TEST(RasterImageSize, jpegWithoutFrameHeaderOrCutShortHasNoSize)
{
    EXPECT_FALSE(jpegImageSize(bytes({0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0})));
    EXPECT_FALSE(jpegImageSize(jpeg(0xc0, 800, 600).left(30)));
    EXPECT_FALSE(jpegImageSize(bytes({0xff, 0xd8, 0x00, 0x11, 0x22, 0x33})));
    EXPECT_FALSE(jpegImageSize(bytes({0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0})));
}

TEST(RasterImageSize, webpSizeForLossyLosslessAndExtendedHeaders)
{
    QByteArray lossy = webpHeader("VP8 ") + bytes({0, 0, 0, 0x9d, 0x01, 0x2a, 0x90, 0x01, 0x2c, 0x41});
    EXPECT_EQ(webpImageSize(lossy), QSize(400, 300)) << "the top two bits are the scale, not size";

    // VP8L: 14 bits width - 1 (= 99), 14 bits height - 1 (= 49), packed little-endian.
    const quint32 bits = 99u | (49u << 14);
    QByteArray lossless = webpHeader("VP8L") + bytes({0x2f, int(bits & 0xff), int(bits >> 8) & 0xff,
                                                      int(bits >> 16) & 0xff, int(bits >> 24)});
    lossless += QByteArray(8, '\0');
    EXPECT_EQ(webpImageSize(lossless), QSize(100, 50));

    QByteArray extended = webpHeader("VP8X") + bytes({0, 0, 0, 0, 0xff, 0x03, 0x00, 0x0f, 0x00, 0x00});
    EXPECT_EQ(rasterImageSize(extended), QSize(1024, 16));
}

TEST(RasterImageSize, vectorAndTextFormatsHaveNoPixelSize)
{
    EXPECT_FALSE(rasterImageSize("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>"));
    EXPECT_FALSE(rasterImageSize("%PDF-1.4\n"));
    EXPECT_FALSE(rasterImageSize(QByteArray()));
}

TEST(Artifact, fromFileFillsMimeTypeAndPixelSizeForRasterImages)
{
    const Artifact chart = Artifact::fromFile("figure_1.png", png(640, 480));
    EXPECT_EQ(chart.name, "figure_1.png");
    EXPECT_EQ(chart.mimeType, "image/png");
    EXPECT_EQ(chart.width, 640);
    EXPECT_EQ(chart.height, 480);
    EXPECT_TRUE(chart.hasPixelSize());

    const Artifact vector = Artifact::fromFile("chart.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    EXPECT_EQ(vector.mimeType, "image/svg+xml");
    EXPECT_FALSE(vector.hasPixelSize());
}

TEST(MimeTypes, contentDecidesWhenTheNameSaysNothing)
{
    EXPECT_EQ(mimeTypeForContent("plot", png(2, 2)), "image/png");
    EXPECT_EQ(mimeTypeForContent("photo.bin", jpeg(0xc0, 2, 2)), "image/jpeg");
    EXPECT_EQ(mimeTypeForContent("anim", gif(2, 2)), "image/gif");
    EXPECT_EQ(mimeTypeForContent("report", "%PDF-1.7\n"), "application/pdf");
    EXPECT_EQ(mimeTypeForContent("chart", "  <?xml version=\"1.0\"?>\n<svg/>"), "image/svg+xml");
    EXPECT_EQ(mimeTypeForContent("page", "<!DOCTYPE html><html></html>"), "text/html");
    EXPECT_EQ(mimeTypeForContent("data", "1,2,3\n"), "application/octet-stream");
}

TEST(MimeTypes, nameWinsOverContent)
{
    EXPECT_EQ(mimeTypeForContent("values.csv", png(2, 2)), "text/csv");
    EXPECT_EQ(mimeTypeForContent("picture.webp", QByteArray()), "image/webp");
}

TEST(ArtifactBudget, artifactsOverTheRunTotalAreDroppedInArrivalOrder)
{
    ArtifactBudget budget({.maxCount = 32, .maxBytes = 100, .maxTotalBytes = 250});
    EXPECT_TRUE(budget.admit(Artifact::fromFile("a.png", QByteArray(100, 'a'))));
    EXPECT_TRUE(budget.admit(Artifact::fromFile("b.png", QByteArray(100, 'b'))));
    EXPECT_FALSE(budget.admit(Artifact::fromFile("c.png", QByteArray(100, 'c'))));
    EXPECT_TRUE(budget.admit(Artifact::fromFile("d.png", QByteArray(50, 'd')))) << "a smaller one still fits";
    EXPECT_EQ(budget.dropped(), 1);
}

TEST(ArtifactBudget, zeroTotalMeansNoTotalLimit)
{
    ArtifactBudget budget({.maxCount = 32, .maxBytes = 100, .maxTotalBytes = 0});
    for (int i = 0; i < 100; ++i) {
        EXPECT_TRUE(budget.admit(Artifact::fromFile("a.png", QByteArray(100, 'a'))));
    }
    EXPECT_EQ(budget.dropped(), 0);
}

TEST(ArtifactBudget, droppedNoteSaysHowManyAndTheLimits)
{
    const ArtifactBudget budget({.maxCount = 32, .maxBytes = 16LL * 1024 * 1024, .maxTotalBytes = 64LL * 1024 * 1024});
    const QString note = budget.droppedNote(3);
    EXPECT_TRUE(note.startsWith("llm-sandbox: 3 ")) << note.toStdString();
    EXPECT_TRUE(note.contains("32 files")) << note.toStdString();
    EXPECT_TRUE(note.contains("16 MiB per file")) << note.toStdString();
    EXPECT_TRUE(note.contains("64 MiB per run")) << note.toStdString();
    EXPECT_TRUE(note.endsWith('\n'));
}
