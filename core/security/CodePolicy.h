#pragma once

#include "security/PolicyFinding.h"
#include "security/PolicyRule.h"
#include "security/Severity.h"
#include "util/Result.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace sandbox {

class ScannedSource;

/// The enforced code policy: rules per language (restricted modules, patterns) with severities,
/// and a threshold. Code with a finding at or above the threshold is refused before it reaches a
/// container. Comments and string literals never match (see SourceLexer).
///
/// The policy is one layer: it catches code that plainly starts programs, loads native code or
/// (under `strict`) uses the network; code written to evade it can, and the container's hardening
/// holds without it.
///
/// Presets: `permissive` refuses nothing (findings are still reported), `default` refuses high
/// findings (starting other programs, native code), `strict` refuses medium and high (also
/// network, paths outside the working directory, code built at run time, creating processes).
/// Copies are cheap; const member functions may be called from several threads at once.
class CodePolicy final
{
public:
    /// "permissive", "default", "strict".
    static QStringList presetNames();
    /// A preset by name (case-insensitive); an unknown name is an error listing the presets.
    static Result<CodePolicy> preset(const QString &name);
    /// The preset named by SANDBOX_POLICY, `default` when it is unset or empty; a bad value is an
    /// error naming the variable.
    static Result<CodePolicy> fromEnvironment();
    static QString environmentVariable() { return QStringLiteral("SANDBOX_POLICY"); }

    /// The preset this policy started from.
    QString name() const { return m_name; }
    /// Findings at or above it are refused; nullopt refuses nothing.
    std::optional<Severity> threshold() const { return m_threshold; }
    void setThreshold(std::optional<Severity> threshold) { m_threshold = threshold; }
    bool refuses(Severity severity) const { return m_threshold && severity >= *m_threshold; }

    /// Adds a rule, or replaces the rule with the same id. An invalid rule (no id, description or
    /// matcher, unknown language, bad or empty-matching regex) is an error naming the rule.
    Result<void> addRule(const PolicyRule &rule);
    QList<PolicyRule> rules() const;

    /// Every finding of every rule for `language` (a name or alias from LanguageRegistry), refused
    /// or not, in order of line; one per rule and line.
    QList<PolicyFinding> findings(const QString &language, const QString &code) const;
    /// Ok when nothing is refused; otherwise an error listing each refused finding as
    /// "line N: rule — description", for the model that wrote the code.
    Result<void> check(const QString &language, const QString &code) const;
    /// check() of code read already (the engine reads a run's code once, for this and its preloaded interpreter).
    Result<void> check(const ScannedSource &scanned) const;

private:
    struct CompiledRule;
    using Rules = QList<std::shared_ptr<const CompiledRule>>;

    CodePolicy(QString name, std::optional<Severity> threshold, Rules rules);
    static Result<std::shared_ptr<const CompiledRule>> compile(const PolicyRule &rule);
    static Result<Rules> builtinRules();
    QList<PolicyFinding> scan(const ScannedSource &scanned, Severity minimum) const;

    QString m_name;
    std::optional<Severity> m_threshold;
    Rules m_rules;
};

} // namespace sandbox
