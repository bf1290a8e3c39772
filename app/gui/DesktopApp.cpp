#include "gui/DesktopApp.h"

#include "AppContext.h"
#include "backend/BackendFactory.h"
#include "gui/EngineController.h"
#include "gui/activity/RunningRuns.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"
#include "mcp/McpHost.h"
#include "secrets/KeychainSecretStore.h"

namespace sandbox::gui {

DesktopApp::DesktopApp(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context), m_secrets(std::make_unique<KeychainSecretStore>()),
      m_journal(std::make_unique<JournalFeed>(context.journalPath()))
{
    m_thumbnails = new ThumbnailProvider(this);
    m_running = new RunningRuns(*m_journal, this);
    m_controller = new EngineController([&context](const QString &backend) { return context.engine(backend); },
                                        context.defaultBackend(), this);
    // Asked for each new client: after the default backend or its connection changes, new sessions use the new
    // engine while the open ones finish on theirs.
    m_server = new mcp::McpHost(
        [&context]() -> mcp::McpHost::Target {
            const Result<ExecutionEngine *> engine = context.engine();
            return {engine, engine ? context.recorderOf(*engine) : nullptr};
        },
        this);
}

DesktopApp::~DesktopApp()
{
    // The runs use the engines of the context and report to the journal: they end first, then the server's calls.
    delete m_controller;
    m_controller = nullptr;
    m_server->disconnect();
    delete m_server;
    m_server = nullptr;
}

QStringList DesktopApp::backends() const
{
    QStringList names = BackendFactory::names();
    names.removeAll(QStringLiteral("kubernetes")); // not offered for runs from the desktop yet
    return names;
}

} // namespace sandbox::gui
