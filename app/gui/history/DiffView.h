#pragma once

#include "gui/history/PixelComparison.h"
#include "journal/JournalRun.h"
#include "journal/RunDiff.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QVBoxLayout;

namespace sandbox::gui {

/// What differs between two runs, a replay and its original or any two the user picked: "No difference" in large
/// type when nothing does, otherwise a summary (exit code 0 → 1, stop reason, artifacts), the pictures both runs have
/// (ImageComparisonView: side by side, overlaid, the difference) and the unified line diff of stdout and stderr with
/// removed and added lines coloured. Everything stacked from the top, scrolled as one.
class DiffView final : public QWidget
{
    Q_OBJECT

public:
    /// What the two runs are to each other, which names their sides.
    enum class Sides
    {
        Replay,  ///< "Original" and "Replay"
        TwoRuns, ///< "Run A" (the older) and "Run B"
    };

    explicit DiffView(QWidget *parent = nullptr);

    void setDiff(const RunDiff &diff, const JournalRun &original, const JournalRun &replay, Sides sides = Sides::Replay,
                 const QList<PixelComparison> &images = {});

    /// Lines of context kept around each change in the line diff.
    static constexpr int ContextLines = 3;

private:
    /// What went in, where it differs: language, code, libraries, network, backend, image (HTML list items).
    static QStringList inputSummary(const RunDiff &diff);
    void appendLineDiff(const QString &title, const QList<RunDiff::Line> &lines, const QString &first,
                        const QString &second);

    QLabel *m_banner = nullptr;
    QLabel *m_runs = nullptr;
    QLabel *m_summary = nullptr;
    QWidget *m_images = nullptr;
    QVBoxLayout *m_imagesLayout = nullptr;
    QPlainTextEdit *m_lines = nullptr;
};

} // namespace sandbox::gui
