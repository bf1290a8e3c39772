// The engine under load, measured rather than asserted (the hostile-code tests keep only what the runs must do):
//
//   - 50 concurrent runs, each writing 2000 lines to both streams: their wall time as a ratio to one such run alone,
//     measured just before in the same process (these machines are noisy: compare ratios, not times), and how much
//     this process's resident memory grew once the runs and the engine are gone;
//   - rounds of every way a run can end (output, exit code, output limit, artifacts, timeout, a policy refusal):
//     resident memory growth from the first round to the last (a leak of a run's output or artifacts adds megabytes
//     per round) and from before the engines to after them.
//
//   BACKEND=docker build/bin/engine_load_benchmark [--runs 50] [--rounds 6]
//
// Needs a container engine and the Python image (scripts/run-demo prepares both).
#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLoggingCategory>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <malloc.h>
#include <thread>
#include <vector>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

constexpr int kLines = 2000;

/// Resident memory of this process in KiB, after handing freed heap back to the system so that it shows what is
/// still held.
qint64 settledResidentKb()
{
    ::malloc_trim(0);
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').first().toLongLong();
        }
    }
    return -1;
}

SandboxSettings permissiveSettings()
{
    SandboxSettings settings;
    settings.policy = QStringLiteral("permissive");
    return settings;
}

/// A program writing `kLines` numbered lines to stdout and to stderr, each naming run `index`.
RunRequest chattyRun(int index)
{
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = QStringLiteral("import sys\n"
                                  "for i in range(%1):\n"
                                  "    print('run-%2-token', i)\n"
                                  "    print('run-%2-err', i, file=sys.stderr)\n")
                       .arg(kLines)
                       .arg(index);
    request.timeout = 120s;
    return request;
}

/// Milliseconds `runs` concurrent chatty runs take in all; the number that failed goes to `failed`.
qint64 concurrentRunsMs(ExecutionEngine &engine, int runs, int &failed)
{
    std::vector<bool> ok(runs, false);
    std::vector<std::thread> threads;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < runs; ++i) {
        threads.emplace_back([&, i] {
            const auto result = engine.run(chattyRun(i));
            ok[i] = result && result->exitCode == 0 && result->stdoutData.count('\n') == kLines;
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    failed = int(std::count(ok.begin(), ok.end(), false));
    return timer.elapsed();
}

void measureConcurrentRuns(const std::shared_ptr<ContainerBackend> &backend, int runs)
{
    const qint64 before = settledResidentKb();
    qint64 alone = 0;
    qint64 together = 0;
    int failed = 0;
    {
        ExecutionEngine engine(backend, permissiveSettings());
        int warmUpFailed = 0;
        concurrentRunsMs(engine, 1, warmUpFailed); // the image and the first container are ready afterwards
        // The baseline: the median of three runs alone.
        std::vector<qint64> single;
        for (int i = 0; i < 3; ++i) {
            int singleFailed = 0;
            single.push_back(concurrentRunsMs(engine, 1, singleFailed));
            failed += singleFailed;
        }
        std::sort(single.begin(), single.end());
        alone = single[1];
        together = concurrentRunsMs(engine, runs, failed);
    }
    const qint64 after = settledResidentKb();
    std::printf("concurrent runs (%d lines to each stream)\n", kLines);
    std::printf("  one run alone:          %8lld ms\n", static_cast<long long>(alone));
    std::printf("  %3d runs at once:       %8lld ms  = %.1f x one run alone\n", runs, static_cast<long long>(together),
                alone > 0 ? double(together) / double(alone) : 0.0);
    std::printf("  RSS growth, engine gone: %7lld KiB (from %lld KiB)\n", static_cast<long long>(after - before),
                static_cast<long long>(before));
    if (failed > 0) {
        std::printf("  %d run(s) FAILED or lost output\n", failed);
    }
}

/// Every way a run can end, on `permissive` and on `guarded` (the default policy, which refuses subprocess).
/// Returns how many did not end as expected.
int runEveryKind(ExecutionEngine &permissive, ExecutionEngine &guarded)
{
    int unexpected = 0;
    const auto expect = [&](const QString &code, std::chrono::milliseconds timeout, auto check) {
        RunRequest request;
        request.language = QStringLiteral("python");
        request.code = code;
        request.timeout = timeout;
        const auto result = permissive.run(request);
        unexpected += result && check(*result) ? 0 : 1;
    };
    expect(QStringLiteral("print('hello ' * 1000)\n"), 30s,
           [](const RunResult &r) { return r.reason == StopReason::Exited; });
    expect(QStringLiteral("raise SystemExit(3)\n"), 30s, [](const RunResult &r) { return r.exitCode == 3; });
    expect(QStringLiteral("import sys\nsys.stdout.write('x' * 3_000_000)\n"), 30s,
           [](const RunResult &r) { return r.reason == StopReason::OutputLimit; });
    expect(QStringLiteral("import os\n"
                          "for i in range(4):\n"
                          "    with open(f\"{os.environ['LLM_SANDBOX_OUTPUT_DIR']}/blob{i}.bin\", 'wb') as f:\n"
                          "        f.write(os.urandom(1_000_000))\n"),
           30s, [](const RunResult &r) { return r.artifacts.size() == 4; });
    expect(QStringLiteral("while True:\n    pass\n"), 1s,
           [](const RunResult &r) { return r.reason == StopReason::TimedOut; });
    RunRequest refused;
    refused.code = QStringLiteral("import subprocess\n");
    unexpected += guarded.run(refused) ? 1 : 0;
    return unexpected;
}

void measureMemoryOverRounds(const std::shared_ptr<ContainerBackend> &backend, int rounds)
{
    int unexpected = 0;
    // Warm-up with engines of their own: the first runs fill caches that stay (thread pools, Qt's and libcurl's
    // one-time set-up, malloc arenas).
    {
        ExecutionEngine permissive(backend, permissiveSettings());
        ExecutionEngine guarded(backend, SandboxSettings{});
        unexpected += runEveryKind(permissive, guarded);
        unexpected += runEveryKind(permissive, guarded);
    }
    const qint64 start = settledResidentKb();
    qint64 afterFirst = 0;
    qint64 afterAll = 0;
    {
        ExecutionEngine permissive(backend, permissiveSettings());
        ExecutionEngine guarded(backend, SandboxSettings{});
        unexpected += runEveryKind(permissive, guarded);
        afterFirst = settledResidentKb();
        for (int i = 1; i < rounds; ++i) {
            unexpected += runEveryKind(permissive, guarded);
        }
        afterAll = settledResidentKb();
    }
    const qint64 end = settledResidentKb();
    std::printf("memory over rounds of every kind of run (about 8 MB of output and artifacts per round)\n");
    std::printf("  RSS growth, round 1 to %d: %7lld KiB = %lld KiB per round\n", rounds,
                static_cast<long long>(afterAll - afterFirst),
                static_cast<long long>(rounds > 1 ? (afterAll - afterFirst) / (rounds - 1) : 0));
    std::printf("  RSS growth, engines gone:  %7lld KiB (from %lld KiB)\n", static_cast<long long>(end - start),
                static_cast<long long>(start));
    if (unexpected > 0) {
        std::printf("  %d run(s) did NOT end as expected\n", unexpected);
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Load and memory growth of the engine (BACKEND selects it)."));
    parser.addHelpOption();
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Concurrent runs."), QStringLiteral("n"),
                                        QStringLiteral("50"));
    const QCommandLineOption roundsOption(QStringLiteral("rounds"), QStringLiteral("Rounds of every kind of run."),
                                          QStringLiteral("n"), QStringLiteral("6"));
    parser.addOptions({runsOption, roundsOption});
    parser.process(app);

    const auto backend = BackendFactory::create();
    if (!backend) {
        std::fprintf(stderr, "%s\n", qPrintable(backend.error().message));
        return 1;
    }
    measureConcurrentRuns(*backend, std::max(1, parser.value(runsOption).toInt()));
    measureMemoryOverRounds(*backend, std::max(1, parser.value(roundsOption).toInt()));
    return 0;
}
