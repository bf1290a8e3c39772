#include "security/ImportScanner.h"

#include <QHash>
#include <QRegularExpression>
#include <algorithm>

namespace sandbox {

namespace {

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

/// Walks the blanked code from an offset: the small parser behind Python's import lists and Go's
/// import blocks (regexes with repeated groups would be slower and harder to bound).
class Cursor final
{
public:
    Cursor(const QString &text, qsizetype position) : m_text(text), m_position(position) {}

    qsizetype position() const { return m_position; }
    QChar peek() const { return m_position < m_text.size() ? m_text.at(m_position) : QChar(); }
    void advance() { ++m_position; }

    void skipSpaces(bool newlines)
    {
        while (m_position < m_text.size()) {
            const QChar c = m_text.at(m_position);
            if (c == u'\\' && m_position + 1 < m_text.size() && m_text.at(m_position + 1) == u'\n') {
                m_position += 2; // Python line continuation
            } else if (c == u' ' || c == u'\t' || c == u'\r' || (newlines && c == u'\n')) {
                ++m_position;
            } else {
                break;
            }
        }
    }

    /// A name with dots (a.b.c).
    QString dottedName()
    {
        const qsizetype start = m_position;
        while (m_position < m_text.size() && (isNameChar(m_text.at(m_position)) || m_text.at(m_position) == u'.')) {
            ++m_position;
        }
        return m_text.mid(start, m_position - start);
    }

    bool keyword(QStringView word)
    {
        if (QStringView(m_text).mid(m_position).startsWith(word) &&
            !isNameChar(m_position + word.size() < m_text.size() ? m_text.at(m_position + word.size()) : QChar())) {
            m_position += word.size();
            return true;
        }
        return false;
    }

private:
    const QString &m_text;
    qsizetype m_position;
};

void add(QList<ImportReference> &out, QString module, qsizetype start, qsizetype end)
{
    if (!module.isEmpty()) {
        out.append(ImportReference{std::move(module), start, end});
    }
}

/// The literal right at `offset`, as a module name.
bool literalModule(const LexedSource &source, qsizetype offset, QString *module, qsizetype *end)
{
    const StringLiteral *literal = source.literalAt(offset);
    if (!literal) {
        return false;
    }
    *module = source.contents(*literal).trimmed().toString();
    *end = literal->end;
    return true;
}

void python(const LexedSource &source, QList<ImportReference> &out)
{
    const QString &code = source.blanked();
    QHash<QString, QString> aliases; // name bound by an import -> what it names

    static const QRegularExpression statement(QStringLiteral(R"(\bfrom\s+([\w.]++)\s+import\b|\bimport\b)"));
    for (auto it = statement.globalMatch(code); it.hasNext();) {
        const auto match = it.next();
        const QString from = match.captured(1);
        if (from.startsWith(u'.')) {
            continue; // relative: the program's own modules
        }
        Cursor cursor(code, match.capturedEnd());
        cursor.skipSpaces(false);
        const bool parenthesized = cursor.peek() == u'(';
        if (parenthesized) {
            cursor.advance();
        }
        if (!from.isEmpty()) {
            add(out, from, match.capturedStart(), match.capturedEnd(1));
        }
        while (true) {
            cursor.skipSpaces(parenthesized);
            QString name;
            if (cursor.peek() == u'*') {
                cursor.advance();
                name = QStringLiteral("*");
            } else {
                name = cursor.dottedName();
            }
            if (name.isEmpty()) {
                break;
            }
            const QString module = from.isEmpty() ? name : from + u'.' + name;
            add(out, module, match.capturedStart(), cursor.position());
            cursor.skipSpaces(parenthesized);
            if (cursor.keyword(u"as")) {
                cursor.skipSpaces(parenthesized);
                aliases.insert(cursor.dottedName(), module);
            } else if (name != u"*") {
                aliases.insert(from.isEmpty() ? name.section(u'.', 0, 0) : name,
                               from.isEmpty() ? name.section(u'.', 0, 0) : module);
            }
            cursor.skipSpaces(parenthesized);
            if (cursor.peek() != u',') {
                break;
            }
            cursor.advance();
        }
    }

    // __import__("os").system and importlib.import_module("subprocess").
    static const QRegularExpression dynamic(QStringLiteral(R"(\b(?:__import__|import_module)\s*\(\s*)"));
    for (auto it = dynamic.globalMatch(code); it.hasNext();) {
        const auto match = it.next();
        QString module;
        qsizetype end = 0;
        if (!literalModule(source, match.capturedEnd(), &module, &end)) {
            continue;
        }
        add(out, module, match.capturedStart(), end);
        Cursor cursor(code, end);
        cursor.skipSpaces(true);
        if (cursor.peek() != u')') {
            continue;
        }
        cursor.advance();
        cursor.skipSpaces(false);
        if (cursor.peek() != u'.') {
            continue;
        }
        cursor.advance();
        cursor.skipSpaces(false);
        const qsizetype nameStart = cursor.position();
        const QString attribute = cursor.dottedName().section(u'.', 0, 0);
        add(out, attribute.isEmpty() ? QString() : module + u'.' + attribute, match.capturedStart(),
            nameStart + attribute.size());
    }

    // alias.attribute for every name an import bound: `import os as o; o.system(...)`.
    if (aliases.isEmpty()) {
        return;
    }
    static const QRegularExpression attribute(QStringLiteral(R"((?<![\w.])([A-Za-z_]\w*+)\s*\.\s*([A-Za-z_]\w*+))"));
    for (auto it = attribute.globalMatch(code); it.hasNext();) {
        const auto match = it.next();
        const auto alias = aliases.constFind(match.captured(1));
        if (alias != aliases.cend()) {
            add(out, *alias + u'.' + match.captured(2), match.capturedStart(), match.capturedEnd());
        }
    }
}

void javascript(const LexedSource &source, QList<ImportReference> &out)
{
    static const QRegularExpression form(QStringLiteral(R"(\b(?:(?:require|import)\s*\(\s*|from\s*|import\s*))"));
    for (auto it = form.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        QString module;
        qsizetype end = 0;
        if (literalModule(source, match.capturedEnd(), &module, &end)) {
            if (module.startsWith(u"node:")) {
                module.remove(0, 5);
            }
            add(out, module, match.capturedStart(), end);
        }
    }
}

void java(const LexedSource &source, QList<ImportReference> &out)
{
    static const QRegularExpression statement(QStringLiteral(R"(\bimport\s+(?:static\s+)?([\w.]++\*?))"));
    for (auto it = statement.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        QString module = match.captured(1);
        if (module.endsWith(u".*")) {
            module.chop(2);
        }
        add(out, module, match.capturedStart(), match.capturedEnd());
    }
    static const QRegularExpression reflective(QStringLiteral(R"(\b(?:forName|loadClass)\s*\(\s*)"));
    for (auto it = reflective.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        QString module;
        qsizetype end = 0;
        if (literalModule(source, match.capturedEnd(), &module, &end)) {
            add(out, module, match.capturedStart(), end);
        }
    }
}

void cpp(const LexedSource &source, QList<ImportReference> &out)
{
    static const QRegularExpression include(QStringLiteral(R"(^[ \t]*#[ \t]*include[ \t]*(?:<([^>\n]*+)>)?)"),
                                            QRegularExpression::MultilineOption);
    for (auto it = include.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        if (match.hasCaptured(1)) {
            add(out, match.captured(1).trimmed(), match.capturedStart(), match.capturedEnd());
            continue;
        }
        QString module;
        qsizetype end = 0;
        if (literalModule(source, match.capturedEnd(), &module, &end)) {
            add(out, module, match.capturedStart(), end);
        }
    }
}

void go(const LexedSource &source, QList<ImportReference> &out)
{
    const QString &code = source.blanked();
    const QList<StringLiteral> &literals = source.literals();
    static const QRegularExpression keyword(QStringLiteral(R"(\bimport\b)"));
    qsizetype from = 0;
    for (auto match = keyword.match(code); match.hasMatch(); match = keyword.match(code, from)) {
        from = match.capturedEnd();
        Cursor cursor(code, from);
        cursor.skipSpaces(true);
        if (cursor.peek() == u'(') {
            // import ( "fmt"; ex "os/exec" ): every literal up to the closing parenthesis.
            const qsizetype open = cursor.position();
            const qsizetype close = code.indexOf(u')', open);
            const qsizetype blockEnd = close < 0 ? code.size() : close;
            auto literal = std::lower_bound(literals.cbegin(), literals.cend(), open,
                                            [](const StringLiteral &l, qsizetype value) { return l.start < value; });
            for (; literal != literals.cend() && literal->start < blockEnd; ++literal) {
                add(out, source.contents(*literal).trimmed().toString(), literal->start, literal->end);
            }
            // Resume after the block, so nested or unclosed blocks are read once.
            from = std::max(from, blockEnd);
            continue;
        }
        if (cursor.peek() == u'.' || cursor.peek() == u'_') {
            cursor.advance();
        } else {
            cursor.dottedName(); // an alias
        }
        cursor.skipSpaces(false);
        QString module;
        qsizetype end = 0;
        if (literalModule(source, cursor.position(), &module, &end)) {
            add(out, module, match.capturedStart(), end);
        }
    }
}

void ruby(const LexedSource &source, QList<ImportReference> &out)
{
    static const QRegularExpression form(QStringLiteral(R"(\b(?:require|require_relative|load)\b[ \t]*+\(?[ \t]*+)"));
    for (auto it = form.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        QString module;
        qsizetype end = 0;
        if (literalModule(source, match.capturedEnd(), &module, &end)) {
            add(out, module, match.capturedStart(), end);
        }
    }
}

void r(const LexedSource &source, QList<ImportReference> &out)
{
    static const QRegularExpression attach(QStringLiteral(
        R"(\b(?:library|require|requireNamespace|loadNamespace|attachNamespace)\s*\(\s*([A-Za-z.][\w.]*+)?)"));
    for (auto it = attach.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        if (match.hasCaptured(1)) {
            add(out, match.captured(1), match.capturedStart(), match.capturedEnd());
            continue;
        }
        QString module;
        qsizetype end = 0;
        if (literalModule(source, match.capturedEnd(), &module, &end)) {
            add(out, module, match.capturedStart(), end);
        }
    }
    static const QRegularExpression qualified(QStringLiteral(R"((?<![\w.])([A-Za-z.][\w.]*+)\s*:::?)"));
    for (auto it = qualified.globalMatch(source.blanked()); it.hasNext();) {
        const auto match = it.next();
        add(out, match.captured(1), match.capturedStart(), match.capturedEnd());
    }
}

} // namespace

QList<ImportReference> ImportScanner::imports(const QString &language, const LexedSource &source)
{
    QList<ImportReference> out;
    if (language == u"python") {
        python(source, out);
    } else if (language == u"javascript") {
        javascript(source, out);
    } else if (language == u"java") {
        java(source, out);
    } else if (language == u"cpp") {
        cpp(source, out);
    } else if (language == u"go") {
        go(source, out);
    } else if (language == u"ruby") {
        ruby(source, out);
    } else if (language == u"r") {
        r(source, out);
    }
    return out;
}

} // namespace sandbox
