#pragma once

#include "lang/Language.h"
#include "util/Result.h"

#include <QList>

namespace sandbox {

/// The seven supported languages, looked up by name or alias (case-insensitive).
class LanguageRegistry final
{
public:
    static const LanguageRegistry &instance();

    const QList<Language> &languages() const { return m_languages; }
    QStringList names() const;
    /// Finds a language by canonical name or alias; unknown names give an error listing the supported ones.
    Result<Language> find(const QString &nameOrAlias) const;

private:
    LanguageRegistry();
    QList<Language> m_languages;
};

} // namespace sandbox
