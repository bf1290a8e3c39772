// The MCP servers under load, measured rather than asserted (issue "Faults and load"):
//
//   - Streamable HTTP: 50 concurrent clients against one `llm-sandbox serve --http` process, each initializing and then
//     making 20 execute_code calls one after another, every call printing a value unique to its client and call. The
//     calls' p50 and p99 latency and the throughput, each as a ratio to one client alone measured just before in the
//     same run (these machines are noisy: compare ratios, not times; the target is p99 of 50 clients within 10 x one
//     client's p50); where the time went (the journal's run durations, on a warm container and when one was started
//     for the run); the server's peak resident memory (VmHWM), open file descriptors and threads (sampled every
//     200 ms) and its CPU time. Every other call asks for progress, so half the answers come as an event stream;
//   - stdio: 8 `llm-sandbox --mcp` processes at once, sharing one journal, as ratios to one such server alone;
//   - both: whether the journal holds every run exactly once, with the output its call was answered with;
//   - print(1) through the warm pool over HTTP, one client and then 4 at once, against its floor on this machine: as
//     many `docker exec CONTAINER python3 -c 'print(1)'` into one running container of the same image.
//
// Every answer is checked (exit status 0 and exactly the call's own output): the benchmark exits with 1 when a call was
// lost, failed or was answered with another call's output, when the journal misses a run, or a server does not exit
// cleanly.
//
//   BACKEND=docker build/bin/mcp_load_benchmark [--clients 50] [--calls 20] [--stdio-servers 8] [--print-runs 40]
//   build/bin/mcp_load_benchmark --soak 60 [--soak-clients 10] [--soak-pause 0]
//
// --soak MINUTES (not run by CI) only keeps that many HTTP clients calling for that long (each waiting --soak-pause
// milliseconds after an answer, as an assistant reading it would) and prints a line a minute:
// the server's memory, descriptors and threads, the sandbox containers it has on the engine, the calls' p50, and how
// long a run took to reach the journal after its answer; at the end the last minute as a ratio to the first, so that
// growth shows.
//
// It starts the llm-sandbox built beside it (--binary or LLM_SANDBOX_BIN for another), with settings and journals in a
// temporary folder. Needs a container engine and the Python image (scripts/run-demo prepares both); the image is
// the one of the runner beside this program, or of LLM_SANDBOX_RUNNER, which the servers inherit.
#include "images/ImageCatalog.h"
#include "journal/JournalReader.h"
#include "lang/LanguageRegistry.h"
#include "settings/SandboxSettings.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

constexpr auto kCallTimeout = 120s;         // one execute_code (or docker exec) until its answer
constexpr auto kStartTimeout = 60s;         // `serve --http` until it prints its address
constexpr auto kStopTimeout = 60s;          // a server until it exited (it removes its containers first)
constexpr auto kCommandTimeout = 60s;       // a docker command
constexpr auto kSampleInterval = 200ms;     // the server's memory, descriptors and threads
constexpr auto kJournalPollInterval = 10ms; // the soak's look for a run in the journal
constexpr auto kJournalTimeout = 30s;
constexpr auto kSoakInterval = 60s;
constexpr int kUntilStopped = INT_MAX; // a soak client's number of calls
constexpr int kProblemsKept = 3;       // per client, for the report
constexpr int kProblemsShown = 10;

const char *const kProtocolVersion = "2025-06-18";

// ---------------------------------------------------------------------------------------------------------------------
// Waiting

/// Counts finished tasks; wait() runs the event loop until all of them finished or the timeout passed.
class Latch final
{
public:
    explicit Latch(int count) : m_remaining(count) {}

    void countDown()
    {
        if (--m_remaining <= 0) {
            m_loop.quit();
        }
    }

    /// False when the timeout passed first.
    bool wait(std::chrono::milliseconds timeout)
    {
        if (m_remaining <= 0) {
            return true;
        }
        QTimer deadline;
        deadline.setSingleShot(true);
        QObject::connect(&deadline, &QTimer::timeout, &m_loop, [this] { m_loop.exit(1); });
        deadline.start(timeout);
        return m_loop.exec() == 0;
    }

private:
    int m_remaining;
    QEventLoop m_loop;
};

/// Lets the event loop run (the clients keep calling) for `duration`.
void runEventLoopFor(std::chrono::milliseconds duration)
{
    QEventLoop loop;
    QTimer::singleShot(duration, &loop, &QEventLoop::quit);
    loop.exec();
}

// ---------------------------------------------------------------------------------------------------------------------
// What a call runs and how its answer is judged

/// What one call runs and exactly what it must print.
struct Call
{
    QString code;
    QByteArray expectedStdout;
};

/// The calls of one client, by their position.
using CallPlan = std::function<Call(int call)>;

/// Calls whose output names `tag`, the client and the call: `print("load-c17-r5", 17*1000+5)`.
CallPlan markedCalls(const QString &tag, int client)
{
    return [tag, client](int call) {
        const QString marker = QStringLiteral("%1-c%2-r%3").arg(tag).arg(client).arg(call);
        return Call{QStringLiteral("print(\"%1\", %2*1000+%3)\n").arg(marker).arg(client).arg(call),
                    QStringLiteral("%1 %2\n").arg(marker).arg(client * 1000 + call).toUtf8()};
    };
}

CallPlan printOneCalls()
{
    return [](int) {
        return Call{QStringLiteral("print(1)\n"), QByteArrayLiteral("1\n")};
    };
}

/// A JSON-RPC message a server sent back, or why none came.
struct Answer
{
    QJsonObject message; ///< empty for an accepted notification
    QString error;       ///< the transport's failure: no answer came
};

enum class Outcome
{
    Ok,
    Lost,       ///< no answer (transport error, timeout, the server went away)
    Failed,     ///< an answer, but an error or a run that did not end with status 0
    WrongOutput ///< a successful run whose stdout is not the call's own
};

struct Verdict
{
    Outcome outcome = Outcome::Ok;
    QString problem;
};

QString quoted(const QByteArray &bytes)
{
    return QLatin1Char('"') + QString::fromUtf8(bytes.left(200)).replace(QLatin1Char('\n'), QLatin1String("\\n")) +
           QLatin1Char('"');
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)).left(300);
}

/// Whether `answer` is execute_code's success with exactly `expected` on stdout.
Verdict judge(const Answer &answer, const QByteArray &expected)
{
    if (!answer.error.isEmpty()) {
        return {Outcome::Lost, answer.error};
    }
    if (answer.message.contains(QLatin1String("error"))) {
        return {Outcome::Failed, QStringLiteral("JSON-RPC error %1").arg(compact(answer.message))};
    }
    const QJsonObject result = answer.message.value(QLatin1String("result")).toObject();
    const QString text =
        result.value(QLatin1String("content")).toArray().at(0).toObject().value(QLatin1String("text")).toString();
    const QJsonObject run = QJsonDocument::fromJson(text.toUtf8()).object();
    if (result.value(QLatin1String("isError")).toBool() || run.value(QLatin1String("exit_code")).toInt(-1) != 0) {
        return {Outcome::Failed, QStringLiteral("the run failed: %1").arg(text.left(160))};
    }
    const QByteArray stdoutData = run.value(QLatin1String("stdout")).toString().toUtf8();
    if (stdoutData != expected) {
        return {Outcome::WrongOutput,
                QStringLiteral("stdout %1 instead of %2").arg(quoted(stdoutData), quoted(expected))};
    }
    return {};
}

// ---------------------------------------------------------------------------------------------------------------------
// Measurements

/// How the calls of a client (or of all clients of a phase) went.
struct Tally
{
    int ok = 0;
    int lost = 0;
    int failed = 0;
    int wrongOutput = 0;

    void add(Outcome outcome, int count = 1)
    {
        switch (outcome) {
        case Outcome::Ok:
            ok += count;
            break;
        case Outcome::Lost:
            lost += count;
            break;
        case Outcome::Failed:
            failed += count;
            break;
        case Outcome::WrongOutput:
            wrongOutput += count;
            break;
        }
    }
    void add(const Tally &other)
    {
        ok += other.ok;
        lost += other.lost;
        failed += other.failed;
        wrongOutput += other.wrongOutput;
    }
    int bad() const { return lost + failed + wrongOutput; }
    int total() const { return ok + bad(); }
};

/// What one client (or one lane of `docker exec`) measured. Times are on the phase's clock.
struct ClientStats
{
    std::vector<double> latenciesMs; ///< of the calls that were answered, in order
    Tally tally;
    QStringList problems; ///< the first few
    QList<QByteArray> okOutputs;
    qint64 firstCallNs = -1;
    qint64 lastAnswerNs = -1;

    void record(const Verdict &verdict, const QString &where)
    {
        tally.add(verdict.outcome);
        if (verdict.outcome != Outcome::Ok) {
            note(where, verdict.problem);
        }
    }
    void note(const QString &where, const QString &problem)
    {
        if (problems.size() < kProblemsKept) {
            problems.append(where + QStringLiteral(": ") + problem);
        }
    }
};

/// Nearest-rank percentile of sorted `values`; 0 when there are none.
double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty()) {
        return 0;
    }
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * double(sorted.size())));
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

double ratio(double value, double base)
{
    return base > 0 ? value / base : 0;
}

/// The clients of one phase together.
struct PhaseResult
{
    std::vector<double> latenciesMs; ///< sorted
    Tally tally;
    QStringList problems;
    QList<QByteArray> okOutputs;
    double seconds = 0; ///< from the first call to the last answer
    bool timedOut = false;

    double p50() const { return percentile(latenciesMs, 50); }
    double p99() const { return percentile(latenciesMs, 99); }
    double callsPerSecond() const { return seconds > 0 ? double(latenciesMs.size()) / seconds : 0; }
};

PhaseResult summarize(const std::vector<const ClientStats *> &clients, bool timedOut)
{
    PhaseResult phase;
    phase.timedOut = timedOut;
    qint64 first = LLONG_MAX;
    qint64 last = -1;
    for (const ClientStats *client : clients) {
        phase.latenciesMs.insert(phase.latenciesMs.end(), client->latenciesMs.begin(), client->latenciesMs.end());
        phase.tally.add(client->tally);
        phase.problems += client->problems;
        phase.okOutputs += client->okOutputs;
        if (client->firstCallNs >= 0) {
            first = std::min(first, client->firstCallNs);
        }
        last = std::max(last, client->lastAnswerNs);
    }
    std::sort(phase.latenciesMs.begin(), phase.latenciesMs.end());
    phase.seconds = last > first ? double(last - first) / 1e9 : 0;
    return phase;
}

/// What /proc says about a process.
struct ProcessSample
{
    qint64 rssKb = -1; ///< resident memory now (VmRSS)
    qint64 hwmKb = -1; ///< its peak since the start or the last resetPeaks() (VmHWM)
    int threads = -1;
    int fds = -1;      ///< open file descriptors
    qint64 cpuMs = -1; ///< user and system CPU time since it started (ProcessSampler: since resetPeaks())
};

/// User and system CPU time of a process in ms, from /proc/PID/stat (fields 14 and 15, after the command's name).
qint64 cpuTimeMs(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13) {
        return -1;
    }
    return (fields[11].toLongLong() + fields[12].toLongLong()) * 1000 / ::sysconf(_SC_CLK_TCK);
}

ProcessSample sampleProcess(qint64 pid)
{
    ProcessSample sample;
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly)) {
        return sample;
    }
    const auto number = [](const QByteArray &line, qsizetype prefix) {
        return line.mid(prefix).trimmed().split(' ').first().toLongLong();
    };
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            sample.rssKb = number(line, 6);
        } else if (line.startsWith("VmHWM:")) {
            sample.hwmKb = number(line, 6);
        } else if (line.startsWith("Threads:")) {
            sample.threads = int(number(line, 8));
        }
    }
    sample.cpuMs = cpuTimeMs(pid);
    // Pipes and sockets are links to nothing: System keeps them in the count.
    sample.fds = int(QDir(QStringLiteral("/proc/%1/fd").arg(pid))
                         .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)
                         .size());
    return sample;
}

/// Samples a process every 200 ms while the event loop runs, and keeps the peaks.
class ProcessSampler final
{
public:
    explicit ProcessSampler(qint64 pid) : m_pid(pid)
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this] { sample(); });
        m_timer.start(kSampleInterval);
        resetPeaks();
    }

    /// Peaks from now on: VmHWM too, where the kernel lets us reset it (/proc/PID/clear_refs, the owner or root).
    void resetPeaks()
    {
        QFile clearRefs(QStringLiteral("/proc/%1/clear_refs").arg(m_pid));
        if (clearRefs.open(QIODevice::WriteOnly)) {
            clearRefs.write("5");
        }
        m_peak = ProcessSample{};
        m_cpuAtReset = cpuTimeMs(m_pid);
        sample();
    }

    /// The largest sampled values, VmHWM now, and the CPU time used since resetPeaks().
    ProcessSample peaks()
    {
        sample();
        ProcessSample peaks = m_peak;
        peaks.cpuMs = cpuTimeMs(m_pid) - m_cpuAtReset;
        return peaks;
    }

private:
    void sample()
    {
        const ProcessSample now = sampleProcess(m_pid);
        m_peak.rssKb = std::max(m_peak.rssKb, now.rssKb);
        m_peak.hwmKb = now.hwmKb;
        m_peak.threads = std::max(m_peak.threads, now.threads);
        m_peak.fds = std::max(m_peak.fds, now.fds);
    }

    qint64 m_pid;
    QTimer m_timer;
    ProcessSample m_peak;
    qint64 m_cpuAtReset = 0;
};

double mib(qint64 kb)
{
    return double(kb) / 1024.0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Transports

/// One MCP connection: sends a JSON-RPC message and hands its answer (for a notification: its acceptance) to a handler
/// in the event loop.
class McpChannel
{
public:
    using Handler = std::function<void(const Answer &answer)>;

    virtual ~McpChannel() = default;
    virtual void send(const QJsonObject &message, Handler handler) = 0;
    /// Ends the session (HTTP: DELETE; stdio: closes the server's stdin), then calls `done`.
    virtual void close(std::function<void()> done) = 0;
};

/// The JSON-RPC response in an event stream: the event that answers the request (progress and log notifications
/// before it are skipped).
QJsonObject responseInEventStream(const QByteArray &body)
{
    QJsonObject response;
    QByteArray data;
    const auto endEvent = [&] {
        const QJsonObject message = QJsonDocument::fromJson(data).object();
        if (message.contains(QLatin1String("result")) || message.contains(QLatin1String("error"))) {
            response = message;
        }
        data.clear();
    };
    for (QByteArray line : body.split('\n')) {
        if (line.endsWith('\r')) {
            line.chop(1);
        }
        if (line.isEmpty()) {
            endEvent();
        } else if (line.startsWith("data:")) {
            if (!data.isEmpty()) {
                data += '\n';
            }
            data += line.mid(line.startsWith("data: ") ? 6 : 5);
        }
    }
    endEvent();
    return response;
}

/// MCP's Streamable HTTP, one POST per message. Each client has its own network manager: one manager opens at most 6
/// connections to a host, which would hold 50 clients to 6 calls at a time.
class HttpChannel final : public McpChannel
{
public:
    HttpChannel(QUrl url, QByteArray token) : m_url(std::move(url)), m_token(std::move(token))
    {
        m_network.setProxy(QNetworkProxy::NoProxy);
    }

    ~HttpChannel() override
    {
        // No handler may run once the channel is gone: the replies are aborted silently.
        for (QNetworkReply *reply : m_network.findChildren<QNetworkReply *>()) {
            reply->disconnect();
            reply->abort();
        }
    }

    void send(const QJsonObject &message, Handler handler) override
    {
        QNetworkReply *reply = m_network.post(request(), QJsonDocument(message).toJson(QJsonDocument::Compact));
        QObject::connect(reply, &QNetworkReply::finished, reply, [this, reply, handler = std::move(handler)] {
            reply->deleteLater();
            handler(answerOf(*reply));
        });
    }

    void close(std::function<void()> done) override
    {
        if (m_sessionId.isEmpty()) {
            done();
            return;
        }
        QNetworkReply *reply = m_network.deleteResource(request());
        QObject::connect(reply, &QNetworkReply::finished, reply, [reply, done = std::move(done)] {
            reply->deleteLater();
            done();
        });
    }

private:
    QNetworkRequest request() const
    {
        QNetworkRequest request(m_url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setRawHeader("Accept", "application/json, text/event-stream");
        request.setRawHeader("Authorization", "Bearer " + m_token);
        if (!m_sessionId.isEmpty()) {
            request.setRawHeader("Mcp-Session-Id", m_sessionId);
            request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
        }
        request.setTransferTimeout(int(std::chrono::milliseconds(kCallTimeout).count()));
        return request;
    }

    Answer answerOf(QNetworkReply &reply)
    {
        const QByteArray body = reply.readAll();
        if (reply.error() != QNetworkReply::NoError) {
            return {{},
                    QStringLiteral("HTTP %1: %2 %3")
                        .arg(reply.attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt())
                        .arg(reply.errorString(), QString::fromUtf8(body.left(200)))};
        }
        if (body.isEmpty()) {
            return {}; // 202: a notification was accepted
        }
        const bool eventStream =
            reply.header(QNetworkRequest::ContentTypeHeader).toString().startsWith(QLatin1String("text/event-stream"));
        const QJsonObject message = eventStream ? responseInEventStream(body) : QJsonDocument::fromJson(body).object();
        if (message.isEmpty()) {
            return {{}, QStringLiteral("no JSON-RPC response in %1").arg(quoted(body))};
        }
        if (const QByteArray session = reply.rawHeader("Mcp-Session-Id"); !session.isEmpty()) {
            m_sessionId = session;
            m_protocolVersion = message.value(QLatin1String("result"))
                                    .toObject()
                                    .value(QLatin1String("protocolVersion"))
                                    .toString()
                                    .toLatin1();
        }
        return {message, {}};
    }

    QNetworkAccessManager m_network;
    const QUrl m_url;
    const QByteArray m_token;
    QByteArray m_sessionId;
    QByteArray m_protocolVersion;
};

/// The environment of every server the benchmark starts: settings and journal of its own, never the user's.
QProcessEnvironment serverEnvironment(const QString &folder, const QString &journal, const QString &backend)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder + QStringLiteral("/config"));
    environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), journal);
    environment.insert(QStringLiteral("BACKEND"), backend);
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    return environment;
}

/// Ends `process`: SIGTERM, then SIGKILL when it is still there after kStopTimeout. True when it exited with 0.
bool stopProcess(QProcess &process)
{
    if (process.state() == QProcess::NotRunning) {
        return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }
    process.terminate();
    if (!process.waitForFinished(int(std::chrono::milliseconds(kStopTimeout).count()))) {
        process.kill();
        process.waitForFinished(5000);
        return false;
    }
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

/// `llm-sandbox --mcp`, one JSON-RPC message per line; its stderr goes to a file.
class StdioChannel final : public McpChannel
{
public:
    StdioChannel(const QString &binary, const QProcessEnvironment &environment, const QString &stderrFile)
        : m_stderrFile(stderrFile)
    {
        m_process.setProgram(binary);
        m_process.setArguments({QStringLiteral("--mcp")});
        m_process.setProcessEnvironment(environment);
        m_process.setStandardErrorFile(stderrFile);
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, [this] { readMessages(); });
        QObject::connect(&m_process, &QProcess::finished, [this] { failPending(QStringLiteral("the server exited")); });
        QObject::connect(&m_process, &QProcess::errorOccurred, [this](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart) {
                failPending(QStringLiteral("the server did not start: ") + m_process.errorString());
            }
        });
        m_process.start();
    }

    ~StdioChannel() override
    {
        m_process.disconnect();
        stopProcess(m_process);
    }

    void send(const QJsonObject &message, Handler handler) override
    {
        const QJsonValue id = message.value(QLatin1String("id"));
        m_process.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
        if (id.isUndefined()) {
            QTimer::singleShot(0, &m_process, [handler = std::move(handler)] { handler({}); });
        } else {
            m_pending.insert(id.toInteger(), std::move(handler));
        }
    }

    void close(std::function<void()> done) override
    {
        m_process.closeWriteChannel();
        done();
    }

    /// Waits until the server exited (after close(): it finishes its journal first); false when it had to be killed
    /// or failed.
    bool waitForExit(QDeadlineTimer deadline)
    {
        if (m_process.state() != QProcess::NotRunning &&
            !m_process.waitForFinished(int(std::max<qint64>(1, deadline.remainingTime())))) {
            stopProcess(m_process);
            return false;
        }
        return m_process.exitStatus() == QProcess::NormalExit && m_process.exitCode() == 0;
    }

    QString stderrTail() const
    {
        QFile file(m_stderrFile);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().right(1000)) : QString();
    }

private:
    void readMessages()
    {
        while (m_process.canReadLine()) {
            const QJsonObject message = QJsonDocument::fromJson(m_process.readLine()).object();
            const QJsonValue id = message.value(QLatin1String("id"));
            const bool response = message.contains(QLatin1String("result")) || message.contains(QLatin1String("error"));
            if (response && m_pending.contains(id.toInteger())) {
                m_pending.take(id.toInteger())(Answer{message, {}});
            }
        }
    }

    void failPending(const QString &why)
    {
        const auto pending = std::exchange(m_pending, {});
        for (const Handler &handler : pending) {
            handler(Answer{{}, why});
        }
    }

    QProcess m_process;
    const QString m_stderrFile;
    QHash<qint64, Handler> m_pending;
};

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

    std::unique_ptr<McpChannel> newChannel() const { return std::make_unique<HttpChannel>(m_url, m_token); }
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
            static const QRegularExpression announcement(
                QStringLiteral("serving MCP over Streamable HTTP at (http://\\S+/mcp)"));
            if (const auto match = announcement.match(QString::fromUtf8(m_stderr)); match.hasMatch()) {
                m_url = QUrl(match.captured(1));
                if (m_onListeningOrEnd) {
                    m_onListeningOrEnd();
                }
            }
        }
    }

    QProcess m_process;
    QByteArray m_token;
    QByteArray m_stderr;
    QUrl m_url;
    std::function<void()> m_onListeningOrEnd;
};

// ---------------------------------------------------------------------------------------------------------------------
// Clients

QJsonObject request(int id, const QString &method, const QJsonObject &params)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("method"), method},
            {QStringLiteral("params"), params}};
}

QJsonObject notification(const QString &method)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}};
}

QJsonObject initializeParams()
{
    return {{QStringLiteral("protocolVersion"), QLatin1String(kProtocolVersion)},
            {QStringLiteral("capabilities"), QJsonObject()},
            {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("mcp-load-benchmark")},
                                                       {QStringLiteral("version"), QStringLiteral("1.0")}}}};
}

/// execute_code of `code`; with a progress token, which HTTP answers with an event stream (progress, then the result).
QJsonObject executeCodeParams(const QString &code, const QString &progressToken)
{
    QJsonObject params{
        {QStringLiteral("name"), QStringLiteral("execute_code")},
        {QStringLiteral("arguments"),
         QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("language"), QStringLiteral("python")}}}};
    if (!progressToken.isEmpty()) {
        params.insert(QStringLiteral("_meta"), QJsonObject{{QStringLiteral("progressToken"), progressToken}});
    }
    return params;
}

/// One MCP client: initialize and notifications/initialized, then its calls one after another, each answer checked
/// against what that call prints, then the session is closed.
class McpClient final
{
public:
    McpClient(QString name, std::unique_ptr<McpChannel> channel, CallPlan plan, int calls, const QElapsedTimer &clock)
        : m_name(std::move(name)), m_channel(std::move(channel)), m_plan(std::move(plan)), m_calls(calls),
          m_clock(clock)
    {
        m_pauseTimer.setSingleShot(true);
        QObject::connect(&m_pauseTimer, &QTimer::timeout, [this] { callNext(); });
    }

    void start(std::function<void()> finished)
    {
        m_finished = std::move(finished);
        m_channel->send(request(m_nextId++, QStringLiteral("initialize"), initializeParams()),
                        [this](const Answer &answer) { initialized(answer); });
    }

    /// A soak's client ends after the call it is making.
    void stopAfterCurrentCall() { m_stopping = true; }

    /// A soak's client waits this long after each answer before its next call, as an assistant that reads the answer.
    void setPauseBetweenCalls(std::chrono::milliseconds pause) { m_pause = pause; }

    /// The phase stopped waiting: the calls not answered count as lost, and answers that still come are ignored.
    void abandon()
    {
        if (m_done) {
            return;
        }
        m_done = true;
        m_stats.tally.add(Outcome::Lost, unanswered());
        m_stats.note(m_name, QStringLiteral("no answer in time"));
    }

    const ClientStats &stats() const { return m_stats; }

private:
    void initialized(const Answer &answer)
    {
        if (m_done) {
            return;
        }
        if (!answer.error.isEmpty() || !answer.message.contains(QLatin1String("result"))) {
            giveUp(QStringLiteral("initialize: ") + answer.error + compact(answer.message));
            return;
        }
        m_channel->send(notification(QStringLiteral("notifications/initialized")), [this](const Answer &accepted) {
            if (m_done) {
                return;
            }
            if (!accepted.error.isEmpty()) {
                giveUp(QStringLiteral("notifications/initialized: ") + accepted.error);
                return;
            }
            callNext();
        });
    }

    void callNext()
    {
        if (m_stopping || m_nextCall >= m_calls) {
            close();
            return;
        }
        const int index = m_nextCall++;
        const Call call = m_plan(index);
        const qint64 sentAt = m_clock.nsecsElapsed();
        if (m_stats.firstCallNs < 0) {
            m_stats.firstCallNs = sentAt;
        }
        m_inFlight = true;
        // Every other call asks for progress, as assistants often do: over HTTP half the answers are event streams.
        const QString progressToken = index % 2 == 1 ? QStringLiteral("p%1").arg(index) : QString();
        m_channel->send(request(m_nextId++, QStringLiteral("tools/call"), executeCodeParams(call.code, progressToken)),
                        [this, call, sentAt, index](const Answer &answer) {
                            if (m_done) {
                                return;
                            }
                            m_inFlight = false;
                            answered(index, call, sentAt, answer);
                            if (m_pause > 0ms) {
                                m_pauseTimer.start(m_pause);
                            } else {
                                callNext();
                            }
                        });
    }

    void answered(int index, const Call &call, qint64 sentAt, const Answer &answer)
    {
        const qint64 answeredAt = m_clock.nsecsElapsed();
        m_stats.lastAnswerNs = answeredAt;
        const Verdict verdict = judge(answer, call.expectedStdout);
        if (verdict.outcome != Outcome::Lost) {
            m_stats.latenciesMs.push_back(double(answeredAt - sentAt) / 1e6);
        }
        if (verdict.outcome == Outcome::Ok) {
            m_stats.okOutputs.append(call.expectedStdout);
        }
        m_stats.record(verdict, QStringLiteral("%1 call %2").arg(m_name).arg(index));
    }

    /// The session could not start: its calls are lost (a soak's client counts one).
    void giveUp(const QString &problem)
    {
        m_stats.tally.add(Outcome::Lost, std::max(1, unanswered()));
        m_stats.note(m_name, problem);
        close();
    }

    int unanswered() const
    {
        if (m_closing) {
            return 0;
        }
        const int notSent = m_calls == kUntilStopped ? 0 : m_calls - m_nextCall;
        return notSent + (m_inFlight ? 1 : 0);
    }

    void close()
    {
        m_closing = true;
        m_channel->close([this] {
            if (m_done) {
                return;
            }
            m_done = true;
            m_finished();
        });
    }

    const QString m_name;
    std::unique_ptr<McpChannel> m_channel;
    const CallPlan m_plan;
    const int m_calls;
    const QElapsedTimer &m_clock;
    std::function<void()> m_finished;
    ClientStats m_stats;
    int m_nextId = 1;
    int m_nextCall = 0;
    bool m_inFlight = false;
    bool m_stopping = false;
    bool m_closing = false;
    bool m_done = false;
    std::chrono::milliseconds m_pause{0};
    QTimer m_pauseTimer; // destroyed with the client: a pause never outlives it
};

/// One lane of the floor: `runs` `docker exec CONTAINER python3 -c 'print(1)'`, one after another.
class ExecLane final
{
public:
    ExecLane(const QString &engine, const QString &container, int runs, const QElapsedTimer &clock)
        : m_runs(runs), m_clock(clock)
    {
        m_process.setProgram(engine);
        m_process.setArguments({QStringLiteral("exec"), container, QStringLiteral("python3"), QStringLiteral("-c"),
                                QStringLiteral("print(1)")});
        QObject::connect(&m_process, &QProcess::finished, [this] { ended(); });
        QObject::connect(&m_process, &QProcess::errorOccurred, [this](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart) {
                ended();
            }
        });
    }

    ~ExecLane()
    {
        m_process.disconnect();
        m_process.kill();
        m_process.waitForFinished(5000);
    }

    void start(std::function<void()> finished)
    {
        m_finished = std::move(finished);
        runNext();
    }

    void abandon()
    {
        if (m_done) {
            return;
        }
        m_done = true;
        m_stats.tally.add(Outcome::Lost, m_runs - m_nextRun + (m_process.state() != QProcess::NotRunning ? 1 : 0));
        m_stats.note(QStringLiteral("exec"), QStringLiteral("no end in time"));
    }

    const ClientStats &stats() const { return m_stats; }

private:
    void runNext()
    {
        if (m_done) {
            return;
        }
        if (m_nextRun >= m_runs) {
            m_done = true;
            m_finished();
            return;
        }
        ++m_nextRun;
        m_startedAt = m_clock.nsecsElapsed();
        if (m_stats.firstCallNs < 0) {
            m_stats.firstCallNs = m_startedAt;
        }
        m_process.start();
    }

    void ended()
    {
        if (m_done) {
            return;
        }
        const qint64 endedAt = m_clock.nsecsElapsed();
        m_stats.lastAnswerNs = endedAt;
        m_stats.latenciesMs.push_back(double(endedAt - m_startedAt) / 1e6);
        const QByteArray output = m_process.readAllStandardOutput();
        const bool ok = m_process.exitStatus() == QProcess::NormalExit && m_process.exitCode() == 0 && output == "1\n";
        m_stats.record(ok ? Verdict{}
                          : Verdict{Outcome::Failed, QStringLiteral("%1 %2").arg(
                                                         quoted(output), quoted(m_process.readAllStandardError()))},
                       QStringLiteral("exec"));
        // Not inside the process's own signal: it is started again.
        QTimer::singleShot(0, &m_process, [this] { runNext(); });
    }

    QProcess m_process;
    const int m_runs;
    const QElapsedTimer &m_clock;
    std::function<void()> m_finished;
    ClientStats m_stats;
    int m_nextRun = 0;
    qint64 m_startedAt = 0;
    bool m_done = false;
};

/// Starts every worker (McpClient or ExecLane) at once; each counts `ended` down when it is done.
template <typename Worker>
void startAll(const std::vector<std::unique_ptr<Worker>> &workers, Latch &ended)
{
    for (const auto &worker : workers) {
        worker->start([&ended] { ended.countDown(); });
    }
}

/// Waits until every worker ended (at most `timeout`: the rest are abandoned, their calls lost) and sums them up.
template <typename Worker>
PhaseResult collectAll(const std::vector<std::unique_ptr<Worker>> &workers, Latch &ended,
                       std::chrono::milliseconds timeout)
{
    const bool inTime = ended.wait(timeout);
    std::vector<const ClientStats *> stats;
    for (const auto &worker : workers) {
        worker->abandon();
        stats.push_back(&worker->stats());
    }
    return summarize(stats, !inTime);
}

template <typename Worker>
PhaseResult runAll(const std::vector<std::unique_ptr<Worker>> &workers, std::chrono::milliseconds timeout)
{
    Latch ended(int(workers.size()));
    startAll(workers, ended);
    return collectAll(workers, ended, timeout);
}

/// Every client makes its calls one after another: this is how long they may take at worst.
std::chrono::milliseconds phaseTimeout(int calls)
{
    return std::chrono::milliseconds(kCallTimeout) * (calls + 2);
}

// ---------------------------------------------------------------------------------------------------------------------
// The engine's command line and the journal

/// Runs `program arguments` to its end (at most kCommandTimeout): its stdout, or why it failed.
Result<QByteArray> runCommand(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(int(std::chrono::milliseconds(kCommandTimeout).count())) ||
        process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        const QString why = process.error() == QProcess::UnknownError
                                ? QStringLiteral("exit status %1").arg(process.exitCode())
                                : process.errorString();
        process.kill();
        process.waitForFinished(5000);
        return Error{QStringLiteral("`%1 %2` failed (%3): %4")
                         .arg(program, arguments.join(QLatin1Char(' ')), why,
                              QString::fromUtf8(process.readAllStandardError()).trimmed())};
    }
    return process.readAllStandardOutput();
}

/// The command line of the engine the backend uses (`docker` or `podman`); empty for one without (kubernetes).
QString engineCommand(const QString &backend)
{
    if (backend == QLatin1String("docker") || backend == QLatin1String("podman")) {
        return backend;
    }
    return {};
}

/// The reference of the image python runs use, as the engine computes it.
Result<QString> pythonImage()
{
    const Result<SandboxSettings> settings = SandboxSettings::fromEnvironment();
    if (!settings) {
        return settings.error();
    }
    const Result<Language> python = LanguageRegistry::instance().find(QStringLiteral("python"));
    if (!python) {
        return python.error();
    }
    return ImageCatalog(ImageCatalog::defaultRunnerPath(), settings->imageOverrides, settings->baseImage)
        .runImage(*python);
}

/// The sandbox containers on the engine that the process `pid` owns (its owner label is host:pid:start time,
/// ContainerSpecFactory): other programs' sandboxes on the same engine do not count.
int sandboxContainers(const QString &engine, qint64 pid)
{
    if (engine.isEmpty()) {
        return -1;
    }
    // Docker prints the labels as k=v,k=v, Podman as map[k:v k:v].
    const Result<QByteArray> labels = runCommand(engine, {QStringLiteral("ps"), QStringLiteral("--filter"),
                                                          QStringLiteral("label=io.llm-sandbox.run"),
                                                          QStringLiteral("--format"), QStringLiteral("{{.Labels}}")});
    if (!labels) {
        return -1;
    }
    static const QRegularExpression owner(QStringLiteral(R"(io\.llm-sandbox\.owner[=:][^,\s\]]*:(\d+):\d+)"));
    int count = 0;
    for (const QByteArray &line : labels->split('\n')) {
        const QRegularExpressionMatch match = owner.match(QString::fromUtf8(line));
        count += match.hasMatch() && match.captured(1).toLongLong() == pid ? 1 : 0;
    }
    return count;
}

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

/// How the runs in a journal compare with the calls answered.
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
JournalCheck checkJournal(const QString &path, RunSource source, const QList<QByteArray> &answered)
{
    JournalCheck check;
    check.expected = int(answered.size());
    const JournalReader reader(path);
    RunFilter filter;
    filter.sources = {source};
    const Result<QList<JournalRun>> runs = reader.list(filter, 0, INT_MAX);
    if (!runs) {
        check.error = runs.error().message;
        return check;
    }
    const QSet<QByteArray> wanted(answered.begin(), answered.end());
    for (const JournalRun &summary : *runs) {
        if (summary.status != RunStatus::Finished) {
            ++check.notFinished;
            continue;
        }
        ++check.finished;
        const Result<JournalRun> run = reader.run(summary.id);
        if (!run) {
            check.error = run.error().message;
            return check;
        }
        if (wanted.contains(run->stdoutData)) {
            RecordedRun &recorded = check.runs[run->stdoutData];
            recorded.durationMs = run->durationMs;
            recorded.coldStart = run->coldStart;
            ++recorded.times;
        }
    }
    for (const QByteArray &output : answered) {
        const int times = check.runs.value(output).times;
        check.recorded += times == 1 ? 1 : 0;
        check.missing += times == 0 ? 1 : 0;
        check.duplicated += times > 1 ? 1 : 0;
    }
    return check;
}

/// When the run that printed `stdoutText` is a finished run in the journal, on `clock` in ns; -1 when it did not get
/// there within kJournalTimeout. Polled every 10 ms (the journal has no notification another process can wait on),
/// while the event loop keeps the other clients going.
qint64 journalRecordedAtNs(const JournalReader &reader, const QString &stdoutText, const QElapsedTimer &clock)
{
    RunFilter filter;
    filter.text = stdoutText;
    filter.status = RunStatus::Finished;
    const QDeadlineTimer deadline(kJournalTimeout);
    while (!deadline.hasExpired()) {
        if (const Result<int> found = reader.count(filter); found && *found > 0) {
            return clock.nsecsElapsed();
        }
        runEventLoopFor(kJournalPollInterval);
    }
    return -1;
}

// ---------------------------------------------------------------------------------------------------------------------
// The benchmark

struct Options
{
    QString binary;
    QString backend;
    int clients = 50;
    int calls = 20;
    int stdioServers = 8;
    int printRuns = 40;
    int soakMinutes = 0;
    int soakClients = 10;
    std::chrono::milliseconds soakPause{0};
};

/// Where every server of the run keeps its settings and journals.
class Workspace final
{
public:
    explicit Workspace(Options options) : m_options(std::move(options)) {}

    bool valid() const { return m_folder.isValid(); }
    const Options &options() const { return m_options; }
    QString journal(const QString &name) const { return m_folder.filePath(name + QStringLiteral(".sqlite")); }
    QString file(const QString &name) const { return m_folder.filePath(name); }
    QProcessEnvironment environment(const QString &journalName) const
    {
        return serverEnvironment(m_folder.path(), journal(journalName), m_options.backend);
    }

private:
    const Options m_options;
    QTemporaryDir m_folder;
};

/// What the clients of a phase run: calls printing their own marker, or all print(1).
enum class Code
{
    Marked,
    PrintOne
};

/// `clients` clients of one server, named after `tag` (as their markers are).
std::vector<std::unique_ptr<McpClient>> httpClients(const HttpServer &server, const QString &tag, int clients,
                                                    int calls, const QElapsedTimer &clock, Code code = Code::Marked)
{
    std::vector<std::unique_ptr<McpClient>> result;
    for (int i = 0; i < clients; ++i) {
        result.push_back(
            std::make_unique<McpClient>(QStringLiteral("%1 client %2").arg(tag).arg(i), server.newChannel(),
                                        code == Code::PrintOne ? printOneCalls() : markedCalls(tag, i), calls, clock));
    }
    return result;
}

PhaseResult runHttpClients(const HttpServer &server, const QString &tag, int clients, int calls,
                           Code code = Code::Marked)
{
    QElapsedTimer clock;
    clock.start();
    return runAll(httpClients(server, tag, clients, calls, clock, code), phaseTimeout(calls));
}

void printLatency(const QByteArray &label, const PhaseResult &phase)
{
    std::printf("  %-22s p50 %8.1f ms   p99 %8.1f ms   %7.2f calls/s   (%d calls in %.1f s)\n", label.constData(),
                phase.p50(), phase.p99(), phase.callsPerSecond(), int(phase.latenciesMs.size()), phase.seconds);
}

void printRatios(const PhaseResult &load, const PhaseResult &alone)
{
    std::printf("  as ratios to one alone: p50 %.2f x   p99 %.2f x   throughput %.2f x\n",
                ratio(load.p50(), alone.p50()), ratio(load.p99(), alone.p99()),
                ratio(load.callsPerSecond(), alone.callsPerSecond()));
}

/// Prints how the answers went; returns the number of bad ones.
int printAnswers(const QList<const PhaseResult *> &phases)
{
    Tally tally;
    QStringList problems;
    bool timedOut = false;
    for (const PhaseResult *phase : phases) {
        tally.add(phase->tally);
        problems += phase->problems;
        timedOut = timedOut || phase->timedOut;
    }
    std::printf("  answers checked:       %d, %d lost, %d failed, %d with another output%s\n", tally.total(),
                tally.lost, tally.failed, tally.wrongOutput, timedOut ? " (a phase TIMED OUT)" : "");
    for (const QString &problem : problems.mid(0, kProblemsShown)) {
        std::printf("    %s\n", qPrintable(problem));
    }
    return tally.bad();
}

/// Prints the journal check; returns 1 when it found a problem.
int printJournal(const QByteArray &label, const JournalCheck &check)
{
    if (!check.error.isEmpty()) {
        std::printf("  %-22s could NOT be read: %s\n", label.constData(), qPrintable(check.error));
        return 1;
    }
    std::printf("  %-22s %d of %d answered runs recorded once (%d missing, %d duplicated); "
                "%d finished runs, %d not finished\n",
                label.constData(), check.recorded, check.expected, check.missing, check.duplicated, check.finished,
                check.notFinished);
    return check.ok() ? 0 : 1;
}

/// The journal's view of a phase's runs: their time in the engine, on a warm container and when one was started for
/// them (the pool had none idle) — where a call's latency went.
void printEngineSide(const QByteArray &label, const PhaseResult &phase, const JournalCheck &check)
{
    std::vector<double> all;
    std::vector<double> warm;
    std::vector<double> cold;
    for (const QByteArray &output : phase.okOutputs) {
        if (const auto run = check.runs.constFind(output); run != check.runs.cend()) {
            all.push_back(double(run->durationMs));
            (run->coldStart ? cold : warm).push_back(double(run->durationMs));
        }
    }
    for (std::vector<double> *durations : {&all, &warm, &cold}) {
        std::sort(durations->begin(), durations->end());
    }
    std::printf("  %-22s p50 %8.1f ms   p99 %8.1f ms   in the engine (the journal's durations)\n", label.constData(),
                percentile(all, 50), percentile(all, 99));
    std::printf("    %d on a warm container: p50 %.1f ms, p99 %.1f ms; %d started one: p50 %.1f ms, p99 %.1f ms\n",
                int(warm.size()), percentile(warm, 50), percentile(warm, 99), int(cold.size()), percentile(cold, 50),
                percentile(cold, 99));
}

void printServerPeaks(const QByteArray &label, const ProcessSample &peak, const PhaseResult &phase)
{
    std::printf("  server peak, %-11s RSS %7.1f MiB (VmHWM; sampled %.1f MiB), %4d open fds, %3d threads; "
                "CPU %.1f s = %.1f ms a call\n",
                label.constData(), mib(peak.hwmKb), mib(peak.rssKb), peak.fds, peak.threads, double(peak.cpuMs) / 1e3,
                ratio(double(peak.cpuMs), double(phase.latenciesMs.size())));
}

/// The HTTP phases: one client alone, then all at once, with the server's peaks during each.
struct HttpMeasurement
{
    PhaseResult warmUp, alone, load;
    ProcessSample alonePeak, loadPeak;

    QList<QByteArray> okOutputs() const { return warmUp.okOutputs + alone.okOutputs + load.okOutputs; }
};

HttpMeasurement measureHttp(const Options &options, const HttpServer &server)
{
    HttpMeasurement http;
    ProcessSampler sampler(server.pid());
    // Not measured: the first calls start the pool's containers.
    http.warmUp = runHttpClients(server, QStringLiteral("warm"), 1, 3);
    sampler.resetPeaks();
    http.alone = runHttpClients(server, QStringLiteral("alone"), 1, options.calls);
    http.alonePeak = sampler.peaks();
    sampler.resetPeaks();
    http.load = runHttpClients(server, QStringLiteral("load"), options.clients, options.calls);
    http.loadPeak = sampler.peaks();
    return http;
}

/// Returns the number of problems.
int reportHttp(const Options &options, qint64 pid, const HttpMeasurement &http, const JournalCheck &journal)
{
    const QByteArray clients = QByteArray::number(options.clients);
    std::printf("MCP over Streamable HTTP: %d clients x %d execute_code calls, one `serve --http` (pid %lld)\n",
                options.clients, options.calls, pid);
    printLatency("one client alone:", http.alone);
    printLatency(clients + " clients at once:", http.load);
    printRatios(http.load, http.alone);
    std::printf("  p99(%d clients) / p50(1 client) = %.2f   (target: at most 10)\n", options.clients,
                ratio(http.load.p99(), http.alone.p50()));
    printEngineSide("engine, alone:", http.alone, journal);
    printEngineSide("engine, " + clients + " clients:", http.load, journal);
    printServerPeaks("alone:", http.alonePeak, http.alone);
    printServerPeaks(clients + " clients:", http.loadPeak, http.load);
    return printAnswers({&http.warmUp, &http.alone, &http.load}) + printJournal("journal:", journal);
}

/// print(1) through the pool, and its floor: `docker exec` into one running container of the same image.
struct PrintOneMeasurement
{
    PhaseResult poolAlone, poolLanes, floorAlone, floorLanes;
    QString noFloor; ///< why there is no floor, if there is none
};

constexpr int kPrintLanes = 4;

PrintOneMeasurement measurePrintOne(const Options &options, const HttpServer &server, const QString &image)
{
    const int perLane = std::max(1, options.printRuns / kPrintLanes);
    PrintOneMeasurement printOne;
    printOne.poolAlone = runHttpClients(server, QStringLiteral("print"), 1, perLane * kPrintLanes, Code::PrintOne);
    printOne.poolLanes = runHttpClients(server, QStringLiteral("print"), kPrintLanes, perLane, Code::PrintOne);

    const QString engine = engineCommand(options.backend);
    if (engine.isEmpty()) {
        printOne.noFloor = QStringLiteral("it needs docker or podman");
        return printOne;
    }
    const Result<std::unique_ptr<FloorContainer>> container = FloorContainer::start(engine, image);
    if (!container) {
        printOne.noFloor = container.error().message;
        return printOne;
    }
    const auto measureFloor = [&](int lanes, int runs) {
        QElapsedTimer clock;
        clock.start();
        std::vector<std::unique_ptr<ExecLane>> execLanes;
        for (int i = 0; i < lanes; ++i) {
            execLanes.push_back(std::make_unique<ExecLane>(engine, (*container)->id(), runs, clock));
        }
        return runAll(execLanes, phaseTimeout(runs));
    };
    printOne.floorAlone = measureFloor(1, perLane * kPrintLanes);
    printOne.floorLanes = measureFloor(kPrintLanes, perLane);
    return printOne;
}

/// Returns the number of problems.
int reportPrintOne(const Options &options, const QString &image, const PrintOneMeasurement &printOne)
{
    const QString engine = engineCommand(options.backend);
    std::printf("print(1): %d runs through the pool over HTTP against as many `%s exec` into one container of %s\n",
                int(printOne.poolAlone.latenciesMs.size()),
                qPrintable(engine.isEmpty() ? QStringLiteral("docker") : engine), qPrintable(image));
    printLatency("pool, one client:", printOne.poolAlone);
    printLatency("pool, 4 clients:", printOne.poolLanes);
    if (!printOne.noFloor.isEmpty()) {
        std::printf("  NO floor: %s\n", qPrintable(printOne.noFloor));
        return printAnswers({&printOne.poolAlone, &printOne.poolLanes}) + (engine.isEmpty() ? 0 : 1);
    }
    printLatency("exec, one at a time:", printOne.floorAlone);
    printLatency("exec, 4 at once:", printOne.floorLanes);
    std::printf("  pool / floor, runs per second: %.2f x one at a time, %.2f x 4 at once\n",
                ratio(printOne.poolAlone.callsPerSecond(), printOne.floorAlone.callsPerSecond()),
                ratio(printOne.poolLanes.callsPerSecond(), printOne.floorLanes.callsPerSecond()));
    return printAnswers({&printOne.poolAlone, &printOne.poolLanes, &printOne.floorAlone, &printOne.floorLanes});
}

/// `servers` stdio servers sharing the journal `journalName`, each making options.calls calls; `uncleanExits` counts
/// the servers that did not exit with status 0 once their stdin closed.
PhaseResult runStdioServers(const Workspace &workspace, const QString &journalName, int servers, int &uncleanExits)
{
    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<McpClient>> clients;
    std::vector<StdioChannel *> channels;
    for (int i = 0; i < servers; ++i) {
        auto channel =
            std::make_unique<StdioChannel>(workspace.options().binary, workspace.environment(journalName),
                                           workspace.file(QStringLiteral("%1-%2.stderr").arg(journalName).arg(i)));
        channels.push_back(channel.get());
        clients.push_back(std::make_unique<McpClient>(QStringLiteral("%1 server %2").arg(journalName).arg(i),
                                                      std::move(channel), markedCalls(journalName, i),
                                                      workspace.options().calls, clock));
    }
    PhaseResult phase = runAll(clients, phaseTimeout(workspace.options().calls));
    // Their stdin is closed: each finishes its journal and exits.
    const QDeadlineTimer deadline(kStopTimeout);
    for (StdioChannel *channel : channels) {
        if (!channel->waitForExit(deadline)) {
            ++uncleanExits;
            phase.problems.append(QStringLiteral("a stdio server did not exit cleanly; the end of its stderr: ") +
                                  channel->stderrTail());
        }
    }
    return phase;
}

/// Returns the number of problems.
int measureStdio(const Workspace &workspace)
{
    const Options &options = workspace.options();
    const QString aloneJournal = QStringLiteral("stdio-alone");
    const QString sharedJournal = QStringLiteral("stdio-shared");
    int uncleanExits = 0;
    const PhaseResult alone = runStdioServers(workspace, aloneJournal, 1, uncleanExits);
    const PhaseResult all = runStdioServers(workspace, sharedJournal, options.stdioServers, uncleanExits);
    const JournalCheck aloneRuns = checkJournal(workspace.journal(aloneJournal), RunSource::Mcp, alone.okOutputs);
    const JournalCheck sharedRuns = checkJournal(workspace.journal(sharedJournal), RunSource::Mcp, all.okOutputs);

    const QByteArray servers = QByteArray::number(options.stdioServers);
    std::printf("MCP over stdio: %d `--mcp` servers at once sharing one journal, %d execute_code calls each\n",
                options.stdioServers, options.calls);
    printLatency("one server alone:", alone);
    printLatency(servers + " servers at once:", all);
    printRatios(all, alone);
    printEngineSide("engine, alone:", alone, aloneRuns);
    printEngineSide("engine, " + servers + " servers:", all, sharedRuns);
    int problems = printAnswers({&alone, &all}) + uncleanExits;
    if (uncleanExits > 0) {
        std::printf("  %d server(s) did NOT exit cleanly after their stdin closed\n", uncleanExits);
    }
    return problems + printJournal("journal, alone:", aloneRuns) + printJournal("journal, shared:", sharedRuns);
}

int runLoad(const Workspace &workspace, const QString &image)
{
    const Options &options = workspace.options();
    auto server = HttpServer::start(options.binary, workspace.environment(QStringLiteral("http")));
    if (!server) {
        std::fprintf(stderr, "%s\n", qPrintable(server.error().message));
        return 1;
    }
    const HttpMeasurement http = measureHttp(options, **server);
    const PrintOneMeasurement printOne = measurePrintOne(options, **server, image);
    const qint64 pid = (*server)->pid();
    // The journal is read once the server ended: then it has written every run.
    const bool stoppedCleanly = (*server)->stop();
    const JournalCheck journal =
        checkJournal(workspace.journal(QStringLiteral("http")), RunSource::Http, http.okOutputs());

    int problems = reportHttp(options, pid, http, journal);
    if (!stoppedCleanly) {
        std::printf("  `serve --http` did NOT exit cleanly on SIGTERM; the end of its stderr:\n%s\n",
                    qPrintable((*server)->stderrTail().right(2000)));
        ++problems;
    }
    problems += reportPrintOne(options, image, printOne);
    return problems + measureStdio(workspace);
}

/// One line of the soak.
struct SoakMinute
{
    int calls = 0;
    double p50 = 0;
    ProcessSample server;
    int containers = 0;
    double journalLagMs = 0;
};

/// The calls the soak's clients made since the last look.
class SoakWindow final
{
public:
    explicit SoakWindow(const std::vector<std::unique_ptr<McpClient>> &clients)
        : m_clients(clients), m_seen(clients.size(), 0)
    {}

    std::vector<double> takeLatencies()
    {
        std::vector<double> latencies;
        for (size_t i = 0; i < m_clients.size(); ++i) {
            const std::vector<double> &all = m_clients[i]->stats().latenciesMs;
            latencies.insert(latencies.end(), all.begin() + qsizetype(m_seen[i]), all.end());
            m_seen[i] = all.size();
        }
        std::sort(latencies.begin(), latencies.end());
        return latencies;
    }

private:
    const std::vector<std::unique_ptr<McpClient>> &m_clients;
    std::vector<size_t> m_seen;
};

/// One probe call in a session of its own: how long its run took to reach the journal after the answer.
double probeJournalLag(const HttpServer &server, const JournalReader &reader, int minute)
{
    QElapsedTimer clock;
    clock.start();
    const QString tag = QStringLiteral("probe%1").arg(minute);
    std::vector<std::unique_ptr<McpClient>> probe = httpClients(server, tag, 1, 1, clock);
    const PhaseResult answered = runAll(probe, phaseTimeout(1));
    if (answered.tally.ok != 1) {
        return -1;
    }
    const QString output = QString::fromUtf8(answered.okOutputs.first().trimmed());
    const qint64 recordedAt = journalRecordedAtNs(reader, output, clock);
    return recordedAt < 0 ? -1 : double(recordedAt - probe.front()->stats().lastAnswerNs) / 1e6;
}

void printSoakRatio(const char *what, double first, double last)
{
    std::printf("  %-16s %10.1f -> %10.1f   = %.2f x\n", what, first, last, ratio(last, first));
}

int runSoak(const Workspace &workspace)
{
    const Options &options = workspace.options();
    auto server = HttpServer::start(options.binary, workspace.environment(QStringLiteral("soak")));
    if (!server) {
        std::fprintf(stderr, "%s\n", qPrintable(server.error().message));
        return 1;
    }
    const QString engine = engineCommand(options.backend);
    const JournalReader reader(workspace.journal(QStringLiteral("soak")));
    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<McpClient>> clients =
        httpClients(**server, QStringLiteral("soak"), options.soakClients, kUntilStopped, clock);
    for (const auto &client : clients) {
        client->setPauseBetweenCalls(options.soakPause);
    }
    Latch ended(int(clients.size()));
    startAll(clients, ended);
    SoakWindow window(clients);

    std::printf("soak: %d HTTP clients calling for %d minutes, %lld ms between an answer and the next call, one `serve "
                "--http` (pid %lld)\n",
                options.soakClients, options.soakMinutes, qint64(options.soakPause.count()), (*server)->pid());
    std::printf("  minute  calls    p50 ms   RSS MiB   fds  threads  containers  journal lag ms\n");
    std::vector<SoakMinute> minutes;
    for (int minute = 1; minute <= options.soakMinutes; ++minute) {
        runEventLoopFor(kSoakInterval);
        SoakMinute row;
        const std::vector<double> latencies = window.takeLatencies();
        row.calls = int(latencies.size());
        row.p50 = percentile(latencies, 50);
        row.server = sampleProcess((*server)->pid());
        row.containers = sandboxContainers(engine, (*server)->pid());
        row.journalLagMs = probeJournalLag(**server, reader, minute);
        std::printf("  %6d %6d %9.1f %9.1f %5d %8d %11d %15.1f\n", minute, row.calls, row.p50, mib(row.server.rssKb),
                    row.server.fds, row.server.threads, row.containers, row.journalLagMs);
        std::fflush(stdout);
        minutes.push_back(row);
    }

    for (const auto &client : clients) {
        client->stopAfterCurrentCall();
    }
    const PhaseResult all = collectAll(clients, ended, kCallTimeout);
    int problems = (*server)->stop() ? 0 : 1;
    if (!minutes.empty()) {
        const SoakMinute &first = minutes.front();
        const SoakMinute &last = minutes.back();
        std::printf("first minute -> last minute\n");
        printSoakRatio("RSS MiB", mib(first.server.rssKb), mib(last.server.rssKb));
        printSoakRatio("open fds", first.server.fds, last.server.fds);
        printSoakRatio("threads", first.server.threads, last.server.threads);
        printSoakRatio("containers", first.containers, last.containers);
        printSoakRatio("journal lag ms", first.journalLagMs, last.journalLagMs);
        printSoakRatio("call p50 ms", first.p50, last.p50);
        printSoakRatio("calls", first.calls, last.calls);
    }
    problems += printAnswers({&all});
    return problems;
}

/// Fails unless the engine has the image runs of python use (building it here would be timed as a run).
Result<QString> checkImage(const QString &engine)
{
    const Result<QString> image = pythonImage();
    if (!image || engine.isEmpty()) {
        return image;
    }
    if (!runCommand(engine, {QStringLiteral("image"), QStringLiteral("inspect"), *image})) {
        return Error{
            QStringLiteral("The image %1 is missing: build it first (`llm-sandbox images build python`).").arg(*image)};
    }
    return image;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The MCP servers under load: concurrent HTTP clients, stdio "
                                                    "servers sharing a journal, print(1) against docker exec."));
    parser.addHelpOption();
    const auto number = [](const char *name, const char *description, const char *value) {
        return QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(description), QStringLiteral("n"),
                                  QString::fromLatin1(value));
    };
    const QCommandLineOption clientsOption = number("clients", "Concurrent HTTP clients.", "50");
    const QCommandLineOption callsOption = number("calls", "execute_code calls per client and stdio server.", "20");
    const QCommandLineOption stdioOption = number("stdio-servers", "Concurrent stdio servers.", "8");
    const QCommandLineOption printRunsOption = number("print-runs", "print(1) runs against the floor.", "40");
    const QCommandLineOption soakOption(QStringLiteral("soak"),
                                        QStringLiteral("Only keep HTTP clients calling for MINUTES, a line a minute."),
                                        QStringLiteral("MINUTES"));
    const QCommandLineOption soakClientsOption = number("soak-clients", "HTTP clients of the soak.", "10");
    const QCommandLineOption soakPauseOption =
        number("soak-pause", "Milliseconds a soak client waits after an answer before its next call.", "0");
    const QCommandLineOption backendOption(QStringLiteral("backend"),
                                           QStringLiteral("The servers' backend (default: $BACKEND, else docker)."),
                                           QStringLiteral("name"));
    const QCommandLineOption binaryOption(
        QStringLiteral("binary"),
        QStringLiteral("The llm-sandbox to start (default: $LLM_SANDBOX_BIN, else beside this)."),
        QStringLiteral("path"));
    parser.addOptions({clientsOption, callsOption, stdioOption, printRunsOption, soakOption, soakClientsOption,
                       soakPauseOption, backendOption, binaryOption});
    parser.process(app);

    Options options;
    options.clients = std::max(1, parser.value(clientsOption).toInt());
    options.calls = std::max(1, parser.value(callsOption).toInt());
    options.stdioServers = std::max(1, parser.value(stdioOption).toInt());
    options.printRuns = std::max(4, parser.value(printRunsOption).toInt());
    options.soakMinutes = std::max(0, parser.value(soakOption).toInt());
    options.soakClients = std::max(1, parser.value(soakClientsOption).toInt());
    options.soakPause = std::chrono::milliseconds(std::max(0, parser.value(soakPauseOption).toInt()));
    options.backend = parser.isSet(backendOption) ? parser.value(backendOption)
                                                  : qEnvironmentVariable("BACKEND", QStringLiteral("docker"));
    options.binary = parser.isSet(binaryOption)
                         ? parser.value(binaryOption)
                         : qEnvironmentVariable("LLM_SANDBOX_BIN", QCoreApplication::applicationDirPath() +
                                                                       QStringLiteral("/llm-sandbox"));
    if (!QFileInfo(options.binary).isExecutable()) {
        std::fprintf(stderr, "%s is not an executable llm-sandbox (--binary names another).\n",
                     qPrintable(options.binary));
        return 1;
    }
    const Result<QString> image = checkImage(engineCommand(options.backend));
    if (!image) {
        std::fprintf(stderr, "%s\n", qPrintable(image.error().message));
        return 1;
    }
    const Workspace workspace(options);
    if (!workspace.valid()) {
        std::fprintf(stderr, "no temporary folder for the servers' settings and journals\n");
        return 1;
    }
    const int problems = options.soakMinutes > 0 ? runSoak(workspace) : runLoad(workspace, *image);
    std::printf("%s\n", problems == 0 ? "OK: no call lost, failed or answered with another call's output"
                                      : "FAILED: see the lines above");
    return problems == 0 ? 0 : 1;
}
