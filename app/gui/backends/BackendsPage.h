#pragma once

#include "gui/Page.h"

class QListWidget;
class QStackedWidget;

namespace sandbox {
class AppContext;
class SecretStore;
} // namespace sandbox

namespace sandbox::gui {

class BackendPanel;

/// The container backends side by side — Docker, Podman, Kubernetes in a list, each with its panel (BackendPanel):
/// connection settings and Test connection, its images (Kubernetes: pushed to its registry with the keychain's login),
/// the sandboxes running on it now.
class BackendsPage final : public Page
{
    Q_OBJECT

public:
    BackendsPage(AppContext &app, SecretStore &secrets, QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;

    /// The panel of backend `name` (docker, podman, kubernetes), or null.
    BackendPanel *panel(const QString &name) const;
    /// Shows the panel of backend `name`.
    void showBackend(const QString &name);
    /// ShowBackend: that backend's panel.
    bool open(const Intent &intent) override;

signals:
    /// A panel saved and applied the connection of backend `name` (BackendPanel::save).
    void connectionApplied(const QString &name);

private:
    QListWidget *m_list = nullptr;
    QStackedWidget *m_panels = nullptr;
};

} // namespace sandbox::gui
