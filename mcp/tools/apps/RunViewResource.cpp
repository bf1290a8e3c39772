#include "mcp/tools/apps/RunViewResource.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTranslator>

namespace sandbox::mcp {

namespace {

// The texts of run-view.html, in the context lupdate files them under (scripts/update-translations reads this file).
// The page looks each up by its English text; a text missing here shows in English.
const char *const kTexts[] = {
    QT_TRANSLATE_NOOP("RunView", "Waiting for the result…"),
    QT_TRANSLATE_NOOP("RunView", "Run again"),
    QT_TRANSLATE_NOOP("RunView", "Run with a change"),
    QT_TRANSLATE_NOOP("RunView", "Edit the code, then run it in a new sandbox."),
    QT_TRANSLATE_NOOP("RunView", "Cancel"),
    QT_TRANSLATE_NOOP("RunView", "Run"),
    QT_TRANSLATE_NOOP("RunView", "Standard output"),
    QT_TRANSLATE_NOOP("RunView", "Standard error"),
    QT_TRANSLATE_NOOP("RunView", "No output."),
    QT_TRANSLATE_NOOP("RunView", "Output was cut at the limit."),
    QT_TRANSLATE_NOOP("RunView", "Charts"),
    QT_TRANSLATE_NOOP("RunView", "Files"),
    QT_TRANSLATE_NOOP("RunView", "Your folders"),
    QT_TRANSLATE_NOOP("RunView", "Saved %1"),
    QT_TRANSLATE_NOOP("RunView", "Not saved %1"),
    QT_TRANSLATE_NOOP("RunView", "Read %1"),
    QT_TRANSLATE_NOOP("RunView", "results may be saved"),
    QT_TRANSLATE_NOOP("RunView", "read only"),
    QT_TRANSLATE_NOOP("RunView", "Network"),
    QT_TRANSLATE_NOOP("RunView", "Allowed: %1"),
    QT_TRANSLATE_NOOP("RunView", "%1 in"),
    QT_TRANSLATE_NOOP("RunView", "%1 out"),
    QT_TRANSLATE_NOOP("RunView", "Refused: %1"),
    QT_TRANSLATE_NOOP("RunView", "secret: %1"),
    QT_TRANSLATE_NOOP("RunView", "No connection was made."),
    QT_TRANSLATE_NOOP("RunView", "Code"),
    QT_TRANSLATE_NOOP("RunView", "Zoom out"),
    QT_TRANSLATE_NOOP("RunView", "Zoom in"),
    QT_TRANSLATE_NOOP("RunView", "Fit"),
    QT_TRANSLATE_NOOP("RunView", "Previous"),
    QT_TRANSLATE_NOOP("RunView", "Next"),
    QT_TRANSLATE_NOOP("RunView", "%1 of %2"),
    QT_TRANSLATE_NOOP("RunView", "%1 run"),
    QT_TRANSLATE_NOOP("RunView", "Exit code %1"),
    QT_TRANSLATE_NOOP("RunView", "Timed out after %1"),
    QT_TRANSLATE_NOOP("RunView", "Stopped: out of memory"),
    QT_TRANSLATE_NOOP("RunView", "Stopped: CPU time limit"),
    QT_TRANSLATE_NOOP("RunView", "Stopped: output limit"),
    QT_TRANSLATE_NOOP("RunView", "Cancelled"),
    QT_TRANSLATE_NOOP("RunView", "Stopped by the user"),
    QT_TRANSLATE_NOOP("RunView", "Compile error"),
    QT_TRANSLATE_NOOP("RunView", "The call failed: %1"),
    QT_TRANSLATE_NOOP("RunView", "The call was cancelled: %1"),
    QT_TRANSLATE_NOOP("RunView", "Finished in %1"),
    QT_TRANSLATE_NOOP("RunView", "CPU %1"),
    QT_TRANSLATE_NOOP("RunView", "Peak memory %1"),
    QT_TRANSLATE_NOOP("RunView", "Session %1"),
    QT_TRANSLATE_NOOP("RunView", "Running…"),
    QT_TRANSLATE_NOOP("RunView", "Could not load %1: %2"),
    QT_TRANSLATE_NOOP("RunView", "interactive chart"),
    QT_TRANSLATE_NOOP("RunView", "This chart is a web page the code wrote. Its scripts would run in your browser and "
                                 "could send what the code read over the network. Run it only if you trust the code."),
    QT_TRANSLATE_NOOP("RunView", "Run this chart"),
    QT_TRANSLATE_NOOP("RunView", "Interactive"),
    QT_TRANSLATE_NOOP("RunView", "Picture"),
    QT_TRANSLATE_NOOP("RunView", "Show the picture the code drew"),
    QT_TRANSLATE_NOOP("RunView", "Draw the chart from its data: values on hover, series on and off"),
    QT_TRANSLATE_NOOP("RunView", "Series %1"),
    QT_TRANSLATE_NOOP("RunView", "Long series are shown at %1 evenly spread points."),
    QT_TRANSLATE_NOOP("RunView", "%1: median %2, quartiles %3–%4, whiskers %5–%6"),
    QT_TRANSLATE_NOOP("RunView", "Show table"),
    QT_TRANSLATE_NOOP("RunView", "Hide table"),
    QT_TRANSLATE_NOOP("RunView", "Rows %1–%2 of %3"),
};

/// The translations of kTexts into `language` from the program's own catalogue (:/i18n, compiled in with the
/// desktop app's texts); empty where the program has none (the MCP library's own tests).
QJsonObject catalogue(const QString &language)
{
    QTranslator translator;
    QJsonObject out;
    if (!translator.load(QStringLiteral(":/i18n/llm-sandbox_%1.qm").arg(language))) {
        return out;
    }
    for (const char *text : kTexts) {
        const QString translated = translator.translate("RunView", text);
        if (!translated.isEmpty()) {
            out.insert(QString::fromUtf8(text), translated);
        }
    }
    return out;
}

QString makeHtml()
{
    QFile file(QStringLiteral(":/mcp-apps/run-view.html"));
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("the run view is missing from the program's resources");
    }
    QString html = QString::fromUtf8(file.readAll());
    // Inside a <script> element: a "</" in a translation must not end it.
    QString translations =
        QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("zh"), catalogue(QStringLiteral("zh_CN"))}})
                              .toJson(QJsonDocument::Compact));
    translations.replace(QStringLiteral("</"), QStringLiteral("<\\/"));
    html.replace(QStringLiteral("<script id=\"translations\" type=\"application/json\">{}</script>"),
                 QStringLiteral("<script id=\"translations\" type=\"application/json\">%1</script>").arg(translations));
    return html;
}

} // namespace

bool RunViewResource::clientSupports(const QJsonObject &clientCapabilities)
{
    const QJsonValue extension = clientCapabilities.value(QStringLiteral("extensions")).toObject().value(kExtension);
    return extension.isObject() &&
           extension.toObject().value(QStringLiteral("mimeTypes")).toArray().contains(QJsonValue(kMimeType));
}

const QString &RunViewResource::html()
{
    static const QString page = makeHtml();
    return page;
}

Resource RunViewResource::resource()
{
    return Resource{
        .uri = kUri,
        .name = QStringLiteral("run-view"),
        .title = QStringLiteral("Run view"),
        .description = QStringLiteral("Shows an execute_code run inside the assistant: output, exit status, resource "
                                      "use, charts and code, with Run again."),
        .mimeType = kMimeType,
        .read = [] { return html(); },
        // Every domain list empty: no fetch, no external script, style, image or frame.
        .meta = QJsonObject{{QStringLiteral("ui"),
                             QJsonObject{
                                 {QStringLiteral("csp"), QJsonObject{{QStringLiteral("connectDomains"), QJsonArray()},
                                                                     {QStringLiteral("resourceDomains"), QJsonArray()},
                                                                     {QStringLiteral("frameDomains"), QJsonArray()},
                                                                     {QStringLiteral("baseUriDomains"), QJsonArray()}}},
                                 {QStringLiteral("prefersBorder"), true}}}},
        .forUiClients = true,
    };
}

QJsonObject RunViewResource::toolMeta()
{
    return QJsonObject{
        {QStringLiteral("ui"),
         QJsonObject{{QStringLiteral("resourceUri"), kUri},
                     // The model calls it, and so may the view (Run again): both through the host.
                     {QStringLiteral("visibility"), QJsonArray{QStringLiteral("model"), QStringLiteral("app")}}}}};
}

} // namespace sandbox::mcp
