#include "gui/widgets/CodeHighlighter.h"

namespace sandbox::gui {

namespace {

struct Syntax
{
    QStringList keywords;
    QStringList builtins; // types, constants and well-known functions
    QString lineComment;  // regular expression
    QString blockStart, blockEnd;
    bool tripleQuotes = false;
};

Syntax syntaxOf(const QString &language)
{
    const QString cComment = QStringLiteral("//[^\n]*");
    if (language == QLatin1String("python")) {
        return {{"and",    "as",   "assert", "async",  "await",    "break", "class", "continue", "def",
                 "del",    "elif", "else",   "except", "finally",  "for",   "from",  "global",   "if",
                 "import", "in",   "is",     "lambda", "nonlocal", "not",   "or",    "pass",     "raise",
                 "return", "try",  "while",  "with",   "yield",    "match", "case"},
                {"True", "False", "None", "self", "print", "len", "range", "int", "float", "str", "list", "dict", "set",
                 "tuple", "open", "isinstance", "enumerate", "zip", "super"},
                QStringLiteral("#[^\n]*"),
                {},
                {},
                true};
    }
    if (language == QLatin1String("javascript")) {
        return {{"async",    "await",    "break",  "case",   "catch",  "class",      "const",   "continue",
                 "debugger", "default",  "delete", "do",     "else",   "export",     "extends", "finally",
                 "for",      "function", "if",     "import", "in",     "instanceof", "let",     "new",
                 "of",       "return",   "static", "super",  "switch", "this",       "throw",   "try",
                 "typeof",   "var",      "void",   "while",  "yield"},
                {"true", "false", "null", "undefined", "NaN", "Infinity", "console", "require", "module", "Math",
                 "JSON", "Promise", "Array", "Object", "String", "Number"},
                cComment,
                QStringLiteral("/\\*"),
                QStringLiteral("\\*/")};
    }
    if (language == QLatin1String("java")) {
        return {{"abstract",   "assert", "break",      "case",      "catch", "class",    "continue",     "default",
                 "do",         "else",   "enum",       "extends",   "final", "finally",  "for",          "if",
                 "implements", "import", "instanceof", "interface", "new",   "package",  "private",      "protected",
                 "public",     "record", "return",     "static",    "super", "switch",   "synchronized", "this",
                 "throw",      "throws", "try",        "var",       "void",  "volatile", "while"},
                {"true", "false", "null", "boolean", "byte", "char", "double", "float", "int", "long", "short",
                 "String", "System", "Math", "List", "Map", "Integer", "Object"},
                cComment,
                QStringLiteral("/\\*"),
                QStringLiteral("\\*/")};
    }
    if (language == QLatin1String("cpp")) {
        return {{"auto",      "break",   "case",      "catch",    "class",    "const",    "constexpr", "continue",
                 "default",   "delete",  "do",        "else",     "enum",     "explicit", "for",       "friend",
                 "if",        "inline",  "namespace", "new",      "noexcept", "operator", "override",  "private",
                 "protected", "public",  "return",    "sizeof",   "static",   "struct",   "switch",    "template",
                 "this",      "throw",   "try",       "typename", "using",    "virtual",  "while",     "#include",
                 "#define",   "#pragma", "#if",       "#ifdef",   "#ifndef",  "#endif"},
                {"true", "false",  "nullptr", "bool",   "char",     "double", "float",
                 "int",  "long",   "short",   "signed", "unsigned", "void",   "size_t",
                 "std",  "string", "vector",  "cout",   "endl",     "printf", "main"},
                cComment,
                QStringLiteral("/\\*"),
                QStringLiteral("\\*/")};
    }
    if (language == QLatin1String("go")) {
        return {{"break", "case",   "chan",   "const",  "continue", "default", "defer",     "else", "fallthrough",
                 "for",   "func",   "go",     "goto",   "if",       "import",  "interface", "map",  "package",
                 "range", "return", "select", "struct", "switch",   "type",    "var"},
                {"true", "false", "nil", "iota", "bool", "byte", "error", "float64", "int", "int64", "rune", "string",
                 "uint", "append", "len", "make", "new", "panic", "fmt"},
                cComment,
                QStringLiteral("/\\*"),
                QStringLiteral("\\*/")};
    }
    if (language == QLatin1String("r")) {
        return {
            {"if", "else", "repeat", "while", "function", "for", "in", "next", "break", "return", "library", "require"},
            {"TRUE", "FALSE", "NULL", "NA", "Inf", "NaN", "print", "cat", "paste", "c", "list", "data.frame", "plot",
             "ggplot", "aes"},
            QStringLiteral("#[^\n]*"),
            {},
            {}};
    }
    if (language == QLatin1String("ruby")) {
        return {{"alias",  "and",   "begin", "break",  "case",  "class",  "def",  "defined?", "do",
                 "else",   "elsif", "end",   "ensure", "for",   "if",     "in",   "module",   "next",
                 "not",    "or",    "redo",  "rescue", "retry", "return", "self", "super",    "then",
                 "unless", "until", "when",  "while",  "yield", "require"},
                {"true", "false", "nil", "puts", "print", "p", "attr_accessor", "attr_reader", "lambda", "proc"},
                QStringLiteral("#[^\n]*"),
                QStringLiteral("^=begin"),
                QStringLiteral("^=end")};
    }
    return {};
}

QTextCharFormat charFormat(const QColor &color, bool bold = false, bool italic = false)
{
    QTextCharFormat result;
    result.setForeground(color);
    if (bold) {
        result.setFontWeight(QFont::DemiBold);
    }
    result.setFontItalic(italic);
    return result;
}

QString wordsPattern(const QStringList &words)
{
    QStringList escaped;
    for (const QString &word : words) {
        escaped << QRegularExpression::escape(word);
    }
    // `#include` and `defined?` are words too: the boundaries are spelled out instead of \b.
    return QStringLiteral("(?<![\\w#.])(?:%1)(?![\\w?])").arg(escaped.join(QLatin1Char('|')));
}

} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
{
    rebuild();
}

void CodeHighlighter::setLanguage(const QString &language)
{
    if (language != m_language) {
        m_language = language;
        rebuild();
    }
}

void CodeHighlighter::setDark(bool dark)
{
    if (dark != m_dark) {
        m_dark = dark;
        rebuild();
    }
}

void CodeHighlighter::rebuild()
{
    const Syntax syntax = syntaxOf(m_language);
    const QColor keyword = m_dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0x7a, 0x1f, 0xa2);
    const QColor builtin = m_dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x1a, 0x5f, 0xb4);
    const QColor string = m_dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x2e, 0x7d, 0x32);
    const QColor number = m_dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0xb3, 0x5c, 0x00);
    const QColor comment = m_dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x80, 0x80, 0x80);

    m_rules.clear();
    if (!syntax.keywords.isEmpty()) {
        m_rules.append({QRegularExpression(wordsPattern(syntax.keywords)), charFormat(keyword, true)});
        m_rules.append({QRegularExpression(wordsPattern(syntax.builtins)), charFormat(builtin)});
        m_rules.append({QRegularExpression(QStringLiteral(
                            "\\b(?:0[xX][0-9a-fA-F_]+|\\d[\\d_]*(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)[LlfFuU]*\\b")),
                        charFormat(number)});
        // Strings after the rest, comments last: what is inside them is not code.
        QString strings = QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
        if (m_language == QLatin1String("javascript") || m_language == QLatin1String("go")) {
            strings += QStringLiteral("|`[^`]*`");
        }
        if (syntax.tripleQuotes) {
            strings = QStringLiteral("\"\"\"[^\n]*?\"\"\"|'''[^\n]*?'''|") + strings;
        }
        m_rules.append({QRegularExpression(strings), charFormat(string)});
        m_rules.append({QRegularExpression(syntax.lineComment), charFormat(comment, false, true)});
    }
    m_commentFormat = charFormat(comment, false, true);
    m_blockCommentStart = syntax.blockStart.isEmpty() ? QRegularExpression() : QRegularExpression(syntax.blockStart);
    m_blockCommentEnd = syntax.blockEnd.isEmpty() ? QRegularExpression() : QRegularExpression(syntax.blockEnd);
    rehighlight();
}

void CodeHighlighter::highlightBlock(const QString &text)
{
    // Later rules win, but a match inside a string or comment found earlier in the line must not start one:
    // a rule only applies where no string or comment already covers the start.
    QList<std::pair<qsizetype, qsizetype>> literalRanges;
    const qsizetype literalRules = 2; // the string and line-comment rules are the last two
    for (qsizetype i = 0; i < m_rules.size(); ++i) {
        const bool literal = i >= m_rules.size() - literalRules;
        auto matches = m_rules.at(i).pattern.globalMatch(text);
        while (matches.hasNext()) {
            const auto match = matches.next();
            const qsizetype start = match.capturedStart();
            bool inside = false;
            for (const auto &[from, length] : std::as_const(literalRanges)) {
                inside = inside || (start > from && start < from + length);
            }
            if (inside) {
                continue;
            }
            setFormat(int(start), int(match.capturedLength()), m_rules.at(i).format);
            if (literal) {
                literalRanges.append({start, match.capturedLength()});
            }
        }
    }

    setCurrentBlockState(0);
    if (!m_blockCommentStart.isValid() || m_blockCommentStart.pattern().isEmpty()) {
        return;
    }
    qsizetype start = 0;
    if (previousBlockState() != 1) {
        start = m_blockCommentStart.match(text).capturedStart();
    }
    while (start >= 0) {
        const auto end = m_blockCommentEnd.match(text, start + (previousBlockState() == 1 && start == 0 ? 0 : 2));
        qsizetype length = 0;
        if (!end.hasMatch()) {
            setCurrentBlockState(1);
            length = text.size() - start;
        } else {
            length = end.capturedEnd() - start;
        }
        setFormat(int(start), int(length), m_commentFormat);
        start = m_blockCommentStart.match(text, start + length).capturedStart();
    }
}

} // namespace sandbox::gui
