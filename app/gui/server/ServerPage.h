#pragma once

#include "gui/Page.h"
#include "mcp/http/BearerToken.h"

#include <QByteArray>
#include <functional>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;

namespace sandbox {
class SecretStore;
class UserSettings;
namespace mcp {
class McpHost;
}
} // namespace sandbox

namespace sandbox::gui {

class ServerClientsModel;

/// The app's own MCP server (Streamable HTTP on loopback): start and stop it, whether it starts with the app, its
/// URL and port, the token clients present (kept in the keychain: reveal, copy, rotate) and the clients connected
/// now. Their runs appear in the live log under their names, as every MCP run does.
class ServerPage final : public Page
{
    Q_OBJECT

public:
    /// `host`, `secrets` and `settings` must outlive the page.
    ServerPage(mcp::McpHost &host, SecretStore &secrets, UserSettings &settings, QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;

    /// Starts the server (after reading the token) as the Start button does.
    void start();
    void stop();
    /// Replaces the token with a new one in the keychain; the clients that used the old one are disconnected.
    void rotateToken();
    /// The start with the app, when the setting asks for it.
    void startIfWanted();
    /// Ends the selected clients' sessions (their running calls are cancelled).
    void endSelectedSessions();

    ServerClientsModel *clients() const { return m_clients; }
    /// The token shown (empty until it was read).
    QByteArray token() const { return m_token; }

signals:
    /// The token was read, created or replaced.
    void tokenChanged();
    /// An attempt to start, stop or rotate ended with this error (also shown on the page).
    void failed(const QString &message);

private:
    void withToken(std::function<void()> then);
    void updateState();
    void updateToken();
    void updateClients();
    void showError(const QString &message);

    mcp::McpHost &m_host;
    SecretStore &m_secrets;
    UserSettings &m_settings;
    QByteArray m_token;
    std::optional<mcp::BearerToken::Source> m_tokenSource;
    bool m_busy = false; ///< reading the keychain for a start or a rotation

    QLabel *m_state = nullptr;
    QLineEdit *m_url = nullptr;
    QPushButton *m_copyUrl = nullptr;
    QPushButton *m_startStop = nullptr;
    QSpinBox *m_port = nullptr;
    QCheckBox *m_startWithApp = nullptr;
    QCheckBox *m_keepInTray = nullptr;
    QLineEdit *m_tokenField = nullptr;
    QPushButton *m_reveal = nullptr;
    QPushButton *m_copyToken = nullptr;
    QPushButton *m_rotate = nullptr;
    QLabel *m_tokenNote = nullptr;
    QLabel *m_error = nullptr;
    ServerClientsModel *m_clients = nullptr;
    QTableView *m_clientsView = nullptr;
    QLabel *m_clientsEmpty = nullptr;
    QPushButton *m_endSession = nullptr;
    QTimer *m_clientsTimer = nullptr; ///< idle times go on while nothing changes
};

} // namespace sandbox::gui
