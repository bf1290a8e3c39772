#pragma once

#include <QObject>
#include <QStringList>
#include <memory>

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
class RunningRuns;
class ThumbnailProvider;

/// The desktop app's services, made once and outliving the window (as qBittorrent's Application or Zeal's
/// Core::Application): the one EngineController every run of the app goes through, the app's MCP server, the
/// keychain, the one journal feed (every read of the journal, off the GUI thread), the runs of every process that
/// it follows, and the one thumbnail provider. The window and its pages are given this and build no service.
class DesktopApp final : public QObject
{
    Q_OBJECT

public:
    explicit DesktopApp(AppContext &context, QObject *parent = nullptr);
    /// Runs (the app's and its MCP clients') end, cancelled and waited for, before the services they use go.
    ~DesktopApp() override;

    AppContext &context() const { return m_context; }
    EngineController &controller() const { return *m_controller; }
    /// The app's MCP server (Streamable HTTP): the same tools as `--mcp`, its calls in the journal.
    mcp::McpHost &server() const { return *m_server; }
    SecretStore &secrets() const { return *m_secrets; }
    /// isOff() when the journal is off.
    JournalFeed &journal() const { return *m_journal; }
    /// The runs in progress of every process, from the journal.
    RunningRuns &running() const { return *m_running; }
    ThumbnailProvider &thumbnails() const { return *m_thumbnails; }
    /// The backends runs and replays may use.
    QStringList backends() const;

private:
    AppContext &m_context;
    std::unique_ptr<SecretStore> m_secrets;
    std::unique_ptr<JournalFeed> m_journal;
    ThumbnailProvider *m_thumbnails = nullptr;
    RunningRuns *m_running = nullptr;
    EngineController *m_controller = nullptr;
    mcp::McpHost *m_server = nullptr;
};

} // namespace sandbox::gui
