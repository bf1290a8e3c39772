#include "journal/JournalRecorder.h"

#include "engine/ExecutionEngine.h"
#include "engine/RunResultJson.h"
#include "journal/JournalConnection.h"
#include "journal/JournalReader.h"
#include "journal/RunJournal.h"
#include "settings/SandboxSettings.h"
#include "util/PrivateFiles.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <variant>

Q_DECLARE_LOGGING_CATEGORY(lcJournal)

namespace sandbox {

namespace {

/// Output waits this long for more before it is committed: many small chunks become one UPDATE.
constexpr std::chrono::milliseconds kBatchDelay{150};
/// ... unless this much is waiting already.
constexpr qint64 kBatchBytes = 64 * 1024;
/// Changes the journal could not take (its disk full, the file locked by another program) are kept for the next
/// attempt up to this much; beyond it the oldest are dropped, and said so.
constexpr qint64 kUnwrittenBytes = 16 * 1024 * 1024;
/// How often those are tried again when no new change comes to carry them.
constexpr std::chrono::seconds kRetryInterval{5};

struct Started
{
    RunRequest request;
    QDateTime at;
    QString image; ///< resolved on the run's thread: the writer thread may outlive what resolves it
};

struct Output
{
    OutputStream stream;
    QByteArray bytes;
};

struct ArtifactProduced
{
    Artifact artifact;
};

struct Finished
{
    RunResult result;
    std::optional<Error> error;
    QDateTime at;
};

struct Sample
{
    ContainerStats stats;
};

struct ContainerAssigned
{
    QString containerId;
};

struct Exchange
{
    QJsonObject request;
    QJsonObject response;
    QString protocolVersion;
};

struct ResultSaved
{
    SavedResult saved;
};

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

struct JournalRecorder::Event
{
    QString runId;
    std::variant<Started, Output, ArtifactProduced, Finished, Sample, ContainerAssigned, Exchange, ResultSaved> payload;
};

/// The writer thread's side: the connection and what it remembers about the runs it is recording.
class JournalRecorder::Writer final
{
public:
    Writer(const QString &databasePath, const Context &context, qint64 outputCap)
        : m_connection(databasePath), m_context(context), m_outputCap(outputCap),
          m_artifactsDir(RunJournal::artifactsDirFor(databasePath)), m_owner(ExecutionEngine::ownerIdentity())
    {
        // RunJournal::open() also finishes what killed processes left Running.
        if (auto journal = RunJournal::open(databasePath); !journal) {
            noteFailure(journal.error().message);
        }
        if (auto opened = m_connection.open(); !opened) {
            noteFailure(opened.error().message);
        }
    }

    /// Changes that wait for the journal to take them.
    bool hasUnwritten() const { return !m_unwritten.empty(); }
    /// Runs whose start was recorded and whose end was not yet.
    bool hasRunning() const { return !m_runs.isEmpty(); }

    /// The runs of this recorder a person asked to stop since the last call (RunJournal::requestStop).
    QStringList newStopRequests()
    {
        QStringList requested;
        if (m_runs.isEmpty() || !m_connection.isOpen()) {
            return requested;
        }
        auto found = m_connection.exec(QStringLiteral("SELECT id FROM runs WHERE status = 'running' AND owner = ? AND "
                                                      "stop_requested_at IS NOT NULL"),
                                       {m_owner});
        if (!found) {
            return requested; // asked again at the next poll
        }
        while (found->next()) {
            const QString id = found->value(0).toString();
            if (auto run = m_runs.find(id); run != m_runs.end() && !run->stopRequested) {
                run->stopRequested = true;
                requested << id;
            }
        }
        return requested;
    }

    /// At the end: one last attempt at what waits, and what is lost said.
    void finish()
    {
        if (!hasUnwritten()) {
            return;
        }
        write({});
        if (hasUnwritten()) {
            qCWarning(lcJournal).noquote() << QStringLiteral("%1 change(s) of runs could not be written to the run "
                                                             "journal at %2 and are lost.")
                                                  .arg(m_unwritten.size())
                                                  .arg(m_connection.path());
        }
    }

    /// Writes the changes `events` make, after those that earlier attempts could not write. A journal that cannot
    /// be written is said once (and once again when it can be written again), never per run: the runs go on.
    void write(std::vector<Event> events)
    {
        // Everything that must not happen twice (cap accounting, artifact files) is done before the transaction,
        // which write() may repeat when another process holds the database.
        std::vector<Statement> statements = std::exchange(m_unwritten, {});
        for (Event &event : events) {
            if (m_lostRuns.contains(event.runId)) {
                continue; // its record was given up (keepUnwritten): the rest of it would have nothing to belong to
            }
            const std::size_t first = statements.size();
            std::visit([&](auto &payload) { prepare(event.runId, payload, statements); }, event.payload);
            for (std::size_t i = first; i < statements.size(); ++i) {
                statements[i].runId = event.runId;
            }
        }
        if (statements.empty()) {
            return;
        }
        if (!m_connection.isOpen()) {
            if (auto opened = m_connection.open(); !opened) {
                keepUnwritten(std::move(statements));
                return;
            }
        }
        auto written = m_connection.write([&]() -> Result<void> {
            auto seq = m_connection.nextSeq();
            if (!seq) {
                return seq.error();
            }
            for (const Statement &statement : statements) {
                QVariantList values = statement.values;
                if (statement.withSeq) {
                    values.prepend(*seq);
                }
                if (auto done = m_connection.exec(statement.sql, values); !done) {
                    return done.error();
                }
            }
            return {};
        });
        if (!written) {
            noteFailure(written.error().message);
            keepUnwritten(std::move(statements));
            return;
        }
        markLostRuns();
        if (!m_failure.isEmpty()) {
            m_failure.clear();
            qCWarning(lcJournal).noquote()
                << QStringLiteral("The run journal at %1 is written again, with the runs it missed meanwhile%2.")
                       .arg(m_connection.path(),
                            m_dropped > 0
                                ? QStringLiteral(" except the %1 oldest, beyond what could be kept").arg(m_dropped)
                                : QString());
            m_dropped = 0;
            if (m_context.onProblem) {
                m_context.onProblem(QString());
            }
        }
    }

private:
    struct Statement
    {
        QString sql;
        QVariantList values;
        bool withSeq = true; ///< the batch's sequence number is bound first
        QString appendKey;   ///< "run/stream" of an output append, which the next chunk of that stream extends
        QString runId;       ///< the run it records

        qint64 size() const
        {
            qint64 bytes = sql.size();
            for (const QVariant &value : values) {
                bytes +=
                    value.typeId() == QMetaType::QByteArray ? value.toByteArray().size() : value.toString().size() * 2;
            }
            return bytes;
        }
    };

    struct RunState
    {
        qint64 stdoutBytes = 0;
        qint64 stderrBytes = 0;
        bool truncated = false;
        int artifacts = 0;
        QSet<QString> files;
        QDateTime startedAt;
        bool stopRequested = false; ///< handed on by newStopRequests()
    };

    void prepare(const QString &runId, Started &started, std::vector<Statement> &out)
    {
        RunState &state = m_runs[runId];
        state.startedAt = started.at;
        const RunRequest &request = started.request;
        const QString source = toString(request.source);
        const QString &image = started.image;
        out.push_back(
            Statement{QStringLiteral(
                          "INSERT OR REPLACE INTO runs (seq, id, status, source, client_name, client_version, backend, "
                          "endpoint, image, language, libraries, timeout_ms, session_id, replay_of, owner, "
                          "mcp_connection, started_at, output_cap, stored_bytes, settings, code) "
                          "VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                      {runId, source, request.clientName, request.clientVersion, m_context.backend, m_context.endpoint,
                       image, request.language,
                       QString::fromUtf8(
                           QJsonDocument(QJsonArray::fromStringList(request.libraries)).toJson(QJsonDocument::Compact)),
                       qint64(request.timeout.count()), request.sessionId, request.replayOf, m_owner,
                       request.connection, started.at.toMSecsSinceEpoch(), m_outputCap,
                       qint64(request.code.toUtf8().size()), compactJson(m_context.settings), request.code}});
    }

    void prepare(const QString &runId, Output &output, std::vector<Statement> &out)
    {
        RunState &state = m_runs[runId];
        qint64 &recorded = output.stream == OutputStream::Stderr ? state.stderrBytes : state.stdoutBytes;
        const qint64 room = std::max<qint64>(0, m_outputCap - recorded);
        QByteArray bytes = output.bytes;
        bool truncatedNow = false;
        if (bytes.size() > room) {
            bytes.truncate(room);
            truncatedNow = !state.truncated;
            state.truncated = true;
        }
        recorded += bytes.size();
        if (bytes.isEmpty() && !truncatedNow) {
            return;
        }
        appendOutput(runId, output.stream, bytes, state.truncated, out);
    }

    void appendOutput(const QString &runId, OutputStream stream, const QByteArray &bytes, bool truncated,
                      std::vector<Statement> &out)
    {
        const QString column = stream == OutputStream::Stderr ? QStringLiteral("stderr") : QStringLiteral("stdout");
        const QString key = runId + QLatin1Char('/') + column;
        // Adjacent chunks of one stream are merged: one UPDATE per stream and batch, not one per write() call.
        if (!out.empty() && out.back().appendKey == key) {
            QVariantList &values = out.back().values;
            values[0] = QByteArray(values[0].toByteArray() + bytes);
            values[1] = values[1].toLongLong() + bytes.size();
            values[2] = truncated ? 1 : 0;
            return;
        }
        // CAST keeps the column a BLOB: || alone yields TEXT, which would be read back as UTF-8.
        out.push_back(Statement{
            QStringLiteral("UPDATE runs SET seq = ?, %1 = CAST(%1 || ? AS BLOB), stored_bytes = stored_bytes + ?, "
                           "output_truncated = MAX(output_truncated, ?) WHERE id = ?")
                .arg(column),
            {bytes, qint64(bytes.size()), truncated ? 1 : 0, runId},
            true,
            key});
    }

    void prepare(const QString &runId, ArtifactProduced &produced, std::vector<Statement> &out)
    {
        RunState &state = m_runs[runId];
        const Artifact &artifact = produced.artifact;
        // Names come from the sandbox: only a plain file name, inside this run's own folder, reaches the disk.
        const QString folder = RunJournal::safeFileName(runId);
        QString file = RunJournal::safeFileName(artifact.name);
        for (int n = 2; state.files.contains(file); ++n) {
            file = QStringLiteral("%1-%2").arg(n).arg(RunJournal::safeFileName(artifact.name));
        }
        state.files.insert(file);
        const QString relative = folder + QLatin1Char('/') + file;
        if (!PrivateFiles::makeDirectory(m_artifactsDir + QLatin1Char('/') + folder)) {
            qCWarning(lcJournal) << "cannot create" << m_artifactsDir + QLatin1Char('/') + folder;
            return;
        }
        if (!PrivateFiles::write(m_artifactsDir + QLatin1Char('/') + relative, artifact.data)) {
            qCWarning(lcJournal) << "cannot store artifact" << artifact.name << "of run" << runId;
            return;
        }
        out.push_back(Statement{
            QStringLiteral("INSERT OR REPLACE INTO artifacts (run_id, position, name, file, mime_type, size, width, "
                           "height) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
            {runId, state.artifacts++, artifact.name, relative, artifact.mimeType, artifact.size(), artifact.width,
             artifact.height},
            false});
        out.push_back(Statement{QStringLiteral("UPDATE runs SET seq = ?, stored_bytes = stored_bytes + ? WHERE id = ?"),
                                {artifact.size(), runId}});
    }

    void prepare(const QString &runId, Sample &sample, std::vector<Statement> &out)
    {
        const auto state = m_runs.constFind(runId);
        if (state == m_runs.cend() || !state->startedAt.isValid()) {
            return; // a sample after the run's end, or of a run this recorder did not see start
        }
        const ContainerStats &stats = sample.stats;
        const QDateTime at = stats.sampledAt.isValid() ? stats.sampledAt : QDateTime::currentDateTimeUtc();
        out.push_back(Statement{QStringLiteral("INSERT OR REPLACE INTO run_samples (run_id, at_ms, cpu_millicores, "
                                               "memory_bytes, memory_limit_bytes, pids) VALUES (?, ?, ?, ?, ?, ?)"),
                                {runId, std::max<qint64>(0, state->startedAt.msecsTo(at)),
                                 qint64(std::llround(stats.cpuCores * 1000)), stats.memoryBytes, stats.memoryLimitBytes,
                                 stats.pids},
                                false});
        out.push_back(Statement{QStringLiteral("UPDATE runs SET seq = ? WHERE id = ?"), {runId}});
    }

    void prepare(const QString &runId, ContainerAssigned &assigned, std::vector<Statement> &out)
    {
        // Nothing a page shows of the run changes: its sequence number stays.
        out.push_back(Statement{
            QStringLiteral("UPDATE runs SET container_id = ? WHERE id = ?"), {assigned.containerId, runId}, false});
    }

    void prepare(const QString &runId, Finished &finished, std::vector<Statement> &out)
    {
        RunState state = m_runs.take(runId);
        const RunResult &result = finished.result;
        const bool failed = finished.error.has_value();
        // Output the engine did not stream (a result assembled elsewhere) is still kept.
        if (!failed && state.stdoutBytes == 0 && state.stderrBytes == 0 &&
            !(result.stdoutData.isEmpty() && result.stderrData.isEmpty())) {
            m_runs.insert(runId, state);
            Output stdoutOutput{OutputStream::Stdout, result.stdoutData};
            Output stderrOutput{OutputStream::Stderr, result.stderrData};
            prepare(runId, stdoutOutput, out);
            prepare(runId, stderrOutput, out);
            state = m_runs.take(runId);
        }
        const qint64 duration = result.durationMs > 0 || !state.startedAt.isValid()
                                    ? result.durationMs
                                    : state.startedAt.msecsTo(finished.at);
        out.push_back(Statement{
            QStringLiteral("UPDATE runs SET seq = ?, status = ?, finished_at = ?, duration_ms = ?, exit_code = ?, "
                           "stop_reason = ?, error = ?, error_code = ?, wall_ms = ?, cpu_ms = ?, peak_memory_kb = ?, "
                           "cold_start = ?, libraries_cached = ?, output_truncated = MAX(output_truncated, ?) "
                           "WHERE id = ?"),
            {failed ? QStringLiteral("failed") : QStringLiteral("finished"), finished.at.toMSecsSinceEpoch(), duration,
             failed ? QVariant(QMetaType::fromType<int>()) : QVariant(result.exitCode),
             failed ? QString() : toString(result.reason), failed ? finished.error->message : QString(),
             failed ? QString::fromLatin1(errorCodeName(finished.error->code)) : QString(), result.wallMs, result.cpuMs,
             result.peakMemoryKb, result.coldStart ? 1 : 0, result.librariesCached ? 1 : 0,
             (state.truncated || result.outputTruncated) ? 1 : 0, runId}});
        if (!failed && result.enforcedLimits.reported) {
            // What was asked for sits next to what the sandbox had in force.
            QJsonObject settings = m_context.settings;
            settings.insert(QStringLiteral("enforced_limits"), result.enforcedLimits.toJson());
            out.push_back(Statement{QStringLiteral("UPDATE runs SET seq = ?, settings = ? WHERE id = ?"),
                                    {compactJson(settings), runId}});
        }
        for (const Artifact &artifact : result.artifacts) {
            if (!artifact.chart.isEmpty()) {
                out.push_back(Statement{
                    QStringLiteral("UPDATE artifacts SET chart = ?, chart_title = ? WHERE run_id = ? AND name = ?"),
                    {compactJson(artifact.chart), artifact.chart.value(QStringLiteral("title")).toString().left(200),
                     runId, artifact.name},
                    false});
            }
        }
        if (!failed && result.networkGranted) {
            QStringList hosts;
            for (const NetworkConnection &connection : result.network) {
                if (!hosts.contains(connection.host)) {
                    hosts << connection.host;
                }
            }
            out.push_back(
                Statement{QStringLiteral("UPDATE runs SET seq = ?, network = ?, network_hosts = ? WHERE id = ?"),
                          {compactJson(networkToJson(*result.networkGranted, result.network)),
                           hosts.join(u',').left(2000), runId}});
        }
        if (!failed && !result.sharedFolders.isEmpty()) {
            const QJsonDocument folders(SharedFolderUse::listToJson(result.sharedFolders));
            out.push_back(Statement{QStringLiteral("UPDATE runs SET seq = ?, shared_folders = ? WHERE id = ?"),
                                    {QString::fromUtf8(folders.toJson(QJsonDocument::Compact)), runId}});
        }
    }

    void prepare(const QString &runId, Exchange &exchange, std::vector<Statement> &out)
    {
        out.push_back(
            Statement{QStringLiteral("INSERT OR REPLACE INTO mcp_exchanges (run_id, protocol_version, "
                                     "request, response) VALUES (?, ?, ?, ?)"),
                      {runId, exchange.protocolVersion, compactJson(exchange.request), compactJson(exchange.response)},
                      false});
        out.push_back(Statement{QStringLiteral("UPDATE runs SET seq = ? WHERE id = ?"), {runId}});
    }

    void prepare(const QString &runId, ResultSaved &result, std::vector<Statement> &out)
    {
        const SavedResult &saved = result.saved;
        // Only with its run: a row of no run would fail the foreign key, and with it every later batch.
        out.push_back(Statement{
            QStringLiteral("INSERT INTO saved_results (run_id, folder_name, folder_path, file_name, bytes, sha256, "
                           "saved_at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM runs WHERE id = ?)"),
            {runId, saved.folderName, saved.folderPath, saved.fileName, saved.bytes, saved.sha256,
             saved.savedAt.toMSecsSinceEpoch(), runId},
            false});
        out.push_back(Statement{QStringLiteral("UPDATE runs SET seq = ? WHERE id = ?"), {runId}});
    }

    /// The first failure of a series is said (stderr, and the context's onProblem); the next ones are not.
    void noteFailure(const QString &message)
    {
        if (!m_failure.isEmpty()) {
            return;
        }
        m_failure = message;
        qCWarning(lcJournal).noquote()
            << QStringLiteral("The run journal at %1 cannot be written: %2 Runs go on; what they would record waits "
                              "(up to %3 MiB) until it can be written again.")
                   .arg(m_connection.path(), message)
                   .arg(kUnwrittenBytes >> 20);
        if (m_context.onProblem) {
            m_context.onProblem(message);
        }
    }

    /// Keeps what could not be written for the next attempt, up to kUnwrittenBytes. Beyond that whole runs go, the
    /// oldest first, never part of one: a run's children without its row would fail the foreign keys of every later
    /// transaction, and the journal would never be written again.
    void keepUnwritten(std::vector<Statement> statements)
    {
        qint64 bytes = 0;
        for (const Statement &statement : statements) {
            bytes += statement.size();
        }
        while (bytes > kUnwrittenBytes && !statements.empty()) {
            const QString oldest = statements.front().runId;
            std::erase_if(statements, [&](const Statement &statement) {
                if (statement.runId != oldest) {
                    return false;
                }
                bytes -= statement.size();
                return true;
            });
            m_lostRuns.insert(oldest);
            m_unmarkedLostRuns.append(oldest);
            m_runs.remove(oldest);
            ++m_dropped;
        }
        m_unwritten = std::move(statements);
    }

    /// A run given up while its row was already in the journal would read as running for good: it is marked
    /// interrupted, saying why, once the journal takes changes again.
    void markLostRuns()
    {
        if (m_unmarkedLostRuns.isEmpty()) {
            return;
        }
        auto marked = m_connection.write([&]() -> Result<void> {
            auto seq = m_connection.nextSeq();
            if (!seq) {
                return seq.error();
            }
            for (const QString &id : std::as_const(m_unmarkedLostRuns)) {
                auto updated = m_connection.exec(
                    QStringLiteral("UPDATE runs SET status = 'interrupted', seq = ?, error = 'The run journal could "
                                   "not be written while this run went on, and its record was given up.' "
                                   "WHERE id = ? AND status = 'running'"),
                    {*seq, id});
                if (!updated) {
                    return updated.error();
                }
            }
            return {};
        });
        if (marked) {
            m_unmarkedLostRuns.clear();
        }
    }

    JournalConnection m_connection;
    std::vector<Statement> m_unwritten;
    /// Runs whose record keepUnwritten gave up: nothing more of them is written.
    QSet<QString> m_lostRuns;
    QStringList m_unmarkedLostRuns;
    QString m_failure; ///< empty while the journal takes what is written
    qint64 m_dropped = 0;
    const Context &m_context;
    const qint64 m_outputCap;
    const QString m_artifactsDir;
    const QString m_owner;
    QHash<QString, RunState> m_runs;
};

JournalRecorder::JournalRecorder(const QString &databasePath, Context context, qint64 outputCap)
    : m_databasePath(databasePath), m_context(std::move(context)), m_outputCap(outputCap),
      m_thread([this] { writerLoop(); })
{}

JournalRecorder::~JournalRecorder()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void JournalRecorder::flush()
{
    std::unique_lock lock(m_mutex);
    const quint64 target = m_enqueuedCount;
    m_flushTarget = std::max(m_flushTarget, target);
    m_wake.notify_all();
    m_committed.wait(lock, [&] { return m_committedCount >= target; });
}

void JournalRecorder::enqueue(Event event)
{
    bool wake = false;
    {
        const std::lock_guard lock(m_mutex);
        if (const auto *output = std::get_if<Output>(&event.payload)) {
            m_queuedBytes += output->bytes.size();
        }
        m_queue.push_back(std::move(event));
        ++m_enqueuedCount;
        // The writer wakes for the first event of a batch (then lingers) and when a batch is full.
        wake = m_queue.size() == 1 || m_queuedBytes >= kBatchBytes;
    }
    if (wake) {
        m_wake.notify_all();
    }
}

void JournalRecorder::writerLoop()
{
    Writer writer(m_databasePath, m_context, m_outputCap);
    auto lastStopPoll = std::chrono::steady_clock::now();
    auto lastRetry = lastStopPoll;
    // While runs are in progress, someone may ask to stop one: asked at most every kStopPollInterval.
    const auto pollStopRequests = [&](bool due) {
        const auto now = std::chrono::steady_clock::now();
        if (!m_context.onStopRequested || (!due && now - lastStopPoll < kStopPollInterval)) {
            return;
        }
        lastStopPoll = now;
        for (const QString &runId : writer.newStopRequests()) {
            m_context.onStopRequested(runId);
        }
    };
    std::unique_lock lock(m_mutex);
    for (;;) {
        const auto ready = [&] {
            return !m_queue.empty() || m_stopping;
        };
        const bool polling = m_context.onStopRequested && writer.hasRunning();
        if (!writer.hasUnwritten() && !polling) {
            m_wake.wait(lock, ready);
        } else if (!m_wake.wait_for(lock, polling ? kStopPollInterval : std::chrono::milliseconds(kRetryInterval),
                                    ready)) {
            // Nothing new: what the journal did not take is tried again on its own, and stop requests looked for.
            lock.unlock();
            if (writer.hasUnwritten() && std::chrono::steady_clock::now() - lastRetry >= kRetryInterval) {
                lastRetry = std::chrono::steady_clock::now();
                writer.write({});
            }
            pollStopRequests(true);
            lock.lock();
            continue;
        }
        if (m_queue.empty()) {
            break; // stopping, and everything is written
        }
        m_wake.wait_for(lock, kBatchDelay,
                        [&] { return m_stopping || m_flushTarget > m_committedCount || m_queuedBytes >= kBatchBytes; });
        std::vector<Event> batch;
        batch.swap(m_queue);
        m_queuedBytes = 0;
        lock.unlock();
        const auto count = batch.size();
        writer.write(std::move(batch));
        pollStopRequests(false);
        lock.lock();
        m_committedCount += count;
        m_committed.notify_all();
    }
    lock.unlock();
    writer.finish();
}

void JournalRecorder::runStarted(const QString &runId, const RunRequest &request)
{
    const QString image = m_context.imageForLanguage && !request.language.isEmpty()
                              ? m_context.imageForLanguage(request.language)
                              : QString();
    enqueue(Event{runId, Started{request, QDateTime::currentDateTimeUtc(), image}});
}

void JournalRecorder::runOutput(const QString &runId, OutputStream stream, const QByteArray &chunk)
{
    enqueue(Event{runId, Output{stream, chunk}});
}

void JournalRecorder::runArtifact(const QString &runId, const Artifact &artifact)
{
    enqueue(Event{runId, ArtifactProduced{artifact}});
}

void JournalRecorder::runContainer(const QString &runId, const QString &containerId)
{
    enqueue(Event{runId, ContainerAssigned{containerId}});
}

void JournalRecorder::runSample(const QString &runId, const ContainerStats &sample)
{
    enqueue(Event{runId, Sample{sample}});
}

void JournalRecorder::runFinished(const QString &runId, const RunResult &result, const std::optional<Error> &error)
{
    enqueue(Event{runId, Finished{result, error, QDateTime::currentDateTimeUtc()}});
    // What the run wrote to a writable shared folder and llm-sandbox saved there, as for save_to_folder.
    for (const SavedResult &saved : result.savedResults) {
        enqueue(Event{runId, ResultSaved{saved}});
    }
}

void JournalRecorder::recordExchange(const QString &runId, const QJsonObject &request, const QJsonObject &response,
                                     const QString &protocolVersion)
{
    enqueue(Event{runId, Exchange{request, response, protocolVersion}});
}

Result<Artifact> JournalRecorder::storedArtifact(const QString &runId, const QString &name, const QString &connection)
{
    const Error missing{QStringLiteral("Run %1 has no artifact named %2.").arg(runId, name), ErrorCode::NotFound};
    if (connection.isEmpty()) {
        return missing;
    }
    flush();
    const JournalReader reader(m_databasePath);
    ArtifactFilter filter;
    filter.runId = runId;
    filter.connection = connection;
    // A run keeps at most the engine's artifact count; this only bounds a journal that was edited by hand.
    auto entries = reader.artifacts(filter, 10000);
    if (!entries) {
        return entries.error();
    }
    for (const JournalArtifactEntry &entry : std::as_const(*entries)) {
        if (entry.artifact.name != name) {
            continue;
        }
        QFile file(entry.artifact.path);
        if (!file.open(QIODevice::ReadOnly)) {
            return Error{QStringLiteral("The journal's copy of %1 cannot be read: %2").arg(name, file.errorString()),
                         ErrorCode::NotFound};
        }
        Artifact artifact;
        artifact.name = name;
        artifact.mimeType = entry.artifact.mimeType;
        artifact.data = file.readAll();
        artifact.width = entry.artifact.width;
        artifact.height = entry.artifact.height;
        return artifact;
    }
    return missing;
}

void JournalRecorder::recordSavedResult(const QString &runId, const SavedResult &saved)
{
    enqueue(Event{runId, ResultSaved{saved}});
}

Result<QList<SavedResult>> JournalRecorder::savedResults(const QString &runId)
{
    flush();
    return JournalReader(m_databasePath).savedResults(runId);
}

QJsonObject JournalRecorder::settingsJson(const SandboxSettings &settings)
{
    return QJsonObject{
        {QStringLiteral("memory_bytes"), settings.memoryBytes},
        {QStringLiteral("cpus"), settings.cpus},
        {QStringLiteral("pids_limit"), settings.pidsLimit},
        {QStringLiteral("file_size_limit_bytes"), settings.fileSizeLimitBytes},
        {QStringLiteral("workdir_bytes"), settings.workdirBytes},
        {QStringLiteral("tmp_bytes"), settings.tmpBytes},
        {QStringLiteral("max_output_bytes"), settings.maxOutputBytes},
        {QStringLiteral("max_artifacts"), settings.maxArtifacts},
        {QStringLiteral("max_artifact_bytes"), settings.maxArtifactBytes},
        {QStringLiteral("user"),
         settings.user.isEmpty() ? QStringLiteral("a uid of its own per sandbox") : settings.user},
        {QStringLiteral("network_mode"), settings.networkMode},
        {QStringLiteral("read_only_rootfs"), settings.readOnlyRootfs},
        {QStringLiteral("privileged"), settings.privileged},
        {QStringLiteral("cap_drop"), QJsonArray::fromStringList(settings.capDrop)},
        {QStringLiteral("security_opt"), QJsonArray::fromStringList(settings.securityOpt)},
        {QStringLiteral("policy"), settings.policy},
        {QStringLiteral("pool_size"), settings.poolSize},
    };
}

} // namespace sandbox
