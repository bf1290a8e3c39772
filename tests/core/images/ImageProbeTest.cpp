#include "images/ImageProbe.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(ImageProbe, versionIsTheFirstNumberOfEveryLanguagesVersionOutput)
{
    EXPECT_EQ(ImageProbe::versionIn("Python 3.13.5\n"), "3.13.5");
    EXPECT_EQ(ImageProbe::versionIn("v20.19.2\n"), "20.19.2");
    EXPECT_EQ(ImageProbe::versionIn("openjdk 21.0.8 2025-07-15\nOpenJDK Runtime Environment\n"), "21.0.8");
    EXPECT_EQ(ImageProbe::versionIn("g++ (Debian 14.2.0-19) 14.2.0\nCopyright (C) 2024\n"), "14.2.0");
    EXPECT_EQ(ImageProbe::versionIn("go version go1.24.4 linux/amd64\n"), "1.24.4");
    EXPECT_EQ(ImageProbe::versionIn("R version 4.5.0 (2025-04-11) -- \"How About a Twenty-Six\"\n"), "4.5.0");
    EXPECT_EQ(ImageProbe::versionIn("ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux-gnu]\n"),
              "3.3.8");
}

TEST(ImageProbe, outputWithoutANumberHasNoVersion)
{
    EXPECT_EQ(ImageProbe::versionIn("command not found\n"), "");
    EXPECT_EQ(ImageProbe::versionIn(""), "");
}
