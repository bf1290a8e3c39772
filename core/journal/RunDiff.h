#pragma once

#include "journal/JournalRun.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace sandbox {

/// What differs between two runs (a run and its replay, or any two): first what went in (language, code line by line,
/// libraries, the hosts it was allowed to reach, backend, image), then what came out (exit code, stop reason, stdout
/// and stderr line by line, the artifacts by name). Pure logic over two journal runs, so it needs no GUI; decoding
/// images to compare their pixels is the caller's (a callback), which keeps Qt Gui out of core.
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

    /// True when nothing the diff looks at differs: the same language, code, libraries and network gave the same
    /// results. The backend and image are told (backendDiffers, imageDiffers) but do not count: a replay elsewhere is
    /// the same run.
    bool identical() const;

    bool languageDiffers() const { return m_originalLanguage != m_replayLanguage; }
    const QString &originalLanguage() const { return m_originalLanguage; }
    const QString &replayLanguage() const { return m_replayLanguage; }
    const QList<Line> &codeDiff() const { return m_code; }
    bool codeDiffers() const { return hasChanges(m_code); }
    /// As sets: the order a call named them in does not matter.
    bool librariesDiffer() const;
    const QStringList &originalLibraries() const { return m_originalLibraries; }
    const QStringList &replayLibraries() const { return m_replayLibraries; }
    /// The hosts each run was allowed to reach (JournalRun::networkAllowed; empty: no network), as sets.
    bool networkDiffers() const;
    const QStringList &originalNetwork() const { return m_originalNetwork; }
    const QStringList &replayNetwork() const { return m_replayNetwork; }
    bool backendDiffers() const { return m_originalBackend != m_replayBackend; }
    const QString &originalBackend() const { return m_originalBackend; }
    const QString &replayBackend() const { return m_replayBackend; }
    bool imageDiffers() const { return m_originalImage != m_replayImage; }
    const QString &originalImage() const { return m_originalImage; }
    const QString &replayImage() const { return m_replayImage; }

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

    QString m_originalLanguage, m_replayLanguage;
    QList<Line> m_code;
    QStringList m_originalLibraries, m_replayLibraries;
    QStringList m_originalNetwork, m_replayNetwork;
    QString m_originalBackend, m_replayBackend;
    QString m_originalImage, m_replayImage;
    std::optional<int> m_originalExitCode, m_replayExitCode;
    std::optional<StopReason> m_originalStopReason, m_replayStopReason;
    QList<Line> m_stdout, m_stderr;
    QList<ArtifactChange> m_artifacts;
};

} // namespace sandbox
