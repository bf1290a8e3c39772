#pragma once

#include "network/NetworkSecret.h"

#include <QDialog>
#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace sandbox {
class SecretStore;
}

namespace sandbox::gui {

/// Add Secret (or Edit Secret): a secret's name, the hosts it is sent to, the header that carries it and its value,
/// typed hidden. Each part is checked as it is written, what is wrong said under the fields in one sentence, and OK is
/// enabled only when all are right. OK keeps the value in the system keychain (asynchronously: the dialog says it is
/// waiting, the keychain may ask to be unlocked) and then the binding in the secrets file (NetworkSecretsFile), as
/// `llm-sandbox secrets set` does; the dialog closes when both are done and stays open with the reason when either
/// fails (a keychain that fails: nothing is written). Editing, the name stays and an empty value keeps the stored one.
class NetworkSecretDialog final : public QDialog
{
    Q_OBJECT

public:
    /// Adds a secret whose name is none of `taken`.
    NetworkSecretDialog(SecretStore &store, const QStringList &taken, QWidget *parent = nullptr);
    /// Changes `existing`.
    NetworkSecretDialog(SecretStore &store, const NetworkSecret &existing, QWidget *parent = nullptr);

    /// What is wrong with the fields, or why the last save failed, in one sentence; empty when nothing is.
    QString problem() const;
    /// Whether it waits for the keychain.
    bool isBusy() const { return m_busy; }
    /// OK, as the button does (when it is enabled).
    void save();

signals:
    /// The secret `name` was kept: its value in the keychain (unless an edit kept the stored one), its binding in the
    /// secrets file.
    void saved(const QString &name);

private:
    NetworkSecretDialog(SecretStore &store, QStringList taken, std::optional<NetworkSecret> existing, QWidget *parent);
    /// The secret the fields describe, or why they describe none (empty when a field is merely still empty).
    std::optional<NetworkSecret> binding(QString *problem) const;
    QByteArray value() const;
    void update();
    void setBusy(bool busy);
    void fail(const QString &problem);
    void writeBinding(const NetworkSecret &binding);

    SecretStore &m_store;
    const QStringList m_taken;
    const std::optional<NetworkSecret> m_existing;
    bool m_busy = false;
    QString m_failure; ///< why the last save failed, until a field changes
    QLineEdit *m_name = nullptr;
    QLineEdit *m_hosts = nullptr;
    QLineEdit *m_header = nullptr;
    QLineEdit *m_value = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_waiting = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace sandbox::gui
