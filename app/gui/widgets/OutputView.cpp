#include "gui/widgets/OutputView.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QStringDecoder>
#include <QTextBlock>

namespace sandbox::gui {

namespace {

/// What a piece of text is, kept in its format so that a theme switch can recolour it.
constexpr int kTextKindProperty = QTextFormat::UserProperty + 1;

enum TextKind : int
{
    ProgramOutput = 0, // drawn in the palette's text colour: nothing to recolour
    ErrorOutput,
    Note,
};

/// How many bytes at the end of `data` belong to a UTF-8 sequence that is not complete yet.
qsizetype incompleteTail(const QByteArray &data)
{
    for (qsizetype back = 1; back <= qMin<qsizetype>(3, data.size()); ++back) {
        const auto byte = static_cast<unsigned char>(data.at(data.size() - back));
        if ((byte & 0xC0) == 0x80) {
            continue; // continuation byte: look further back for the lead byte
        }
        const qsizetype needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
        return needed > back ? back : 0;
    }
    return 0;
}

} // namespace

OutputView::OutputView(QWidget *parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setUndoRedoEnabled(false);
    // A runaway program must not eat the machine's memory through the view.
    setMaximumBlockCount(50000);
}

QTextCharFormat OutputView::formatFor(OutputStream stream) const
{
    QTextCharFormat format;
    if (stream == OutputStream::Stderr) {
        const bool dark = palette().color(QPalette::Base).lightness() < 128;
        format.setForeground(dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x1c, 0x28));
        format.setProperty(kTextKindProperty, ErrorOutput);
    }
    return format;
}

QTextCharFormat OutputView::noteFormat() const
{
    QTextCharFormat format;
    QColor color = palette().color(QPalette::Text);
    color.setAlpha(150);
    format.setForeground(color);
    format.setFontItalic(true);
    format.setProperty(kTextKindProperty, Note);
    return format;
}

void OutputView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        recolour();
    }
}

void OutputView::recolour()
{
    struct Piece
    {
        int start;
        int end;
        int kind;
    };
    // Collected first: setting a format joins fragments under the iterator.
    QList<Piece> pieces;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const int kind = fragment.charFormat().intProperty(kTextKindProperty);
            if (kind != ProgramOutput) {
                pieces.append({fragment.position(), fragment.position() + fragment.length(), kind});
            }
        }
    }
    if (pieces.isEmpty()) {
        return;
    }
    const QTextCharFormat error = formatFor(OutputStream::Stderr);
    const QTextCharFormat note = noteFormat();
    QTextCursor cursor(document());
    cursor.beginEditBlock(); // one layout for the whole output
    for (const Piece &piece : std::as_const(pieces)) {
        cursor.setPosition(piece.start);
        cursor.setPosition(piece.end, QTextCursor::KeepAnchor);
        cursor.setCharFormat(piece.kind == ErrorOutput ? error : note);
    }
    cursor.endEditBlock();
}

void OutputView::append(const QString &text, const QTextCharFormat &format)
{
    if (text.isEmpty()) {
        return;
    }
    QScrollBar *bar = verticalScrollBar();
    const bool following = bar->value() >= bar->maximum() - 4;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text, format);
    if (following) {
        bar->setValue(bar->maximum());
    }
}

void OutputView::appendOutput(OutputStream stream, const QByteArray &chunk)
{
    QByteArray &pending = m_pending[stream == OutputStream::Stderr ? 1 : 0];
    pending += chunk;
    const qsizetype keep = incompleteTail(pending);
    append(QString::fromUtf8(pending.left(pending.size() - keep)), formatFor(stream));
    pending = pending.right(keep);
}

void OutputView::appendNote(const QString &text)
{
    QString line = text;
    if (!document()->isEmpty() && !toPlainText().endsWith(QLatin1Char('\n'))) {
        line.prepend(QLatin1Char('\n'));
    }
    append(line + QLatin1Char('\n'), noteFormat());
}

void OutputView::setRecordedOutput(const QByteArray &stdoutData, const QByteArray &stderrData)
{
    QScrollBar *bar = verticalScrollBar();
    const bool following = bar->value() >= bar->maximum() - 4;
    const int position = bar->value();
    clearOutput();
    appendOutput(OutputStream::Stdout, stdoutData);
    if (!stdoutData.isEmpty() && !stderrData.isEmpty() && !stdoutData.endsWith('\n')) {
        append(QStringLiteral("\n"), {});
    }
    appendOutput(OutputStream::Stderr, stderrData);
    bar->setValue(following ? bar->maximum() : position);
}

void OutputView::clearOutput()
{
    clear();
    m_pending[0].clear();
    m_pending[1].clear();
}

} // namespace sandbox::gui
