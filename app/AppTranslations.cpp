#include "AppTranslations.h"

#include "settings/UserSettings.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sandbox {

namespace {

/// Loads `name`_<language>.qm from `folder` for the first of the locale's UI languages that has one, and installs it.
bool install(const QLocale &locale, const QString &name, const QString &folder)
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (translator->load(locale, name, QStringLiteral("_"), folder)) {
        return QCoreApplication::installTranslator(translator);
    }
    delete translator;
    return false;
}

} // namespace

void installTranslations(const QString &language)
{
    QLocale locale; // the system's, unless chosen
    if (!language.isEmpty()) {
        locale = QLocale(language);
        QLocale::setDefault(locale);
    }
    const QString ours = QStringLiteral(":/i18n");
    // English has a file too, with the plural forms of the texts that count ("1 image", "2 images"); it is also the
    // language of a locale that has no translation (C, POSIX, de_DE).
    if (!install(locale, QStringLiteral("llm-sandbox"), ours)) {
        install(QLocale(QLocale::English), QStringLiteral("llm-sandbox"), ours);
    }
    install(locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
}

void installUserTranslations()
{
    installTranslations(UserSettings().language());
}

} // namespace sandbox
