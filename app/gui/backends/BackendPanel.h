#pragma once

#include "backend/ContainerBackend.h"
#include "settings/BackendConnection.h"

#include <QWidget>
#include <memory>

class QAbstractItemModel;
class QTableView;
class QTabWidget;

namespace sandbox {
class AppContext;
class SecretStore;
} // namespace sandbox

namespace sandbox::gui {

class ConnectionTab;
class ImagesTab;
class SandboxesTab;

/// One backend on the Backends page, in three tabs: its Connection (ConnectionTab), its Images (ImagesTab) and the
/// Sandboxes running on it now (SandboxesTab). The panel holds what they share: the backend made from the saved
/// connection, which saving a connection (or a push that saves its registry) makes again.
class BackendPanel final : public QWidget
{
    Q_OBJECT

public:
    /// `secrets`: the keychain with the registry logins (`images login`), asked on the GUI thread (where QtKeychain
    /// runs its jobs) and waited for on the push's thread.
    BackendPanel(AppContext &app, SecretStore &secrets, QString name, QWidget *parent = nullptr);

    const QString &name() const { return m_name; }
    AppContext &app() const { return m_app; }
    SecretStore &secrets() const { return m_secrets; }
    bool isKubernetes() const;
    /// The backend of the saved connection; an error when it cannot be made.
    const Result<std::shared_ptr<ContainerBackend>> &backend() const { return m_backend; }
    /// The saved connection with the fields as they are typed (Kubernetes: the registry of the Images tab too).
    BackendConnection connection() const;
    /// Saves `connection` and makes this window's next runs and MCP sessions use it (AppContext::reconnect), and this
    /// panel; connectionApplied() follows.
    void applyConnection(const BackendConnection &connection);

    ConnectionTab *connectionTab() const { return m_connection; }
    ImagesTab *imagesTab() const { return m_images; }
    SandboxesTab *sandboxesTab() const { return m_sandboxes; }

    /// A table as the tabs show theirs: whole rows, one at a time, read-only, no grid.
    static QTableView *makeTable(QAbstractItemModel *model, const QString &objectName);

signals:
    /// A connection of backend `name` was saved and applied.
    void connectionApplied(const QString &name);
    /// Show Run (or a double-click) on a sandbox that runs run `runId` now.
    void showRunRequested(const QString &runId);

private:
    AppContext &m_app;
    SecretStore &m_secrets;
    const QString m_name;
    Result<std::shared_ptr<ContainerBackend>> m_backend = Error{};
    QTabWidget *m_tabs = nullptr;
    ConnectionTab *m_connection = nullptr;
    ImagesTab *m_images = nullptr;
    SandboxesTab *m_sandboxes = nullptr;
};

} // namespace sandbox::gui
