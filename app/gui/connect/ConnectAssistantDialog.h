#pragma once

#include "assistants/AssistantClient.h"
#include "assistants/McpServerEntry.h"
#include "folders/SharedFolder.h"

#include <QDialog>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace sandbox {
class McpConfigFile;
class SecretStore;
} // namespace sandbox

namespace sandbox::gui {

/// File → Connect an assistant…: adds llm-sandbox to (or removes it from) Claude Desktop's, Cursor's or VS Code's
/// MCP configuration file, as `llm-sandbox install-mcp` / `uninstall-mcp` do (the same core code), showing the file
/// and the entry first. "Copy configuration" puts a snippet for any other client on the clipboard.
class ConnectAssistantDialog final : public QDialog
{
    Q_OBJECT

public:
    /// `tokens` keeps the HTTP server's token (the system keychain; a memory store in tests). `backend` is the one
    /// preselected for stdio entries.
    ConnectAssistantDialog(SecretStore &tokens, const QString &backend, QWidget *parent = nullptr);

    /// Whether the app's MCP server runs now: an HTTP entry reaches only a running server.
    void setServerRunning(bool running);

private:
    void refresh();
    /// Names each assistant in the list with what is known of it here: connected (to this program or another
    /// llm-sandbox), found on this computer, or not found.
    void updateClientTexts();
    void install();
    void remove();
    void copyConfiguration();
    void loadToken();
    AssistantClient client() const;
    bool http() const;
    /// The entry for the current choices; nullopt (with `why`) while the token loads or when a choice is invalid.
    /// `forThisClient`: also whether the chosen client takes it (Claude Desktop's file takes no HTTP server).
    std::optional<McpServerEntry> entry(bool forThisClient, QString *why) const;
    void showState(const QString &text, bool problem);
    /// Why the assistant's `file` cannot be changed, all in the user's language (McpConfigFile::problem); empty when
    /// its content is fine.
    QString problemText(const McpConfigFile &file) const;
    void showServerNote();

    SecretStore &m_tokens;
    QComboBox *m_client = nullptr;
    QComboBox *m_transport = nullptr;
    QComboBox *m_backend = nullptr;
    QLineEdit *m_url = nullptr;
    /// stdio only: the folders of Settings → Folders go into the entry (LLM_SANDBOX_SHARE); off by default.
    QCheckBox *m_shareFolders = nullptr;
    QList<SharedFolder> m_folders; ///< Settings → Folders, those that can be shared now
    QLabel *m_path = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_previewTitle = nullptr;
    /// HTTP entries only: whether the server they reach runs now and starts with the app.
    QLabel *m_serverNote = nullptr;
    bool m_serverRunning = false;
    QPlainTextEdit *m_preview = nullptr;
    QPushButton *m_install = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_copy = nullptr;
    QByteArray m_token;
    QString m_tokenError;
    bool m_tokenLoading = false;
};

} // namespace sandbox::gui
