#pragma once

#include "security/Severity.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// Matches string literals by their contents, optionally only where they follow a call
/// (`getattr(os, "system")`, `do.call("system", ...)`): what comments-and-strings blanking hides.
struct LiteralPattern
{
    /// Regex on the blanked code that must end exactly where the literal starts; empty: any literal.
    QString before;
    /// Regex on the literal's contents (without its quotes, escapes as written).
    QString content;
};

/// One thing the code policy looks for in one language. Plain data, so user rules can come from
/// settings; CodePolicy::addRule() validates and compiles it.
///
/// Patterns run on the code with comments and the contents of string literals blanked out (same
/// offsets, same lines), so `# import subprocess` and `print("os.system")` never match.
/// Write them without nested quantifiers (`(a+)*`) and without a leading `\s*`: they scan up to
/// megabytes of code.
struct PolicyRule
{
    QString id;       ///< "python.subprocess": language, dot, what it is about
    QString language; ///< canonical language name (LanguageRegistry), or "*" for every language
    Severity severity = Severity::High;
    QString description; ///< what is wrong and what to do instead, for the model that wrote the code
    /// Modules whose import is refused: "subprocess" also matches "subprocess.run" and "os/exec" also
    /// "os/exec/sub"; a trailing `*` is a prefix ("os.exec*"). Imports are found per language
    /// (import/from, require, library, #include, `__import__("x")`, ...).
    QStringList modules;
    QStringList patterns;    ///< regexes on the blanked code
    QStringList rawPatterns; ///< regexes on the code as written, for what blanking would hide
    QList<LiteralPattern> literals;
};

} // namespace sandbox
