#pragma once

#include "gui/tray/TrayStatus.h"

#include <QObject>

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace sandbox::gui {

/// The app in the system tray (made only where the desktop has one): it keeps the MCP server reachable while the
/// window is closed, says how many clients and runs there are, tells of runs that end (TrayStatus decides which),
/// and brings the window back or quits.
class TrayIcon final : public QObject
{
    Q_OBJECT

public:
    explicit TrayIcon(QObject *parent = nullptr);
    ~TrayIcon() override;

    void setStatus(bool serving, const QUrl &url, int clients, int running);
    void notify(const TrayStatus::Notification &notification);
    /// Says once per run of the app that the window was closed into the tray and the server goes on.
    void tellHidden();

signals:
    void showWindowRequested();
    void quitRequested();

private:
    QSystemTrayIcon *m_icon = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_status = nullptr;
    bool m_toldHidden = false;
};

} // namespace sandbox::gui
