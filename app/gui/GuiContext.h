#pragma once

#include <QString>
#include <QStringList>

namespace sandbox {
class AppContext;
}

namespace sandbox::gui {

class EngineController;
class ThumbnailProvider;

/// What a page is given: the application's context (settings, engines), the one controller every run of the window
/// goes through, the one thumbnail provider, the journal and the backends a page may offer.
struct GuiContext
{
    AppContext &app;
    EngineController &controller;
    ThumbnailProvider &thumbnails;
    QString journalPath;  ///< empty: the journal is off
    QStringList backends; ///< the backends runs and replays may use
};

} // namespace sandbox::gui
