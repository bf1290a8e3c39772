#pragma once

#include "engine/BackendDiagnosis.h"
#include "settings/BackendConnection.h"

#include <QFutureWatcher>
#include <QWidget>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sandbox::gui {

class BackendPanel;

/// The Connection tab of a backend: where it is reached (the fields of its BackendConnection, saved in the user
/// settings every face reads), whether it is the default, and a test of it (BackendDiagnosis, as `doctor`) off the
/// GUI thread.
class ConnectionTab final : public QWidget
{
    Q_OBJECT

public:
    explicit ConnectionTab(BackendPanel &panel);
    ~ConnectionTab() override;

    /// `connection` with the fields as they are typed (not yet saved).
    BackendConnection typed(BackendConnection connection) const;
    /// Saves the fields and applies them (BackendPanel::applyConnection).
    void save();
    /// Starts Test connection (off the GUI thread); testFinished() tells the result.
    void testConnection();
    const std::optional<BackendDiagnosis> &diagnosis() const { return m_diagnosis; }
    /// What the window's status bar found when it asked this backend (EngineController::backendProbed): shown until
    /// Test Connection says more, instead of "not tested".
    void showReachable(const BackendInfo &info, const QString &error);
    /// What the test shows (plain text).
    QString testResultText() const;

signals:
    void testFinished();

private:
    void showDiagnosis();
    void updateDefault();

    BackendPanel &m_panel;
    QLineEdit *m_dockerHost = nullptr;
    QLineEdit *m_dockerTlsPath = nullptr;
    QLineEdit *m_containerHost = nullptr;
    QLineEdit *m_kubeconfig = nullptr;
    QLineEdit *m_kubeContext = nullptr;
    QLineEdit *m_kubeNamespace = nullptr;
    QLabel *m_environmentNote = nullptr;
    QCheckBox *m_default = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_testResult = nullptr;
    std::optional<BackendDiagnosis> m_diagnosis;
    QFutureWatcher<BackendDiagnosis> m_testing;
};

} // namespace sandbox::gui
