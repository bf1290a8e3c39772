#include "security/LexedSource.h"

#include <algorithm>

namespace sandbox {

LexedSource::LexedSource(QString code, QString blanked, QList<StringLiteral> literals)
    : m_code(std::move(code)), m_blanked(std::move(blanked)), m_literals(std::move(literals))
{
    m_lineStarts.append(0);
    for (qsizetype i = 0; i < m_code.size(); ++i) {
        if (m_code.at(i) == u'\n') {
            m_lineStarts.append(i + 1);
        }
    }
}

QStringView LexedSource::contents(const StringLiteral &literal) const
{
    const qsizetype end = literal.fixedEnd < 0 ? literal.contentEnd : literal.fixedEnd;
    return QStringView(m_code).mid(literal.contentStart, end - literal.contentStart);
}

const StringLiteral *LexedSource::literalAt(qsizetype offset) const
{
    // A prefix is at most a few characters before the delimiter ("u8R", "%Q", "<<~").
    constexpr qsizetype longestPrefix = 3;
    auto it = std::lower_bound(m_literals.cbegin(), m_literals.cend(), offset - longestPrefix,
                               [](const StringLiteral &literal, qsizetype value) { return literal.start < value; });
    for (; it != m_literals.cend() && it->start <= offset; ++it) {
        if (it->start == offset || it->delimiter == offset) {
            return &*it;
        }
    }
    return nullptr;
}

qsizetype LexedSource::lineIndex(qsizetype offset) const
{
    const auto it = std::upper_bound(m_lineStarts.cbegin(), m_lineStarts.cend(), offset);
    return std::distance(m_lineStarts.cbegin(), it) - 1;
}

int LexedSource::lineOf(qsizetype offset) const
{
    return int(lineIndex(offset)) + 1;
}

int LexedSource::columnOf(qsizetype offset) const
{
    return int(offset - m_lineStarts.at(lineIndex(offset))) + 1;
}

} // namespace sandbox
