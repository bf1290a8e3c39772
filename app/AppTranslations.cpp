#include "AppTranslations.h"

#include "settings/UserSettings.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sandbox {

namespace {

/// Loads `name`_<language>.qm from `folder` for the first of the locale's UI languages that has one, and installs it.
void install(const QLocale &locale, const QString &name, const QString &folder)
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (translator->load(locale, name, QStringLiteral("_"), folder)) {
        QCoreApplication::installTranslator(translator);
    } else {
        delete translator;
    }
}

} // namespace

void installTranslations(const QString &language)
{
    if (language == QLatin1String("en")) {
        return; // the sources are English
    }
    QLocale locale; // the system's, unless chosen
    if (!language.isEmpty()) {
        locale = QLocale(language);
        QLocale::setDefault(locale);
    }
    // English has no file of its own: a locale whose first UI language is English must not fall through to a later
    // one (LANGUAGE=en:zh_CN), so only the first is tried.
    const QStringList uiLanguages = locale.uiLanguages();
    if (uiLanguages.isEmpty() || uiLanguages.first().startsWith(QLatin1String("en"))) {
        return;
    }
    install(locale, QStringLiteral("llm-sandbox"), QStringLiteral(":/i18n"));
    install(locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
}

void installUserTranslations()
{
    installTranslations(UserSettings().language());
}

} // namespace sandbox
