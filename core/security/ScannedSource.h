#pragma once

#include "security/ImportScanner.h"
#include "security/LexedSource.h"

#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// A program's code read once for everything that looks at it before it runs: lexed (comments and string contents
/// told apart from code) and, on first use, its imports. The code policy and the engine's choice of a preloaded
/// interpreter read the same value, so a run's code is lexed once.
class ScannedSource final
{
public:
    /// `language`: a name or alias LanguageRegistry knows (made canonical here), or any other word (the code is then
    /// read as plain text).
    ScannedSource(const QString &language, const QString &code);

    /// Canonical: "python", not "py".
    const QString &language() const { return m_language; }
    const QString &code() const { return m_lexed.code(); }
    const LexedSource &lexed() const { return m_lexed; }
    /// ImportScanner's reading, made on the first call and kept (one run's value: not for several threads at once).
    const QList<ImportReference> &imports() const;

private:
    QString m_language;
    LexedSource m_lexed;
    mutable std::optional<QList<ImportReference>> m_imports;
};

} // namespace sandbox
