// What a run's egress proxy costs an HTTPS request (issue 48): the same Python program makes --gets HTTPS GETs, each on
// a new connection (TCP and TLS handshakes included), to a test server on a network of its own (api.test,
// tests/support/TestWebServer) — once from a sandbox whose only way out is its proxy, once from a container directly
// on that network — and times each GET inside the sandbox. The runs alternate, --runs of each; the report is the
// median GET of each kind and their ratio (these machines are noisy: compare ratios, not times), and what starting the
// proxy adds to a run (a run with network against print(1) through the pool, which never waits for a proxy).
//
//   BACKEND=docker build/bin/network_benchmark [--runs 10] [--gets 20]
//
// Needs a container engine, its CLI (docker or podman) and the Python image (scripts/run-demo prepares them).
#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "lang/LanguageRegistry.h"
#include "support/TestWebServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty()      ? 0
           : values.size() % 2 ? values[values.size() / 2]
                               : (values[values.size() / 2 - 1] + values[values.size() / 2]) / 2.0;
}

/// The median GET in microseconds the program printed, and the whole run's in `runUs`; -1 when it failed.
double getsUs(ExecutionEngine &engine, const QString &code, const QStringList &network, qint64 &runUs)
{
    RunRequest request;
    request.code = code;
    request.network = network;
    request.timeout = 120s;
    QElapsedTimer timer;
    timer.start();
    auto result = engine.run(request);
    runUs = timer.nsecsElapsed() / 1000;
    if (!result || result->exitCode != 0) {
        std::fprintf(stderr, "a run failed: %s\n",
                     result ? result->stderrData.right(500).constData() : qPrintable(result.error().message));
        return -1;
    }
    return result->stdoutData.trimmed().toDouble();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*=false"));
    QCommandLineParser parser;
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Runs of each kind."),
                                        QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption getsOption(QStringLiteral("gets"), QStringLiteral("HTTPS GETs per run."),
                                        QStringLiteral("N"), QStringLiteral("20"));
    parser.addOptions({runsOption, getsOption});
    parser.addHelpOption();
    parser.process(app);
    const int runs = parser.value(runsOption).toInt();
    const int gets = parser.value(getsOption).toInt();

    const QString backendName = qEnvironmentVariable("BACKEND", QStringLiteral("docker"));
    auto backend = BackendFactory::create(backendName);
    auto settings = SandboxSettings::fromEnvironment();
    if (!backend || !settings) {
        std::fprintf(stderr, "%s\n", qPrintable(!backend ? backend.error().message : settings.error().message));
        return 1;
    }
    ExecutionEngine pooled(*backend, *settings);
    auto image = pooled.catalog().runImage(*LanguageRegistry::instance().find(QStringLiteral("python")));
    RunRequest warm;
    warm.code = QStringLiteral("print(1)");
    if (!image || !pooled.run(warm)) {
        std::fprintf(stderr, "the Python image is not there and could not be built\n");
        return 1;
    }
    const QString cli = backendName == QLatin1String("docker") ? QStringLiteral("docker") : QStringLiteral("podman");
    const test::TestWebServer server(cli, QStringLiteral("llmsb-netbench-") + cli, QStringLiteral("198.18.9"), *image);
    if (!server.error().isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(server.error()));
        return 1;
    }

    SandboxSettings proxiedSettings = *settings;
    auto allowed = NetworkAllowList::parse(QStringLiteral("api.test"));
    proxiedSettings.networkAllow = *allowed;
    proxiedSettings.proxyNetwork = server.network();
    ExecutionEngine proxied(*backend, proxiedSettings);
    SandboxSettings directSettings = *settings;
    directSettings.networkMode = server.network(); // the sandbox itself on the server's network: no proxy
    ExecutionEngine direct(*backend, directSettings);

    const QString code = QStringLiteral(R"(import ssl, statistics, time, urllib.request
context = ssl.create_default_context(cadata='''%1''')
times = []
urllib.request.urlopen('https://api.test/warm', timeout=30, context=context).read()
for i in range(%2):
    start = time.perf_counter()
    urllib.request.urlopen('https://api.test/%d' % i, timeout=30, context=context).read()
    times.append(time.perf_counter() - start)
print(statistics.median(times) * 1e6)
)")
                             .arg(server.certificate())
                             .arg(gets);
    std::vector<double> proxiedGets, directGets, withNetworkRuns, pooledRuns;
    int failed = 0;
    for (int i = 0; i < runs; ++i) {
        qint64 runUs = 0;
        if (const double us = getsUs(proxied, code, {QStringLiteral("api.test")}, runUs); us > 0) {
            proxiedGets.push_back(us);
            withNetworkRuns.push_back(double(runUs));
        } else {
            ++failed;
        }
        if (const double us = getsUs(direct, code, {}, runUs); us > 0) {
            directGets.push_back(us);
        } else {
            ++failed;
        }
        QElapsedTimer timer;
        timer.start();
        if (pooled.run(warm)) {
            pooledRuns.push_back(double(timer.nsecsElapsed()) / 1000);
        }
    }
    const double proxiedMedian = median(proxiedGets);
    const double directMedian = median(directGets);
    std::printf("backend %s, %d runs of each kind, %d HTTPS GETs per run (a new connection each), %d failed\n",
                qPrintable(backendName), runs, gets, failed);
    std::printf("median GET through the run's egress proxy: %.0f us\n", proxiedMedian);
    std::printf("median GET with direct network:            %.0f us\n", directMedian);
    std::printf("ratio proxy / direct:                      %.2f\n",
                directMedian > 0 ? proxiedMedian / directMedian : 0.0);
    std::printf("a run with network (proxy and sandbox started, %d GETs): median %.0f ms; print(1) through the pool: "
                "median %.0f ms\n",
                gets + 1, median(withNetworkRuns) / 1000, median(pooledRuns) / 1000);
    return failed == 0 ? 0 : 1;
}
