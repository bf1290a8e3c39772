#include "cli/BuildProgressView.h"

#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::cli::BuildProgressView;

namespace {

ImageBuildEvent event(const QString &name, ImageBuildEvent::Kind kind, const QString &line = {}, double seconds = 0)
{
    return ImageBuildEvent{.reference = QStringLiteral("llm-sandbox/%1:abc").arg(name),
                           .name = name,
                           .kind = kind,
                           .line = line,
                           .seconds = seconds};
}

} // namespace

TEST(BuildProgressView, estimateFollowsDockerfileStepsAndAptPackages)
{
    BuildProgressView::Estimate estimate;
    EXPECT_LT(estimate.fraction(), 0);
    estimate.update("Step 1/4 : ARG BASE");
    EXPECT_DOUBLE_EQ(estimate.fraction(), 0.0);
    estimate.update("STEP 3/4: RUN apt-get update");
    EXPECT_DOUBLE_EQ(estimate.fraction(), 0.5);
    estimate.update("0 upgraded, 2 newly installed, 0 to remove and 0 not upgraded.");
    estimate.update("Unpacking python3 (3.13.5-1) ...");
    estimate.update("Unpacking python3-numpy (1:2.2.4) ...");
    EXPECT_DOUBLE_EQ(estimate.fraction(), 0.625);
    estimate.update("Setting up python3 (3.13.5-1) ...");
    estimate.update("Setting up python3-numpy (1:2.2.4) ...");
    EXPECT_DOUBLE_EQ(estimate.fraction(), 0.75);
}

TEST(BuildProgressView, withoutATerminalEveryEventIsAPlainLine)
{
    QString text;
    QTextStream stream(&text);
    BuildProgressView view(stream, false, 80);
    view.handle(event("base", ImageBuildEvent::Kind::UpToDate));
    view.handle(event("python-runtime", ImageBuildEvent::Kind::Started));
    view.handle(event("python-runtime", ImageBuildEvent::Kind::Output, "Step 1/4 : ARG BASE"));
    view.handle(event("python-runtime", ImageBuildEvent::Kind::Finished, {}, 12.34));
    view.finish();
    EXPECT_EQ(text, "llm-sandbox/base:abc: up to date\n"
                    "llm-sandbox/python-runtime:abc: building\n"
                    "  [python-runtime] Step 1/4 : ARG BASE\n"
                    "llm-sandbox/python-runtime:abc: built in 12.3 s\n");
    EXPECT_FALSE(text.contains(QLatin1Char('\x1b')));
}

TEST(BuildProgressView, onATerminalEachImageKeepsOneLineWithABar)
{
    QString text;
    QTextStream stream(&text);
    BuildProgressView view(stream, true, 100);
    view.handle(event("python-runtime", ImageBuildEvent::Kind::Started));
    view.handle(event("r-runtime", ImageBuildEvent::Kind::Started));
    view.handle(event("python-runtime", ImageBuildEvent::Kind::Finished, {}, 5));
    view.finish();
    // The last frame: the cursor goes back up over the two lines and redraws both.
    const QString lastFrame = text.mid(text.lastIndexOf(QStringLiteral("\x1b[2A")));
    const QStringList lines = lastFrame.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_TRUE(lines[0].contains(QStringLiteral("python-runtime")));
    EXPECT_TRUE(lines[0].contains(QStringLiteral("[########################] built in 5.0 s")));
    EXPECT_TRUE(lines[1].contains(QStringLiteral("r-runtime")));
    EXPECT_TRUE(lines[1].contains(QStringLiteral("building")));
}

TEST(BuildProgressView, outputOfSeveralLinesInOnePieceGetsOnePrefixPerLine)
{
    QString text;
    QTextStream stream(&text);
    BuildProgressView view(stream, false, 80);
    view.handle(
        event("r-runtime", ImageBuildEvent::Kind::Output, "Get:1 http://deb r-base\nGet:2 http://deb r-cran\n"));
    EXPECT_EQ(text, "  [r-runtime] Get:1 http://deb r-base\n  [r-runtime] Get:2 http://deb r-cran\n");
}
