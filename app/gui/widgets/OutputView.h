#pragma once

#include "engine/RunObserver.h"

#include <QPlainTextEdit>

namespace sandbox::gui {

/// A read-only terminal-like view of a run's output: text is appended as it arrives, stderr in a distinct
/// colour, and the view follows the end unless the user scrolled up to read.
class OutputView final : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit OutputView(QWidget *parent = nullptr);

    void appendOutput(OutputStream stream, const QByteArray &chunk);
    /// A line of our own (progress, the run's end), set apart from the program's output.
    void appendNote(const QString &text);
    /// Replaces everything with recorded output (the journal keeps stdout and stderr apart).
    void setRecordedOutput(const QByteArray &stdoutData, const QByteArray &stderrData);
    void clearOutput();

protected:
    void changeEvent(QEvent *event) override;

private:
    void append(const QString &text, const QTextCharFormat &format);
    QTextCharFormat formatFor(OutputStream stream) const;
    QTextCharFormat noteFormat() const;
    /// Gives the text already shown the colours of the current palette (a theme switch).
    void recolour();

    QByteArray m_pending[2]; // an incomplete UTF-8 sequence at the end of a chunk waits for the next one
};

} // namespace sandbox::gui
