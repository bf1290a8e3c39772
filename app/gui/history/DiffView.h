#pragma once

#include "journal/JournalRun.h"
#include "journal/RunDiff.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace sandbox::gui {

/// What differs between a run and its replay: "No difference" in large type when nothing does, otherwise a
/// summary (exit code 0 → 1, stop reason, artifacts) and the unified line diff of stdout and stderr with
/// removed and added lines coloured.
class DiffView final : public QWidget
{
    Q_OBJECT

public:
    explicit DiffView(QWidget *parent = nullptr);

    void setDiff(const RunDiff &diff, const JournalRun &original, const JournalRun &replay);

    /// Lines of context kept around each change in the line diff.
    static constexpr int ContextLines = 3;

private:
    void appendLineDiff(const QString &title, const QList<RunDiff::Line> &lines);

    QLabel *m_banner = nullptr;
    QLabel *m_runs = nullptr;
    QLabel *m_summary = nullptr;
    QPlainTextEdit *m_lines = nullptr;
};

} // namespace sandbox::gui
