#include "mcp/SandboxTools.h"

#include "lang/LanguageRegistry.h"
#include "mcp/LanguageDetails.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sandbox::mcp {

namespace {

QString compactJson(const QJsonDocument &document)
{
    return QString::fromUtf8(document.toJson(QJsonDocument::Compact));
}

QJsonObject property(const QString &type, const QString &description)
{
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required = {})
{
    QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty()) {
        schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    }
    return schema;
}

QJsonObject readOnlyAnnotations(const QString &title)
{
    return QJsonObject{{QStringLiteral("title"), title},
                       {QStringLiteral("readOnlyHint"), true},
                       {QStringLiteral("openWorldHint"), false}};
}

QString languageList()
{
    return LanguageRegistry::instance().names().join(QStringLiteral(", "));
}

Tool executeCode(const CodeExecutor &executor)
{
    QJsonObject code = property(QStringLiteral("string"), QStringLiteral("The complete program to run."));
    code.insert(QStringLiteral("minLength"), 1);
    QJsonObject language =
        property(QStringLiteral("string"),
                 QStringLiteral("Programming language: %1 (aliases such as py, js, node, c++, golang are accepted).")
                     .arg(languageList()));
    language.insert(QStringLiteral("default"), QStringLiteral("python"));
    QJsonObject libraries = property(
        QStringLiteral("array"),
        QStringLiteral("Packages to install before the code runs, with the language's package manager (pip, npm, "
                       "Maven coordinates, Go modules, R packages, gems)."));
    libraries.insert(QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    libraries.insert(QStringLiteral("default"), QJsonArray());
    QJsonObject timeout = property(QStringLiteral("integer"),
                                   QStringLiteral("Seconds the program may run; it is killed when they are up."));
    timeout.insert(QStringLiteral("default"), 30);
    timeout.insert(QStringLiteral("minimum"), 1);
    timeout.insert(QStringLiteral("maximum"), 3600);

    return Tool{
        .name = QStringLiteral("execute_code"),
        .title = QStringLiteral("Execute code"),
        .description =
            QStringLiteral(
                "Execute code in a secure, isolated container (no network by default, memory/CPU/time limits). "
                "Supported languages: %1. Returns JSON with exit_code, stdout, stderr, duration_ms, timed_out, "
                "stop_reason and resource_usage. Charts are captured automatically (matplotlib, seaborn, plotly, R "
                "graphics, ggplot2) and any image or HTML file the code writes to $LLM_SANDBOX_OUTPUT_DIR is returned; "
                "each image comes back as an image.")
                .arg(languageList()),
        .inputSchema = objectSchema({{QStringLiteral("code"), code},
                                     {QStringLiteral("language"), language},
                                     {QStringLiteral("libraries"), libraries},
                                     {QStringLiteral("timeout"), timeout}},
                                    {QStringLiteral("code")}),
        .outputSchema = CodeExecutor::outputSchema(),
        .annotations = QJsonObject{{QStringLiteral("title"), QStringLiteral("Execute code")},
                                   {QStringLiteral("readOnlyHint"), false},
                                   {QStringLiteral("destructiveHint"), false},
                                   {QStringLiteral("idempotentHint"), false}},
        .longRunning = true,
        .handler = [executor](const ToolCall &call) { return executor.execute(call); },
    };
}

Tool getSupportedLanguages()
{
    return Tool{
        .name = QStringLiteral("get_supported_languages"),
        .title = QStringLiteral("Supported languages"),
        .description = QStringLiteral("List the programming languages execute_code supports, as a JSON array of "
                                      "names."),
        .inputSchema = objectSchema({}),
        .outputSchema = {},
        .annotations = readOnlyAnnotations(QStringLiteral("Supported languages")),
        .longRunning = false,
        .handler =
            [](const ToolCall &) {
                return textToolResult(
                    compactJson(QJsonDocument(QJsonArray::fromStringList(LanguageRegistry::instance().names()))));
            },
    };
}

Tool getLanguageDetails()
{
    return Tool{
        .name = QStringLiteral("get_language_details"),
        .title = QStringLiteral("Language details"),
        .description = QStringLiteral("Details of one language as JSON: version command, package manager, "
                                      "preinstalled libraries, visualization support and examples."),
        .inputSchema = objectSchema(
            {{QStringLiteral("language"),
              property(
                  QStringLiteral("string"),
                  QStringLiteral("Language name or alias, e.g. python, js, cpp. Supported: %1.").arg(languageList()))}},
            {QStringLiteral("language")}),
        .outputSchema = {},
        .annotations = readOnlyAnnotations(QStringLiteral("Language details")),
        .longRunning = false,
        .handler =
            [](const ToolCall &call) {
                const Result<Language> language =
                    LanguageRegistry::instance().find(call.arguments.value(QStringLiteral("language")).toString());
                if (!language) {
                    return errorToolResult(language.error().message);
                }
                return textToolResult(compactJson(QJsonDocument(LanguageDetails::toJson(*language))));
            },
    };
}

} // namespace

ToolRegistry SandboxTools::tools(const CodeExecutor &executor)
{
    return ToolRegistry({executeCode(executor), getSupportedLanguages(), getLanguageDetails()});
}

QList<Resource> SandboxTools::resources()
{
    return {Resource{
        .uri = QStringLiteral("sandbox://languages"),
        .name = QStringLiteral("languages"),
        .title = QStringLiteral("Supported languages"),
        .description = QStringLiteral("Details of every supported language (version command, package manager, "
                                      "preinstalled libraries, visualization support, examples), keyed by name."),
        .mimeType = QStringLiteral("application/json"),
        .read = [] { return QString::fromUtf8(QJsonDocument(LanguageDetails::all()).toJson(QJsonDocument::Indented)); },
    }};
}

} // namespace sandbox::mcp
