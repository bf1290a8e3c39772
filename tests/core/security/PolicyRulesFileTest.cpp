#include "security/PolicyRulesFile.h"

#include "ScopedEnvironment.h"
#include "security/CodePolicy.h"
#include "settings/SandboxSettings.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

namespace {

const QString kPath = QStringLiteral("/home/user/.config/llm-sandbox/policy.json");

/// The error of parsing `json`, or an empty string when it parsed.
QString problemWith(const QByteArray &json)
{
    auto rules = PolicyRulesFile::parse(json, kPath);
    return rules ? QString() : rules.error().message;
}

const QByteArray kPickleRule = R"({"rules": [
    {"id": "python.pickle", "language": "python", "severity": "high",
     "description": "pickle runs code while loading: use json instead.",
     "modules": ["pickle"], "pattern": "\\bmarshal\\.loads\\b"},
    {"language": "js", "severity": "medium", "description": "no eval", "patterns": ["\\beval\\s*\\("]}
]})";

} // namespace

TEST(PolicyRulesFile, parsesRulesWithPatternsModulesAndSeverities)
{
    auto rules = PolicyRulesFile::parse(kPickleRule, kPath);
    ASSERT_TRUE(rules.ok()) << rules.error().message.toStdString();
    ASSERT_EQ(rules->size(), 2);
    const PolicyRule &pickle = rules->at(0);
    EXPECT_EQ(pickle.id, "python.pickle");
    EXPECT_EQ(pickle.language, "python");
    EXPECT_EQ(pickle.severity, Severity::High);
    EXPECT_EQ(pickle.modules, QStringList{"pickle"});
    EXPECT_EQ(pickle.patterns, QStringList{R"(\bmarshal\.loads\b)"});
    const PolicyRule &eval = rules->at(1);
    EXPECT_EQ(eval.id, "user.js.2") << "a rule without an id gets one from its language and position";
    EXPECT_EQ(eval.severity, Severity::Medium);
}

TEST(PolicyRulesFile, userRulesMergeIntoTheChosenPreset)
{
    auto rules = PolicyRulesFile::parse(kPickleRule, kPath);
    ASSERT_TRUE(rules.ok());
    const QString code = QStringLiteral("import json\nimport pickle\nprint(pickle.dumps(1))\n");

    CodePolicy policy = *CodePolicy::preset("default");
    const int builtinRules = policy.rules().size();
    ASSERT_TRUE(policy.check("python", code).ok()) << "pickle is not refused by the built-in rules";
    for (const PolicyRule &rule : *rules) {
        ASSERT_TRUE(policy.addRule(rule).ok());
    }
    EXPECT_EQ(policy.rules().size(), builtinRules + 2);
    auto refused = policy.check("python", code);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains("line 2: python.pickle")) << refused.error().message.toStdString();
    EXPECT_TRUE(refused.error().message.contains("use json instead")) << refused.error().message.toStdString();
    // Built-in rules still apply next to the user's.
    EXPECT_FALSE(policy.check("python", "import subprocess\n").ok());
    // Comments and strings never match user patterns either.
    EXPECT_TRUE(policy.check("python", "# import pickle\nprint('marshal.loads(x)')\n").ok());

    // A medium rule is reported but refused only by strict.
    EXPECT_TRUE(policy.check("javascript", "eval('1')\n").ok());
    CodePolicy strict = *CodePolicy::preset("strict");
    ASSERT_TRUE(strict.addRule(rules->at(1)).ok());
    EXPECT_FALSE(strict.check("javascript", "const f = eval;\nf('1'); eval ('2');\n").ok());
}

TEST(PolicyRulesFile, everyProblemIsOneSentenceNamingTheFile)
{
    const struct
    {
        QByteArray json;
        const char *expected;
    } cases[] = {
        {"{\"rules\": [", "is not valid JSON"},
        {"[]", "a JSON object with a \"rules\" list"},
        {R"({"rules": {}})", "a JSON object with a \"rules\" list"},
        {R"({"rules": [], "threshold": "low"})", "unknown field \"threshold\""},
        {R"({"rules": [1]})", "rule 1 is not a JSON object"},
        {R"({"rules": [{"language": "python", "severity": "high", "description": "d", "pattern": "x", "sevrity": 1}]})",
         "rule 1: unknown field \"sevrity\""},
        {R"({"rules": [{"language": "python", "severity": "hgh", "description": "d", "pattern": "x"}]})",
         "rule 1: \"hgh\" is not a severity"},
        {R"({"rules": [{"language": "cobol", "severity": "high", "description": "d", "pattern": "x"}]})",
         "rule 1: unsupported language \"cobol\"; supported languages: "},
        {R"({"rules": [{"language": "python", "severity": "high", "description": "d", "pattern": "(x"}]})",
         "is not a valid regular expression"},
        {R"({"rules": [{"language": "python", "severity": "high", "description": "d", "pattern": "x*"}]})",
         "matches empty text"},
        {R"({"rules": [{"language": "python", "severity": "high", "description": "d"}]})",
         "rule 1: it needs a \"pattern\", \"patterns\" or \"modules\""},
        {R"({"rules": [{"language": "python", "severity": "high", "pattern": "x"}]})",
         "rule 1: \"description\" must be a non-empty string"},
        {R"({"rules": [{"language": "python", "severity": "high", "description": "d", "patterns": [1]}]})",
         "\"patterns\" must be a string or a list of strings"},
        {R"({"rules": [{"id": "a", "language": "python", "severity": "high", "description": "d", "pattern": "x"},
                       {"id": "a", "language": "python", "severity": "low", "description": "d", "pattern": "y"}]})",
         "rule 2: the id \"a\" is used twice"},
    };
    for (const auto &c : cases) {
        const QString problem = problemWith(c.json);
        ASSERT_FALSE(problem.isEmpty()) << c.json.constData();
        EXPECT_TRUE(problem.startsWith("The code policy file " + kPath + " is invalid: ")) << problem.toStdString();
        EXPECT_TRUE(problem.contains(QString::fromUtf8(c.expected))) << problem.toStdString();
        EXPECT_TRUE(problem.endsWith('.')) << problem.toStdString();
        EXPECT_FALSE(problem.contains('\n')) << problem.toStdString();
        EXPECT_EQ(problem.count(". "), 0) << "more than one sentence: " << problem.toStdString();
    }
}

TEST(PolicyRulesFile, aMissingFileIsNoRulesUnlessItWasNamed)
{
    QTemporaryDir dir;
    const QString missing = dir.filePath("policy.json");
    auto none = PolicyRulesFile::load(missing, false);
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->isEmpty());
    auto named = PolicyRulesFile::load(missing, true);
    ASSERT_FALSE(named.ok());
    EXPECT_TRUE(named.error().message.contains(missing)) << named.error().message.toStdString();
    auto directory = PolicyRulesFile::load(dir.path(), false);
    ASSERT_FALSE(directory.ok());
    EXPECT_TRUE(directory.error().message.contains("is a directory"));
}

TEST(PolicyRulesFile, defaultPathIsInTheUsersConfigFolderAndTheVariableOverridesIt)
{
    {
        ScopedEnvironment unset({{"LLM_SANDBOX_POLICY_FILE", QByteArray()}});
        EXPECT_TRUE(PolicyRulesFile::path().endsWith("/llm-sandbox/policy.json"))
            << PolicyRulesFile::path().toStdString();
    }
    ScopedEnvironment set({{"LLM_SANDBOX_POLICY_FILE", "/etc/llm-sandbox/policy.json"}});
    EXPECT_EQ(PolicyRulesFile::path(), "/etc/llm-sandbox/policy.json");
}

TEST(PolicyRulesFile, settingsLoadTheFileAndRefuseToStartWithABadOne)
{
    QTemporaryDir dir;
    const QString good = dir.filePath("good.json");
    const QString bad = dir.filePath("bad.json");
    for (const auto &[path, text] : {std::pair{good, kPickleRule}, std::pair{bad, QByteArray("{\"rules\": [")}}) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
    {
        ScopedEnvironment variable({{"LLM_SANDBOX_POLICY_FILE", good.toUtf8()}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_TRUE(settings.ok()) << settings.error().message.toStdString();
        ASSERT_EQ(settings->policyRules.size(), 2);
        EXPECT_EQ(settings->policyRules.first().id, "python.pickle");
    }
    {
        ScopedEnvironment variable({{"LLM_SANDBOX_POLICY_FILE", bad.toUtf8()}});
        auto settings = SandboxSettings::fromEnvironment();
        ASSERT_FALSE(settings.ok());
        EXPECT_TRUE(settings.error().message.startsWith("The code policy file " + bad + " is invalid"))
            << settings.error().message.toStdString();
    }
}
