#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace sandbox {
class SecretStore;
}

namespace sandbox::gui {

class NetworkSecretDialog;
class NetworkSecretModel;

/// Settings → Network's secrets: those the user bound to hosts (NetworkSecret), listed from the secrets file with
/// their hosts, header and when they were stored, never a value. Add… and Edit… open a NetworkSecretDialog; Remove
/// asks, then takes the value out of the keychain and the binding out of the file, as `llm-sandbox secrets remove`
/// does. Each is kept at once (the keychain cannot wait for the settings dialog's OK), asynchronously: the panel says
/// while it waits for the keychain, and why one failed.
class NetworkSecretsPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit NetworkSecretsPanel(SecretStore &store, QWidget *parent = nullptr);

    /// Reads the secrets file (NetworkSecretsFile::path()) again.
    void reload();
    const NetworkSecretModel &model() const { return *m_model; }
    /// Opens the Add Secret dialog (Add… does); it closes itself.
    NetworkSecretDialog *addSecret();
    /// Opens the Edit Secret dialog for the selected secret (Edit… does); null when none is selected.
    NetworkSecretDialog *editCurrent();
    /// Asks whether to remove the selected secret, then removes it (Remove does).
    void removeCurrent();
    /// Removes the secret `name`: its value from the keychain, then its binding from the file.
    void remove(const QString &name);
    /// Why the secrets file could not be read or the last removal failed, in one sentence; empty when nothing did.
    QString problem() const;
    /// Whether it waits for the keychain.
    bool isBusy() const { return m_busy; }

private:
    NetworkSecretDialog *open(NetworkSecretDialog *dialog);
    void select(const QString &name);
    void showProblem(const QString &problem);
    void setBusy(bool busy);
    void updateButtons();

    SecretStore &m_store;
    bool m_busy = false;
    bool m_readable = true; ///< the secrets file could be read: it may be written
    NetworkSecretModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_waiting = nullptr;
    QLabel *m_problem = nullptr;
};

} // namespace sandbox::gui
