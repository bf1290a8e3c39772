#pragma once

#include <QPlainTextEdit>

namespace sandbox::gui {

class CodeHighlighter;

/// A plain-text code editor with a line-number gutter, a highlighted current line and syntax colouring for
/// the sandbox's languages.
class CodeEditor final : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit CodeEditor(QWidget *parent = nullptr);

    /// Colours the text as `language` (python, javascript, java, cpp, go, r, ruby).
    void setLanguage(const QString &language);

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent *event);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateLineNumberAreaWidth();
    void updateLineNumberArea(const QRect &rect, int dy);
    void highlightCurrentLine();

    QWidget *m_lineNumberArea = nullptr;
    CodeHighlighter *m_highlighter = nullptr;
};

} // namespace sandbox::gui
