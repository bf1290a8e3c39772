#include "mcp/McpHost.h"

#include "mcp/http/HttpLogging.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

namespace sandbox::mcp {

McpHost::McpHost(const Result<ExecutionEngine *> &engine, ExchangeSink *exchangeSink, QObject *parent)
    : McpHost([target = Target{engine, exchangeSink}] { return target; }, parent)
{}

McpHost::McpHost(TargetProvider provider, QObject *parent) : QObject(parent), m_provider(std::move(provider)) {}

McpHost::~McpHost()
{
    stopHttpAndWait();
}

McpDispatcher::Factory McpHost::dispatcherFactory(RunSource source) const
{
    return [provider = m_provider, source](McpDispatcher::MessageSink messageSink) {
        const Target target = provider();
        ExecutionEngine *engine = target.engine ? *target.engine : nullptr;
        DispatcherOptions options;
        options.source = source;
        options.exchangeSink = target.exchangeSink;
        options.resourceTemplates = SandboxTools::resourceTemplates(engine);
        return std::make_unique<McpDispatcher>(
            SandboxTools::tools(target.engine ? CodeExecutor::forEngine(engine)
                                              : CodeExecutor::unavailable(target.engine.error()),
                                engine),
            SandboxTools::resources(engine), std::move(messageSink), options);
    };
}

int McpHost::serveStdio(StdioOptions options)
{
    StdioServer server(dispatcherFactory(RunSource::Mcp), std::move(options));
    return server.exec();
}

Result<QUrl> McpHost::startHttp(const QByteArray &token, const HttpServerOptions &options)
{
    if (m_state != State::Stopped) {
        return Error{QStringLiteral("the MCP server is already running or still stopping.")};
    }
    auto server = std::make_unique<StreamableHttpServer>(dispatcherFactory(RunSource::Http), token, options);
    const Result<quint16> port = server->start();
    if (!port) {
        return port.error();
    }
    connect(server.get(), &StreamableHttpServer::sessionsChanged, this, &McpHost::sessionsChanged);
    m_http = std::move(server);
    setState(State::Running);
    return m_http->url();
}

void McpHost::stopHttp()
{
    if (m_state != State::Running) {
        return;
    }
    setState(State::Stopping);
    m_http->stop().then(this, [this] {
        m_http.reset();
        setState(State::Stopped);
        emit sessionsChanged();
    });
}

void McpHost::stopHttpAndWait()
{
    if (!m_http) {
        return;
    }
    if (m_state == State::Running) {
        m_http->stop();
    }
    m_http.reset(); // waits for the calls that are still ending
    setState(State::Stopped);
}

void McpHost::setToken(const QByteArray &token)
{
    if (m_http && m_state == State::Running) {
        m_http->setToken(token);
    }
}

QUrl McpHost::url() const
{
    return m_http && m_state == State::Running ? m_http->url() : QUrl();
}

QList<HttpSessionInfo> McpHost::sessions() const
{
    return m_http && m_state == State::Running ? m_http->sessions() : QList<HttpSessionInfo>();
}

void McpHost::endSession(const QString &id)
{
    if (m_http && m_state == State::Running) {
        m_http->endSession(id);
    }
}

void McpHost::setState(State state)
{
    if (m_state != state) {
        m_state = state;
        emit stateChanged(state);
    }
}

} // namespace sandbox::mcp
