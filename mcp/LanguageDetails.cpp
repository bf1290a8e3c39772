#include "mcp/LanguageDetails.h"

#include "lang/LanguageRegistry.h"

#include <QJsonArray>

namespace sandbox::mcp {

QJsonObject LanguageDetails::toJson(const Language &language)
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
        // The version of the built image; a user-chosen image may differ, which version_command reports.
        {QStringLiteral("version"), language.version},
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

QJsonObject LanguageDetails::all()
{
    QJsonObject out;
    for (const Language &language : LanguageRegistry::instance().languages()) {
        out.insert(language.name, toJson(language));
    }
    return out;
}

} // namespace sandbox::mcp
