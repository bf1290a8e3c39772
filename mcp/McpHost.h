#pragma once

#include "mcp/http/HttpSession.h"
#include "mcp/http/StreamableHttpServer.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/transport/stdio/StdioServer.h"
#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QUrl>
#include <functional>
#include <memory>

namespace sandbox {
class ExchangeSink;
class ExecutionEngine;
} // namespace sandbox

namespace sandbox::mcp {

/// The MCP server of one process, assembled in one place for every face: the sandbox tools and resources
/// (SandboxTools) over one engine, the journal's record of each call, served over stdio (`llm-sandbox --mcp`) or
/// Streamable HTTP (`serve --http` and the desktop app, which start and stop it). Lives on the thread that runs the
/// event loop.
class McpHost final : public QObject
{
    Q_OBJECT

public:
    enum class State
    {
        Stopped,
        Running,
        Stopping, ///< sessions ended, their cancelled calls still removing their containers
    };
    Q_ENUM(State)

    /// Where a client's calls go: `engine` runs execute_code and the session tools; an error instead says why they
    /// cannot (the server still answers, and the language tools work). `exchangeSink` receives every call that ran
    /// code (may be null). Neither is owned; both must outlive the host.
    struct Target
    {
        Result<ExecutionEngine *> engine = Error{};
        ExchangeSink *exchangeSink = nullptr;
    };
    /// Asked each time a client's dispatcher is made (a new HTTP session, a request without
    /// one, the stdio client): a client keeps the target it was given, so a face can change its engine while it
    /// serves (the desktop app after its backend settings change) and the sessions already open end on the old one.
    using TargetProvider = std::function<Target()>;

    /// Serves every client with the one `engine` and `exchangeSink` (see Target).
    McpHost(const Result<ExecutionEngine *> &engine, ExchangeSink *exchangeSink, QObject *parent = nullptr);
    /// Serves each new client with what `provider` gives then.
    explicit McpHost(TargetProvider provider, QObject *parent = nullptr);
    /// Stops the HTTP server, waiting for its cancelled calls.
    ~McpHost() override;

    McpHost(const McpHost &) = delete;
    McpHost &operator=(const McpHost &) = delete;

    /// Makes the dispatcher of one client; `source`: where its runs come from (Mcp, Http).
    McpDispatcher::Factory dispatcherFactory(RunSource source) const;

    /// Serves stdio until stdin closes or SIGTERM/SIGINT arrives; the exit status.
    int serveStdio(StdioOptions options = {});

    /// Starts serving Streamable HTTP; the URL clients connect to. An error when it runs already or cannot listen.
    Result<QUrl> startHttp(const QByteArray &token, const HttpServerOptions &options);
    /// Ends every session (their running calls are cancelled) and stops listening; state() is Stopping until the
    /// calls have ended, then Stopped.
    void stopHttp();
    /// stopHttp(), then waits (blocking) until the calls have ended: for the end of the program.
    void stopHttpAndWait();
    /// From now on clients must present `token`; the sessions opened with the old one end.
    void setToken(const QByteArray &token);

    State state() const { return m_state; }
    /// The HTTP server's URL while it runs.
    QUrl url() const;
    /// The connected HTTP clients.
    QList<HttpSessionInfo> sessions() const;
    /// Ends HTTP session `id` (as its client's DELETE would): its calls are cancelled.
    void endSession(const QString &id);

signals:
    void stateChanged(sandbox::mcp::McpHost::State state);
    /// A client connected or left, made a request, or a call of one began or ended.
    void sessionsChanged();

private:
    void setState(State state);

    const TargetProvider m_provider;
    State m_state = State::Stopped;
    std::unique_ptr<StreamableHttpServer> m_http;
};

} // namespace sandbox::mcp
