#pragma once

#include "engine/RunObserver.h"
#include "journal/ExchangeSink.h"

#include <QJsonObject>
#include <QString>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sandbox {

struct SandboxSettings;

/// Records every run it observes into the run journal. The observer callbacks only queue (they arrive on the
/// engine's run threads and must be quick); one writer thread owns the SQLite connection and commits what is
/// queued in batches (every ~150 ms, or sooner when 64 KiB of output are waiting), so a run in progress can be
/// watched from another process. Output beyond `outputCap` bytes per stream is dropped and the run marked
/// truncated. Safe to use from any thread.
class JournalRecorder final : public RunObserver, public ExchangeSink
{
public:
    /// What every run recorded by this recorder shares: which face recorded it and with what engine.
    struct Context
    {
        QString backend;      ///< docker, podman, kubernetes
        QString endpoint;     ///< the engine's address
        QJsonObject settings; ///< settingsJson() of the engine's settings
        /// The image a run of a language uses (ImageCatalog::runImage); may be empty. Called in runStarted, on the
        /// run's thread.
        std::function<QString(const QString &language)> imageForLanguage;
        /// Told, on the writer's thread, when the journal cannot be written (why) and when it can again (empty):
        /// once each, not per run. The recorder also says both on stderr.
        std::function<void(const QString &problem)> onProblem;
        /// Told, on the writer's thread, that a person asked to stop run `runId` of those this recorder records
        /// (RunJournal::requestStop, from any process); once per run. While runs are in progress the journal is
        /// asked every kStopPollInterval (and after each batch).
        std::function<void(const QString &runId)> onStopRequested;
    };

    /// How often a recorder with runs in progress looks for stop requests.
    static constexpr std::chrono::milliseconds kStopPollInterval{250};

    /// Starts the writer thread, which opens (creating or migrating) the journal at `databasePath`.
    JournalRecorder(const QString &databasePath, Context context, qint64 outputCap = 1024 * 1024);
    /// Flushes everything queued, then stops the writer.
    ~JournalRecorder() override;

    JournalRecorder(const JournalRecorder &) = delete;
    JournalRecorder &operator=(const JournalRecorder &) = delete;

    /// Blocks until everything queued so far is committed (tests, shutdown).
    void flush();

    /// For MCP: the exact tool call and the result as returned, attached to run `runId`.
    void recordExchange(const QString &runId, const QJsonObject &request, const QJsonObject &response,
                        const QString &protocolVersion) override;
    /// Waits until what is queued is committed, then reads the artifact back from the journal's folder.
    Result<Artifact> storedArtifact(const QString &runId, const QString &name, const QString &connection) override;
    /// Queues the saved file like the run's other changes; it counts as a change of the run (its seq moves), so every
    /// window's feed sees it.
    void recordSavedResult(const QString &runId, const SavedResult &saved) override;
    /// Waits until what is queued is committed, then reads them (JournalReader::savedResults).
    Result<QList<SavedResult>> savedResults(const QString &runId) override;

    void runStarted(const QString &runId, const RunRequest &request) override;
    void runOutput(const QString &runId, OutputStream stream, const QByteArray &chunk) override;
    void runArtifact(const QString &runId, const Artifact &artifact) override;
    void runContainer(const QString &runId, const QString &containerId) override;
    void runSample(const QString &runId, const ContainerStats &sample) override;
    void runFinished(const QString &runId, const RunResult &result, const std::optional<Error> &error) override;

    /// The settings that shape a run (limits, network, hardening, policy), as the journal keeps them.
    static QJsonObject settingsJson(const SandboxSettings &settings);

    qint64 outputCap() const { return m_outputCap; }

private:
    struct Event;
    class Writer;

    void enqueue(Event event);
    void writerLoop();

    const QString m_databasePath;
    const Context m_context;
    const qint64 m_outputCap;

    std::mutex m_mutex;
    std::condition_variable m_wake;      ///< new events, a flush request or stop, for the writer
    std::condition_variable m_committed; ///< a batch was committed, for flush()
    std::vector<Event> m_queue;
    qint64 m_queuedBytes = 0;
    quint64 m_enqueuedCount = 0;
    quint64 m_committedCount = 0;
    quint64 m_flushTarget = 0;
    bool m_stopping = false;
    // Last: started when everything it uses exists.
    std::thread m_thread;
};

} // namespace sandbox
