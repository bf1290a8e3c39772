#pragma once

#include "security/PolicyRule.h"
#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sandbox {

/// The user's own code-policy rules, from a JSON file merged into whichever preset is chosen:
///
///     {"rules": [{"id": "python.pickle", "language": "python", "severity": "high",
///                 "description": "pickle runs code while loading: use json",
///                 "modules": ["pickle"], "pattern": "\\bpickle\\.loads?\\b"}]}
///
/// Each rule needs `language` (a language name or alias, or "*"), `severity` (safe, low, medium,
/// high), `description`, and at least one of `pattern`/`patterns` (regexes on the code with
/// comments and string contents blanked) or `modules` (imports to refuse); `id` defaults to
/// "user.<language>.<n>". A rule with the id of a built-in rule replaces it.
class PolicyRulesFile final
{
public:
    /// LLM_SANDBOX_POLICY_FILE, else $XDG_CONFIG_HOME/llm-sandbox/policy.json (~/.config/...).
    static QString path();
    static QString environmentVariable() { return QStringLiteral("LLM_SANDBOX_POLICY_FILE"); }

    /// The rules of the file at path(). No file is no rules, unless LLM_SANDBOX_POLICY_FILE names
    /// it; anything wrong is one sentence naming the file and the problem.
    static Result<QList<PolicyRule>> load();
    static Result<QList<PolicyRule>> load(const QString &path, bool mustExist);
    /// Parses and validates (regexes compile, languages exist) the file's contents.
    static Result<QList<PolicyRule>> parse(const QByteArray &json, const QString &path);
};

} // namespace sandbox
