#pragma once

#include <QSettings>
#include <QString>
#include <QVariant>

namespace sandbox::gui {

/// One setting of the desktop's state, with its type and default: `key.read(settings)`, `key.write(settings, value)`.
/// The window's keys are absolute ("gui/…"); a page's are relative to the group MainWindow enters for it.
template <typename T>
struct SettingsKey
{
    const char *name;
    T defaultValue = T();

    T read(const QSettings &settings) const
    {
        const QVariant value = settings.value(QLatin1String(name));
        return value.isValid() && value.canConvert<T>() ? value.value<T>() : defaultValue;
    }
    void write(QSettings &settings, const T &value) const { settings.setValue(QLatin1String(name), value); }
};

/// The one store of the desktop's state (geometry, splitters, the current page, the theme, each page's filters),
/// under "gui/" beside the user settings (UserSettings), which the command line and MCP servers read too.
inline QSettings guiSettings()
{
    return QSettings(QStringLiteral("llm-sandbox"), QStringLiteral("llm-sandbox"));
}

} // namespace sandbox::gui
