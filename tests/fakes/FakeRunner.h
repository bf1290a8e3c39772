#pragma once

#include "backend/ContainerStream.h"
#include "fakes/FakeRunScript.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace sandbox::test {

/// The in-container runner of one fake container: it speaks the runner protocol (runner/PROTOCOL.md) over an
/// in-memory stream. Requests are parsed and refused by the real runner's parser (runner/Protocol.h); runs
/// execute one at a time on a thread of the runner's own, as scripted, while `cancel`, `ping`, `put_file` and
/// `get_file` are answered at once (also during a run). Files live in a map (absolute path -> data).
class FakeRunner final : public std::enable_shared_from_this<FakeRunner>
{
public:
    using Script = std::function<FakeRunScript(const FakeRun &run)>;

    /// `files`: what the container holds when it starts (copied in before); `protocolVersion` and `limits` (the
    /// limits in force; empty: the field is left out, as an older runner does) go into `ready`.
    FakeRunner(QString containerId, QHash<QString, QByteArray> files, int protocolVersion, Script script,
               QJsonObject limits = {});
    ~FakeRunner();
    FakeRunner(const FakeRunner &) = delete;
    FakeRunner &operator=(const FakeRunner &) = delete;

    /// Starts the runner (it announces itself with `ready`) and returns the container's attached stream.
    /// Destroying the stream closes the runner's stdin, as a closed attach connection does.
    std::unique_ptr<ContainerStream> start();
    /// The container dies: the stream ends after what was already written, a run in progress never finishes.
    void kill();
    /// Neither killed nor exited (after end of file on stdin).
    bool isAlive() const;
    QHash<QString, QByteArray> files() const;

    // The stream's side.
    Result<void> write(const QByteArray &data);
    ContainerStream::ReadStatus read(QByteArray &out, std::chrono::milliseconds timeout);
    void closeWrite();

private:
    struct QueuedRun
    {
        QString id;
        QJsonObject request;
    };

    void handleLine(const QByteArray &line);
    void serveRuns();
    void execute(const QueuedRun &run);
    /// Queues one message for the host (dropped once the container is dead).
    void send(const QJsonObject &message);
    void sendDone(const QString &id, const FakeRunScript &script, int exitCode, const QString &reason);
    bool interrupted() const;
    /// Stops the run thread and waits for it (unless called on it).
    void stopThread();

    const QString m_containerId;
    const int m_protocolVersion;
    const QJsonObject m_limits;
    const Script m_script;

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    QHash<QString, QByteArray> m_files;
    QByteArray m_output; ///< written by the runner, not yet read by the host
    QByteArray m_input;  ///< a partial request line (m_writeMutex)
    std::deque<QueuedRun> m_queue;
    QString m_currentRun;
    std::shared_ptr<FakeRunGate> m_currentGate;
    std::atomic<bool> m_cancelRequested = false;
    std::atomic<bool> m_killed = false;
    std::atomic<bool> m_stdinClosed = false;
    bool m_exited = false;
    std::mutex m_writeMutex;  ///< one request line at a time, in order (guards m_input)
    std::mutex m_threadMutex; ///< the container may be killed and its stream closed at once
    std::thread m_thread;
    std::atomic<std::thread::id> m_runThreadId; ///< set once by start()
};

} // namespace sandbox::test
