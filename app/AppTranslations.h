#pragma once

#include <QString>

namespace sandbox {

/// Makes every face speak the user's language: loads the program's translation (translations/, compiled in) and Qt's
/// own (qtbase, from Qt's translations folder) for `language` into the running QCoreApplication. `language` is
/// UserSettings::language(): empty follows the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), "en" is English
/// (the source texts, and the plural forms of those that count), "zh_CN" is Simplified Chinese. A chosen language also
/// becomes the default QLocale, so numbers, dates and sizes follow it. Call it once, right after the application object
/// exists and before any text is made.
void installTranslations(const QString &language);

/// The user's chosen language from the settings file, then installTranslations() with it.
void installUserTranslations();

} // namespace sandbox
