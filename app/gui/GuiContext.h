#pragma once

#include <QString>
#include <QStringList>

namespace sandbox {
class AppContext;
class JournalFeed;
class SecretStore;
namespace mcp {
class McpHost;
}
} // namespace sandbox

namespace sandbox::gui {

class EngineController;
class ThumbnailProvider;

/// What a page is given: the application's context (settings, engines), the one controller every run of the window
/// goes through, the one thumbnail provider, the one journal feed (every read of the journal, off the GUI thread),
/// the backends a page may offer, the app's MCP server and the keychain.
struct GuiContext
{
    AppContext &app;
    EngineController &controller;
    ThumbnailProvider &thumbnails;
    JournalFeed &journal; ///< isOff() when the journal is off
    QStringList backends; ///< the backends runs and replays may use
    mcp::McpHost &server; ///< the app's MCP server (Streamable HTTP)
    SecretStore &secrets; ///< the system keychain
};

} // namespace sandbox::gui
