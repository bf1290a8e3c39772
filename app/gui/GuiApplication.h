#pragma once

namespace sandbox::gui {

struct DesktopAppOptions
{
    /// Opens the window, then quits as soon as the event loop has run once: proves the app starts
    /// (`llm-sandbox --quit-after-start`, for packagers and the clean-root check).
    bool quitAfterStart = false;
    /// Opens a window of its own even when the app already runs with these settings and journal
    /// (`llm-sandbox --new-instance`); else a second start brings the first's window forward (SingleInstance).
    bool newInstance = false;
};

/// `llm-sandbox` without arguments: the desktop app. Builds the QApplication, the AppContext and the
/// main window; returns the exit status of the event loop.
int runDesktopApp(int &argc, char **argv, DesktopAppOptions options = {});

} // namespace sandbox::gui
