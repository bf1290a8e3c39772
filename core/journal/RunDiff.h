#pragma once

#include "journal/JournalRun.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace sandbox {

/// What differs between a run and its replay: exit code, stop reason, stdout and stderr line by line,
/// and the artifacts by name. Pure logic over two journal runs, so it needs no GUI; decoding images to
/// compare their pixels is the caller's (a callback), which keeps Qt Gui out of core.
class RunDiff final
{
public:
    /// One line of a line diff, in the order of a unified diff.
    struct Line
    {
        enum class Kind
        {
            Same,
            Removed, ///< only in the original
            Added    ///< only in the replay
        };
        Kind kind = Kind::Same;
        QString text;
        int originalLine = 0; ///< 1-based line number in the original, 0 for an added line
        int replayLine = 0;   ///< 1-based line number in the replay, 0 for a removed line
    };

    /// How an artifact of one run compares with the artifact of the same name in the other.
    struct ArtifactChange
    {
        enum class Kind
        {
            Same,
            Added,   ///< only the replay has it
            Removed, ///< only the original has it
            Changed  ///< both have it and something differs
        };
        Kind kind = Kind::Same;
        QString name;
        JournalArtifact original; ///< empty for Added
        JournalArtifact replay;   ///< empty for Removed
        bool sizeChanged = false;
        bool mimeTypeChanged = false;
        bool dimensionsChanged = false;
        /// Whether the decoded pixels are equal; nullopt when nobody could decode both (not an image).
        std::optional<bool> pixelsEqual;
        /// Whether the stored files hold the same bytes; nullopt when a file could not be read.
        std::optional<bool> bytesEqual;
    };

    /// Decodes two stored artifacts and says whether their pixels are equal; nullopt when either is no
    /// decodable image. The GUI passes one that uses QImage.
    using PixelComparator = std::function<std::optional<bool>(const JournalArtifact &, const JournalArtifact &)>;

    /// Compares `original` with `replay` (full runs, as JournalReader::run returns them).
    static RunDiff compare(const JournalRun &original, const JournalRun &replay,
                           const PixelComparator &comparePixels = {});

    /// The shortest edit script from `original` to `replay` (Myers), as unified-diff lines. Beyond
    /// `maxEdits` differences it gives up on finding the shortest one and reports the differing middle as
    /// removed then added, so a huge unrelated output cannot take quadratic time and memory.
    static QList<Line> diffLines(const QStringList &original, const QStringList &replay, int maxEdits = 2000);

    /// Splits recorded output into lines; a final newline does not make an extra empty line.
    static QStringList splitLines(const QByteArray &output);

    /// True when nothing the diff looks at differs.
    bool identical() const;

    bool exitCodeDiffers() const { return m_originalExitCode != m_replayExitCode; }
    std::optional<int> originalExitCode() const { return m_originalExitCode; }
    std::optional<int> replayExitCode() const { return m_replayExitCode; }

    bool stopReasonDiffers() const { return m_originalStopReason != m_replayStopReason; }
    std::optional<StopReason> originalStopReason() const { return m_originalStopReason; }
    std::optional<StopReason> replayStopReason() const { return m_replayStopReason; }

    const QList<Line> &stdoutDiff() const { return m_stdout; }
    const QList<Line> &stderrDiff() const { return m_stderr; }
    bool stdoutDiffers() const { return hasChanges(m_stdout); }
    bool stderrDiffers() const { return hasChanges(m_stderr); }

    /// Every artifact of either run, in the original's order, then the replay's new ones.
    const QList<ArtifactChange> &artifacts() const { return m_artifacts; }
    bool artifactsDiffer() const;

    /// Counts the lines of `lines` that are not Same.
    static int changedLineCount(const QList<Line> &lines);

private:
    static bool hasChanges(const QList<Line> &lines);
    static ArtifactChange compareArtifact(const JournalArtifact &original, const JournalArtifact &replay,
                                          const PixelComparator &comparePixels);

    std::optional<int> m_originalExitCode, m_replayExitCode;
    std::optional<StopReason> m_originalStopReason, m_replayStopReason;
    QList<Line> m_stdout, m_stderr;
    QList<ArtifactChange> m_artifacts;
};

} // namespace sandbox
