#include "artifacts/MimeTypes.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(MimeTypes, chartsGetTheirStandardTypes)
{
    EXPECT_EQ(mimeTypeForFileName("figure_1.png"), "image/png");
    EXPECT_EQ(mimeTypeForFileName("chart.SVG"), "image/svg+xml");
    EXPECT_EQ(mimeTypeForFileName("photo.jpeg"), "image/jpeg");
    EXPECT_EQ(mimeTypeForFileName("photo.jpg"), "image/jpeg");
    EXPECT_EQ(mimeTypeForFileName("anim.gif"), "image/gif");
    EXPECT_EQ(mimeTypeForFileName("report.pdf"), "application/pdf");
    EXPECT_EQ(mimeTypeForFileName("plot.html"), "text/html");
}

TEST(MimeTypes, unknownFilesAreOctetStreams)
{
    EXPECT_EQ(mimeTypeForFileName("data.bin"), "application/octet-stream");
    EXPECT_EQ(mimeTypeForFileName("noextension"), "application/octet-stream");
}
