#pragma once

// One phase of the MCP load benchmark: what its calls run, how an answer is judged, and what the clients of the phase
// measured together.

#include "support/McpTestClient.h"

#include <QByteArray>
#include <QEventLoop>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <chrono>
#include <climits>
#include <functional>
#include <memory>
#include <vector>

namespace sandbox::mcpload {

using namespace std::chrono_literals;
using sandbox::test::McpAnswer;

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
void runEventLoopFor(std::chrono::milliseconds duration);

/// What one call runs and exactly what it must print.
struct Call
{
    QString code;
    QByteArray expectedStdout;
};

/// The calls of one client, by their position.
using CallPlan = std::function<Call(int call)>;

/// Calls whose output names `tag`, the client and the call: `print("load-c17-r5", 17*1000+5)`.
CallPlan markedCalls(const QString &tag, int client);

CallPlan printOneCalls();

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

QString quoted(const QByteArray &bytes);

QString compact(const QJsonObject &object);

/// Whether `answer` is execute_code's success with exactly `expected` on stdout.
Verdict judge(const McpAnswer &answer, const QByteArray &expected);

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
double percentile(const std::vector<double> &sorted, double p);

double ratio(double value, double base);

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

PhaseResult summarize(const std::vector<const ClientStats *> &clients, bool timedOut);

/// Every client makes its calls one after another: this is how long they may take at worst.
std::chrono::milliseconds phaseTimeout(int calls);

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

} // namespace sandbox::mcpload
