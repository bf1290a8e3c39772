#include "security/CodePolicy.h"

#include "ScopedEnvironment.h"

#include <QElapsedTimer>
#include <QSet>
#include <gtest/gtest.h>

using namespace sandbox;
using sandbox::test::ScopedEnvironment;

namespace {

CodePolicy policy(const char *name)
{
    auto result = CodePolicy::preset(QString::fromLatin1(name));
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message.toStdString());
    return *result;
}

QStringList ruleIds(const QList<PolicyFinding> &findings)
{
    QStringList out;
    for (const PolicyFinding &finding : findings) {
        out << finding.ruleId;
    }
    return out;
}

struct DangerousCode
{
    const char *name;
    const char *language;
    const char *code;
    const char *ruleId;
    int line;
};

void PrintTo(const DangerousCode &code, std::ostream *out)
{
    *out << code.name;
}

class RefusedByDefault : public ::testing::TestWithParam<DangerousCode>
{
};

// The constructs issue 6 names, and their near relatives, in all seven languages.
const DangerousCode dangerousCode[] = {
    {"python_import_subprocess", "python", "import sys\n\nimport subprocess\nsubprocess.run(['ls'])\n",
     "python.subprocess", 3},
    {"python_from_subprocess", "python", "from subprocess import run\n", "python.subprocess", 1},
    {"python_dunder_import", "python", "x = 1\nm = __import__('subprocess')\n", "python.subprocess", 2},
    {"python_importlib", "python", "import importlib\nimportlib.import_module(\"subprocess\").run('ls')\n",
     "python.subprocess", 2},
    {"python_asyncio_subprocess", "python", "import asyncio\nasyncio.create_subprocess_exec('ls')\n",
     "python.subprocess", 2},
    {"python_os_system", "python", "import os\nos.system('ls')\n", "python.os_system", 2},
    {"python_from_os_import_system", "python", "from os import system\nsystem('ls')\n", "python.os_system", 1},
    {"python_aliased_os_system", "python", "import os as o\n\no.system('ls')\n", "python.os_system", 3},
    {"python_dunder_import_os_system", "python", "__import__('os').system('ls')\n", "python.os_system", 1},
    {"python_getattr_os_system", "python", "import os\ngetattr(os, 'system')('ls')\n", "python.os_system", 2},
    {"python_fstring_field", "python", "import os\nprint(f\"{os.system('ls')}\")\n", "python.os_system", 2},
    {"python_os_popen", "python", "import os\nprint(os.popen('ls').read())\n", "python.os_popen", 2},
    {"python_os_execv", "python", "import os\nos.execv('/bin/ls', ['ls'])\n", "python.os_exec", 2},
    {"python_os_spawnlp", "python", "import os\nos.spawnlp(os.P_WAIT, 'ls', 'ls')\n", "python.os_exec", 2},
    {"python_star_import", "python", "from os import *\nexecv('/bin/ls', ['ls'])\n", "python.os_exec", 1},
    {"python_pty", "python", "import pty\npty.spawn('sh')\n", "python.pty", 1},
    {"python_ctypes", "python", "import ctypes\nctypes.CDLL(None).system(b'ls')\n", "python.ctypes", 1},
    {"javascript_require", "javascript", "const fs = require('fs');\nconst cp = require('child_process');\n",
     "javascript.child_process", 2},
    {"javascript_import_node_prefix", "javascript", "import { execSync } from 'node:child_process';\n",
     "javascript.child_process", 1},
    {"javascript_dynamic_import", "javascript", "const m = await import(\"child_process\");\n",
     "javascript.child_process", 1},
    {"javascript_template_interpolation", "javascript", "console.log(`${require('child_process').execSync('ls')}`);\n",
     "javascript.child_process", 1},
    {"javascript_process_binding", "javascript", "\nprocess.binding('spawn_sync');\n", "javascript.process_binding", 2},
    {"java_runtime_exec", "java",
     "public class Main {\n    public static void main(String[] a) throws Exception {\n"
     "        Runtime.getRuntime().exec(\"ls\");\n    }\n}\n",
     "java.runtime_exec", 3},
    {"java_process_builder", "java",
     "class Main {\n  void f() throws Exception { new ProcessBuilder(\"ls\").start(); }\n}\n", "java.process_builder",
     2},
    {"java_unicode_escape_ends_comment", "java", "class Main {\n  // \\u000a Runtime.getRuntime().exec(\"ls\");\n}\n",
     "java.unicode_escape", 2},
    {"cpp_system", "cpp", "#include <cstdlib>\nint main() { return system(\"ls\"); }\n", "cpp.system", 2},
    {"cpp_std_system", "cpp", "#include <cstdlib>\nint main() {\n  std::system(\"ls\");\n}\n", "cpp.system", 3},
    {"cpp_popen", "cpp", "#include <cstdio>\nint main() { FILE *f = popen(\"ls\", \"r\"); }\n", "cpp.popen", 2},
    {"cpp_execvp", "cpp", "#include <unistd.h>\nint main(int, char **argv) { execvp(\"ls\", argv); }\n", "cpp.exec", 2},
    {"go_import_os_exec", "go", "package main\n\nimport \"os/exec\"\n\nfunc main() { exec.Command(\"ls\").Run() }\n",
     "go.os_exec", 3},
    {"go_import_block", "go", "package main\n\nimport (\n\t\"fmt\"\n\tx \"os/exec\"\n)\n", "go.os_exec", 5},
    {"go_syscall_exec", "go",
     "package main\n\nimport \"syscall\"\n\nfunc main() { syscall.Exec(\"/bin/ls\", nil, nil) }\n", "go.syscall_exec",
     5},
    {"ruby_system", "ruby", "puts 1\nsystem('ls')\n", "ruby.system", 2},
    {"ruby_system_without_parentheses", "ruby", "system 'ls'\n", "ruby.system", 1},
    {"ruby_backticks", "ruby", "x = 1\nputs `ls`\n", "ruby.backticks", 2},
    {"ruby_percent_x", "ruby", "out = %x(ls -l)\n", "ruby.backticks", 1},
    {"ruby_exec", "ruby", "exec('ls')\n", "ruby.exec", 1},
    {"ruby_io_popen", "ruby", "IO.popen('ls') { |io| puts io.read }\n", "ruby.io_popen", 1},
    {"ruby_open_pipe", "ruby", "open('|ls') { |f| puts f.read }\n", "ruby.io_popen", 1},
    {"ruby_open3", "ruby", "require 'open3'\nOpen3.capture2('ls')\n", "ruby.open3", 1},
    {"ruby_spawn", "ruby", "pid = Process.spawn('ls')\n", "ruby.spawn", 1},
    {"ruby_send_by_name", "ruby", "Kernel.send(\"system\", \"ls\")\n", "ruby.system", 1},
    {"ruby_interpolated_command", "ruby", "puts \"#{`ls`}\"\n", "ruby.backticks", 1},
    {"r_system", "r", "x <- 1\nsystem(\"ls\")\n", "r.system", 2},
    {"r_system2", "r", "system2(\"ls\", \"-l\")\n", "r.system", 1},
    {"r_do_call", "r", "do.call(\"system\", list(\"ls\"))\n", "r.system", 1},
    {"r_string_in_call_position", "r", "\n\"system\"(\"ls\")\n", "r.system", 2},
    {"r_backtick_name", "r", "`system`(\"ls\")\n", "r.system", 1},
    {"r_shell", "r", "shell(\"dir\")\n", "r.shell", 1},
    {"r_pipe", "r", "readLines(pipe(\"ls\"))\n", "r.pipe", 1},
};

} // namespace

TEST_P(RefusedByDefault, namesRuleAndLine)
{
    const DangerousCode &sample = GetParam();
    const auto result = policy("default").check(QString::fromLatin1(sample.language), QString::fromUtf8(sample.code));
    ASSERT_FALSE(result.ok());
    const QString expected =
        QStringLiteral("line %1: %2 \u2014 ").arg(sample.line).arg(QString::fromLatin1(sample.ruleId));
    EXPECT_TRUE(result.error().message.contains(expected))
        << "expected \"" << expected.toStdString() << "\" in: " << result.error().message.toStdString();
}

TEST_P(RefusedByDefault, passesPermissive)
{
    const DangerousCode &sample = GetParam();
    const CodePolicy permissive = policy("permissive");
    EXPECT_TRUE(permissive.check(QString::fromLatin1(sample.language), QString::fromUtf8(sample.code)).ok());
    // Permissive still reports what it lets through.
    EXPECT_TRUE(ruleIds(permissive.findings(QString::fromLatin1(sample.language), QString::fromUtf8(sample.code)))
                    .contains(QString::fromLatin1(sample.ruleId)));
}

INSTANTIATE_TEST_SUITE_P(Issue6, RefusedByDefault, ::testing::ValuesIn(dangerousCode),
                         [](const auto &info) { return std::string(info.param.name); });

TEST(CodePolicy, commentsAndStringsDoNotTrigger)
{
    const CodePolicy policy = ::policy("default");
    const std::pair<const char *, const char *> harmless[] = {
        {"python",
         "print(\"subprocess\")\n# import subprocess\nx = 'os.system(\"ls\")'\n\"\"\"\nimport subprocess\n\"\"\"\n"},
        {"python", "print(f\"os.system {x}\")\nlabel = r'__import__(\"subprocess\")'\n"},
        {"javascript", "// require('child_process')\nconsole.log(\"child_process\");\n/* process.binding('x') */\n"
                       "const s = `require('child_process')`;\nconst r = /child_process/;\n"},
        {"java", "class Main {\n  // Runtime.getRuntime().exec(\"ls\")\n  String s = \"new ProcessBuilder()\";\n"
                 "  /* ProcessBuilder */\n}\n"},
        {"cpp",
         "#include <cstdio>\n// system(\"ls\");\nint main() { printf(\"system(\\\"ls\\\") popen(\"); /* fork() */ "
         "}\nstruct S { int (*system)(int); } s; int y = s.system(1) + p->system(2);\n"},
        {"go", "package main\n\n// import \"os/exec\"\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"os/exec\", "
               "`syscall.Exec`) }\n"},
        {"ruby", "puts \"system('ls')\"\n# `ls`\nputs '%x(ls)'\ntext = <<~EOS\n  exec('ls')\nEOS\nputs text\n"},
        {"r", "cat(\"system('ls')\")\n# system(\"ls\")\nmy.system <- function() 1\nmy.system()\n"},
    };
    for (const auto &[language, code] : harmless) {
        const auto result = policy.check(QString::fromLatin1(language), QString::fromUtf8(code));
        EXPECT_TRUE(result.ok()) << language << ": " << result.error().message.toStdString();
    }
}

TEST(CodePolicy, refusalListsEveryRefusedFinding)
{
    const auto result = policy("default").check(QStringLiteral("python"),
                                                QStringLiteral("import os\n\nimport subprocess\nos.system('ls')\n"));
    ASSERT_FALSE(result.ok());
    const QString message = result.error().message;
    EXPECT_TRUE(message.startsWith(QStringLiteral("Refused by the default code policy")));
    EXPECT_TRUE(message.contains(QStringLiteral("line 3: python.subprocess \u2014 subprocess starts other programs")));
    EXPECT_TRUE(message.contains(QStringLiteral("(found \"import subprocess\")")));
    EXPECT_TRUE(message.contains(QStringLiteral("line 4: python.os_system \u2014 ")));
    EXPECT_LT(message.indexOf(QStringLiteral("line 3")), message.indexOf(QStringLiteral("line 4")));
}

TEST(CodePolicy, findingsCarryRuleLineColumnAndExcerpt)
{
    const auto findings =
        policy("default").findings(QStringLiteral("py"), QStringLiteral("x = 1\n  import subprocess\n"));
    ASSERT_EQ(findings.size(), 1);
    EXPECT_EQ(findings[0].ruleId, "python.subprocess");
    EXPECT_EQ(findings[0].severity, Severity::High);
    EXPECT_EQ(findings[0].line, 2);
    EXPECT_EQ(findings[0].column, 3);
    EXPECT_EQ(findings[0].excerpt, "import subprocess");
    EXPECT_FALSE(findings[0].description.isEmpty());
}

TEST(CodePolicy, strictRefusesNetworkEvalAndOutsidePaths)
{
    const CodePolicy defaults = policy("default");
    const CodePolicy strict = policy("strict");
    const std::pair<const char *, const char *> samples[] = {
        {"python", "import socket\n"},
        {"python", "eval(input())\n"},
        {"python", "open('/etc/passwd').read()\n"},
        {"python", "import os\nos.fork()\n"},
        {"javascript", "fetch('https://example.com')\n"},
        {"javascript", "const net = require('net');\n"},
        {"javascript", "const m = require(name);\n"},
        {"java", "import java.net.Socket;\n"},
        {"cpp", "#include <unistd.h>\nint main() { fork(); }\n"},
        {"go", "package main\n\nimport \"net/http\"\n"},
        {"ruby", "require 'socket'\n"},
        {"ruby", "eval('1 + 1')\n"},
        {"r", "download.file(\"https://example.com\", \"x\")\n"},
        {"r", "eval(parse(text = \"1\"))\n"},
    };
    for (const auto &[language, code] : samples) {
        EXPECT_TRUE(defaults.check(QString::fromLatin1(language), QString::fromUtf8(code)).ok()) << code;
        EXPECT_FALSE(strict.check(QString::fromLatin1(language), QString::fromUtf8(code)).ok()) << code;
    }
    // The working directory, /tmp and the output directory stay usable.
    EXPECT_TRUE(strict
                    .check(QStringLiteral("python"),
                           QStringLiteral("open('data.csv'); open('/tmp/x'); open('/sandbox/output/a.png')"))
                    .ok());
}

TEST(CodePolicy, lowFindingsAreReportedButNeverRefusedByPresets)
{
    const QString code = QStringLiteral("import multiprocessing\n");
    EXPECT_TRUE(policy("strict").check(QStringLiteral("python"), code).ok());
    EXPECT_EQ(ruleIds(policy("strict").findings(QStringLiteral("python"), code)),
              QStringList{"python.multiprocessing"});
}

TEST(CodePolicy, thresholdCanBeChanged)
{
    CodePolicy policy = ::policy("default");
    policy.setThreshold(Severity::Low);
    EXPECT_FALSE(policy.check(QStringLiteral("python"), QStringLiteral("import multiprocessing\n")).ok());
    policy.setThreshold(std::nullopt);
    EXPECT_TRUE(policy.check(QStringLiteral("python"), QStringLiteral("import subprocess\n")).ok());
}

TEST(CodePolicy, unknownPresetListsThePresets)
{
    const auto result = CodePolicy::preset(QStringLiteral("paranoid"));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("paranoid")));
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("permissive, default, strict")));
    EXPECT_EQ(policy("Strict").name(), "strict");
}

TEST(CodePolicy, environmentChoosesThePreset)
{
    {
        ScopedEnvironment variable({{"SANDBOX_POLICY", nullptr}});
        const auto result = CodePolicy::fromEnvironment();
        ASSERT_TRUE(result.ok());
        EXPECT_EQ(result->name(), "default");
    }
    {
        ScopedEnvironment variable({{"SANDBOX_POLICY", "permissive"}});
        const auto result = CodePolicy::fromEnvironment();
        ASSERT_TRUE(result.ok());
        EXPECT_EQ(result->name(), "permissive");
        EXPECT_TRUE(result->check(QStringLiteral("python"), QStringLiteral("import subprocess\n")).ok());
    }
}

TEST(CodePolicy, badEnvironmentValueIsAnErrorNamingTheVariable)
{
    ScopedEnvironment variable({{"SANDBOX_POLICY", "lax"}});
    const auto result = CodePolicy::fromEnvironment();
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("SANDBOX_POLICY")));
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("\"lax\"")));
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("strict")));
}

TEST(CodePolicy, userRulesAreEnforced)
{
    CodePolicy policy = ::policy("default");
    PolicyRule rule;
    rule.id = QStringLiteral("user.no_pickle");
    rule.language = QStringLiteral("python");
    rule.severity = Severity::High;
    rule.description = QStringLiteral("pickle loads run code: use json.");
    rule.modules = QStringList{QStringLiteral("pickle")};
    rule.patterns = QStringList{QStringLiteral(R"(\bloads\s*\()")};
    ASSERT_TRUE(policy.addRule(rule).ok());

    const auto result = policy.check(QStringLiteral("python"), QStringLiteral("import json\nimport pickle\n"));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(
        QStringLiteral("line 2: user.no_pickle \u2014 pickle loads run code: use json (")));

    PolicyRule everywhere;
    everywhere.id = QStringLiteral("user.no_secret_word");
    everywhere.language = QStringLiteral("*");
    everywhere.description = QStringLiteral("do not mention the secret word");
    everywhere.rawPatterns = QStringList{QStringLiteral("xyzzy")};
    ASSERT_TRUE(policy.addRule(everywhere).ok());
    EXPECT_FALSE(policy.check(QStringLiteral("ruby"), QStringLiteral("puts 'xyzzy'\n")).ok());
    EXPECT_FALSE(policy.check(QStringLiteral("go"), QStringLiteral("// xyzzy\n")).ok());
}

TEST(CodePolicy, userRuleWithTheSameIdReplacesTheBuiltin)
{
    CodePolicy policy = ::policy("default");
    PolicyRule rule;
    rule.id = QStringLiteral("python.subprocess");
    rule.language = QStringLiteral("python");
    rule.severity = Severity::Low;
    rule.description = QStringLiteral("subprocess is allowed here");
    rule.modules = QStringList{QStringLiteral("subprocess")};
    ASSERT_TRUE(policy.addRule(rule).ok());
    EXPECT_TRUE(policy.check(QStringLiteral("python"), QStringLiteral("import subprocess\n")).ok());
    EXPECT_EQ(policy.rules().count(), ::policy("default").rules().count());
}

TEST(CodePolicy, invalidUserRulesAreErrorsNamingTheRule)
{
    CodePolicy policy = ::policy("default");
    PolicyRule rule;
    rule.id = QStringLiteral("user.bad");
    rule.language = QStringLiteral("python");
    rule.description = QStringLiteral("bad");
    rule.patterns = QStringList{QStringLiteral("(unclosed")};
    auto result = policy.addRule(rule);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("user.bad")));

    rule.patterns = QStringList{QStringLiteral("x*")};
    result = policy.addRule(rule);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("empty")));

    rule.patterns = QStringList{QStringLiteral("x")};
    rule.language = QStringLiteral("cobol");
    EXPECT_FALSE(policy.addRule(rule).ok());

    rule.language = QStringLiteral("python");
    rule.patterns.clear();
    EXPECT_FALSE(policy.addRule(rule).ok());
}

TEST(CodePolicy, everyBuiltinRuleIsWellFormed)
{
    const CodePolicy policy = ::policy("default");
    QSet<QString> ids;
    for (const PolicyRule &rule : policy.rules()) {
        EXPECT_TRUE(rule.id.startsWith(rule.language + u'.')) << rule.id.toStdString();
        EXPECT_FALSE(rule.description.contains(u';')) << rule.id.toStdString(); // findings are joined with "; "
        EXPECT_FALSE(ids.contains(rule.id)) << rule.id.toStdString();
        ids.insert(rule.id);
    }
    EXPECT_GE(ids.size(), 50);
}

TEST(CodePolicy, megabyteInputsAreCheckedQuickly)
{
    // A guard against catastrophic backtracking and quadratic scans, not a benchmark: each input
    // would take minutes if any were superlinear.
    const qsizetype size = 1024 * 1024;
    const QString line = QStringLiteral("x = os.path.join(a, 'b') + f\"{c}\"  # import os\n");
    const QList<std::pair<QString, QString>> inputs = {
        {QStringLiteral("python"), line.repeated(size / line.size())},
        {QStringLiteral("python"), u'\'' + QString(size, u'a')},
        {QStringLiteral("python"), QStringLiteral("import ") + QString(size, u'a')},
        {QStringLiteral("python"), QStringLiteral("from ") + QString(size, u'a')},
        {QStringLiteral("python"), QString(size, u' ') + QStringLiteral("x")},
        {QStringLiteral("python"), QStringLiteral("os.").repeated(size / 3)},
        {QStringLiteral("python"), QStringLiteral("f'{").repeated(size / 3)},
        {QStringLiteral("javascript"), QStringLiteral("require(").repeated(size / 8)},
        {QStringLiteral("javascript"), QStringLiteral("`${").repeated(size / 3)},
        {QStringLiteral("java"), QStringLiteral("\\u").repeated(size / 2)},
        {QStringLiteral("cpp"), QStringLiteral("/*") + QString(size, u'*')},
        {QStringLiteral("go"), QStringLiteral("import (").repeated(size / 8)},
        {QStringLiteral("ruby"), QStringLiteral("%x(").repeated(size / 3)},
        {QStringLiteral("ruby"), QStringLiteral("<<~A\n").repeated(size / 5)},
        {QStringLiteral("ruby"), QStringLiteral("`").repeated(size)},
        {QStringLiteral("r"), QStringLiteral("a::").repeated(size / 3)},
        {QStringLiteral("r"), QStringLiteral("do.call(").repeated(size / 8)},
    };
    const CodePolicy strict = policy("strict");
    for (const auto &[language, code] : inputs) {
        QElapsedTimer timer;
        timer.start();
        (void)strict.findings(language, code);
        EXPECT_LT(timer.elapsed(), 10000) << language.toStdString() << ": " << code.left(20).toStdString();
    }
}
