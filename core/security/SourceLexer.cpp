#include "security/SourceLexer.h"

#include <QList>
#include <QSet>

namespace sandbox {

namespace {

/// What a language's comments and literals look like.
struct Dialect
{
    bool hashComments = false;     // # to the end of the line
    bool slashComments = false;    // // and /* */
    bool multilineQuotes = false;  // '...' and "..." may span lines (Ruby, R)
    bool pythonStrings = false;    // r/b/u/f prefixes, triple quotes, f-string fields
    bool javaTextBlocks = false;   // """ ... """
    bool templateLiterals = false; // JavaScript `...${...}...`
    bool goRawStrings = false;     // `...`, no escapes
    bool cppRawStrings = false;    // R"delim(...)delim"
    bool cppDigitSeparators = false;
    bool jsRegexLiterals = false;
    bool dollarIdentifiers = false; // $ is an identifier character (JavaScript)
    bool ruby = false;              // backticks, %-literals, heredocs, #{}, regex literals, =begin/=end, __END__
    bool r = false;                 // r"(...)" raw strings, `names`, strings in call position
};

Dialect dialectFor(const QString &language)
{
    Dialect d;
    if (language == u"python") {
        d.hashComments = true;
        d.pythonStrings = true;
    } else if (language == u"javascript") {
        d.slashComments = true;
        d.templateLiterals = true;
        d.jsRegexLiterals = true;
        d.dollarIdentifiers = true;
    } else if (language == u"java") {
        d.slashComments = true;
        d.javaTextBlocks = true;
        d.dollarIdentifiers = true;
    } else if (language == u"cpp") {
        d.slashComments = true;
        d.cppRawStrings = true;
        d.cppDigitSeparators = true;
    } else if (language == u"go") {
        d.slashComments = true;
        d.goRawStrings = true;
    } else if (language == u"ruby") {
        d.hashComments = true;
        d.multilineQuotes = true;
        d.ruby = true;
    } else if (language == u"r") {
        d.hashComments = true;
        d.multilineQuotes = true;
        d.r = true;
    }
    return d;
}

enum class Interpolation
{
    None,
    PythonBraces, // f"{expr}", {{ is a brace
    DollarBraces, // `${expr}`
    HashBraces,   // "#{expr}"
};

enum class FrameKind
{
    Code,
    Quoted,    // ends at `close` (nesting with `open` when they differ)
    Delimited, // ends at `terminator` (triple quotes, raw strings)
    Heredoc,   // ends at a line holding `terminator`
};

struct Frame
{
    FrameKind kind = FrameKind::Code;
    // Code inside an interpolation: which brace closes it, and whether its string ends at the line's end.
    bool interpolation = false;
    int braceDepth = 0;
    bool insideSingleLineString = false;
    // Literals
    int literal = -1;
    QChar open;
    QChar close;
    int nesting = 0;
    bool multiline = false;
    bool escapes = true;
    bool regex = false;
    bool inCharacterClass = false;
    bool keepVisible = false;  // lexed so its contents cannot start a comment, but code (R `names`)
    bool callableName = false; // an R string that names a function when called: "system"(...)
    Interpolation interpolationStyle = Interpolation::None;
    QString terminator;
    bool indentedTerminator = false;
};

struct PendingHeredoc
{
    QString id;
    bool indented = false;
    bool escapes = true;
    Interpolation interpolation = Interpolation::None;
    int literal = -1;
};

enum class Token
{
    None,
    Identifier,
    Number,
    Closing, // ) ] }
    Operator,
};

bool isIdentifierStart(QChar c, bool dollar)
{
    return c.isLetter() || c == u'_' || (dollar && c == u'$');
}

bool isIdentifierChar(QChar c, bool dollar)
{
    return c.isLetterOrNumber() || c == u'_' || (dollar && c == u'$');
}

class Scanner final
{
public:
    Scanner(const Dialect &dialect, const QString &code)
        : m_dialect(dialect), m_code(code), m_blanked(code), m_size(code.size())
    {
        m_out = m_blanked.data();
        m_stack.append(Frame{});
    }

    LexedSource run()
    {
        if (m_dialect.slashComments && m_code.startsWith(u"#!")) {
            // Node's hashbang line (hash-comment languages see a comment anyway).
            m_pos = lineEnd(0);
            blank(0, m_pos);
        }
        while (m_pos < m_size) {
            if (m_stack.constLast().kind == FrameKind::Code) {
                stepCode();
            } else {
                stepLiteral();
            }
        }
        // Unterminated literals run to the end: the language refuses the code anyway.
        while (m_stack.size() > 1) {
            const Frame frame = m_stack.takeLast();
            if (frame.kind != FrameKind::Code) {
                closeLiteral(frame.literal, m_size, m_size);
            }
        }
        for (const PendingHeredoc &heredoc : std::as_const(m_pending)) {
            m_literals[heredoc.literal].contentStart = m_size;
            closeLiteral(heredoc.literal, m_size, m_size);
        }
        return LexedSource(m_code, m_blanked, m_literals);
    }

private:
    QChar at(qsizetype i) const { return i < m_size ? m_code.at(i) : QChar(); }
    bool startsWithAt(qsizetype i, QStringView text) const { return QStringView(m_code).mid(i).startsWith(text); }
    bool atLineStart(qsizetype i) const { return i == 0 || m_code.at(i - 1) == u'\n'; }

    qsizetype lineEnd(qsizetype from) const
    {
        const qsizetype newline = m_code.indexOf(u'\n', from);
        return newline < 0 ? m_size : newline;
    }

    void blank(qsizetype from, qsizetype to)
    {
        for (qsizetype i = from; i < to && i < m_size; ++i) {
            if (m_out[i] != u'\n') {
                m_out[i] = u' ';
            }
        }
    }

    int openLiteral(qsizetype start, qsizetype delimiter, qsizetype contentStart)
    {
        m_literals.append(StringLiteral{start, delimiter, contentStart, contentStart, contentStart});
        return int(m_literals.size() - 1);
    }

    void closeLiteral(int index, qsizetype contentEnd, qsizetype end)
    {
        StringLiteral &literal = m_literals[index];
        literal.contentEnd = std::max(contentEnd, literal.contentStart);
        literal.end = end;
        if (literal.fixedEnd < 0) {
            literal.fixedEnd = literal.contentEnd;
        }
    }

    void pushLiteral(Frame frame, qsizetype start, qsizetype delimiter, qsizetype contentStart)
    {
        frame.literal = openLiteral(start, delimiter, contentStart);
        m_stack.append(frame);
        m_pos = contentStart;
    }

    void pushQuoted(qsizetype start, qsizetype delimiter, QChar open, QChar close, bool multiline,
                    Interpolation interpolation, bool escapes = true)
    {
        Frame frame;
        frame.kind = FrameKind::Quoted;
        frame.open = open;
        frame.close = close;
        frame.multiline = multiline;
        frame.interpolationStyle = interpolation;
        frame.escapes = escapes;
        pushLiteral(frame, start, delimiter, delimiter + 1);
    }

    void pushDelimited(qsizetype start, qsizetype delimiter, qsizetype contentStart, const QString &terminator,
                       bool escapes, Interpolation interpolation = Interpolation::None)
    {
        Frame frame;
        frame.kind = FrameKind::Delimited;
        frame.terminator = terminator;
        frame.escapes = escapes;
        frame.multiline = true;
        frame.interpolationStyle = interpolation;
        pushLiteral(frame, start, delimiter, contentStart);
    }

    void pushInterpolation(qsizetype after, bool insideSingleLineString)
    {
        StringLiteral &literal = m_literals[m_stack.constLast().literal];
        if (literal.fixedEnd < 0) {
            literal.fixedEnd = m_pos;
        }
        Frame frame;
        frame.interpolation = true;
        frame.insideSingleLineString = insideSingleLineString;
        m_stack.append(frame);
        m_pos = after;
        m_previous = Token::None;
    }

    void setPrevious(Token token, QString word = {})
    {
        m_previous = token;
        m_previousWord = std::move(word);
        m_spaceAfterPrevious = false;
    }

    // ---- code ------------------------------------------------------------------------------

    void stepCode()
    {
        Frame &frame = m_stack.last();
        const QChar c = m_code.at(m_pos);

        if (m_dialect.ruby && m_stack.size() == 1 && atLineStart(m_pos) && rubyLineStart()) {
            return;
        }
        if (frame.interpolation) {
            if (c == u'}' && frame.braceDepth == 0) {
                ++m_pos;
                m_stack.removeLast();
                return;
            }
            if (c == u'\n' && frame.insideSingleLineString) {
                // The string cannot go on past the line: end both where the language would complain.
                m_stack.removeLast();
                closeLiteral(m_stack.constLast().literal, m_pos, m_pos);
                m_stack.removeLast();
                return;
            }
            if (c == u'{') {
                ++frame.braceDepth;
            } else if (c == u'}') {
                --frame.braceDepth;
            }
        }
        if (c == u'\n') {
            ++m_pos;
            m_spaceAfterPrevious = true;
            if (!m_pending.isEmpty()) {
                startHeredoc();
            }
            return;
        }
        if (c.isSpace()) {
            ++m_pos;
            m_spaceAfterPrevious = true;
            return;
        }
        const QChar next = at(m_pos + 1);
        if (m_dialect.hashComments && c == u'#') {
            const qsizetype end = lineEnd(m_pos);
            blank(m_pos, end);
            m_pos = end;
            return;
        }
        if (m_dialect.slashComments && c == u'/' && next == u'/') {
            const qsizetype end = lineEnd(m_pos);
            blank(m_pos, end);
            m_pos = end;
            return;
        }
        if (m_dialect.slashComments && c == u'/' && next == u'*') {
            const qsizetype close = m_code.indexOf(u"*/", m_pos + 2);
            const qsizetype end = close < 0 ? m_size : close + 2;
            blank(m_pos, end);
            m_pos = end;
            setPrevious(Token::Operator);
            return;
        }
        if (m_dialect.ruby && c == u'$' && !next.isNull() && !next.isSpace() && !isIdentifierChar(next, false)) {
            // $' $" $` are Ruby's match globals, not quotes.
            m_pos += 2;
            setPrevious(Token::Identifier);
            return;
        }
        if (c == u'"' || c == u'\'') {
            startQuote(m_pos, m_pos, Interpolation::None);
            return;
        }
        if (c == u'`' && startBacktick()) {
            return;
        }
        if (c == u'/' && (m_dialect.jsRegexLiterals || m_dialect.ruby) && regexAllowed()) {
            pushQuoted(m_pos, m_pos, u'/', u'/', false,
                       m_dialect.ruby ? Interpolation::HashBraces : Interpolation::None);
            m_stack.last().regex = true;
            return;
        }
        if (m_dialect.ruby && c == u'%' && startPercentLiteral()) {
            return;
        }
        if (m_dialect.ruby && c == u'<' && next == u'<' && startHeredocOpener()) {
            return;
        }
        if (isIdentifierStart(c, m_dialect.dollarIdentifiers || m_dialect.ruby)) {
            identifier();
            return;
        }
        if (c.isDigit()) {
            number();
            return;
        }
        ++m_pos;
        setPrevious(c == u')' || c == u']' || c == u'}' ? Token::Closing : Token::Operator);
    }

    /// =begin ... =end and __END__ (everything after it is data).
    bool rubyLineStart()
    {
        if (startsWithAt(m_pos, u"=begin") && (at(m_pos + 6).isSpace() || at(m_pos + 6).isNull())) {
            qsizetype line = lineEnd(m_pos);
            while (line < m_size) {
                const qsizetype next = line + 1;
                if (startsWithAt(next, u"=end") && (at(next + 4).isSpace() || at(next + 4).isNull())) {
                    line = lineEnd(next);
                    break;
                }
                line = lineEnd(next);
            }
            blank(m_pos, line);
            m_pos = line;
            return true;
        }
        if (startsWithAt(m_pos, u"__END__") &&
            QStringView(m_code).mid(m_pos + 7, lineEnd(m_pos) - m_pos - 7).trimmed().isEmpty()) {
            blank(m_pos, m_size);
            m_pos = m_size;
            return true;
        }
        return false;
    }

    void startQuote(qsizetype start, qsizetype delimiter, Interpolation interpolation)
    {
        const QChar quote = m_code.at(delimiter);
        const QString triple(3, quote);
        if ((m_dialect.pythonStrings || (m_dialect.javaTextBlocks && quote == u'"')) &&
            startsWithAt(delimiter, triple)) {
            pushDelimited(start, delimiter, delimiter + 3, triple, true, interpolation);
            return;
        }
        if (m_dialect.ruby && quote == u'"') {
            interpolation = Interpolation::HashBraces;
        }
        pushQuoted(start, delimiter, quote, quote, m_dialect.multilineQuotes, interpolation);
        if (m_dialect.r) {
            m_stack.last().callableName = true;
        }
    }

    bool startBacktick()
    {
        if (m_dialect.templateLiterals) {
            pushQuoted(m_pos, m_pos, u'`', u'`', true, Interpolation::DollarBraces);
        } else if (m_dialect.goRawStrings) {
            pushDelimited(m_pos, m_pos, m_pos + 1, QStringLiteral("`"), false);
        } else if (m_dialect.ruby) {
            // A command, not a string: the delimiters stay visible for the policy to see.
            pushQuoted(m_pos, m_pos, u'`', u'`', true, Interpolation::HashBraces);
        } else if (m_dialect.r) {
            pushQuoted(m_pos, m_pos, u'`', u'`', true, Interpolation::None);
            m_stack.last().keepVisible = true;
        } else {
            return false;
        }
        return true;
    }

    bool regexAllowed() const
    {
        static const QSet<QString> jsKeywords = {
            QStringLiteral("return"), QStringLiteral("typeof"), QStringLiteral("instanceof"), QStringLiteral("in"),
            QStringLiteral("of"),     QStringLiteral("new"),    QStringLiteral("delete"),     QStringLiteral("void"),
            QStringLiteral("throw"),  QStringLiteral("case"),   QStringLiteral("do"),         QStringLiteral("else"),
            QStringLiteral("yield"),  QStringLiteral("await")};
        static const QSet<QString> rubyKeywords = {
            QStringLiteral("if"),    QStringLiteral("unless"), QStringLiteral("elsif"), QStringLiteral("when"),
            QStringLiteral("while"), QStringLiteral("until"),  QStringLiteral("and"),   QStringLiteral("or"),
            QStringLiteral("not"),   QStringLiteral("return"), QStringLiteral("then"),  QStringLiteral("case")};
        switch (m_previous) {
        case Token::None:
        case Token::Operator:
            return true;
        case Token::Number:
        case Token::Closing:
            return false;
        case Token::Identifier:
            if (m_dialect.ruby) {
                // `split /,/` is a call with a regex; `a / b` and `a/b` divide.
                const QChar after = at(m_pos + 1);
                return rubyKeywords.contains(m_previousWord) ||
                       (m_spaceAfterPrevious && !after.isSpace() && after != u'=');
            }
            return jsKeywords.contains(m_previousWord);
        }
        return false;
    }

    bool rubyOperandPosition() const
    {
        return m_previous == Token::None || m_previous == Token::Operator ||
               (m_previous == Token::Identifier && m_spaceAfterPrevious);
    }

    static QChar closingOf(QChar open)
    {
        switch (open.unicode()) {
        case u'(':
            return u')';
        case u'[':
            return u']';
        case u'{':
            return u'}';
        case u'<':
            return u'>';
        default:
            return open;
        }
    }

    static bool isPercentDelimiter(QChar c) { return !c.isNull() && !c.isSpace() && !c.isLetterOrNumber(); }

    /// %q() %Q() %w[] %i[] %x() %r{} %s() %(): Ruby's general delimited literals.
    bool startPercentLiteral()
    {
        const QChar type = at(m_pos + 1);
        const bool typed = QStringView(u"qQwWiIxrs").contains(type);
        const qsizetype delimiter = typed ? m_pos + 2 : m_pos + 1;
        const QChar open = at(delimiter);
        if (!isPercentDelimiter(open)) {
            return false;
        }
        if (typed && type != u'x' && !rubyOperandPosition()) {
            return false; // a % q
        }
        // %x runs a command wherever it could be one. Untyped, only brackets: `a %-b` is arithmetic.
        if (!typed && (!rubyOperandPosition() || !QStringView(u"([{<").contains(open))) {
            return false;
        }
        const bool interpolates = !QStringView(u"qwis").contains(type);
        pushQuoted(m_pos, delimiter, open, closingOf(open), true,
                   interpolates ? Interpolation::HashBraces : Interpolation::None);
        return true;
    }

    /// <<~ID, <<-ID, <<ID, with 'ID', "ID" or `ID`: the body starts on the next line.
    bool startHeredocOpener()
    {
        qsizetype j = m_pos + 2;
        bool indented = false;
        if (at(j) == u'~' || at(j) == u'-') {
            indented = true;
            ++j;
        }
        const QChar quote = at(j);
        QString id;
        qsizetype end = j;
        bool escapes = true;
        Interpolation interpolation = Interpolation::HashBraces;
        if (quote == u'\'' || quote == u'"' || quote == u'`') {
            const qsizetype close = m_code.indexOf(quote, j + 1);
            if (close < 0 || close > lineEnd(j)) {
                return false;
            }
            id = m_code.mid(j + 1, close - j - 1);
            end = close + 1;
            if (quote == u'\'') {
                escapes = false;
                interpolation = Interpolation::None;
            }
        } else if (isIdentifierStart(quote, false)) {
            end = j + 1;
            while (isIdentifierChar(at(end), false)) {
                ++end;
            }
            id = m_code.mid(j, end - j);
            // A bare <<NAME must look like a heredoc: `a << b` and `a<<B` shift.
            if (!indented && (id != id.toUpper() || !rubyOperandPosition())) {
                return false;
            }
        } else {
            return false;
        }
        if (id.isEmpty() || !rubyOperandPosition()) {
            return false;
        }
        // The opener stays visible (a `<<`CMD`` opener is a command); the body is the literal.
        const int literal = openLiteral(m_pos, m_pos, end);
        m_pending.append(PendingHeredoc{id, indented, escapes, interpolation, literal});
        m_pos = end;
        setPrevious(Token::Identifier);
        return true;
    }

    void startHeredoc()
    {
        const PendingHeredoc heredoc = m_pending.takeFirst();
        Frame frame;
        frame.kind = FrameKind::Heredoc;
        frame.literal = heredoc.literal;
        frame.terminator = heredoc.id;
        frame.indentedTerminator = heredoc.indented;
        frame.escapes = heredoc.escapes;
        frame.multiline = true;
        frame.interpolationStyle = heredoc.interpolation;
        m_literals[heredoc.literal].contentStart = m_pos;
        m_stack.append(frame);
    }

    void identifier()
    {
        const bool dollar = m_dialect.dollarIdentifiers || m_dialect.ruby;
        const qsizetype start = m_pos;
        ++m_pos;
        while (m_pos < m_size && isIdentifierChar(m_code.at(m_pos), dollar)) {
            ++m_pos;
        }
        if (m_dialect.ruby && (at(m_pos) == u'?' || at(m_pos) == u'!') && at(m_pos + 1) != u'=') {
            ++m_pos; // empty? save!
        }
        const QString word = m_code.mid(start, m_pos - start);
        const QChar next = at(m_pos);
        if (next == u'"' || next == u'\'') {
            if (m_dialect.pythonStrings && isPythonPrefix(word)) {
                startQuote(start, m_pos,
                           word.contains(u'f', Qt::CaseInsensitive) ? Interpolation::PythonBraces
                                                                    : Interpolation::None);
                return;
            }
            if (m_dialect.cppRawStrings && next == u'"' && isCppRawPrefix(word) && startCppRawString(start)) {
                return;
            }
            if (m_dialect.r && (word == u"r" || word == u"R") && startRRawString(start)) {
                return;
            }
        }
        setPrevious(Token::Identifier, word);
    }

    static bool isPythonPrefix(const QString &word)
    {
        static const QSet<QString> prefixes = {QStringLiteral("r"),  QStringLiteral("u"),  QStringLiteral("f"),
                                               QStringLiteral("b"),  QStringLiteral("br"), QStringLiteral("rb"),
                                               QStringLiteral("fr"), QStringLiteral("rf")};
        return word.size() <= 2 && prefixes.contains(word.toLower());
    }

    static bool isCppRawPrefix(const QString &word)
    {
        return word == u"R" || word == u"u8R" || word == u"uR" || word == u"UR" || word == u"LR";
    }

    /// R"delim( ... )delim": the delimiter is at most 16 characters, no spaces, parentheses or backslashes.
    bool startCppRawString(qsizetype start)
    {
        const qsizetype quote = m_pos;
        qsizetype paren = quote + 1;
        while (paren < m_size && paren - quote <= 17) {
            const QChar c = m_code.at(paren);
            if (c == u'(') {
                break;
            }
            if (c.isSpace() || c == u')' || c == u'\\' || c == u'"') {
                return false;
            }
            ++paren;
        }
        if (at(paren) != u'(') {
            return false;
        }
        const QString terminator = u')' + m_code.mid(quote + 1, paren - quote - 1) + u'"';
        pushDelimited(start, quote, paren + 1, terminator, false);
        return true;
    }

    /// r"(...)", R'[...]', r"--{...}--" (R 4.0).
    bool startRRawString(qsizetype start)
    {
        const qsizetype quote = m_pos;
        qsizetype open = quote + 1;
        while (at(open) == u'-') {
            ++open;
        }
        const QChar bracket = at(open);
        if (bracket != u'(' && bracket != u'[' && bracket != u'{') {
            return false;
        }
        const QString terminator = closingOf(bracket) + m_code.mid(quote + 1, open - quote - 1) + m_code.at(quote);
        pushDelimited(start, quote, open + 1, terminator, false);
        return true;
    }

    void number()
    {
        ++m_pos;
        while (m_pos < m_size) {
            const QChar c = m_code.at(m_pos);
            if (c.isLetterOrNumber() || c == u'_' || c == u'.') {
                ++m_pos;
            } else if (m_dialect.cppDigitSeparators && c == u'\'' && at(m_pos + 1).isLetterOrNumber()) {
                ++m_pos; // 1'000'000
            } else {
                break;
            }
        }
        setPrevious(Token::Number);
    }

    // ---- literals ----------------------------------------------------------------------------

    void stepLiteral()
    {
        Frame &frame = m_stack.last();
        const QChar c = m_code.at(m_pos);

        if (frame.kind == FrameKind::Heredoc && atLineStart(m_pos) && endsHeredoc(frame)) {
            return;
        }
        if (frame.kind == FrameKind::Delimited && startsWithAt(m_pos, frame.terminator)) {
            closeLiteral(frame.literal, m_pos, m_pos + frame.terminator.size());
            m_pos += frame.terminator.size();
            m_stack.removeLast();
            setPrevious(Token::Closing);
            return;
        }
        if (frame.escapes && c == u'\\') {
            content(m_pos, m_pos + 2);
            return;
        }
        if (frame.kind == FrameKind::Quoted) {
            if (c == u'\n' && !frame.multiline) {
                closeLiteral(frame.literal, m_pos, m_pos);
                m_stack.removeLast();
                setPrevious(Token::Closing);
                return;
            }
            if (frame.regex && c == u'[') {
                frame.inCharacterClass = true;
            } else if (frame.regex && c == u']') {
                frame.inCharacterClass = false;
            } else if (c == frame.close && frame.nesting == 0 && !frame.inCharacterClass) {
                closeQuoted(frame);
                return;
            } else if (c == frame.close && frame.open != frame.close) {
                --frame.nesting;
            } else if (c == frame.open && frame.open != frame.close) {
                ++frame.nesting;
            }
        }
        if (startsInterpolation(frame)) {
            return;
        }
        content(m_pos, m_pos + 1);
    }

    void content(qsizetype from, qsizetype to)
    {
        if (!m_stack.constLast().keepVisible) {
            blank(from, to);
        }
        m_pos = std::min(to, m_size);
    }

    void closeQuoted(const Frame &frame)
    {
        const int literal = frame.literal;
        const bool callableName = frame.callableName;
        closeLiteral(literal, m_pos, m_pos + 1);
        ++m_pos;
        m_stack.removeLast();
        setPrevious(Token::Closing);
        if (callableName) {
            // In R, "system"(...) calls system: a string in call position is a name, so it stays code.
            qsizetype j = m_pos;
            while (at(j) == u' ' || at(j) == u'\t') {
                ++j;
            }
            if (at(j) == u'(') {
                const StringLiteral &range = m_literals.at(literal);
                for (qsizetype i = range.contentStart; i < range.contentEnd; ++i) {
                    m_out[i] = m_code.at(i);
                }
            }
        }
    }

    bool startsInterpolation(const Frame &frame)
    {
        const QChar c = m_code.at(m_pos);
        const QChar next = at(m_pos + 1);
        switch (frame.interpolationStyle) {
        case Interpolation::None:
            return false;
        case Interpolation::PythonBraces:
            if (c == u'{' && next == u'{') {
                content(m_pos, m_pos + 2);
                return true;
            }
            if (c == u'{') {
                pushInterpolation(m_pos + 1, !frame.multiline);
                return true;
            }
            return false;
        case Interpolation::DollarBraces:
            if (c == u'$' && next == u'{') {
                pushInterpolation(m_pos + 2, false);
                return true;
            }
            return false;
        case Interpolation::HashBraces:
            if (c == u'#' && next == u'{') {
                pushInterpolation(m_pos + 2, !frame.multiline);
                return true;
            }
            return false;
        }
        return false;
    }

    bool endsHeredoc(const Frame &frame)
    {
        const qsizetype end = lineEnd(m_pos);
        QStringView line = QStringView(m_code).mid(m_pos, end - m_pos);
        line = frame.indentedTerminator ? line.trimmed() : line;
        while (!line.isEmpty() && line.back().isSpace()) {
            line.chop(1);
        }
        if (line != frame.terminator) {
            return false;
        }
        closeLiteral(frame.literal, m_pos, end);
        m_pos = end;
        m_stack.removeLast();
        return true;
    }

    const Dialect m_dialect;
    const QString &m_code;
    QString m_blanked;
    QChar *m_out = nullptr;
    const qsizetype m_size;
    qsizetype m_pos = 0;
    QList<Frame> m_stack;
    QList<StringLiteral> m_literals;
    QList<PendingHeredoc> m_pending;
    Token m_previous = Token::None;
    QString m_previousWord;
    bool m_spaceAfterPrevious = false;
};

} // namespace

LexedSource SourceLexer::lex(const QString &language, const QString &code)
{
    return Scanner(dialectFor(language), code).run();
}

} // namespace sandbox
