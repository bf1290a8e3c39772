#pragma once

#include "journal/JournalRun.h"

#include <QCoreApplication>
#include <QString>
#include <QUrl>
#include <optional>

namespace sandbox::gui {

/// What the tray icon says and decides, apart from the icon itself: its summary and tooltip, which runs that end are
/// worth a desktop notification, and whether closing the window hides it in the tray.
class TrayStatus final
{
    Q_DECLARE_TR_FUNCTIONS(TrayStatus)

public:
    struct Notification
    {
        QString title;
        QString message;
        bool failure = false;
    };
    enum class CloseAction
    {
        Quit,       ///< as without a tray: ask when runs or the server would be cut off, then quit
        HideToTray, ///< the window goes, the server goes on serving
    };

    /// A run that ends after this long is told even when it went well.
    static constexpr qint64 kLongRunMs = 30'000;

    /// "2 clients, 1 running"; "MCP server stopped · 1 running".
    static QString summary(bool serving, int clients, int running);
    /// The icon's tooltip: the app, where the server listens, the summary.
    static QString toolTip(bool serving, const QUrl &url, int clients, int running);
    /// The notification for `run`, which just ended: an assistant's run (MCP or HTTP) that failed, or any run longer
    /// than kLongRunMs. None while the user looks at the window (`windowActive`): the live log shows it there.
    static std::optional<Notification> notificationFor(const JournalRun &run, bool windowActive);
    /// Closing the window with the server running keeps it serving from the tray, when there is one and the user
    /// wants that; a quit the user asked for (the menus' Quit) always quits.
    static CloseAction closeAction(bool trayAvailable, bool keepServing, bool serving, bool quitAsked);
};

} // namespace sandbox::gui
