#pragma once

#include <QList>
#include <QString>
#include <QStringView>

namespace sandbox {

/// Where one string literal (or comparable quoted text: regex literal, heredoc, Ruby command) is
/// in the code. Offsets are in UTF-16 code units.
struct StringLiteral
{
    qsizetype start = 0;     ///< first character: prefix (`f`, `R`, `%q`, `<<~`) or opening delimiter
    qsizetype delimiter = 0; ///< opening delimiter
    qsizetype contentStart = 0;
    qsizetype contentEnd = 0;
    qsizetype end = 0; ///< just after the closing delimiter (the end of the code when unterminated)
    /// Where the first interpolation (`{x}`, `${x}`, `#{x}`) starts, else contentEnd: the literal's
    /// fixed text is what rules read.
    qsizetype fixedEnd = -1;
};

/// Code as a SourceLexer saw it: the original, the same text with comments and the contents of
/// string literals replaced by spaces (newlines kept, so offsets, lines and columns are the
/// original's), and where the string literals are.
class LexedSource final
{
public:
    LexedSource(QString code, QString blanked, QList<StringLiteral> literals);

    const QString &code() const { return m_code; }
    /// The code with comments and string contents blanked; delimiters and prefixes stay.
    const QString &blanked() const { return m_blanked; }
    /// In order of their start.
    const QList<StringLiteral> &literals() const { return m_literals; }
    /// The literal's contents as written (escapes not decoded), up to its first interpolation:
    /// nested literals then never make the contents add up to more than the code.
    QStringView contents(const StringLiteral &literal) const;
    /// The literal whose prefix or opening delimiter is at `offset`, or nullptr.
    const StringLiteral *literalAt(qsizetype offset) const;
    /// 1-based line of an offset.
    int lineOf(qsizetype offset) const;
    /// 1-based column of an offset.
    int columnOf(qsizetype offset) const;

private:
    qsizetype lineIndex(qsizetype offset) const;

    QString m_code;
    QString m_blanked;
    QList<StringLiteral> m_literals;
    QList<qsizetype> m_lineStarts;
};

} // namespace sandbox
