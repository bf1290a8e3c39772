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
class LibraryCacheTab;

/// The container backends side by side — Docker, Podman, Kubernetes in a list, each with its panel (BackendPanel):
/// connection settings and Test connection, its images (Kubernetes: pushed to its registry with the keychain's login),
/// the sandboxes running on it now. Below them, apart, the library cache (LibraryCacheTab): its sets serve the runs of
/// every backend, so it is one entry of the page, not a tab of each backend's panel.
class BackendsPage final : public Page
{
    Q_OBJECT

public:
    BackendsPage(AppContext &app, SecretStore &secrets, QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings &settings) const override;
    void restoreState(const QSettings &settings) override;

    /// What showBackend() takes for the library cache.
    static constexpr QLatin1StringView kLibraryCache{"library-cache"};

    /// The panel of backend `name` (docker, podman, kubernetes), or null.
    BackendPanel *panel(const QString &name) const;
    LibraryCacheTab *libraryCache() const { return m_libraryCache; }
    /// Shows the panel of backend `name` (or the library cache: kLibraryCache).
    void showBackend(const QString &name);
    /// ShowBackend: that backend's panel.
    bool open(const Intent &intent) override;

signals:
    /// A panel saved and applied the connection of backend `name` (BackendPanel::save).
    void connectionApplied(const QString &name);

private:
    QListWidget *m_list = nullptr;
    QStackedWidget *m_panels = nullptr;
    LibraryCacheTab *m_libraryCache = nullptr;
};

} // namespace sandbox::gui
