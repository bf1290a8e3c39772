#include "security/PolicyRulesFile.h"

#include "security/CodePolicy.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStandardPaths>

namespace sandbox {

namespace {

Error invalid(const QString &path, const QString &problem)
{
    return Error{QStringLiteral("The code policy file %1 is invalid: %2.").arg(path, problem)};
}

/// A string, or a list of strings, under `key`; nullopt with `problem` set when it is neither.
std::optional<QStringList> stringList(const QJsonObject &object, const QString &key, QString &problem)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined()) {
        return QStringList();
    }
    if (value.isString()) {
        return QStringList{value.toString()};
    }
    if (value.isArray()) {
        QStringList out;
        for (const QJsonValue &item : value.toArray()) {
            if (!item.isString()) {
                problem = QStringLiteral("\"%1\" must be a string or a list of strings").arg(key);
                return std::nullopt;
            }
            out << item.toString();
        }
        return out;
    }
    problem = QStringLiteral("\"%1\" must be a string or a list of strings").arg(key);
    return std::nullopt;
}

Result<PolicyRule> ruleFrom(const QJsonObject &object, int number)
{
    static const QSet<QString> known = {QStringLiteral("id"),       QStringLiteral("language"),
                                        QStringLiteral("severity"), QStringLiteral("description"),
                                        QStringLiteral("pattern"),  QStringLiteral("patterns"),
                                        QStringLiteral("modules")};
    for (const QString &key : object.keys()) {
        if (!known.contains(key)) {
            return Error{QStringLiteral("unknown field \"%1\" (fields: id, language, severity, description, "
                                        "pattern, patterns, modules)")
                             .arg(key)};
        }
    }
    for (const char *required : {"language", "severity", "description"}) {
        const QJsonValue value = object.value(QLatin1String(required));
        if (!value.isString() || value.toString().trimmed().isEmpty()) {
            return Error{QStringLiteral("\"%1\" must be a non-empty string").arg(QLatin1String(required))};
        }
    }
    PolicyRule rule;
    rule.language = object.value(QStringLiteral("language")).toString().trimmed();
    auto severity = parseSeverity(object.value(QStringLiteral("severity")).toString());
    if (!severity) {
        return severity.error();
    }
    rule.severity = *severity;
    rule.description = object.value(QStringLiteral("description")).toString().trimmed();
    QString problem;
    const auto pattern = stringList(object, QStringLiteral("pattern"), problem);
    const auto patterns = stringList(object, QStringLiteral("patterns"), problem);
    const auto modules = stringList(object, QStringLiteral("modules"), problem);
    if (!pattern || !patterns || !modules) {
        return Error{problem};
    }
    rule.patterns = *pattern + *patterns;
    rule.modules = *modules;
    if (rule.patterns.isEmpty() && rule.modules.isEmpty()) {
        return Error{QStringLiteral("it needs a \"pattern\", \"patterns\" or \"modules\"")};
    }
    const QJsonValue id = object.value(QStringLiteral("id"));
    if (!id.isUndefined() && (!id.isString() || id.toString().trimmed().isEmpty())) {
        return Error{QStringLiteral("\"id\" must be a non-empty string")};
    }
    rule.id = id.isString() ? id.toString().trimmed()
                            : QStringLiteral("user.%1.%2")
                                  .arg(rule.language == QLatin1String("*") ? QStringLiteral("any") : rule.language)
                                  .arg(number);
    return rule;
}

/// A message of CodePolicy or LanguageRegistry as part of one sentence: without "Rule ID: ",
/// inner full stops turned into semicolons, no final one.
QString asClause(QString message, const QString &ruleId)
{
    if (!ruleId.isEmpty() && message.startsWith(QStringLiteral("Rule %1: ").arg(ruleId))) {
        message.remove(0, ruleId.size() + 7);
    }
    while (message.endsWith(u'.')) {
        message.chop(1);
    }
    // "Unknown thing. Choose one of: ..." becomes "unknown thing; choose one of: ...".
    QStringList clauses = message.split(QStringLiteral(". "));
    for (QString &clause : clauses) {
        if (!clause.isEmpty()) {
            clause[0] = clause.at(0).toLower();
        }
    }
    return clauses.join(QStringLiteral("; "));
}

} // namespace

QString PolicyRulesFile::path()
{
    if (const QString path = qEnvironmentVariable("LLM_SANDBOX_POLICY_FILE"); !path.isEmpty()) {
        return path;
    }
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/llm-sandbox/policy.json");
}

Result<QList<PolicyRule>> PolicyRulesFile::load()
{
    return load(path(), qEnvironmentVariableIsSet("LLM_SANDBOX_POLICY_FILE"));
}

Result<QList<PolicyRule>> PolicyRulesFile::load(const QString &path, bool mustExist)
{
    QFile file(path);
    if (!file.exists() && !mustExist) {
        return QList<PolicyRule>();
    }
    if (QFileInfo(path).isDir()) {
        return invalid(path, QStringLiteral("it is a directory"));
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("The code policy file %1 cannot be read: %2.").arg(path, file.errorString())};
    }
    return parse(file.readAll(), path);
}

Result<QList<PolicyRule>> PolicyRulesFile::parse(const QByteArray &json, const QString &path)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        return invalid(
            path, QStringLiteral("it is not valid JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    }
    const QJsonObject root = document.object();
    if (!document.isObject() || !root.value(QStringLiteral("rules")).isArray()) {
        return invalid(path, QStringLiteral("it must be a JSON object with a \"rules\" list"));
    }
    for (const QString &key : root.keys()) {
        if (key != QLatin1String("rules")) {
            return invalid(path, QStringLiteral("unknown field \"%1\" (only \"rules\" is allowed)").arg(key));
        }
    }
    // Validated the way the engine will use them: compiled into a policy (regexes, languages).
    auto scratch = CodePolicy::preset(QStringLiteral("permissive"));
    if (!scratch) {
        return scratch.error();
    }
    QList<PolicyRule> rules;
    QSet<QString> ids;
    const QJsonArray array = root.value(QStringLiteral("rules")).toArray();
    for (int i = 0; i < array.size(); ++i) {
        const QString where = QStringLiteral("rule %1").arg(i + 1);
        if (!array.at(i).isObject()) {
            return invalid(path, where + QStringLiteral(" is not a JSON object"));
        }
        auto rule = ruleFrom(array.at(i).toObject(), i + 1);
        if (!rule) {
            return invalid(path, where + QStringLiteral(": ") + asClause(rule.error().message, {}));
        }
        if (ids.contains(rule->id)) {
            return invalid(path, QStringLiteral("%1: the id \"%2\" is used twice").arg(where, rule->id));
        }
        ids.insert(rule->id);
        if (auto added = scratch->addRule(*rule); !added) {
            return invalid(path, QStringLiteral("%1: %2").arg(where, asClause(added.error().message, rule->id)));
        }
        rules.append(*rule);
    }
    return rules;
}

} // namespace sandbox
