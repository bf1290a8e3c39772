// Every language, for real: hello world with unicode, a non-trivial program, a runtime
// error with its exit code and stderr, for compiled languages a compile error, code that needs
// the current toolchain and the preinstalled libraries, and an image that has what
// get_language_details says it has.
#include "SharedEngines.h"
#include "images/ImageBuilder.h"
#include "images/ImageProbe.h"
#include "lang/LanguageRegistry.h"

#include <chrono>
#include <gtest/gtest.h>
#include <tuple>

using namespace sandbox;

namespace {

/// A run's timeout here. What these tests check is the language, not how fast: a compile beside two other lanes of
/// engine tests on two cores (fifty gVisor sandboxes starting at once among them) took over a minute.
constexpr std::chrono::seconds kRunTimeout{180};

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
    const char *modern = nullptr; ///< needs the current toolchain and the preinstalled libraries
    const char *modernStdout = nullptr;
};

// Go 1.22+ range over int and slices.Sort.
const char *const kGoModern = R"(package main

import (
	"fmt"
	"slices"
)

func main() {
	var xs []int
	for i := range 5 {
		xs = append(xs, (i*7)%5)
	}
	slices.Sort(xs)
	fmt.Println(xs)
}
)";

// C++23 std::expected and std::print, and the preinstalled header-only fmt and nlohmann-json.
const char *const kCppModern = R"(#include <expected>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <print>
#include <string>

std::expected<int, std::string> half(int x) {
    if (x % 2) return std::unexpected("odd");
    return x / 2;
}

int main() {
    const nlohmann::json j = {{"n", 1}};
    std::print("{} {} {} {}\n", *half(8), half(3).error(), j.dump(), fmt::format("{:>3}", 7));
}
)";

// R 4.1+ native pipe into a dplyr pipeline.
const char *const kRModern = R"(suppressPackageStartupMessages(library(dplyr))
res <- data.frame(g = c("a", "b", "a"), v = c(1, 2, 3)) |>
  group_by(g) |>
  summarise(total = sum(v)) |>
  arrange(g)
cat(paste(res$g, res$total), sep = "\n")
)";

// scikit-learn fits a line; Pillow draws an image into the output directory (an artifact).
const char *const kPythonModern = R"(import os
import numpy as np
from PIL import Image
from sklearn.linear_model import LinearRegression

x = np.arange(10).reshape(-1, 1)
model = LinearRegression().fit(x, 3 * x.ravel() + 2)
print(f"{model.coef_[0]:.1f} {model.intercept_:.1f}")
Image.new("RGB", (32, 16), "steelblue").save(os.path.join(os.environ["LLM_SANDBOX_OUTPUT_DIR"], "pillow.png"))
)";

// Ruby 3 pattern matching on hashes and arrays, with a guard.
const char *const kRubyModern = R"(config = { db: { user: "admin", port: 5432 } }
case config
in { db: { user: String => user, port: Integer => port } }
  puts "#{user}@#{port}"
end
case [1, 2]
in [Integer => x, Integer => y] if x < y
  puts "ascending #{x} #{y}"
end
)";

// Java 21 records, record patterns and pattern matching in switch.
const char *const kJavaModern = R"(public class Shapes {
    sealed interface Shape permits Circle, Square {}
    record Circle(double r) implements Shape {}
    record Square(double side) implements Shape {}

    static String describe(Shape shape) {
        return switch (shape) {
            case Circle c when c.r() > 10 -> "big circle";
            case Circle(double r) -> "circle " + r;
            case Square(double side) -> "square " + side;
        };
    }

    public static void main(String[] args) {
        System.out.println(describe(new Circle(1.5)) + ", " + describe(new Square(2)) + ", " + describe(new Circle(20)));
    }
}
)";

// Node 20's Array.prototype.toSorted, and the preinstalled lodash and d3-format.
const char *const kJavaScriptModern = R"(const _ = require('lodash');
const { format } = require('d3-format');
console.log(_.chunk([3, 1, 4, 2], 2).map(c => c.toSorted().join('')).join(' '), format(',')(1234567));
)";

void PrintTo(const LanguageCase &value, std::ostream *out)
{
    *out << value.language;
}

const char *const kExpectedPrimes = "2 3 5 7 11 13 17 19 23 29 31 37 41 43 47\n";

const LanguageCase kCases[] = {
    {"python", "print('héllo wörld ✓ 你好')\n",
     "print(' '.join(str(n) for n in range(2, 50) if all(n % d for d in range(2, n))))\n",
     "xs = [1, 2]\nprint(xs[5])\n", 1, "IndexError", nullptr, nullptr, kPythonModern, "3.0 2.0\n"},
    {"javascript", "console.log('héllo wörld ✓ 你好');\n",
     "const p = [];\nfor (let n = 2; n < 50; n++) { if (p.every(d => n % d)) p.push(n); }\nconsole.log(p.join(' '));\n",
     "const o = null;\nconsole.log(o.field);\n", 1, "TypeError", nullptr, nullptr, kJavaScriptModern,
     "13 24 1,234,567\n"},
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
     "incompatible types", kJavaModern, "circle 1.5, square 2.0, big circle\n"},
    {"cpp", "#include <iostream>\nint main() { std::cout << \"héllo wörld ✓ 你好\\n\"; }\n",
     "#include <iostream>\n#include <vector>\nint main() {\n    std::vector<int> p;\n    for (int n = 2; n < 50; ++n) "
     "{\n"
     "        bool prime = true;\n        for (int d : p) if (n % d == 0) prime = false;\n        if (prime) "
     "p.push_back(n);\n    }\n"
     "    for (size_t i = 0; i < p.size(); ++i) std::cout << (i ? \" \" : \"\") << p[i];\n    std::cout << "
     "\"\\n\";\n}\n",
     "#include <iostream>\n#include <stdexcept>\nint main() {\n    std::cerr << \"about to fail\\n\";\n    return "
     "7;\n}\n",
     7, "about to fail", "int main() { return undefined_name; }\n", "undefined_name", kCppModern,
     "4 odd {\"n\":1}   7\n"},
    {"go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"héllo wörld ✓ 你好\")\n}\n",
     "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc main() {\n\tvar p []string\n\tfor n := 2; n < 50; "
     "n++ {\n"
     "\t\tprime := true\n\t\tfor d := 2; d < n; d++ {\n\t\t\tif n%d == 0 {\n\t\t\t\tprime = false\n\t\t\t}\n\t\t}\n"
     "\t\tif prime {\n\t\t\tp = append(p, fmt.Sprint(n))\n\t\t}\n\t}\n\tfmt.Println(strings.Join(p, \" \"))\n}\n",
     "package main\n\nfunc main() {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n", 2, "panic",
     "package main\n\nfunc main() {\n\tx := 1\n}\n", "not used", kGoModern, "[0 1 2 3 4]\n"},
    {"r", "cat('héllo wörld ✓ 你好\\n')\n",
     "p <- c()\nfor (n in 2:49) if (all(n %% p != 0) || length(p) == 0) p <- c(p, n)\ncat(paste(p, collapse = ' '), "
     "'\\n', sep = '')\n",
     "stop('something went wrong')\n", 1, "something went wrong", nullptr, nullptr, kRModern, "a 4\nb 2\n"},
    {"ruby", "puts 'héllo wörld ✓ 你好'\n",
     "puts (2...50).select { |n| (2...n).none? { |d| (n % d).zero? } }.join(' ')\n",
     "def explode\n  raise ArgumentError, 'bad input'\nend\nexplode\n", 1, "bad input", nullptr, nullptr, kRubyModern,
     "admin@5432\nascending 1 2\n"},
};

/// Every language on every engine: (backend, language).
class LanguagesTest : public ::testing::TestWithParam<std::tuple<std::string, LanguageCase>>
{
protected:
    static void TearDownTestSuite() { s_engines.clear(); }

    const LanguageCase &language() const { return std::get<1>(GetParam()); }

    ExecutionEngine *engine() { return s_engines.get(std::get<0>(GetParam())); }

    Result<RunResult> run(const char *code)
    {
        ExecutionEngine *engine = s_engines.get(std::get<0>(GetParam()));
        if (!engine) {
            return Error{QStringLiteral("no %1 engine").arg(QString::fromStdString(std::get<0>(GetParam())))};
        }
        RunRequest request;
        request.language = QString::fromUtf8(language().language);
        request.code = QString::fromUtf8(code);
        request.timeout = kRunTimeout;
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

TEST_P(LanguagesTest, currentToolchainAndPreinstalledLibrariesWork)
{
    ASSERT_NE(language().modern, nullptr) << "every language has a case for its current toolchain";
    auto result = run(language().modern);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
    EXPECT_EQ(QString::fromUtf8(result->stdoutData), QString::fromUtf8(language().modernStdout))
        << result->stderrData.toStdString();
    if (QLatin1String(language().language) == QLatin1String("python")) {
        ASSERT_EQ(result->artifacts.size(), 1);
        EXPECT_EQ(result->artifacts[0].name, QStringLiteral("pillow.png"));
        EXPECT_EQ(result->artifacts[0].mimeType, QStringLiteral("image/png"));
        EXPECT_EQ(result->artifacts[0].width, 32);
        EXPECT_EQ(result->artifacts[0].height, 16);
    }
}

// What get_language_details reports (the registry's libraries, the image's version label) is what the image has.
TEST_P(LanguagesTest, imageHasTheVersionAndLibrariesItsDetailsList)
{
    ExecutionEngine *sandboxEngine = engine();
    ASSERT_NE(sandboxEngine, nullptr);
    const Language details = *LanguageRegistry::instance().find(QString::fromUtf8(language().language));
    auto image = sandboxEngine->catalog().runImage(details);
    ASSERT_TRUE(image.ok()) << image.error().message.toStdString();

    // Kubernetes has no image store to read the label from (the images are in a registry): no version there.
    if (sandboxEngine->backend().name() != QLatin1String("kubernetes")) {
        auto version =
            ImageBuilder::builtVersion(*sandboxEngine->backend().imageStore(), sandboxEngine->catalog(), details);
        ASSERT_TRUE(version.ok()) << version.error().message.toStdString();
        auto reported = ImageProbe::run(sandboxEngine->backend(), *image, details.versionCommand);
        ASSERT_TRUE(reported.ok()) << reported.error().message.toStdString();
        EXPECT_FALSE(version->isEmpty());
        EXPECT_EQ(*version, ImageProbe::versionIn(*reported)) << reported->toStdString();
    }

    // Each line of the image's own list: "<debian-package> <name>"; "-": part of the language's packages.
    const QString list = QStringLiteral("/opt/llm-sandbox/libraries/") + details.imageName;
    const QString script = QStringLiteral(R"(grep -v '^#' %1 | while read -r package name; do
  if [ "$package" = - ] || dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
    echo "$name"
  else
    echo "missing $package"
  fi
done)")
                               .arg(list);
    auto listed =
        ImageProbe::run(sandboxEngine->backend(), *image, {QStringLiteral("sh"), QStringLiteral("-c"), script});
    ASSERT_TRUE(listed.ok()) << listed.error().message.toStdString();
    const QStringList names = QString::fromUtf8(*listed).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    EXPECT_EQ(names, details.preinstalledLibraries);
}

INSTANTIATE_TEST_SUITE_P(AllLanguages, LanguagesTest,
                         ::testing::Combine(::testing::ValuesIn(test::allBackendNames()), ::testing::ValuesIn(kCases)),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, LanguageCase>> &info) {
                             return std::string(std::get<1>(info.param).language) + "_" +
                                    test::backendTestName({std::get<0>(info.param), info.index});
                         });

namespace {

/// The Go build cache of a pooled container (runner/KeptDirectory.h): it starts as links to the image's compiled
/// standard library, keeps what the compile steps add from run to run, and nothing a program did to it.
class GoStandardLibraryTest : public ::testing::TestWithParam<std::string>
{
protected:
    /// The program's output: its container's host name first.
    QList<QByteArray> run(const char *code, qint64 *cpuMs = nullptr)
    {
        RunRequest request;
        request.language = QStringLiteral("go");
        request.code = QString::fromUtf8(code);
        request.timeout = kRunTimeout;
        auto result = m_engine->run(request);
        EXPECT_TRUE(result.ok()) << result.error().message.toStdString();
        if (!result.ok()) {
            return {};
        }
        EXPECT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
        if (cpuMs) {
            *cpuMs = result->cpuMs;
        }
        return result->stdoutData.trimmed().split(' ');
    }
    /// Runs `code` until it runs in the container named `host` (the pool may hand out another warm one first).
    QList<QByteArray> runIn(const QByteArray &host, const char *code, qint64 *cpuMs = nullptr)
    {
        QList<QByteArray> output;
        for (int attempt = 0; attempt < 4 && (output.isEmpty() || output[0] != host); ++attempt) {
            output = run(code, cpuMs);
        }
        EXPECT_EQ(output.value(0), host) << "never ran in that container again";
        return output;
    }

    std::unique_ptr<ExecutionEngine> m_engine = test::engineFor(GetParam());
};

/// Counts the cache's links and regular files, and the files holding what the planting program wrote.
const char *const kCountingProgram = R"(package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Made at run time: as a literal it would be in the program's own executable, which the cache holds.
func marker() []byte { return []byte(strings.ToUpper("planted")) }

func main() {
	host, _ := os.Hostname()
	links, files, planted := 0, 0, 0
	filepath.WalkDir(os.Getenv("GOCACHE"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			links++
			return nil
		}
		files++
		if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, marker()) {
			planted++
		}
		return nil
	})
	fmt.Println(host, links, files, planted)
}
)";

/// Poisons the cache for the next run: every file rewritten, every link replaced by a file, a new entry. Prints how
/// many entries it changed and how many of them were files (not links): its own package and executable.
const char *const kPlantingProgram = R"(package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Made at run time: as a literal it would be in the program's own executable, which the cache holds.
func marker() []byte { return []byte(strings.ToUpper("planted")) }

func main() {
	host, _ := os.Hostname()
	cache := os.Getenv("GOCACHE")
	changed, files := 0, 0
	filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if d.Type().IsRegular() {
			files++
		}
		os.Remove(path)
		if os.WriteFile(path, marker(), 0o644) == nil {
			changed++
		}
		return nil
	})
	os.WriteFile(filepath.Join(cache, "00", "planted-d"), marker(), 0o644)
	fmt.Println(host, changed, files)
}
)";

} // namespace

TEST_P(GoStandardLibraryTest, aRunBuildsWithTheImagesCompiledStandardLibrary)
{
    // The standard library is hundreds of links to the image's entries; the run's own package and link are a few
    // files (fmt, os, path/filepath and what they import were not compiled again).
    const QList<QByteArray> counts = run(kCountingProgram);
    ASSERT_EQ(counts.size(), 4);
    EXPECT_GT(counts[1].toInt(), 1000);
    EXPECT_LT(counts[2].toInt(), 40) << "the run compiled the standard library itself";
    EXPECT_EQ(counts[3], "0");
}

TEST_P(GoStandardLibraryTest, theNextRunInTheContainerKeepsWhatWasCompiledAndNothingAProgramPlanted)
{
    const QList<QByteArray> planted = run(kPlantingProgram);
    ASSERT_EQ(planted.size(), 3);
    EXPECT_GT(planted[1].toInt(), 1000) << "the program could not reach the cache";
    // The pool may hand out another warm container first; the planting one comes back within a few runs.
    QList<QByteArray> counts;
    for (int attempt = 0; attempt < 4 && (counts.isEmpty() || counts[0] != planted[0]); ++attempt) {
        counts = run(kCountingProgram);
        ASSERT_EQ(counts.size(), 4);
    }
    ASSERT_EQ(counts[0], planted[0]) << "never ran in the planting program's container again";
    EXPECT_EQ(counts[3], "0") << "a file the previous program planted was still in the cache";
    EXPECT_GT(counts[1].toInt(), 1000) << "the links to the standard library were not restored";
    // The planting program's own package and executable, compiled before it ran, are still there, beside what the
    // counting program's compile added: more files than the planting program found.
    EXPECT_GE(planted[2].toInt(), 2);
    EXPECT_GE(counts[2].toInt(), planted[2].toInt() + 2) << "what the compile steps added was not kept";
}

// A program run before in the container runs again without the go command (its output kept under the engine's key
// for that program, runner/ReusedOutputs.h): its compile step uses no CPU. A program that overwrites every file of
// the cache, the kept outputs among them, changes nothing for the next run.
TEST_P(GoStandardLibraryTest, aProgramBuiltBeforeInTheContainerRunsAgainWithoutTheToolchainAndAsItself)
{
    const char *const greeting =
        "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n"
        "func main() {\n\thost, _ := os.Hostname()\n\tfmt.Println(host, \"reused-greeting\")\n}\n";
    qint64 built = 0;
    const QList<QByteArray> first = run(greeting, &built);
    ASSERT_EQ(first.size(), 2);
    EXPECT_GT(built, 40) << "the go command's own work";
    qint64 reused = 0;
    EXPECT_EQ(runIn(first[0], greeting, &reused), first);
    EXPECT_LT(reused, 25) << "the compile step ran the go command again (" << built << " ms before)";

    ASSERT_EQ(runIn(first[0], kPlantingProgram).size(), 3);
    qint64 afterPlanting = 0;
    EXPECT_EQ(runIn(first[0], greeting, &afterPlanting), first) << "the kept output was the planted one";
    EXPECT_LT(afterPlanting, 25) << "the kept output was not restored";
}

INSTANTIATE_TEST_SUITE_P(Backends, GoStandardLibraryTest, ::testing::ValuesIn(test::allBackendNames()),
                         test::backendTestName);
