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
//
// This file holds the scenarios; mcpload/ the workers (LoadClients.h, over the MCP test client of tests/support), a
// phase's judging and tallies (LoadPhase), the servers, engine and journal (LoadEnvironment), /proc sampling
// (ProcessSampler) and the report's lines (LoadReport).
#include "journal/JournalReader.h"
#include "mcpload/LoadClients.h"
#include "mcpload/LoadEnvironment.h"
#include "mcpload/LoadPhase.h"
#include "mcpload/LoadReport.h"
#include "mcpload/ProcessSampler.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

using namespace sandbox;
using namespace sandbox::mcpload;
using namespace std::chrono_literals;

namespace {

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
        result.push_back(std::make_unique<McpClient>(QStringLiteral("%1 client %2").arg(tag).arg(i), server.newClient(),
                                                     code == Code::PrintOne ? printOneCalls() : markedCalls(tag, i),
                                                     calls, clock));
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
    std::vector<test::StdioMcpClient *> stdioClients;
    for (int i = 0; i < servers; ++i) {
        auto client = startStdioServer(workspace.options().binary, workspace.environment(journalName),
                                       workspace.file(QStringLiteral("%1-%2.stderr").arg(journalName).arg(i)));
        stdioClients.push_back(client.get());
        clients.push_back(std::make_unique<McpClient>(QStringLiteral("%1 server %2").arg(journalName).arg(i),
                                                      std::move(client), markedCalls(journalName, i),
                                                      workspace.options().calls, clock));
    }
    PhaseResult phase = runAll(clients, phaseTimeout(workspace.options().calls));
    // Their stdin is closed: each finishes its journal and exits.
    const QDeadlineTimer deadline(kStopTimeout);
    for (int i = 0; i < servers; ++i) {
        if (!waitForExit(*stdioClients[size_t(i)], deadline)) {
            ++uncleanExits;
            phase.problems.append(QStringLiteral("a stdio server did not exit cleanly; the end of its stderr: ") +
                                  fileTail(workspace.file(QStringLiteral("%1-%2.stderr").arg(journalName).arg(i))));
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
    Result<QString> image = pythonImage();
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
