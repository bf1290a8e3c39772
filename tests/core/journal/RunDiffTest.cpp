#include "journal/RunDiff.h"

#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using sandbox::JournalArtifact;
using sandbox::JournalRun;
using sandbox::RunDiff;
using sandbox::StopReason;
using Kind = RunDiff::Line::Kind;
using ArtifactKind = RunDiff::ArtifactChange::Kind;

namespace {

JournalRun finishedRun(const QByteArray &stdoutData, int exitCode = 0)
{
    JournalRun run;
    run.id = QStringLiteral("run-1");
    run.language = QStringLiteral("python");
    run.code = QStringLiteral("print('hello')");
    run.exitCode = exitCode;
    run.stopReason = StopReason::Exited;
    run.stdoutData = stdoutData;
    return run;
}

JournalArtifact artifact(const QString &name, qint64 size, const QString &mimeType = QStringLiteral("image/png"))
{
    JournalArtifact result;
    result.name = name;
    result.mimeType = mimeType;
    result.size = size;
    return result;
}

QString render(const QList<RunDiff::Line> &lines)
{
    QString text;
    for (const auto &line : lines) {
        text += line.kind == Kind::Same    ? QLatin1Char(' ')
                : line.kind == Kind::Added ? QLatin1Char('+')
                                           : QLatin1Char('-');
        text += line.text + QLatin1Char('\n');
    }
    return text;
}

} // namespace

TEST(RunDiff, identicalRunsAreIdentical)
{
    JournalRun original = finishedRun("a\nb\nc\n");
    original.artifacts = {artifact(QStringLiteral("plot.png"), 100)};
    JournalRun replay = original;
    replay.id = QStringLiteral("run-2");
    replay.durationMs = 999; // timing is not a difference

    const RunDiff diff = RunDiff::compare(original, replay);

    EXPECT_TRUE(diff.identical());
    EXPECT_FALSE(diff.stdoutDiffers());
    ASSERT_EQ(diff.artifacts().size(), 1);
    EXPECT_EQ(diff.artifacts().first().kind, ArtifactKind::Same);
}

TEST(RunDiff, differentExitCodeIsReported)
{
    const RunDiff diff = RunDiff::compare(finishedRun("x\n", 0), finishedRun("x\n", 1));

    EXPECT_FALSE(diff.identical());
    EXPECT_TRUE(diff.exitCodeDiffers());
    EXPECT_EQ(diff.originalExitCode(), 0);
    EXPECT_EQ(diff.replayExitCode(), 1);
    EXPECT_FALSE(diff.stdoutDiffers());
}

TEST(RunDiff, differentStopReasonIsReported)
{
    JournalRun replay = finishedRun("x\n");
    replay.stopReason = StopReason::TimedOut;
    const RunDiff diff = RunDiff::compare(finishedRun("x\n"), replay);

    EXPECT_TRUE(diff.stopReasonDiffers());
    EXPECT_EQ(diff.replayStopReason(), StopReason::TimedOut);
    EXPECT_FALSE(diff.identical());
}

TEST(RunDiff, changedStdoutLineIsOneRemovedAndOneAddedLineAmongSameLines)
{
    const RunDiff diff =
        RunDiff::compare(finishedRun("one\ntwo\nthree\nfour\n"), finishedRun("one\nTWO\nthree\nfour\n"));

    EXPECT_FALSE(diff.identical());
    EXPECT_TRUE(diff.stdoutDiffers());
    EXPECT_FALSE(diff.stderrDiffers());
    EXPECT_EQ(render(diff.stdoutDiff()), QStringLiteral(" one\n-two\n+TWO\n three\n four\n"));
    EXPECT_EQ(RunDiff::changedLineCount(diff.stdoutDiff()), 2);
    const auto &removed = diff.stdoutDiff().at(1);
    EXPECT_EQ(removed.originalLine, 2);
    EXPECT_EQ(removed.replayLine, 0);
    const auto &added = diff.stdoutDiff().at(2);
    EXPECT_EQ(added.originalLine, 0);
    EXPECT_EQ(added.replayLine, 2);
    EXPECT_EQ(diff.stdoutDiff().at(4).originalLine, 4);
    EXPECT_EQ(diff.stdoutDiff().at(4).replayLine, 4);
}

TEST(RunDiff, lineDiffIsMinimalForInsertionsAndDeletionsInTheMiddle)
{
    const QStringList original = {"a", "b", "c", "d", "e", "f", "g"};
    const QStringList replay = {"a", "c", "d", "x", "e", "f", "y", "g"};

    const QList<RunDiff::Line> lines = RunDiff::diffLines(original, replay);

    EXPECT_EQ(render(lines), QStringLiteral(" a\n-b\n c\n d\n+x\n e\n f\n+y\n g\n"));
}

TEST(RunDiff, lineDiffOfEmptyAndNonEmptyIsAllAdded)
{
    EXPECT_EQ(render(RunDiff::diffLines({}, {"a", "b"})), QStringLiteral("+a\n+b\n"));
    EXPECT_EQ(render(RunDiff::diffLines({"a"}, {})), QStringLiteral("-a\n"));
    EXPECT_TRUE(RunDiff::diffLines({}, {}).isEmpty());
}

TEST(RunDiff, lineDiffBeyondTheEditLimitStillDescribesBothSides)
{
    QStringList original;
    QStringList replay;
    for (int i = 0; i < 50; ++i) {
        original << QStringLiteral("o%1").arg(i);
        replay << QStringLiteral("r%1").arg(i);
    }
    const QList<RunDiff::Line> lines = RunDiff::diffLines(original, replay, 5);

    ASSERT_EQ(lines.size(), 100);
    EXPECT_EQ(lines.first().kind, Kind::Removed);
    EXPECT_EQ(lines.last().kind, Kind::Added);
    EXPECT_EQ(lines.last().text, QStringLiteral("r49"));
}

TEST(RunDiff, finalNewlineDoesNotMakeAnEmptyLine)
{
    EXPECT_EQ(RunDiff::splitLines("a\nb\n"), QStringList({"a", "b"}));
    EXPECT_EQ(RunDiff::splitLines("a\nb"), QStringList({"a", "b"}));
    EXPECT_TRUE(RunDiff::splitLines("").isEmpty());
}

TEST(RunDiff, stderrIsComparedToo)
{
    JournalRun replay = finishedRun("x\n");
    replay.stderrData = "warning\n";
    const RunDiff diff = RunDiff::compare(finishedRun("x\n"), replay);

    EXPECT_TRUE(diff.stderrDiffers());
    EXPECT_FALSE(diff.identical());
}

TEST(RunDiff, artifactAddedAndRemovedAreNamed)
{
    JournalRun original = finishedRun("");
    original.artifacts = {artifact(QStringLiteral("old.png"), 10), artifact(QStringLiteral("kept.png"), 20)};
    JournalRun replay = finishedRun("");
    replay.artifacts = {artifact(QStringLiteral("kept.png"), 20), artifact(QStringLiteral("new.svg"), 30)};

    const RunDiff diff = RunDiff::compare(original, replay);

    EXPECT_FALSE(diff.identical());
    ASSERT_EQ(diff.artifacts().size(), 3);
    EXPECT_EQ(diff.artifacts().at(0).name, QStringLiteral("old.png"));
    EXPECT_EQ(diff.artifacts().at(0).kind, ArtifactKind::Removed);
    EXPECT_EQ(diff.artifacts().at(1).kind, ArtifactKind::Same);
    EXPECT_EQ(diff.artifacts().at(2).name, QStringLiteral("new.svg"));
    EXPECT_EQ(diff.artifacts().at(2).kind, ArtifactKind::Added);
}

TEST(RunDiff, artifactWithOtherSizeOrMimeTypeIsChanged)
{
    JournalRun original = finishedRun("");
    original.artifacts = {artifact(QStringLiteral("a.png"), 10), artifact(QStringLiteral("b"), 5)};
    JournalRun replay = finishedRun("");
    replay.artifacts = {artifact(QStringLiteral("a.png"), 11),
                        artifact(QStringLiteral("b"), 5, QStringLiteral("text/html"))};

    const RunDiff diff = RunDiff::compare(original, replay);

    ASSERT_EQ(diff.artifacts().size(), 2);
    EXPECT_EQ(diff.artifacts().at(0).kind, ArtifactKind::Changed);
    EXPECT_TRUE(diff.artifacts().at(0).sizeChanged);
    EXPECT_FALSE(diff.artifacts().at(0).mimeTypeChanged);
    EXPECT_EQ(diff.artifacts().at(1).kind, ArtifactKind::Changed);
    EXPECT_TRUE(diff.artifacts().at(1).mimeTypeChanged);
    EXPECT_FALSE(diff.identical());
}

TEST(RunDiff, artifactOfSameSizeWithOtherPixelsIsChangedByTheComparator)
{
    JournalRun original = finishedRun("");
    original.artifacts = {artifact(QStringLiteral("plot.png"), 10)};
    JournalRun replay = original;
    int calls = 0;
    auto pixelsDiffer = [&calls](const JournalArtifact &, const JournalArtifact &) -> std::optional<bool> {
        ++calls;
        return false;
    };

    const RunDiff diff = RunDiff::compare(original, replay, pixelsDiffer);

    EXPECT_EQ(calls, 1);
    ASSERT_EQ(diff.artifacts().size(), 1);
    EXPECT_EQ(diff.artifacts().first().kind, ArtifactKind::Changed);
    EXPECT_EQ(diff.artifacts().first().pixelsEqual, false);
    EXPECT_FALSE(diff.identical());
}

TEST(RunDiff, storedFilesWithOtherBytesOfTheSameSizeAreChangedWithoutAComparator)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    auto write = [&dir](const QString &name, const QByteArray &bytes) {
        QFile file(dir.filePath(name));
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        return file.fileName();
    };
    JournalRun original = finishedRun("");
    original.artifacts = {artifact(QStringLiteral("page.html"), 4, QStringLiteral("text/html"))};
    original.artifacts[0].path = write(QStringLiteral("a.html"), "abcd");
    JournalRun same = original;
    same.artifacts[0].path = write(QStringLiteral("b.html"), "abcd");
    JournalRun other = original;
    other.artifacts[0].path = write(QStringLiteral("c.html"), "abce");

    const RunDiff sameDiff = RunDiff::compare(original, same);
    const RunDiff otherDiff = RunDiff::compare(original, other);

    EXPECT_TRUE(sameDiff.identical());
    EXPECT_EQ(sameDiff.artifacts().first().bytesEqual, true);
    EXPECT_FALSE(otherDiff.identical());
    EXPECT_EQ(otherDiff.artifacts().first().bytesEqual, false);
    EXPECT_FALSE(otherDiff.artifacts().first().pixelsEqual.has_value());
}

TEST(RunDiff, lineDiffRebuildsBothSidesWithTheFewestEditsOnRandomInputs)
{
    QRandomGenerator random(20261130); // fixed seed: the same inputs every time
    for (int round = 0; round < 300; ++round) {
        QStringList original;
        QStringList replay;
        for (int i = int(random.bounded(12)); i > 0; --i) {
            original << QString(QChar(u'a' + random.bounded(4)));
        }
        for (int i = int(random.bounded(12)); i > 0; --i) {
            replay << QString(QChar(u'a' + random.bounded(4)));
        }
        // The longest common subsequence by dynamic programming: the diff must keep exactly that many lines.
        std::vector<std::vector<int>> lcs(size_t(original.size() + 1), std::vector<int>(size_t(replay.size() + 1)));
        for (qsizetype i = original.size() - 1; i >= 0; --i) {
            for (qsizetype j = replay.size() - 1; j >= 0; --j) {
                lcs[size_t(i)][size_t(j)] =
                    original[i] == replay[j] ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                                             : std::max(lcs[size_t(i + 1)][size_t(j)], lcs[size_t(i)][size_t(j + 1)]);
            }
        }

        const QList<RunDiff::Line> lines = RunDiff::diffLines(original, replay);

        QStringList rebuiltOriginal;
        QStringList rebuiltReplay;
        int same = 0;
        for (const auto &line : lines) {
            if (line.kind != Kind::Added) {
                rebuiltOriginal << line.text;
                EXPECT_EQ(line.originalLine, rebuiltOriginal.size());
            }
            if (line.kind != Kind::Removed) {
                rebuiltReplay << line.text;
                EXPECT_EQ(line.replayLine, rebuiltReplay.size());
            }
            same += line.kind == Kind::Same ? 1 : 0;
        }
        ASSERT_EQ(rebuiltOriginal, original) << "round " << round;
        ASSERT_EQ(rebuiltReplay, replay) << "round " << round;
        ASSERT_EQ(same, lcs[0][0]) << "round " << round;
    }
}

TEST(RunDiffTest, differentLanguageCodeOrLibrariesAreADifferenceEvenWithTheSameOutput)
{
    JournalRun python = finishedRun("42\n");
    python.language = QStringLiteral("python");
    python.code = QStringLiteral("print(42)");
    python.libraries = {QStringLiteral("numpy"), QStringLiteral("pandas")};
    python.backend = QStringLiteral("docker");

    JournalRun sameElsewhere = python;
    sameElsewhere.backend = QStringLiteral("podman");
    sameElsewhere.libraries = {QStringLiteral("pandas"), QStringLiteral("numpy")};
    const RunDiff replay = RunDiff::compare(python, sameElsewhere);
    EXPECT_TRUE(replay.identical()) << "the same run on another backend, its libraries named in another order";
    EXPECT_TRUE(replay.backendDiffers());
    EXPECT_FALSE(replay.librariesDiffer());

    JournalRun javascript = python;
    javascript.language = QStringLiteral("javascript");
    javascript.code = QStringLiteral("console.log(6*7)");
    const RunDiff other = RunDiff::compare(python, javascript);
    EXPECT_FALSE(other.identical());
    EXPECT_TRUE(other.languageDiffers());
    EXPECT_TRUE(other.codeDiffers());
    EXPECT_EQ(RunDiff::changedLineCount(other.codeDiff()), 2);
    EXPECT_FALSE(other.stdoutDiffers());

    JournalRun moreLibraries = python;
    moreLibraries.libraries << QStringLiteral("scipy");
    EXPECT_FALSE(RunDiff::compare(python, moreLibraries).identical());
}

TEST(RunDiffTest, theHostsARunWasAllowedToReachAreWhatWentInAsSets)
{
    // Issue 48: a run that could reach api.test is not the same run as one that could not, whatever it printed.
    JournalRun offline = finishedRun("42\n");
    JournalRun online = offline;
    online.network = QJsonObject{
        {QStringLiteral("allowed"), QJsonArray{QStringLiteral("api.test"), QStringLiteral("*.example.org:8443")}},
        {QStringLiteral("connections"), QJsonArray()}};
    const RunDiff added = RunDiff::compare(offline, online);
    EXPECT_TRUE(added.networkDiffers());
    EXPECT_FALSE(added.identical());
    EXPECT_TRUE(added.originalNetwork().isEmpty());
    EXPECT_EQ(added.replayNetwork(), (QStringList{QStringLiteral("api.test"), QStringLiteral("*.example.org:8443")}));

    JournalRun reordered = offline;
    reordered.network = QJsonObject{
        {QStringLiteral("allowed"), QJsonArray{QStringLiteral("*.example.org:8443"), QStringLiteral("api.test")}}};
    const RunDiff same = RunDiff::compare(online, reordered);
    EXPECT_FALSE(same.networkDiffers()) << "the order hosts were granted in does not matter";
    EXPECT_TRUE(same.identical());
    EXPECT_FALSE(RunDiff::compare(offline, offline).networkDiffers());
}
