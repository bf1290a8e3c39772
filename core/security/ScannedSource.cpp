#include "security/ScannedSource.h"

#include "lang/LanguageRegistry.h"
#include "security/SourceLexer.h"

namespace sandbox {

namespace {

QString canonical(const QString &language)
{
    const auto known = LanguageRegistry::instance().find(language);
    return known ? known->name : language.trimmed().toLower();
}

} // namespace

ScannedSource::ScannedSource(const QString &language, const QString &code)
    : m_language(canonical(language)), m_lexed(SourceLexer::lex(m_language, code))
{}

const QList<ImportReference> &ScannedSource::imports() const
{
    if (!m_imports) {
        m_imports = ImportScanner::imports(m_language, m_lexed);
    }
    return *m_imports;
}

} // namespace sandbox
