#include "security/CodePolicy.h"

#include "lang/LanguageRegistry.h"
#include "security/BuiltinPolicyRules.h"
#include "security/ScannedSource.h"

#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <tuple>

namespace sandbox {

struct CodePolicy::CompiledRule
{
    PolicyRule rule;
    QList<QRegularExpression> patterns;
    QList<QRegularExpression> rawPatterns;
    struct Literal
    {
        std::optional<QRegularExpression> before;
        QRegularExpression content;
    };
    QList<Literal> literals;
};

namespace {

constexpr int maxExcerptLength = 120;
constexpr int maxListedFindings = 20;
const QString anyLanguage = QStringLiteral("*");

/// "subprocess" matches subprocess and subprocess.run, "os.exec*" os.execv, and an import of
/// "os.*" (from os import *) matches every rule module inside os.
bool moduleMatches(const QString &ruleModule, const QString &imported)
{
    if (ruleModule.endsWith(u'*')) {
        const QStringView prefix = QStringView(ruleModule).chopped(1);
        if (imported.startsWith(prefix)) {
            return true;
        }
        if (imported.endsWith(u".*")) {
            return prefix.startsWith(QStringView(imported).chopped(1));
        }
        return false;
    }
    if (imported == ruleModule) {
        return true;
    }
    if (imported.size() > ruleModule.size() && imported.startsWith(ruleModule)) {
        const QChar separator = imported.at(ruleModule.size());
        return separator == u'.' || separator == u'/';
    }
    if (imported.endsWith(u".*")) {
        return ruleModule.startsWith(QStringView(imported).chopped(1));
    }
    return false;
}

QString excerptOf(const QString &code, qsizetype start, qsizetype end)
{
    QStringView text = QStringView(code).mid(start, std::max<qsizetype>(end - start, 0));
    if (const qsizetype newline = text.indexOf(u'\n'); newline >= 0) {
        text = text.left(newline);
    }
    text = text.trimmed();
    if (text.size() > maxExcerptLength) {
        return text.left(maxExcerptLength - 1).toString() + QChar(0x2026);
    }
    return text.toString();
}

Result<QRegularExpression> compileRegex(const PolicyRule &rule, const QString &pattern)
{
    QRegularExpression regex(pattern);
    if (!regex.isValid()) {
        return Error{QStringLiteral("Rule %1: \"%2\" is not a valid regular expression (%3 at offset %4)")
                         .arg(rule.id, pattern, regex.errorString())
                         .arg(regex.patternErrorOffset())};
    }
    if (regex.match(QString()).hasMatch()) {
        // It would match at every position of every program.
        return Error{QStringLiteral("Rule %1: \"%2\" matches empty text").arg(rule.id, pattern)};
    }
    regex.optimize();
    return regex;
}

/// Gathers findings of one rule: one per line, at its first match on that line.
class FindingCollector final
{
public:
    FindingCollector(const LexedSource &source, const PolicyRule &rule, QList<PolicyFinding> &out)
        : m_source(source), m_rule(rule), m_out(out)
    {}

    void add(qsizetype start, qsizetype end)
    {
        const int line = m_source.lineOf(start);
        if (m_lines.contains(line)) {
            return;
        }
        m_lines.insert(line);
        m_out.append(PolicyFinding{m_rule.id, m_rule.description, m_rule.severity, line, m_source.columnOf(start),
                                   excerptOf(m_source.code(), start, end)});
    }

private:
    const LexedSource &m_source;
    const PolicyRule &m_rule;
    QList<PolicyFinding> &m_out;
    QSet<int> m_lines;
};

QString unknownPreset(const QString &name)
{
    return QStringLiteral("unknown code policy \"%1\" (presets: %2)")
        .arg(name, CodePolicy::presetNames().join(QStringLiteral(", ")));
}

} // namespace

CodePolicy::CodePolicy(QString name, std::optional<Severity> threshold, Rules rules)
    : m_name(std::move(name)), m_threshold(threshold), m_rules(std::move(rules))
{}

QStringList CodePolicy::presetNames()
{
    return {QStringLiteral("permissive"), QStringLiteral("default"), QStringLiteral("strict")};
}

Result<CodePolicy> CodePolicy::preset(const QString &name)
{
    const QString wanted = name.trimmed().toLower();
    std::optional<Severity> threshold;
    if (wanted == u"default") {
        threshold = Severity::High;
    } else if (wanted == u"strict") {
        threshold = Severity::Medium;
    } else if (wanted != u"permissive") {
        QString message = unknownPreset(name);
        message[0] = message.at(0).toUpper();
        return Error{message + u'.', ErrorCode::BadRequest};
    }
    auto rules = builtinRules();
    if (!rules) {
        return rules.error();
    }
    return CodePolicy(wanted, threshold, *rules);
}

Result<CodePolicy> CodePolicy::fromEnvironment()
{
    const QString value = qEnvironmentVariable("SANDBOX_POLICY").trimmed();
    if (value.isEmpty()) {
        return preset(QStringLiteral("default"));
    }
    if (!presetNames().contains(value.toLower())) {
        return Error{QStringLiteral("Invalid %1: %2.").arg(environmentVariable(), unknownPreset(value)),
                     ErrorCode::BadRequest};
    }
    return preset(value);
}

Result<CodePolicy::Rules> CodePolicy::builtinRules()
{
    // Compiled once: the regexes are shared by every policy (QRegularExpression is implicitly shared).
    static const Result<Rules> rules = []() -> Result<Rules> {
        Rules out;
        for (const PolicyRule &rule : builtinPolicyRules()) {
            auto compiled = compile(rule);
            if (!compiled) {
                return compiled.error();
            }
            out.append(*compiled);
        }
        return out;
    }();
    return rules;
}

Result<std::shared_ptr<const CodePolicy::CompiledRule>> CodePolicy::compile(const PolicyRule &rule)
{
    if (rule.id.trimmed().isEmpty()) {
        return Error{QStringLiteral("A policy rule needs an id")};
    }
    if (rule.description.trimmed().isEmpty()) {
        return Error{QStringLiteral("Rule %1 needs a description").arg(rule.id)};
    }
    if (rule.modules.isEmpty() && rule.patterns.isEmpty() && rule.rawPatterns.isEmpty() && rule.literals.isEmpty()) {
        return Error{QStringLiteral("Rule %1 has nothing to match (no modules, patterns or literals)").arg(rule.id)};
    }
    auto compiled = std::make_shared<CompiledRule>();
    compiled->rule = rule;
    if (rule.language != anyLanguage) {
        const auto language = LanguageRegistry::instance().find(rule.language);
        if (!language) {
            return Error{QStringLiteral("Rule %1: %2").arg(rule.id, language.error().message)};
        }
        compiled->rule.language = language->name;
    }
    // Messages join descriptions into one sentence.
    while (compiled->rule.description.endsWith(u'.')) {
        compiled->rule.description.chop(1);
    }
    for (const QString &module : rule.modules) {
        if (module.trimmed().isEmpty() || module == u"*") {
            return Error{QStringLiteral("Rule %1: \"%2\" is not a module name").arg(rule.id, module)};
        }
    }
    for (const QString &pattern : rule.patterns) {
        auto regex = compileRegex(rule, pattern);
        if (!regex) {
            return regex.error();
        }
        compiled->patterns.append(*regex);
    }
    for (const QString &pattern : rule.rawPatterns) {
        auto regex = compileRegex(rule, pattern);
        if (!regex) {
            return regex.error();
        }
        compiled->rawPatterns.append(*regex);
    }
    for (const LiteralPattern &literal : rule.literals) {
        CompiledRule::Literal out;
        if (!literal.before.isEmpty()) {
            auto before = compileRegex(rule, literal.before);
            if (!before) {
                return before.error();
            }
            out.before = *before;
        }
        QRegularExpression content(literal.content);
        if (literal.content.isEmpty() || !content.isValid()) {
            return Error{QStringLiteral("Rule %1: \"%2\" is not a valid regular expression for literal contents")
                             .arg(rule.id, literal.content)};
        }
        content.optimize();
        out.content = content;
        compiled->literals.append(out);
    }
    return std::shared_ptr<const CompiledRule>(std::move(compiled));
}

Result<void> CodePolicy::addRule(const PolicyRule &rule)
{
    auto compiled = compile(rule);
    if (!compiled) {
        return compiled.error();
    }
    const auto existing = std::find_if(m_rules.begin(), m_rules.end(),
                                       [&](const auto &candidate) { return candidate->rule.id == rule.id; });
    if (existing != m_rules.end()) {
        *existing = *compiled;
    } else {
        m_rules.append(*compiled);
    }
    return {};
}

QList<PolicyRule> CodePolicy::rules() const
{
    QList<PolicyRule> out;
    for (const auto &compiled : m_rules) {
        out.append(compiled->rule);
    }
    return out;
}

QList<PolicyFinding> CodePolicy::findings(const QString &language, const QString &code) const
{
    return scan(ScannedSource(language, code), Severity::Safe);
}

QList<PolicyFinding> CodePolicy::scan(const ScannedSource &scanned, Severity minimum) const
{
    const QString &canonical = scanned.language();
    const QString &code = scanned.code();
    QList<const CompiledRule *> active;
    for (const auto &compiled : m_rules) {
        if ((compiled->rule.language == canonical || compiled->rule.language == anyLanguage) &&
            compiled->rule.severity >= minimum) {
            active.append(compiled.get());
        }
    }
    QList<PolicyFinding> out;
    if (active.isEmpty()) {
        return out;
    }

    const LexedSource &source = scanned.lexed();

    for (const CompiledRule *compiled : std::as_const(active)) {
        FindingCollector collector(source, compiled->rule, out);
        for (const QString &module : compiled->rule.modules) {
            for (const ImportReference &reference : scanned.imports()) {
                if (moduleMatches(module, reference.module)) {
                    collector.add(reference.start, reference.end);
                }
            }
        }
        for (const QRegularExpression &pattern : compiled->patterns) {
            for (auto it = pattern.globalMatch(source.blanked()); it.hasNext();) {
                const auto match = it.next();
                collector.add(match.capturedStart(), match.capturedEnd());
            }
        }
        for (const QRegularExpression &pattern : compiled->rawPatterns) {
            for (auto it = pattern.globalMatch(code); it.hasNext();) {
                const auto match = it.next();
                collector.add(match.capturedStart(), match.capturedEnd());
            }
        }
        for (const CompiledRule::Literal &literal : compiled->literals) {
            if (!literal.before) {
                for (const StringLiteral &candidate : source.literals()) {
                    if (literal.content.match(source.contents(candidate)).hasMatch()) {
                        collector.add(candidate.start, candidate.end);
                    }
                }
                continue;
            }
            for (auto it = literal.before->globalMatch(source.blanked()); it.hasNext();) {
                const auto match = it.next();
                const StringLiteral *candidate = source.literalAt(match.capturedEnd());
                if (candidate && literal.content.match(source.contents(*candidate)).hasMatch()) {
                    collector.add(match.capturedStart(), candidate->end);
                }
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const PolicyFinding &a, const PolicyFinding &b) {
        return std::tie(a.line, a.column, a.ruleId) < std::tie(b.line, b.column, b.ruleId);
    });
    return out;
}

Result<void> CodePolicy::check(const QString &language, const QString &code) const
{
    return check(ScannedSource(language, code));
}

Result<void> CodePolicy::check(const ScannedSource &scanned) const
{
    if (!m_threshold) {
        return {};
    }
    const QList<PolicyFinding> refused = scan(scanned, *m_threshold);
    if (refused.isEmpty()) {
        return {};
    }
    QStringList reasons;
    for (const PolicyFinding &finding : refused.mid(0, maxListedFindings)) {
        reasons << QStringLiteral("line %1: %2 \u2014 %3 (found \"%4\")")
                       .arg(finding.line)
                       .arg(finding.ruleId, finding.description, finding.excerpt);
    }
    if (refused.size() > maxListedFindings) {
        reasons << QStringLiteral("and %1 more").arg(refused.size() - maxListedFindings);
    }
    return Error{QStringLiteral("Refused by the %1 code policy, nothing was run: %2.")
                     .arg(m_name, reasons.join(QStringLiteral("; "))),
                 ErrorCode::PolicyRefused};
}

} // namespace sandbox
