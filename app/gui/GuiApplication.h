#pragma once

namespace sandbox::gui {

/// `llm-sandbox` without arguments: the desktop app. Builds the QApplication, the AppContext and the
/// main window; returns the exit status of the event loop.
int runDesktopApp(int &argc, char **argv);

} // namespace sandbox::gui
