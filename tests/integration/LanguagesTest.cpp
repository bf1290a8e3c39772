// Every language, for real: hello world with unicode, a non-trivial program, a runtime
// error with its exit code and stderr, and for compiled languages a compile error.
#include "SharedEngines.h"
#include "lang/LanguageRegistry.h"

#include <gtest/gtest.h>
#include <tuple>

using namespace sandbox;

namespace {

struct LanguageCase
{
    const char *language;
    const char *hello;        ///< prints "héllo wörld ✓ 你好"
    const char *primes;       ///< prints the primes below 50, space-separated
    const char *runtimeError; ///< fails at run time
    int runtimeExitCode;
    const char *runtimeStderr;
    const char *compileError = nullptr; ///< compiled languages: does not compile
    const char *compileStderr = nullptr;
};

void PrintTo(const LanguageCase &value, std::ostream *out)
{
    *out << value.language;
}

const char *const kExpectedPrimes = "2 3 5 7 11 13 17 19 23 29 31 37 41 43 47\n";

const LanguageCase kCases[] = {
    {"python", "print('héllo wörld ✓ 你好')\n",
     "print(' '.join(str(n) for n in range(2, 50) if all(n % d for d in range(2, n))))\n",
     "xs = [1, 2]\nprint(xs[5])\n", 1, "IndexError"},
    {"javascript", "console.log('héllo wörld ✓ 你好');\n",
     "const p = [];\nfor (let n = 2; n < 50; n++) { if (p.every(d => n % d)) p.push(n); }\nconsole.log(p.join(' '));\n",
     "const o = null;\nconsole.log(o.field);\n", 1, "TypeError"},
    {"java",
     "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"héllo wörld ✓ "
     "你好\");\n    }\n}\n",
     "import java.util.*;\nimport java.util.stream.*;\npublic class Primes {\n    public static void main(String[] a) "
     "{\n"
     "        List<String> p = new ArrayList<>();\n        for (int n = 2; n < 50; n++) {\n            boolean prime = "
     "true;\n"
     "            for (int d = 2; d < n; d++) if (n % d == 0) prime = false;\n            if (prime) "
     "p.add(String.valueOf(n));\n"
     "        }\n        System.out.println(String.join(\" \", p));\n    }\n}\n",
     "public class Boom {\n    public static void main(String[] a) {\n        int[] xs = new int[1];\n        "
     "System.out.println(xs[3]);\n    }\n}\n",
     1, "ArrayIndexOutOfBoundsException",
     "public class Broken {\n    public static void main(String[] a) {\n        int x = \"text\";\n    }\n}\n",
     "incompatible types"},
    {"cpp", "#include <iostream>\nint main() { std::cout << \"héllo wörld ✓ 你好\\n\"; }\n",
     "#include <iostream>\n#include <vector>\nint main() {\n    std::vector<int> p;\n    for (int n = 2; n < 50; ++n) "
     "{\n"
     "        bool prime = true;\n        for (int d : p) if (n % d == 0) prime = false;\n        if (prime) "
     "p.push_back(n);\n    }\n"
     "    for (size_t i = 0; i < p.size(); ++i) std::cout << (i ? \" \" : \"\") << p[i];\n    std::cout << "
     "\"\\n\";\n}\n",
     "#include <iostream>\n#include <stdexcept>\nint main() {\n    std::cerr << \"about to fail\\n\";\n    return "
     "7;\n}\n",
     7, "about to fail", "int main() { return undefined_name; }\n", "undefined_name"},
    {"go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"héllo wörld ✓ 你好\")\n}\n",
     "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc main() {\n\tvar p []string\n\tfor n := 2; n < 50; "
     "n++ {\n"
     "\t\tprime := true\n\t\tfor d := 2; d < n; d++ {\n\t\t\tif n%d == 0 {\n\t\t\t\tprime = false\n\t\t\t}\n\t\t}\n"
     "\t\tif prime {\n\t\t\tp = append(p, fmt.Sprint(n))\n\t\t}\n\t}\n\tfmt.Println(strings.Join(p, \" \"))\n}\n",
     "package main\n\nfunc main() {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n", 2, "panic",
     "package main\n\nfunc main() {\n\tx := 1\n}\n", "not used"},
    {"r", "cat('héllo wörld ✓ 你好\\n')\n",
     "p <- c()\nfor (n in 2:49) if (all(n %% p != 0) || length(p) == 0) p <- c(p, n)\ncat(paste(p, collapse = ' '), "
     "'\\n', sep = '')\n",
     "stop('something went wrong')\n", 1, "something went wrong"},
    {"ruby", "puts 'héllo wörld ✓ 你好'\n",
     "puts (2...50).select { |n| (2...n).none? { |d| (n % d).zero? } }.join(' ')\n",
     "def explode\n  raise ArgumentError, 'bad input'\nend\nexplode\n", 1, "bad input"},
};

/// Every language on every engine: (backend, language).
class LanguagesTest : public ::testing::TestWithParam<std::tuple<std::string, LanguageCase>>
{
protected:
    static void TearDownTestSuite() { s_engines.clear(); }

    const LanguageCase &language() const { return std::get<1>(GetParam()); }

    Result<RunResult> run(const char *code)
    {
        ExecutionEngine *engine = s_engines.get(std::get<0>(GetParam()));
        if (!engine) {
            return Error{QStringLiteral("no %1 engine").arg(QString::fromStdString(std::get<0>(GetParam())))};
        }
        RunRequest request;
        request.language = QString::fromUtf8(language().language);
        request.code = QString::fromUtf8(code);
        request.timeout = std::chrono::seconds(60);
        return engine->run(request);
    }

    static test::SharedEngines s_engines;
};

test::SharedEngines LanguagesTest::s_engines;

} // namespace

TEST_P(LanguagesTest, helloWorldWithUnicode)
{
    auto result = run(language().hello);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
    EXPECT_EQ(QString::fromUtf8(result->stdoutData), QString::fromUtf8("héllo wörld ✓ 你好\n"));
}

TEST_P(LanguagesTest, computesPrimes)
{
    auto result = run(language().primes);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
    EXPECT_EQ(result->stdoutData, kExpectedPrimes) << result->stderrData.toStdString();
}

TEST_P(LanguagesTest, runtimeErrorReportsExitCodeAndStderr)
{
    auto result = run(language().runtimeError);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, language().runtimeExitCode) << result->stderrData.toStdString();
    EXPECT_EQ(result->reason, StopReason::Exited);
    EXPECT_TRUE(result->stderrData.contains(language().runtimeStderr)) << result->stderrData.toStdString();
}

TEST_P(LanguagesTest, compileErrorIsReportedAsSuch)
{
    if (!language().compileError) {
        // Interpreted: a syntax error is a runtime failure of the interpreter, covered above.
        EXPECT_FALSE(LanguageRegistry::instance().find(language().language)->isCompiled());
        return;
    }
    auto result = run(language().compileError);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::CompileFailed);
    EXPECT_NE(result->exitCode, 0);
    EXPECT_TRUE(result->stdoutData.isEmpty());
    EXPECT_TRUE(result->stderrData.contains(language().compileStderr)) << result->stderrData.toStdString();
}

INSTANTIATE_TEST_SUITE_P(AllLanguages, LanguagesTest,
                         ::testing::Combine(::testing::ValuesIn(test::backendNamesWithKubernetes()),
                                            ::testing::ValuesIn(kCases)),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, LanguageCase>> &info) {
                             return std::string(std::get<1>(info.param).language) + "_" + std::get<0>(info.param);
                         });
