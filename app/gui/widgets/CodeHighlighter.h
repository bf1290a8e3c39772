#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace sandbox::gui {

/// Syntax colouring for the seven sandbox languages: keywords, built-in types and constants, strings,
/// comments (line and block) and numbers. Deliberately lexical: enough to read code, not to parse it.
class CodeHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT

public:
    explicit CodeHighlighter(QTextDocument *document);

    void setLanguage(const QString &language);
    QString language() const { return m_language; }
    /// Colours for a dark background.
    void setDark(bool dark);

protected:
    void highlightBlock(const QString &text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
    };

    void rebuild();

    QString m_language;
    bool m_dark = false;
    QList<Rule> m_rules;
    QTextCharFormat m_commentFormat;
    QRegularExpression m_blockCommentStart; // invalid when the language has none
    QRegularExpression m_blockCommentEnd;
};

} // namespace sandbox::gui
