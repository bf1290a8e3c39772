#pragma once

// The load benchmark's surroundings: the servers it starts, the engine's command line, and the journal the servers
// write.

#include "LoadPhase.h"
#include "journal/JournalReader.h"
#include "support/McpTestClient.h"
#include "util/Result.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QProcess>
#include <QRandomGenerator>
#include <QUrl>
#include <memory>

namespace sandbox::mcpload {

/// The environment of every server the benchmark starts: settings and journal of its own, never the user's.
QProcessEnvironment serverEnvironment(const QString &folder, const QString &journal, const QString &backend);

/// Ends `process`: SIGTERM, then SIGKILL when it is still there after kStopTimeout. True when it exited with 0.
bool stopProcess(QProcess &process);

/// `binary --mcp` started as a client's server, its stderr going to `stderrFile`.
std::unique_ptr<test::StdioMcpClient> startStdioServer(const QString &binary, const QProcessEnvironment &environment,
                                                       const QString &stderrFile);
/// Waits until the server of `client` exited (after close(): it finishes its journal first); false when it had to be
/// killed or failed.
bool waitForExit(test::StdioMcpClient &client, QDeadlineTimer deadline);
/// The last 1,000 bytes of the file at `path`.
QString fileTail(const QString &path);

/// `llm-sandbox serve --http 127.0.0.1:0` with a token of its own; stopped (SIGTERM) when it goes.
class HttpServer final
{
public:
    /// Starts it and waits until it prints where it listens.
    static Result<std::unique_ptr<HttpServer>> start(const QString &binary, const QProcessEnvironment &environment)
    {
        std::unique_ptr<HttpServer> server(new HttpServer(binary, environment));
        Latch listening(1);
        server->m_onListeningOrEnd = [&listening] {
            listening.countDown();
        };
        server->m_process.start();
        const bool inTime = listening.wait(kStartTimeout);
        server->m_onListeningOrEnd = nullptr;
        if (server->m_url.isEmpty()) {
            return Error{QStringLiteral("`%1 serve --http` %2:\n%3")
                             .arg(binary, inTime ? QStringLiteral("ended") : QStringLiteral("did not start in time"),
                                  server->stderrTail())};
        }
        return server;
    }

    ~HttpServer() { stop(); }

    /// Stops it (it cancels its calls and removes its containers first); false when it did not exit cleanly.
    bool stop()
    {
        m_process.disconnect();
        return stopProcess(m_process);
    }

    std::unique_ptr<test::McpTestClient> newClient() const
    {
        return std::make_unique<test::HttpMcpClient>(m_url, m_token, kCallTimeout);
    }
    qint64 pid() const { return m_process.processId(); }
    QString stderrTail() const { return QString::fromUtf8(m_stderr); }

private:
    HttpServer(const QString &binary, QProcessEnvironment environment)
    {
        QByteArray secret(32, Qt::Uninitialized);
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(secret.data()), secret.size() / 4);
        m_token = secret.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
        environment.insert(QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), QString::fromLatin1(m_token));
        m_process.setProgram(binary);
        m_process.setArguments({QStringLiteral("serve"), QStringLiteral("--http"), QStringLiteral("127.0.0.1:0")});
        m_process.setProcessEnvironment(environment);
        QObject::connect(&m_process, &QProcess::readyReadStandardError, [this] { readStderr(); });
        QObject::connect(&m_process, &QProcess::finished, [this] {
            if (m_onListeningOrEnd) {
                m_onListeningOrEnd();
            }
        });
    }

    /// The server logs every call on stderr: it is read all along (a full pipe would stop the server), and its end
    /// kept for a report.
    void readStderr()
    {
        constexpr qsizetype kKept = 64 * 1024;
        m_stderr += m_process.readAllStandardError();
        if (m_stderr.size() > kKept) {
            m_stderr.remove(0, m_stderr.size() - kKept);
        }
        if (m_url.isEmpty()) {
            m_url = test::announcedMcpUrl(QString::fromUtf8(m_stderr));
            if (!m_url.isEmpty() && m_onListeningOrEnd) {
                m_onListeningOrEnd();
            }
        }
    }

    QProcess m_process;
    QByteArray m_token;
    QByteArray m_stderr;
    QUrl m_url;
    std::function<void()> m_onListeningOrEnd;
};

/// Runs `program arguments` to its end (at most kCommandTimeout): its stdout, or why it failed.
Result<QByteArray> runCommand(const QString &program, const QStringList &arguments);

/// The command line of the engine the backend uses (`docker` or `podman`); empty for one without (kubernetes).
QString engineCommand(const QString &backend);

/// The reference of the image python runs use, as the engine computes it.
Result<QString> pythonImage();

/// The sandbox containers on the engine that the process `pid` owns (its owner label is host:pid:start time,
/// ContainerSpecFactory): other programs' sandboxes on the same engine do not count.
int sandboxContainers(const QString &engine, qint64 pid);

/// A container of `image` that only sleeps, for `docker exec` to run print(1) in; removed when it goes.
class FloorContainer final
{
public:
    static Result<std::unique_ptr<FloorContainer>> start(const QString &engine, const QString &image)
    {
        const Result<QByteArray> id = runCommand(
            engine, {QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--rm"), QStringLiteral("--network"),
                     QStringLiteral("none"), image, QStringLiteral("sleep"), QStringLiteral("infinity")});
        if (!id) {
            return id.error();
        }
        return std::unique_ptr<FloorContainer>(new FloorContainer(engine, QString::fromUtf8(id->trimmed())));
    }

    ~FloorContainer() { (void)runCommand(m_engine, {QStringLiteral("rm"), QStringLiteral("-f"), m_id}); }

    QString id() const { return m_id; }

private:
    FloorContainer(QString engine, QString id) : m_engine(std::move(engine)), m_id(std::move(id)) {}

    const QString m_engine;
    const QString m_id;
};

/// What the journal says of one run.
struct RecordedRun
{
    qint64 durationMs = 0;  ///< in the engine, a container's start included
    bool coldStart = false; ///< a container was started for the run
    int times = 0;          ///< how many finished runs printed the same
};

struct JournalCheck
{
    QHash<QByteArray, RecordedRun> runs; ///< by the output of their call, of the calls answered
    int expected = 0;                    ///< calls answered with their own output
    int recorded = 0;                    ///< of those, found exactly once among the finished runs
    int missing = 0;                     ///< not found
    int duplicated = 0;                  ///< found more than once
    int finished = 0;                    ///< finished runs of the source in the journal, all outputs
    int notFinished = 0;                 ///< runs of the source that failed, were interrupted or are still running
    QString error;

    bool ok() const { return error.isEmpty() && missing == 0 && duplicated == 0 && notFinished == 0; }
};

/// Looks up every output in `answered` among the finished runs `source` recorded in the journal at `path`.
JournalCheck checkJournal(const QString &path, RunSource source, const QList<QByteArray> &answered);

/// When the run that printed `stdoutText` is a finished run in the journal, on `clock` in ns; -1 when it did not get
/// there within kJournalTimeout. Polled every 10 ms (the journal has no notification another process can wait on),
/// while the event loop keeps the other clients going.
qint64 journalRecordedAtNs(const JournalReader &reader, const QString &stdoutText, const QElapsedTimer &clock);

} // namespace sandbox::mcpload
