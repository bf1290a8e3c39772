#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace sandbox {
class SecretStore;
class UserSettings;
} // namespace sandbox

namespace sandbox::gui {

class FoldersPage;
class NetworkPage;

/// The user's settings: runtime, default timeout, how long the journal keeps runs, and the language (General); the
/// default backend is shown, chosen on the Backends page (one place for it). They are shared with the command line and
/// the MCP server, which read them when they start; environment variables still win. The folders the app's sandboxes
/// read (Folders) and what runs may reach when they ask (Network) apply to the app's next sandboxes.
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    /// `secrets`: the system keychain, where the Network tab keeps the values of the secrets runs may use.
    SettingsDialog(UserSettings &settings, SecretStore &secrets, QWidget *parent = nullptr);

    /// Writes the fields into the settings (OK does this).
    void apply();
    /// Shows the Folders tab.
    void showFolders();
    /// Shows the Network tab.
    void showNetwork();

signals:
    /// The backend line's link: the default backend is chosen on the Backends page.
    void backendsPageRequested();

private:
    void load();
    void restoreDefaults();

    UserSettings &m_settings;
    QLabel *m_backend = nullptr; ///< the default backend, read-only
    QLineEdit *m_runtime = nullptr;
    QSpinBox *m_timeout = nullptr;
    QSpinBox *m_maxAge = nullptr;
    QSpinBox *m_maxSize = nullptr;
    QComboBox *m_language = nullptr;
    QTabWidget *m_tabs = nullptr;
    FoldersPage *m_folders = nullptr;
    NetworkPage *m_network = nullptr;
};

} // namespace sandbox::gui
