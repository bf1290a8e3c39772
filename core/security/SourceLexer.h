#pragma once

#include "security/LexedSource.h"

#include <QString>

namespace sandbox {

/// Tells code from comments and string literals, per language, well enough for policy rules: it
/// blanks comments and literal contents but never hides what the language runs. Code inside
/// literals stays visible (f-string fields, `${...}` in JavaScript templates, `#{...}` in Ruby), as
/// do Ruby's backticks, `%x()` and heredoc openers (their delimiters), R's backtick names and a
/// string in R's call position (`"system"("ls")`): those are code in those languages.
///
/// Where a language cannot be lexed without parsing (JavaScript and Ruby regex literals, Ruby's
/// `%` and `<<`), it guesses from the previous token; strings that cannot span lines end at the
/// line's end, so a wrong guess stays on one line.
class SourceLexer final
{
public:
    /// `language` is a canonical name (python, javascript, java, cpp, go, r, ruby); any other
    /// language is returned unblanked.
    static LexedSource lex(const QString &language, const QString &code);
};

} // namespace sandbox
