#pragma once

#include <QString>
#include <QStringList>

namespace sandbox {
class AppContext;
class JournalFeed;
} // namespace sandbox

namespace sandbox::gui {

class EngineController;
class ThumbnailProvider;

/// What a page is given: the application's context (settings, engines), the one controller every run of the window
/// goes through, the one thumbnail provider, the one journal feed (every read of the journal, off the GUI thread) and
/// the backends a page may offer.
struct GuiContext
{
    AppContext &app;
    EngineController &controller;
    ThumbnailProvider &thumbnails;
    JournalFeed &journal; ///< isOff() when the journal is off
    QStringList backends; ///< the backends runs and replays may use
};

} // namespace sandbox::gui
