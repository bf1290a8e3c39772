#include "lang/LanguageRegistry.h"

#include <QFile>

namespace sandbox {

namespace {

QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items) {
        out << QString::fromUtf8(item);
    }
    return out;
}

/// The library names of an image definition's `libraries` file: "<debian-package> <name...>" per line.
QStringList librariesOfImage(const QString &imageName)
{
    QFile file(QStringLiteral(":/images/%1/libraries").arg(imageName));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    QStringList names;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        const qsizetype space = line.indexOf(QLatin1Char(' '));
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')) || space < 0) {
            continue;
        }
        names << line.mid(space + 1).trimmed();
    }
    return names;
}

} // namespace

const LanguageRegistry &LanguageRegistry::instance()
{
    static const LanguageRegistry registry;
    return registry;
}

LanguageRegistry::LanguageRegistry()
{
    m_languages = {
        Language{
            .name = QStringLiteral("python"),
            .displayName = QStringLiteral("Python"),
            .aliases = list({"py", "python3"}),
            .imageName = QStringLiteral("python"),
            .defaultFile = QStringLiteral("main.py"),
            .compile = {},
            .run = list({"python3", "-u", "{file}"}),
            .versionCommand = list({"python3", "--version"}),
            .sessionInterpreter = list({"python3", "/opt/llm-sandbox/session/kernel.py"}),
            .preloaded = list({"python3", "-u", "/opt/llm-sandbox/session/forkserver.py"}),
            .preloadedModules = list({"numpy", "pandas", "matplotlib.pyplot", "seaborn"}),
            .environment = {{QStringLiteral("PYTHONPATH"),
                             QStringLiteral("/opt/llm-sandbox/capture/python:/tmp/libs/python")},
                            {QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1")},
                            {QStringLiteral("MPLBACKEND"), QStringLiteral("Agg")},
                            {QStringLiteral("MPLCONFIGDIR"), QStringLiteral("/tmp/matplotlib")}},
            // matplotlib's font cache, built with the image: kept, so a preloaded interpreter that starts while the
            // runner empties /tmp between runs never builds it again (a second).
            .buildCacheDir = QStringLiteral("/tmp/matplotlib"),
            .buildCacheSeed = QStringLiteral("/opt/llm-sandbox/matplotlib"),
            .packageManager = QStringLiteral("pip"),
            .libraries =
                {.namePattern = QStringLiteral(
                     R"(^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?((==|>=|<=|~=|!=|<|>)[A-Za-z0-9.*+!_-]+)?$)"),
                 .command = list({"python3", "-m", "pip", "install", "--target", "/tmp/libs/python", "--no-cache-dir",
                                  "--disable-pip-version-check", "--no-warn-script-location", "--index-url",
                                  "{registry}", "{libs}"}),
                 .offlineCommand = list({"python3", "-m", "pip", "install", "--target", "/tmp/libs/python",
                                         "--no-cache-dir", "--disable-pip-version-check", "--no-warn-script-location",
                                         "--no-index", "--find-links", "{offline}", "{libs}"}),
                 .registryDefault = QStringLiteral("https://pypi.org/simple"),
                 .registryVariables = list({"LLM_SANDBOX_PIP_INDEX_URL"}),
                 .offlineVariable = QStringLiteral("LLM_SANDBOX_PIP_OFFLINE_DIR"),
                 .plainHttpEnvironment = {{QStringLiteral("PIP_TRUSTED_HOST"), QStringLiteral("{registryHost}")}},
                 .installedPaths = list({"/tmp/libs/python"}),
                 .registryHosts = list({"files.pythonhosted.org"}),
                 .builderPackages = list({"build-essential", "python3-dev"})},
            .visualization = QStringLiteral("matplotlib, seaborn, pandas plotting and plotly figures are captured "
                                            "automatically; any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR "
                                            "is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("print('Hello, world!')\n"),
                          QStringLiteral("Simple Python hello world program")},
                         {QStringLiteral("Scatter plot"),
                          QStringLiteral(
                              "import matplotlib.pyplot as plt\nimport numpy as np\n\nx = np.random.rand(50)\n"
                              "y = np.random.rand(50)\nplt.scatter(x, y)\nplt.title('Scatter')\nplt.show()\n"),
                          QStringLiteral("A matplotlib chart, captured without saving it")}},
            .useCases = list({"Data science", "Data visualization", "Automation", "Machine learning"}),
        },
        Language{
            .name = QStringLiteral("javascript"),
            .displayName = QStringLiteral("JavaScript (Node.js)"),
            .aliases = list({"js", "node", "nodejs"}),
            .imageName = QStringLiteral("javascript"),
            .defaultFile = QStringLiteral("main.js"),
            .compile = {},
            .run = list({"node", "{file}"}),
            .versionCommand = list({"node", "--version"}),
            .proxyArguments = list({"--require", "/opt/llm-sandbox/javascript/proxy.cjs"}),
            .environment = {{QStringLiteral("NODE_PATH"), QStringLiteral("/tmp/libs/node/node_modules")}},
            .packageManager = QStringLiteral("npm"),
            .libraries = {.namePattern = QStringLiteral(
                              R"(^(@[a-z0-9~][a-z0-9._~-]*/)?[a-z0-9~][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*+_-]+)?$)"),
                          .command = list({"npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix",
                                           "/tmp/libs/node", "--registry", "{registry}", "{libs}"}),
                          .offlineCommand = list({"npm", "install", "--offline", "--no-audit", "--no-fund",
                                                  "--ignore-scripts", "--prefix", "/tmp/libs/node", "{files}"}),
                          .registryDefault = QStringLiteral("https://registry.npmjs.org/"),
                          .registryVariables = list({"LLM_SANDBOX_NPM_REGISTRY"}),
                          .offlineVariable = QStringLiteral("LLM_SANDBOX_NPM_OFFLINE_DIR"),
                          .installedPaths = list({"/tmp/libs/node"})},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("console.log('Hello, world!');\n"),
                          QStringLiteral("Simple JavaScript hello world program")},
                         {QStringLiteral("SVG chart"), QStringLiteral(R"code(const fs = require('fs');
const path = require('path');

// Files written to $LLM_SANDBOX_OUTPUT_DIR come back as artifacts (SVG, PNG, HTML, ...).
const data = { Apples: 12, Pears: 7, Plums: 15, Cherries: 4 };
let bars = '';
Object.entries(data).forEach(([label, value], i) => {
  const x = 30 + i * 90, h = value * 12;
  bars += `<rect x="${x}" y="${210 - h}" width="70" height="${h}" fill="steelblue"/>\n`;
  bars += `<text x="${x + 35}" y="230" text-anchor="middle">${label}</text>\n`;
});
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240">\n${bars}</svg>\n`;
const file = path.join(process.env.LLM_SANDBOX_OUTPUT_DIR, 'bars.svg');
fs.writeFileSync(file, svg);
console.log(`wrote ${file}`);
)code"),
                          QStringLiteral("A bar chart written as SVG to the output directory")}},
            .useCases = list({"Web development", "APIs", "Server-side scripting", "Data processing"}),
        },
        Language{
            .name = QStringLiteral("java"),
            .displayName = QStringLiteral("Java"),
            .aliases = list({"jdk"}),
            .imageName = QStringLiteral("java"),
            .defaultFile = QStringLiteral("Main.java"),
            // javac maps its classes from the image's class-data archive and compiles with the quick JIT only (a
            // compile is too short for the optimizing one to pay off); the program itself runs with the JDK's defaults.
            .compile =
                list({"javac", "-J-XX:SharedArchiveFile=/opt/llm-sandbox/java/javac.jsa", "-J-XX:TieredStopAtLevel=1",
                      "-J-XX:+UseSerialGC", "-encoding", "UTF-8", "-cp", ".:/tmp/libs/java/*", "{file}"}),
            .run = list({"java", "-cp", ".:/tmp/libs/java/*", "{main}"}),
            .versionCommand = list({"java", "--version"}),
            .proxyArguments =
                list({"-Dhttp.proxyHost=127.0.0.1", "-Dhttp.proxyPort={port}", "-Dhttps.proxyHost=127.0.0.1",
                      "-Dhttps.proxyPort={port}", "-Dhttp.nonProxyHosts="}),
            .packageManager = QStringLiteral("maven"),
            .libraries = {.namePattern = QStringLiteral(R"(^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+:[A-Za-z0-9_.+-]+$)"),
                          .command = list(
                              {"java", "/opt/llm-sandbox/tools/Fetch.java", "{registry}", "/tmp/libs/java", "{libs}"}),
                          .offlineCommand = list({"java", "/opt/llm-sandbox/tools/Fetch.java", "file://{offline}",
                                                  "/tmp/libs/java", "{libs}"}),
                          .registryDefault = QStringLiteral("https://repo.maven.apache.org/maven2"),
                          .registryVariables = list({"LLM_SANDBOX_MAVEN_REPOSITORY"}),
                          .offlineVariable = QStringLiteral("LLM_SANDBOX_MAVEN_OFFLINE_DIR"),
                          .installedPaths = list({"/tmp/libs/java"})},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"),
                          QStringLiteral("public class Main {\n    public static void main(String[] args) {\n"
                                         "        System.out.println(\"Hello, world!\");\n    }\n}\n"),
                          QStringLiteral("Simple Java hello world program")},
                         {QStringLiteral("SVG chart"), QStringLiteral(R"code(import java.nio.file.Files;
import java.nio.file.Path;

// Files written to $LLM_SANDBOX_OUTPUT_DIR come back as artifacts (SVG, PNG, HTML, ...).
public class Main {
    public static void main(String[] args) throws Exception {
        String[] labels = {"Apples", "Pears", "Plums", "Cherries"};
        int[] values = {12, 7, 15, 4};
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"240\">\n");
        for (int i = 0; i < values.length; i++) {
            int x = 30 + i * 90, h = values[i] * 12;
            svg.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"70\" height=\"%d\" fill=\"steelblue\"/>%n",
                                     x, 210 - h, h));
            svg.append(String.format("<text x=\"%d\" y=\"230\" text-anchor=\"middle\">%s</text>%n",
                                     x + 35, labels[i]));
        }
        svg.append("</svg>\n");
        Path file = Path.of(System.getenv("LLM_SANDBOX_OUTPUT_DIR"), "bars.svg");
        Files.writeString(file, svg);
        System.out.println("wrote " + file);
    }
}
)code"),
                          QStringLiteral("A bar chart written as SVG to the output directory")}},
            .useCases = list({"Enterprise applications", "Web services", "Algorithms"}),
        },
        Language{
            .name = QStringLiteral("cpp"),
            .displayName = QStringLiteral("C++"),
            .aliases = list({"c++", "cxx", "cc"}),
            .imageName = QStringLiteral("cpp"),
            .defaultFile = QStringLiteral("main.cpp"),
            // The response file holds the flags of installed libraries (empty without any).
            // FMT_HEADER_ONLY: the image's fmt is used as a header-only library, like nlohmann-json.
            // The image's precompiled standard headers first on the include path (resources/images/cpp/Dockerfile
            // makes them with these same options).
            .compile = list({"g++", "-std=c++23", "-O2", "-DFMT_HEADER_ONLY", "-I/opt/llm-sandbox/cpp/pch", "-o",
                             "{stem}", "{file}", "@.llm-sandbox-cxxflags"}),
            .run = list({"./{stem}"}),
            .projectFiles = {{QStringLiteral(".llm-sandbox-cxxflags"), QString()}},
            .versionCommand = list({"g++", "--version"}),
            .packageManager = QStringLiteral("apt"),
            .libraries = {.namePattern = QStringLiteral(R"(^[a-z0-9][a-z0-9+.-]+$)"),
                          .command = list({"sh", "/opt/llm-sandbox/tools/install-deb.sh", "{registry}", "/tmp/libs/cpp",
                                           "/sandbox/.llm-sandbox-cxxflags", "{libs}"}),
                          .registryDefault = QStringLiteral("http://deb.debian.org/debian"),
                          .registryVariables = list({"LLM_SANDBOX_DEBIAN_MIRROR"}),
                          .installedPaths = list({"/tmp/libs/cpp"})},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"),
                          QStringLiteral(
                              "#include <iostream>\n\nint main() {\n    std::cout << \"Hello, world!\\n\";\n}\n"),
                          QStringLiteral("Simple C++ hello world program")},
                         {QStringLiteral("SVG chart"), QStringLiteral(R"code(#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// Files written to $LLM_SANDBOX_OUTPUT_DIR come back as artifacts (SVG, PNG, HTML, ...).
int main() {
    const std::vector<std::pair<std::string, int>> data = {
        {"Apples", 12}, {"Pears", 7}, {"Plums", 15}, {"Cherries", 4}};
    const std::string file = std::string(std::getenv("LLM_SANDBOX_OUTPUT_DIR")) + "/bars.svg";
    std::ofstream svg(file);
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"240\">\n";
    for (size_t i = 0; i < data.size(); ++i) {
        const int x = 30 + int(i) * 90, h = data[i].second * 12;
        svg << "<rect x=\"" << x << "\" y=\"" << 210 - h << "\" width=\"70\" height=\"" << h
            << "\" fill=\"steelblue\"/>\n"
            << "<text x=\"" << x + 35 << "\" y=\"230\" text-anchor=\"middle\">" << data[i].first << "</text>\n";
    }
    svg << "</svg>\n";
    std::cout << "wrote " << file << "\n";
}
)code"),
                          QStringLiteral("A bar chart written as SVG to the output directory")}},
            .useCases = list({"System programming", "Performance-critical code", "Algorithms"}),
        },
        Language{
            .name = QStringLiteral("go"),
            .displayName = QStringLiteral("Go"),
            .aliases = list({"golang"}),
            .imageName = QStringLiteral("go"),
            .defaultFile = QStringLiteral("main.go"),
            // `go run` rather than `go build`: Go 1.24 keeps the executables go run links in the build cache, so a
            // program compiled before in this container is neither compiled nor linked again; `-exec cp` copies
            // the executable to where the run step starts it instead of running it.
            .compile = list({"go", "run", "-exec", "cp", ".", "{stem}"}),
            .run = list({"./{stem}"}),
            // Even with every package cached, the go command hashes the sources of every package the program
            // imports (about 100 ms of CPU for fmt): a program run before in this container skips it.
            .compileOutput = QStringLiteral("{stem}"),
            .projectFiles = {{QStringLiteral("go.mod"), QStringLiteral("module sandbox\n\ngo 1.24\n")}},
            .versionCommand = list({"go", "version"}),
            // GOENV off: no settings file a previous run could have left decides how the next one is built.
            .environment = {{QStringLiteral("GOCACHE"), QStringLiteral("/tmp/go-cache")},
                            {QStringLiteral("GOENV"), QStringLiteral("off")},
                            {QStringLiteral("GOPATH"), QStringLiteral("/tmp/go")},
                            {QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod")},
                            {QStringLiteral("GOTOOLCHAIN"), QStringLiteral("local")}},
            // The standard library compiled when the image was built (resources/images/go/Dockerfile).
            .buildCacheDir = QStringLiteral("/tmp/go-cache"),
            .buildCacheSeed = QStringLiteral("/opt/llm-sandbox/go-cache"),
            .packageManager = QStringLiteral("go modules"),
            .libraries = {.namePattern =
                              QStringLiteral(R"(^[a-z0-9][a-z0-9.-]*(/[A-Za-z0-9._~-]+)+(@[A-Za-z0-9.+_-]+)?$)"),
                          .command = list({"go", "get", "{libs}"}),
                          .offlineCommand = list({"go", "get", "{libs}"}),
                          .registryDefault = QStringLiteral("https://proxy.golang.org"),
                          .registryVariables = list({"LLM_SANDBOX_GOPROXY"}),
                          .offlineVariable = QStringLiteral("LLM_SANDBOX_GO_OFFLINE_DIR"),
                          .environment = {{QStringLiteral("GOPROXY"), QStringLiteral("{registry}")},
                                          {QStringLiteral("GOSUMDB"), QStringLiteral("off")}},
                          .installedPaths = list({"/tmp/go/pkg/mod", "go.sum"})},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"),
                          QStringLiteral(
                              "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"Hello, world!\")\n}\n"),
                          QStringLiteral("Simple Go hello world program")},
                         {QStringLiteral("SVG chart"), QStringLiteral(R"code(package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Files written to $LLM_SANDBOX_OUTPUT_DIR come back as artifacts (SVG, PNG, HTML, ...).
func main() {
	labels := []string{"Apples", "Pears", "Plums", "Cherries"}
	values := []int{12, 7, 15, 4}
	var svg strings.Builder
	svg.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240">` + "\n")
	for i, v := range values {
		x, h := 30+i*90, v*12
		fmt.Fprintf(&svg, `<rect x="%d" y="%d" width="70" height="%d" fill="steelblue"/>`+"\n", x, 210-h, h)
		fmt.Fprintf(&svg, `<text x="%d" y="230" text-anchor="middle">%s</text>`+"\n", x+35, labels[i])
	}
	svg.WriteString("</svg>\n")
	file := filepath.Join(os.Getenv("LLM_SANDBOX_OUTPUT_DIR"), "bars.svg")
	if err := os.WriteFile(file, []byte(svg.String()), 0o644); err != nil {
		panic(err)
	}
	fmt.Println("wrote", file)
}
)code"),
                          QStringLiteral("A bar chart written as SVG to the output directory")}},
            .useCases = list({"Microservices", "CLI tools", "Network programming", "Concurrency"}),
        },
        Language{
            .name = QStringLiteral("r"),
            .displayName = QStringLiteral("R"),
            .aliases = list({"rscript"}),
            .imageName = QStringLiteral("r"),
            .defaultFile = QStringLiteral("main.R"),
            .compile = {},
            .run = list({"Rscript", "{file}"}),
            .versionCommand = list({"R", "--version"}),
            .sessionInterpreter = list({"Rscript", "/opt/llm-sandbox/session/kernel.R"}),
            // The tidyverse's namespaces loaded (resources/session/forkserver.R); every run is a fork of it.
            .preloaded = list({"Rscript", "/opt/llm-sandbox/session/forkserver.R"}),
            .environment = {{QStringLiteral("R_LIBS_USER"), QStringLiteral("/tmp/libs/r")},
                            {QStringLiteral("R_PROFILE_USER"), QStringLiteral("/opt/llm-sandbox/capture/r/profile.R")}},
            .packageManager = QStringLiteral("install.packages"),
            .libraries = {.namePattern = QStringLiteral(R"(^[A-Za-z][A-Za-z0-9.]*$)"),
                          .command = list(
                              {"Rscript", "/opt/llm-sandbox/tools/install.R", "{registry}", "/tmp/libs/r", "{libs}"}),
                          .offlineCommand = list(
                              {"Rscript", "/opt/llm-sandbox/tools/install.R", "offline", "/tmp/libs/r", "{files}"}),
                          .registryDefault = QStringLiteral("https://cloud.r-project.org"),
                          .registryVariables = list({"R_REPO", "LLM_SANDBOX_R_REPO"}),
                          .offlineVariable = QStringLiteral("LLM_SANDBOX_R_OFFLINE_DIR"),
                          .installedPaths = list({"/tmp/libs/r"}),
                          .builderPackages = list({"r-base-dev"})},
            .visualization = QStringLiteral("Base graphics, ggplot2 and lattice plots are captured automatically; any "
                                            "image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("cat('Hello, world!\\n')\n"),
                          QStringLiteral("Simple R hello world program")},
                         {QStringLiteral("ggplot2 chart"), QStringLiteral(R"code(library(ggplot2)

# Every plot drawn (base graphics, ggplot2, lattice) comes back as a PNG, one per page.
fruit <- data.frame(name = c("Apples", "Pears", "Plums", "Cherries"), count = c(12, 7, 15, 4))
ggplot(fruit, aes(name, count)) + geom_col(fill = "steelblue") + labs(title = "Fruit")
)code"),
                          QStringLiteral("A ggplot2 bar chart, captured without saving it")}},
            .useCases = list({"Statistical analysis", "Data visualization", "Research", "Bioinformatics"}),
        },
        Language{
            .name = QStringLiteral("ruby"),
            .displayName = QStringLiteral("Ruby"),
            .aliases = list({"rb"}),
            .imageName = QStringLiteral("ruby"),
            .defaultFile = QStringLiteral("main.rb"),
            .compile = {},
            .run = list({"ruby", "{file}"}),
            .versionCommand = list({"ruby", "--version"}),
            .environment = {{QStringLiteral("GEM_HOME"), QStringLiteral("/tmp/libs/ruby")}},
            .packageManager = QStringLiteral("gem"),
            .libraries = {.namePattern = QStringLiteral(R"(^[A-Za-z0-9_][A-Za-z0-9._-]*(:[A-Za-z0-9.]+)?$)"),
                          .command = list({"gem", "install", "--no-document", "--install-dir", "/tmp/libs/ruby",
                                           "--clear-sources", "--source", "{registry}", "{libs}"}),
                          .offlineCommand = list({"gem", "install", "--local", "--no-document", "--install-dir",
                                                  "/tmp/libs/ruby", "{files}"}),
                          .registryDefault = QStringLiteral("https://rubygems.org"),
                          .registryVariables = list({"LLM_SANDBOX_GEM_SOURCE"}),
                          .offlineVariable = QStringLiteral("LLM_SANDBOX_GEM_OFFLINE_DIR"),
                          .installedPaths = list({"/tmp/libs/ruby"}),
                          .registryHosts = list({"index.rubygems.org", "rubygems.global.ssl.fastly.net"}),
                          .builderPackages = list({"build-essential", "ruby-dev"})},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples =
                {{QStringLiteral("Hello world"), QStringLiteral("puts 'Hello, world!'\n"),
                  QStringLiteral("Simple Ruby hello world program")},
                 {QStringLiteral("SVG chart"),
                  QStringLiteral(
                      R"code(# Files written to $LLM_SANDBOX_OUTPUT_DIR come back as artifacts (SVG, PNG, HTML, ...).
data = { 'Apples' => 12, 'Pears' => 7, 'Plums' => 15, 'Cherries' => 4 }
bars = data.each_with_index.map do |(label, value), i|
  x = 30 + i * 90
  h = value * 12
  %(<rect x="#{x}" y="#{210 - h}" width="70" height="#{h}" fill="steelblue"/>\n) +
    %(<text x="#{x + 35}" y="230" text-anchor="middle">#{label}</text>\n)
end
svg = %(<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240">\n#{bars.join}</svg>\n)
file = File.join(ENV.fetch('LLM_SANDBOX_OUTPUT_DIR'), 'bars.svg')
File.write(file, svg)
puts "wrote #{file}"
)code"),
                  QStringLiteral("A bar chart written as SVG to the output directory")}},
            .useCases = list({"Web development", "Scripting", "Automation", "Text processing"}),
        },
    };
    for (Language &language : m_languages) {
        language.preinstalledLibraries = librariesOfImage(language.imageName);
    }
}

QStringList LanguageRegistry::names() const
{
    QStringList out;
    for (const auto &language : m_languages) {
        out << language.name;
    }
    return out;
}

Result<Language> LanguageRegistry::find(const QString &nameOrAlias) const
{
    const QString wanted = nameOrAlias.trimmed().toLower();
    for (const auto &language : m_languages) {
        if (language.name == wanted || language.aliases.contains(wanted)) {
            return language;
        }
    }
    // Quote a name only as far as a person reads it: a huge argument must not come back whole in the error.
    const QString quoted = nameOrAlias.size() > 40 ? nameOrAlias.left(40) + QStringLiteral("...") : nameOrAlias;
    return Error{QStringLiteral("Unsupported language \"%1\". Supported languages: %2.")
                     .arg(quoted, names().join(QStringLiteral(", "))),
                 ErrorCode::BadRequest};
}

} // namespace sandbox
