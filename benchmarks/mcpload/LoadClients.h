#pragma once

// The load benchmark's workers: an MCP client making its calls one after another (over stdio or HTTP), and a lane of
// `docker exec` for the floor.

#include "LoadPhase.h"
#include "support/McpTestClient.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTimer>
#include <memory>

namespace sandbox::mcpload {

const char *const kProtocolVersion = "2025-06-18";

/// execute_code of `code`; with a progress token, which HTTP answers with an event stream (progress, then the result).
inline QJsonObject executeCodeParams(const QString &code, const QString &progressToken)
{
    return test::toolCallParams(
        QStringLiteral("execute_code"),
        QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("language"), QStringLiteral("python")}},
        progressToken.isEmpty() ? QJsonObject() : QJsonObject{{QStringLiteral("progressToken"), progressToken}});
}

/// One MCP client: initialize and notifications/initialized, then its calls one after another, each answer checked
/// against what that call prints, then the session is closed.
class McpClient final
{
public:
    McpClient(QString name, std::unique_ptr<test::McpTestClient> channel, CallPlan plan, int calls,
              const QElapsedTimer &clock)
        : m_name(std::move(name)), m_channel(std::move(channel)), m_plan(std::move(plan)), m_calls(calls),
          m_clock(clock)
    {
        m_channel->setKeepNotifications(false); // progress, for as long as a soak lasts
        m_pauseTimer.setSingleShot(true);
        QObject::connect(&m_pauseTimer, &QTimer::timeout, [this] { callNext(); });
    }

    void start(std::function<void()> finished)
    {
        m_finished = std::move(finished);
        m_channel->send(test::jsonRpcRequest(m_nextId++, QStringLiteral("initialize"),
                                             test::initializeParams(QLatin1String(kProtocolVersion),
                                                                    QStringLiteral("mcp-load-benchmark"))),
                        [this](const McpAnswer &answer) { initialized(answer); });
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
    void initialized(const McpAnswer &answer)
    {
        if (m_done) {
            return;
        }
        if (!answer.error.isEmpty() || !answer.message.contains(QLatin1String("result"))) {
            giveUp(QStringLiteral("initialize: ") + answer.error + compact(answer.message));
            return;
        }
        m_channel->send(test::jsonRpcNotification(QStringLiteral("notifications/initialized")),
                        [this](const McpAnswer &accepted) {
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
        m_channel->send(
            test::jsonRpcRequest(m_nextId++, QStringLiteral("tools/call"), executeCodeParams(call.code, progressToken)),
            [this, call, sentAt, index](const McpAnswer &answer) {
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

    void answered(int index, const Call &call, qint64 sentAt, const McpAnswer &answer)
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
    std::unique_ptr<test::McpTestClient> m_channel;
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

} // namespace sandbox::mcpload
