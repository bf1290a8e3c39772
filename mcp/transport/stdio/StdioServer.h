#pragma once

#include "mcp/server/McpDispatcher.h"
#include "mcp/transport/stdio/MessageWriter.h"

#include <QObject>
#include <QtGlobal>
#include <atomic>
#include <memory>
#include <thread>

class QEventLoop;

namespace sandbox::mcp {

struct StdioOptions
{
    int inputFd = 0;
    int outputFd = 1;
    /// Whether SIGTERM and SIGINT end exec() (tests that run several servers turn this off).
    bool handleSignals = true;
    DispatcherOptions dispatcher;
};

/// The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout around an McpDispatcher.
///
/// While the server exists, stdout carries protocol messages only: the real stdout is kept for the protocol and
/// file descriptor 1 is pointed at stderr, so a stray printf anywhere cannot corrupt the stream, and Qt's log
/// messages go to stderr (both restored by the destructor). exec() returns 0 when stdin closes (after the calls still
/// running have answered) or on SIGTERM/SIGINT (running calls are cancelled first; a second signal exits at once).
class StdioServer final
{
public:
    /// Serves the dispatcher `factory` makes (McpHost::dispatcherFactory: the sandbox tools); `options.dispatcher`
    /// then only gives the message size limit.
    explicit StdioServer(const McpDispatcher::Factory &factory, StdioOptions options = {});
    /// A server with other tools and resources (tests).
    StdioServer(ToolRegistry tools, QList<Resource> resources, StdioOptions options = {});
    ~StdioServer();

    StdioServer(const StdioServer &) = delete;
    StdioServer &operator=(const StdioServer &) = delete;

    /// Serves until stdin closes or a termination signal arrives. Call from the thread that owns the
    /// QCoreApplication.
    int exec();
    /// Ends exec() as SIGTERM does. Safe from any thread.
    void terminate();

private:
    void readInput();
    void dispatchLine(const QByteArray &line);
    void write(const QJsonDocument &message);
    void onInputClosed();
    void maybeQuit();
    void post(std::function<void()> function);

    StdioOptions m_options;
    int m_wakeRead = -1;
    int m_wakeWrite = -1;
    int m_protocolFd = -1;
    bool m_ownsStdout = false;
    QtMessageHandler m_previousMessageHandler = nullptr;
    std::unique_ptr<MessageWriter> m_writer;
    QObject m_context; // lives on the exec() thread; receives what the reader and the workers post
    QEventLoop *m_loop = nullptr;
    std::atomic<int> m_outstanding = 0;
    bool m_inputClosed = false;
    std::thread m_reader;
    // Last: destroyed (waiting for its workers) while everything they use still exists.
    std::unique_ptr<McpDispatcher> m_dispatcher;
};

} // namespace sandbox::mcp
