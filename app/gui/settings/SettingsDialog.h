#pragma once

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace sandbox {
class UserSettings;
}

namespace sandbox::gui {

/// The user's settings: backend, default timeout, how long the journal keeps runs, and the language. They are shared
/// with the command line and the MCP server, which read them when they start; environment variables still win.
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(UserSettings &settings, QWidget *parent = nullptr);

    /// Writes the fields into the settings (OK does this).
    void apply();

private:
    void load();
    void restoreDefaults();

    UserSettings &m_settings;
    QComboBox *m_backend = nullptr;
    QLineEdit *m_runtime = nullptr;
    QSpinBox *m_timeout = nullptr;
    QSpinBox *m_maxAge = nullptr;
    QSpinBox *m_maxSize = nullptr;
    QComboBox *m_language = nullptr;
};

} // namespace sandbox::gui
