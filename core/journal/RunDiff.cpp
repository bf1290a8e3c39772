#include "journal/RunDiff.h"

#include <QFile>
#include <QHash>
#include <QSet>
#include <algorithm>
#include <vector>

namespace sandbox {

namespace {

/// Whether two lists name different things, whatever their order (libraries, allowed hosts).
bool differAsSets(const QStringList &a, const QStringList &b)
{
    return QSet<QString>(a.cbegin(), a.cend()) != QSet<QString>(b.cbegin(), b.cend());
}

/// Whether the two stored files hold the same bytes; nullopt when either cannot be read.
std::optional<bool> sameBytes(const JournalArtifact &original, const JournalArtifact &replay)
{
    if (original.path.isEmpty() || replay.path.isEmpty()) {
        return std::nullopt;
    }
    QFile a(original.path);
    QFile b(replay.path);
    if (!a.open(QIODevice::ReadOnly) || !b.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    if (a.size() != b.size()) {
        return false;
    }
    // Chunked, so two large artifacts are never both in memory whole.
    constexpr qint64 chunk = 64 * 1024;
    while (!a.atEnd()) {
        if (a.read(chunk) != b.read(chunk)) {
            return false;
        }
    }
    return true;
}

} // namespace

QStringList RunDiff::splitLines(const QByteArray &output)
{
    if (output.isEmpty()) {
        return {};
    }
    QStringList lines = QString::fromUtf8(output).split(QLatin1Char('\n'));
    if (lines.last().isEmpty()) {
        lines.removeLast();
    }
    return lines;
}

QList<RunDiff::Line> RunDiff::diffLines(const QStringList &original, const QStringList &replay, int maxEdits)
{
    QList<Line> result;
    const int originalCount = int(original.size());
    const int replayCount = int(replay.size());

    // The common head and tail are most of a replay's output; only the middle needs the search.
    int prefix = 0;
    while (prefix < originalCount && prefix < replayCount && original[prefix] == replay[prefix]) {
        ++prefix;
    }
    int suffix = 0;
    while (suffix < originalCount - prefix && suffix < replayCount - prefix &&
           original[originalCount - 1 - suffix] == replay[replayCount - 1 - suffix]) {
        ++suffix;
    }
    for (int i = 0; i < prefix; ++i) {
        result.append(Line{Line::Kind::Same, original[i], i + 1, i + 1});
    }

    const int n = originalCount - prefix - suffix;
    const int m = replayCount - prefix - suffix;
    auto a = [&](int i) -> const QString & {
        return original[prefix + i];
    };
    auto b = [&](int j) -> const QString & {
        return replay[prefix + j];
    };

    // Myers' O(ND) search. trace[d] keeps the furthest x per diagonal k in [-d-1, d+1] before step d,
    // so memory grows with the square of the number of edits, not with the output's length.
    const int max = n + m;
    const int offset = max + 1;
    std::vector<int> v(size_t(2 * max + 3), 0);
    std::vector<std::vector<int>> trace;
    bool found = max == 0;
    for (int d = 0; d <= max && !found && d <= maxEdits; ++d) {
        std::vector<int> slice(size_t(2 * d + 3));
        for (int k = -d - 1; k <= d + 1; ++k) {
            slice[size_t(k + d + 1)] = v[size_t(k + offset)];
        }
        trace.push_back(std::move(slice));
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[size_t(k - 1 + offset)] < v[size_t(k + 1 + offset)]))
                        ? v[size_t(k + 1 + offset)]
                        : v[size_t(k - 1 + offset)] + 1;
            int y = x - k;
            while (x < n && y < m && a(x) == b(y)) {
                ++x;
                ++y;
            }
            v[size_t(k + offset)] = x;
            if (x >= n && y >= m) {
                found = true;
                break;
            }
        }
    }

    QList<Line> middle;
    if (found && max > 0) {
        int x = n;
        int y = m;
        for (int d = int(trace.size()) - 1; d >= 0; --d) {
            const std::vector<int> &slice = trace[size_t(d)];
            auto at = [&](int k) {
                return slice[size_t(k + d + 1)];
            };
            const int k = x - y;
            const int previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
            const int previousX = at(previousK);
            const int previousY = previousX - previousK;
            while (x > previousX && y > previousY) {
                --x;
                --y;
                middle.append(Line{Line::Kind::Same, a(x), prefix + x + 1, prefix + y + 1});
            }
            if (d > 0) {
                if (x == previousX) {
                    middle.append(Line{Line::Kind::Added, b(previousY), 0, prefix + previousY + 1});
                } else {
                    middle.append(Line{Line::Kind::Removed, a(previousX), prefix + previousX + 1, 0});
                }
            }
            x = previousX;
            y = previousY;
        }
        std::reverse(middle.begin(), middle.end());
    } else if (max > 0) {
        for (int i = 0; i < n; ++i) {
            middle.append(Line{Line::Kind::Removed, a(i), prefix + i + 1, 0});
        }
        for (int j = 0; j < m; ++j) {
            middle.append(Line{Line::Kind::Added, b(j), 0, prefix + j + 1});
        }
    }
    result.append(middle);

    for (int i = 0; i < suffix; ++i) {
        const int originalIndex = originalCount - suffix + i;
        const int replayIndex = replayCount - suffix + i;
        result.append(Line{Line::Kind::Same, original[originalIndex], originalIndex + 1, replayIndex + 1});
    }
    return result;
}

RunDiff::ArtifactChange RunDiff::compareArtifact(const JournalArtifact &original, const JournalArtifact &replay,
                                                 const PixelComparator &comparePixels)
{
    ArtifactChange change;
    change.name = original.name;
    change.original = original;
    change.replay = replay;
    change.sizeChanged = original.size != replay.size;
    change.mimeTypeChanged = original.mimeType != replay.mimeType;
    change.dimensionsChanged = original.width != replay.width || original.height != replay.height;
    change.bytesEqual = sameBytes(original, replay);
    if (change.bytesEqual == true) {
        change.pixelsEqual =
            original.mimeType.startsWith(QLatin1String("image/")) ? std::optional<bool>(true) : std::nullopt;
    } else if (comparePixels) {
        change.pixelsEqual = comparePixels(original, replay);
    }
    // Equal pixels in a differently encoded file still count as a change of size: the user sees both.
    const bool contentDiffers =
        change.pixelsEqual.has_value() ? !*change.pixelsEqual : change.bytesEqual == std::optional<bool>(false);
    const bool differs = change.sizeChanged || change.mimeTypeChanged || change.dimensionsChanged || contentDiffers;
    change.kind = differs ? ArtifactChange::Kind::Changed : ArtifactChange::Kind::Same;
    return change;
}

RunDiff RunDiff::compare(const JournalRun &original, const JournalRun &replay, const PixelComparator &comparePixels)
{
    RunDiff diff;
    diff.m_originalLanguage = original.language;
    diff.m_replayLanguage = replay.language;
    diff.m_code = diffLines(original.code.split(QLatin1Char('\n')), replay.code.split(QLatin1Char('\n')));
    diff.m_originalLibraries = original.libraries;
    diff.m_replayLibraries = replay.libraries;
    diff.m_originalNetwork = original.networkAllowed();
    diff.m_replayNetwork = replay.networkAllowed();
    diff.m_originalBackend = original.backend;
    diff.m_replayBackend = replay.backend;
    diff.m_originalImage = original.image;
    diff.m_replayImage = replay.image;
    diff.m_originalExitCode = original.exitCode;
    diff.m_replayExitCode = replay.exitCode;
    diff.m_originalStopReason = original.stopReason;
    diff.m_replayStopReason = replay.stopReason;
    diff.m_stdout = diffLines(splitLines(original.stdoutData), splitLines(replay.stdoutData));
    diff.m_stderr = diffLines(splitLines(original.stderrData), splitLines(replay.stderrData));

    QHash<QString, const JournalArtifact *> replayByName;
    for (const JournalArtifact &artifact : replay.artifacts) {
        replayByName.insert(artifact.name, &artifact);
    }
    QSet<QString> originalNames;
    for (const JournalArtifact &artifact : original.artifacts) {
        originalNames.insert(artifact.name);
        if (const JournalArtifact *other = replayByName.value(artifact.name)) {
            diff.m_artifacts.append(compareArtifact(artifact, *other, comparePixels));
        } else {
            ArtifactChange removed;
            removed.kind = ArtifactChange::Kind::Removed;
            removed.name = artifact.name;
            removed.original = artifact;
            diff.m_artifacts.append(removed);
        }
    }
    for (const JournalArtifact &artifact : replay.artifacts) {
        if (!originalNames.contains(artifact.name)) {
            ArtifactChange added;
            added.kind = ArtifactChange::Kind::Added;
            added.name = artifact.name;
            added.replay = artifact;
            diff.m_artifacts.append(added);
        }
    }
    return diff;
}

bool RunDiff::hasChanges(const QList<Line> &lines)
{
    return std::any_of(lines.begin(), lines.end(), [](const Line &line) { return line.kind != Line::Kind::Same; });
}

int RunDiff::changedLineCount(const QList<Line> &lines)
{
    return int(
        std::count_if(lines.begin(), lines.end(), [](const Line &line) { return line.kind != Line::Kind::Same; }));
}

bool RunDiff::artifactsDiffer() const
{
    return std::any_of(m_artifacts.begin(), m_artifacts.end(),
                       [](const ArtifactChange &change) { return change.kind != ArtifactChange::Kind::Same; });
}

bool RunDiff::librariesDiffer() const
{
    return differAsSets(m_originalLibraries, m_replayLibraries);
}

bool RunDiff::networkDiffers() const
{
    return differAsSets(m_originalNetwork, m_replayNetwork);
}

bool RunDiff::identical() const
{
    return !languageDiffers() && !codeDiffers() && !librariesDiffer() && !networkDiffers() && !exitCodeDiffers() &&
           !stopReasonDiffers() && !stdoutDiffers() && !stderrDiffers() && !artifactsDiffer();
}

} // namespace sandbox
