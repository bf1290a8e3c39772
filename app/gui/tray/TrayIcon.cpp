#include "gui/tray/TrayIcon.h"

#include <QApplication>
#include <QMenu>
#include <QSystemTrayIcon>

namespace sandbox::gui {

TrayIcon::TrayIcon(QObject *parent) : QObject(parent)
{
    m_menu = new QMenu;
    QAction *show = m_menu->addAction(tr("&Show LLM Sandbox"), this, &TrayIcon::showWindowRequested);
    m_menu->setDefaultAction(show);
    m_status = m_menu->addAction(QString());
    m_status->setEnabled(false);
    m_menu->addSeparator();
    m_menu->addAction(tr("&Quit"), this, &TrayIcon::quitRequested);

    m_icon = new QSystemTrayIcon(QApplication::windowIcon(), this);
    m_icon->setContextMenu(m_menu);
    connect(m_icon, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick) {
            emit showWindowRequested();
        }
    });
    connect(m_icon, &QSystemTrayIcon::messageClicked, this, &TrayIcon::showWindowRequested);
    m_icon->show();
}

TrayIcon::~TrayIcon()
{
    delete m_menu;
}

void TrayIcon::setStatus(bool serving, const QUrl &url, int clients, int running)
{
    m_status->setText(TrayStatus::summary(serving, clients, running));
    m_icon->setToolTip(TrayStatus::toolTip(serving, url, clients, running));
}

void TrayIcon::notify(const TrayStatus::Notification &notification)
{
    m_icon->showMessage(notification.title, notification.message,
                        notification.failure ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information);
}

void TrayIcon::tellHidden()
{
    if (m_toldHidden) {
        return;
    }
    m_toldHidden = true;
    m_icon->showMessage(tr("LLM Sandbox is still serving"),
                        tr("The MCP server goes on running for your assistants. Open the window or quit from this "
                           "icon's menu."),
                        QSystemTrayIcon::Information);
}

} // namespace sandbox::gui
