#include "mcp/transport/stdio/StdioServer.h"

#include "mcp/McpLogging.h"
#include "mcp/protocol/ProtocolVersion.h"
#include "mcp/transport/stdio/LineSplitter.h"
#include "util/TemporaryPaths.h"

#include <QEventLoop>
#include <QMetaObject>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace sandbox::mcp {

namespace {

// Bytes on the wake pipe: a termination request (signal or terminate()), a second signal (exit at once) and the
// order to stop reading.
constexpr char kTerminate = 'T';
constexpr char kExitNow = 'X';
constexpr char kStop = 'S';

// The signal handler can only reach the server through async-signal-safe state.
std::atomic<int> s_signalFd = -1;
std::atomic<int> s_signalCount = 0;
std::atomic<int> s_lastSignal = 0;

extern "C" void onTerminationSignal(int signal)
{
    s_lastSignal = signal;
    const bool again = s_signalCount.fetch_add(1) > 0;
    const int fd = s_signalFd.load();
    if (fd < 0) {
        if (again) {
            _exit(128 + signal);
        }
        return;
    }
    // A second signal: the user really wants us gone. The reader thread exits at once, after removing the temporary
    // folders of long operations (nothing here may touch the file system safely).
    const char byte = again ? kExitNow : kTerminate;
    if (::write(fd, &byte, 1) != 1 && again) {
        _exit(128 + signal);
    }
}

void logToStderr(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray line = qFormatLogMessage(type, context, message).toLocal8Bit() + '\n';
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, line.constData(), line.size());
}

/// Installs the SIGTERM/SIGINT handlers for the lifetime of exec() and restores the previous ones.
class SignalGuard final
{
public:
    SignalGuard(bool enabled, int wakeFd) : m_enabled(enabled)
    {
        if (!m_enabled) {
            return;
        }
        s_signalCount = 0;
        s_signalFd = wakeFd;
        struct sigaction action = {};
        action.sa_handler = onTerminationSignal;
        sigemptyset(&action.sa_mask);
        sigaction(SIGTERM, &action, &m_oldTerm);
        sigaction(SIGINT, &action, &m_oldInt);
    }
    ~SignalGuard()
    {
        if (!m_enabled) {
            return;
        }
        sigaction(SIGTERM, &m_oldTerm, nullptr);
        sigaction(SIGINT, &m_oldInt, nullptr);
        s_signalFd = -1;
    }
    SignalGuard(const SignalGuard &) = delete;
    SignalGuard &operator=(const SignalGuard &) = delete;

private:
    bool m_enabled;
    struct sigaction m_oldTerm = {};
    struct sigaction m_oldInt = {};
};

} // namespace

StdioServer::StdioServer(ToolRegistry tools, QList<Resource> resources, StdioOptions options)
    : StdioServer(
          [tools = std::move(tools), resources = std::move(resources),
           dispatcherOptions = options.dispatcher](McpDispatcher::MessageSink sink) {
              return std::make_unique<McpDispatcher>(tools, resources, std::move(sink), dispatcherOptions);
          },
          std::move(options))
{}

StdioServer::StdioServer(const McpDispatcher::Factory &factory, StdioOptions options) : m_options(std::move(options))
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) == 0) {
        m_wakeRead = fds[0];
        m_wakeWrite = fds[1];
        // Never block a signal handler on a full pipe: one pending byte is enough to wake the reader.
        ::fcntl(m_wakeWrite, F_SETFL, O_NONBLOCK);
    } else {
        qCCritical(lcMcp) << "cannot create a pipe:" << std::strerror(errno);
    }
    m_protocolFd = m_options.outputFd;
    if (m_options.outputFd == STDOUT_FILENO) {
        // Keep the real stdout for the protocol; anything else that writes to fd 1 from now on lands on stderr.
        std::fflush(stdout);
        m_protocolFd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        ::dup2(STDERR_FILENO, STDOUT_FILENO);
        m_previousMessageHandler = qInstallMessageHandler(logToStderr);
        m_ownsStdout = true;
    }
    m_writer = std::make_unique<MessageWriter>(m_protocolFd);
    m_dispatcher = factory([this](const QJsonObject &message, const QJsonValue &) { write(QJsonDocument(message)); });
}

StdioServer::~StdioServer()
{
    if (m_reader.joinable()) {
        const char byte = kStop;
        [[maybe_unused]] const ssize_t ignored = ::write(m_wakeWrite, &byte, 1);
        m_reader.join();
    }
    m_dispatcher.reset();
    for (const int fd : {m_wakeRead, m_wakeWrite}) {
        if (fd >= 0) {
            ::close(fd);
        }
    }
    if (m_ownsStdout) {
        std::fflush(stdout);
        ::dup2(m_protocolFd, STDOUT_FILENO);
        ::close(m_protocolFd);
        qInstallMessageHandler(m_previousMessageHandler);
    }
}

int StdioServer::exec()
{
    // A client that closes its end must not kill us with SIGPIPE; the write error ends the session instead.
    std::signal(SIGPIPE, SIG_IGN);
    qCInfo(lcMcp) << "MCP server on stdio, protocol versions" << ProtocolVersion::supported();

    {
        const SignalGuard signalGuard(m_options.handleSignals, m_wakeWrite);
        QEventLoop loop;
        m_loop = &loop;
        m_inputClosed = false;
        m_reader = std::thread([this] { readInput(); });
        loop.exec();
        m_loop = nullptr;

        const char byte = kStop;
        [[maybe_unused]] const ssize_t ignored = ::write(m_wakeWrite, &byte, 1);
        m_reader.join();
        m_dispatcher->waitForDone();
    }
    qCInfo(lcMcp) << "MCP server stopped";
    return 0;
}

void StdioServer::terminate()
{
    const char byte = kTerminate;
    [[maybe_unused]] const ssize_t ignored = ::write(m_wakeWrite, &byte, 1);
}

void StdioServer::readInput()
{
    LineSplitter splitter(m_options.dispatcher.maxMessageBytes);
    const auto onLine = [this](const QByteArray &line) {
        dispatchLine(line);
    };
    const auto onOversize = [this] {
        write(QJsonDocument(m_dispatcher->messageTooLargeReply()));
    };
    QByteArray buffer(64 * 1024, Qt::Uninitialized);
    bool inputOpen = true;
    bool terminating = false;

    while (true) {
        pollfd fds[2] = {{m_wakeRead, POLLIN, 0}, {m_options.inputFd, POLLIN, 0}};
        // After EOF only the wake pipe is watched: a signal must still cancel the calls we wait for.
        if (::poll(fds, inputOpen ? 2 : 1, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            qCCritical(lcMcp) << "poll failed:" << std::strerror(errno);
            return;
        }
        if (fds[0].revents & POLLIN) {
            char bytes[16];
            const ssize_t count = ::read(m_wakeRead, bytes, sizeof bytes);
            for (ssize_t i = 0; i < count; ++i) {
                if (bytes[i] == kStop) {
                    return;
                }
                if (bytes[i] == kExitNow) {
                    qCWarning(lcMcp) << "a second signal: exiting now";
                    TemporaryPaths::removeAll();
                    _exit(128 + s_lastSignal.load());
                }
                if (bytes[i] == kTerminate && !terminating) {
                    terminating = true;
                    qCInfo(lcMcp) << "terminating: cancelling" << m_dispatcher->runningCalls() << "running call(s)";
                    m_dispatcher->cancelAll();
                    if (inputOpen) {
                        inputOpen = false;
                        post([this] { onInputClosed(); });
                    }
                }
            }
        }
        if (inputOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
            const ssize_t count = ::read(m_options.inputFd, buffer.data(), static_cast<size_t>(buffer.size()));
            if (count < 0 && (errno == EINTR || errno == EAGAIN)) {
                continue;
            }
            if (count > 0) {
                splitter.feed(QByteArrayView(buffer.constData(), count), onLine, onOversize);
                continue;
            }
            if (count < 0) {
                qCWarning(lcMcp) << "cannot read stdin:" << std::strerror(errno);
            }
            splitter.finish(onLine);
            inputOpen = false;
            qCInfo(lcMcp) << "stdin closed; waiting for" << m_outstanding.load() << "pending request(s)";
            post([this] { onInputClosed(); });
        }
    }
}

void StdioServer::dispatchLine(const QByteArray &line)
{
    ++m_outstanding;
    m_dispatcher->handle(line).then(QtFuture::Launch::Sync, [this](const QJsonDocument &reply) {
        if (!reply.isNull()) {
            write(reply);
        }
        if (--m_outstanding == 0) {
            post([this] { maybeQuit(); });
        }
    });
}

void StdioServer::write(const QJsonDocument &message)
{
    if (m_writer && !m_writer->write(message) && m_writer->broken()) {
        terminate(); // nobody reads our answers any more
    }
}

void StdioServer::onInputClosed()
{
    m_inputClosed = true;
    maybeQuit();
}

void StdioServer::maybeQuit()
{
    if (m_inputClosed && m_outstanding == 0 && m_loop) {
        m_loop->quit();
    }
}

void StdioServer::post(std::function<void()> function)
{
    QMetaObject::invokeMethod(&m_context, std::move(function), Qt::QueuedConnection);
}

} // namespace sandbox::mcp
