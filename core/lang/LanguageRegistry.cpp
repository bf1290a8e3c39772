#include "lang/LanguageRegistry.h"

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
            .version = QStringLiteral("3.11"),
            .versionCommand = list({"python3", "--version"}),
            .environment = {{QStringLiteral("PYTHONPATH"), QStringLiteral("/opt/llm-sandbox/capture/python")},
                            {QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1")},
                            {QStringLiteral("MPLBACKEND"), QStringLiteral("Agg")},
                            {QStringLiteral("MPLCONFIGDIR"), QStringLiteral("/tmp/matplotlib")}},
            .packageManager = QStringLiteral("pip"),
            .preinstalledLibraries = list({"numpy", "pandas", "matplotlib", "seaborn", "scipy", "plotly"}),
            .visualization = QStringLiteral("matplotlib, seaborn, pandas plotting and plotly figures are captured "
                                            "automatically; any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR "
                                            "is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("print('Hello, world!')\n")},
                         {QStringLiteral("Scatter plot"),
                          QStringLiteral("import matplotlib.pyplot as plt\nimport numpy as np\n\nx = np.random.rand(50)\n"
                                         "y = np.random.rand(50)\nplt.scatter(x, y)\nplt.title('Scatter')\nplt.show()\n")}},
        },
        Language{
            .name = QStringLiteral("javascript"),
            .displayName = QStringLiteral("JavaScript (Node.js)"),
            .aliases = list({"js", "node", "nodejs"}),
            .imageName = QStringLiteral("javascript"),
            .defaultFile = QStringLiteral("main.js"),
            .compile = {},
            .run = list({"node", "{file}"}),
            .version = QStringLiteral("18"),
            .versionCommand = list({"node", "--version"}),
            .packageManager = QStringLiteral("npm"),
            .preinstalledLibraries = {},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("console.log('Hello, world!');\n")}},
        },
        Language{
            .name = QStringLiteral("java"),
            .displayName = QStringLiteral("Java"),
            .aliases = list({"jdk"}),
            .imageName = QStringLiteral("java"),
            .defaultFile = QStringLiteral("Main.java"),
            .compile = list({"javac", "-encoding", "UTF-8", "{file}"}),
            .run = list({"java", "-cp", ".", "{main}"}),
            .version = QStringLiteral("17"),
            .versionCommand = list({"java", "--version"}),
            .packageManager = QStringLiteral("maven"),
            .preinstalledLibraries = {},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"),
                          QStringLiteral("public class Main {\n    public static void main(String[] args) {\n"
                                         "        System.out.println(\"Hello, world!\");\n    }\n}\n")}},
        },
        Language{
            .name = QStringLiteral("cpp"),
            .displayName = QStringLiteral("C++"),
            .aliases = list({"c++", "cxx", "cc"}),
            .imageName = QStringLiteral("cpp"),
            .defaultFile = QStringLiteral("main.cpp"),
            .compile = list({"g++", "-std=c++20", "-O2", "-o", "{stem}", "{file}"}),
            .run = list({"./{stem}"}),
            .version = QStringLiteral("GCC 12, C++20"),
            .versionCommand = list({"g++", "--version"}),
            .packageManager = QStringLiteral("apt"),
            .preinstalledLibraries = list({"C++ standard library"}),
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"),
                          QStringLiteral("#include <iostream>\n\nint main() {\n    std::cout << \"Hello, world!\\n\";\n}\n")}},
        },
        Language{
            .name = QStringLiteral("go"),
            .displayName = QStringLiteral("Go"),
            .aliases = list({"golang"}),
            .imageName = QStringLiteral("go"),
            .defaultFile = QStringLiteral("main.go"),
            .compile = list({"go", "build", "-o", "{stem}", "."}),
            .run = list({"./{stem}"}),
            .projectFiles = {{QStringLiteral("go.mod"), QStringLiteral("module sandbox\n\ngo 1.19\n")}},
            .version = QStringLiteral("1.19"),
            .versionCommand = list({"go", "version"}),
            .environment = {{QStringLiteral("GOCACHE"), QStringLiteral("/tmp/go-cache")},
                            {QStringLiteral("GOPATH"), QStringLiteral("/tmp/go")},
                            {QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod")},
                            {QStringLiteral("GOTOOLCHAIN"), QStringLiteral("local")}},
            .packageManager = QStringLiteral("go modules"),
            .preinstalledLibraries = list({"Go standard library"}),
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"),
                          QStringLiteral("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"Hello, world!\")\n}\n")}},
        },
        Language{
            .name = QStringLiteral("r"),
            .displayName = QStringLiteral("R"),
            .aliases = list({"rscript"}),
            .imageName = QStringLiteral("r"),
            .defaultFile = QStringLiteral("main.R"),
            .compile = {},
            .run = list({"Rscript", "{file}"}),
            .version = QStringLiteral("4.2"),
            .versionCommand = list({"R", "--version"}),
            .packageManager = QStringLiteral("install.packages"),
            .preinstalledLibraries = list({"ggplot2", "lattice"}),
            .visualization = QStringLiteral("Base graphics, ggplot2 and lattice plots are captured automatically; any "
                                            "image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("cat('Hello, world!\\n')\n")}},
        },
        Language{
            .name = QStringLiteral("ruby"),
            .displayName = QStringLiteral("Ruby"),
            .aliases = list({"rb"}),
            .imageName = QStringLiteral("ruby"),
            .defaultFile = QStringLiteral("main.rb"),
            .compile = {},
            .run = list({"ruby", "{file}"}),
            .version = QStringLiteral("3.1"),
            .versionCommand = list({"ruby", "--version"}),
            .packageManager = QStringLiteral("gem"),
            .preinstalledLibraries = {},
            .visualization = QStringLiteral("Any image or HTML file written to $LLM_SANDBOX_OUTPUT_DIR is returned."),
            .examples = {{QStringLiteral("Hello world"), QStringLiteral("puts 'Hello, world!'\n")}},
        },
    };
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
    return Error{QStringLiteral("Unsupported language \"%1\". Supported languages: %2.")
                     .arg(nameOrAlias, names().join(QStringLiteral(", ")))};
}

} // namespace sandbox
