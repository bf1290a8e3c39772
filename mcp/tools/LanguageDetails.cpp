#include "mcp/tools/LanguageDetails.h"

#include "engine/ExecutionEngine.h"
#include "images/ImageBuilder.h"
#include "lang/LanguageRegistry.h"

#include <QJsonArray>

namespace sandbox::mcp {

namespace {

QString builtVersion(const Language &language, ExecutionEngine *engine)
{
    if (!engine) {
        return QStringLiteral("unknown (no container backend)");
    }
    ImageStore *store = engine->backend().imageStore();
    if (!store) {
        return QStringLiteral("unknown (the %1 backend keeps no images: it pulls them from a registry)")
            .arg(engine->backend().name());
    }
    auto version = ImageBuilder::builtVersion(*store, engine->catalog(), language);
    if (!version) {
        return QStringLiteral("unknown (%1)").arg(version.error().message);
    }
    if (version->isEmpty()) {
        return QStringLiteral("unknown (image not built yet: llm-sandbox images build %1)").arg(language.name);
    }
    return *version;
}

} // namespace

QJsonObject LanguageDetails::toJson(const Language &language, ExecutionEngine *engine)
{
    QJsonArray examples;
    for (const LanguageExample &example : language.examples) {
        examples.append(QJsonObject{{QStringLiteral("title"), example.title},
                                    {QStringLiteral("description"), example.description},
                                    {QStringLiteral("code"), example.code}});
    }
    return QJsonObject{
        {QStringLiteral("name"), language.name},
        {QStringLiteral("display_name"), language.displayName},
        {QStringLiteral("aliases"), QJsonArray::fromStringList(language.aliases)},
        // What the built image reported when it was built (a user-chosen image included).
        {QStringLiteral("version"), builtVersion(language, engine)},
        {QStringLiteral("version_command"), language.versionCommand.join(QLatin1Char(' '))},
        {QStringLiteral("compiled"), language.isCompiled()},
        {QStringLiteral("package_manager"), language.packageManager},
        {QStringLiteral("preinstalled_libraries"), QJsonArray::fromStringList(language.preinstalledLibraries)},
        {QStringLiteral("use_cases"), QJsonArray::fromStringList(language.useCases)},
        // Every language gets files written to the output directory back as artifacts.
        {QStringLiteral("visualization_support"), true},
        {QStringLiteral("visualization"), language.visualization},
        {QStringLiteral("examples"), examples},
    };
}

QJsonObject LanguageDetails::all(ExecutionEngine *engine)
{
    QJsonObject out;
    for (const Language &language : LanguageRegistry::instance().languages()) {
        out.insert(language.name, toJson(language, engine));
    }
    return out;
}

} // namespace sandbox::mcp
