#pragma once

#include "network/NetworkAllowList.h"

#include <QWidget>

class QButtonGroup;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QCheckBox;
class QRadioButton;

namespace sandbox {
class SecretStore;
}

namespace sandbox::gui {

class NetworkHostModel;
class NetworkSecretsPanel;

/// Settings → Network: what sandboxes may reach when a run asks for hosts (the ceiling, SandboxSettings::networkAllow):
/// nothing (the default), the package registries, the public web read-only, or the hosts listed here (read-only or
/// not), each checked as it is added or edited
/// (a bad one is refused with the reason). When LLM_SANDBOX_NETWORK_ALLOW sets it for the app's process, the page says
/// so and cannot be changed. The settings dialog saves it on OK. Below, the secrets runs may use with those hosts
/// without seeing them (NetworkSecretsPanel), kept in `secrets` (the system keychain) as soon as they are added.
class NetworkPage final : public QWidget
{
    Q_OBJECT

public:
    enum class Choice
    {
        Nothing,
        Registries,
        WebReadOnly,
        Hosts,
    };

    explicit NetworkPage(SecretStore &secrets, QWidget *parent = nullptr);

    /// Shows `allowed` as the choice it is: nothing, exactly the registries preset, or these hosts.
    void setAllowList(const NetworkAllowList &allowed);
    /// What the page allows now (the hosts listed only while "These hosts" is chosen).
    NetworkAllowList allowList() const;
    Choice choice() const;
    /// LLM_SANDBOX_NETWORK_ALLOW's value when the environment sets the ceiling (the page is then read-only and says
    /// so); a null string when it does not.
    void setEnvironmentValue(const QString &value);

    /// Adds `text` to the hosts (Add does with the field's text) and chooses "These hosts"; false, with the reason
    /// shown, when it is no host.
    bool addHost(const QString &text);
    /// Why the last host was refused, in one sentence; empty when none was.
    QString problem() const;
    NetworkSecretsPanel &secrets() const { return *m_secrets; }

private:
    void removeCurrent();
    void showProblem(const QString &problem);
    void updateControls();

    bool m_fromEnvironment = false;
    QButtonGroup *m_choices = nullptr;
    QRadioButton *m_nothing = nullptr;
    QRadioButton *m_registries = nullptr;
    QRadioButton *m_webReadOnly = nullptr;
    QRadioButton *m_hosts = nullptr;
    QCheckBox *m_hostsReadOnly = nullptr;
    NetworkHostModel *m_model = nullptr;
    QListView *m_view = nullptr;
    QLineEdit *m_newHost = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_environment = nullptr;
    NetworkSecretsPanel *m_secrets = nullptr;
};

} // namespace sandbox::gui
