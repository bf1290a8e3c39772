// Latency of sandboxed runs against baselines measured in the same process: for every language a small program (and
// the matplotlib and ggplot2 charts) through the warm engine, BM_EngineRun/NAME, beside its floor, BM_Floor/NAME: the
// same program built and run by the toolchain alone inside a running container of the same image, and that floor again
// with the sandbox's CPU limit, BM_FloorAtCpuLimit/NAME (a toolchain that compiles on several threads is throttled
// there, as in the sandbox). Also a bare
// container run of `print(1)` through the same Engine API (what `docker run --rm` costs) and a run in a session
// (persistent interpreter). The same programs through the MCP server's dispatcher too, BM_McpRun/NAME/CLIENT: a
// tools/call of execute_code answered as `llm-sandbox --mcp` answers it (journal, resource links), for a client that
// renders MCP Apps (`apps`: the run view offered) and one that does not (`plain`).
// And the sandbox's OCI runtime compared in the same run, BM_Runtime/KIND/RUNTIME: a pooled
// run, a cold container (no pool) and the matplotlib chart under the engine's default (runc) and under gVisor (runsc,
// which the engine must have registered; scripts/test does). And a program per language that needs a library from
// its registry, BM_LibraryRun/NAME/installed (the library cache off) and /cached (the cache's set, after a call
// installed it, each call in the sandbox warmed with it after the last), for the languages whose registry is reachable
// here (npm, Debian). Report the ratios, not the absolute times: these machines are noisy.
//
//   build/bin/run_latency_benchmark --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
//   build/bin/run_latency_benchmark --benchmark_filter=/java   # one language, engine and floor
#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "journal/JournalRecorder.h"
#include "lang/LanguageRegistry.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"
#include "mcp/tools/apps/RunViewResource.h"
#include "support/McpTestClient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <benchmark/benchmark.h>
#include <map>
#include <thread>

using namespace sandbox;

namespace {

std::shared_ptr<ContainerBackend> backend()
{
    static auto created = BackendFactory::create();
    if (!created) {
        qFatal("%s", qPrintable(created.error().message));
    }
    return *created;
}

ExecutionEngine &engine()
{
    // The settings of the environment (LLM_SANDBOX_*), as the program has them.
    static ExecutionEngine instance(backend(), [] {
        auto settings = SandboxSettings::fromEnvironment();
        if (!settings) {
            qFatal("%s", qPrintable(settings.error().message));
        }
        return *settings;
    }());
    return instance;
}

void runCode(benchmark::State &state, const QString &code, const QString &language = QStringLiteral("python"))
{
    RunRequest request;
    request.language = language;
    request.code = code;
    for (auto _ : state) {
        auto result = engine().run(request);
        if (!result || result->exitCode != 0) {
            state.SkipWithError(result ? "the program failed" : qPrintable(result.error().message));
            return;
        }
    }
}

/// An engine whose sandboxes run under `runtime` (empty: the engine's default), with a warm pool (`pooled`) or a fresh
/// container for every run.
ExecutionEngine &runtimeEngine(const QString &runtime, bool pooled)
{
    static std::map<std::pair<QString, bool>, std::unique_ptr<ExecutionEngine>> engines;
    auto &slot = engines[{runtime, pooled}];
    if (!slot) {
        SandboxSettings settings = engine().settings();
        settings.runtime = runtime;
        if (!pooled) {
            settings.poolSize = 0;
        }
        slot = std::make_unique<ExecutionEngine>(backend(), settings);
    }
    return *slot;
}

const QString kMatplotlibChart =
    QStringLiteral("import matplotlib.pyplot as plt\nplt.scatter([1, 2, 3], [3, 1, 2])\nplt.show()\n");

void BM_Runtime(benchmark::State &state, const QString &runtime, bool pooled, const QString &code)
{
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = code;
    ExecutionEngine &runs = runtimeEngine(runtime, pooled);
    for (auto _ : state) {
        auto result = runs.run(request);
        if (!result || result->exitCode != 0) {
            state.SkipWithError(result ? "the program failed" : qPrintable(result.error().message));
            return;
        }
    }
}

/// A program of every language, run through the engine beside its floor: the same program built and run by the
/// toolchain alone, inside a running container of the same image (no runner, no capture hooks, no sandbox limits).
struct LanguageCase
{
    const char *name;     ///< the benchmark's name: BM_EngineRun/NAME, BM_Floor/NAME
    const char *language; ///< the engine's
    const char *code;
    const char *file;    ///< where the floor writes `code`
    const char *setup;   ///< shell, run once before timing (a warm cache for Go)
    const char *command; ///< shell, timed: build and run
    /// Each run another program: `code`'s "Println(1)" prints another number each time (the floor's command does the
    /// same to its file), so nothing built before can be reused.
    bool newProgramEachRun = false;
};

const LanguageCase kCases[] = {
    {"python_print", "python", "print(1)\n", "main.py", "", "python3 main.py"},
    {"python_numpy_print", "python", "import numpy\nprint(1)\n", "main.py", "", "python3 main.py"},
    {"python_matplotlib_scatter", "python",
     "import matplotlib.pyplot as plt\nplt.scatter([1, 2, 3], [3, 1, 2])\nplt.show()\n", "main.py", "",
     // The floor saves the figure itself: no capture hook there.
     "MPLBACKEND=Agg python3 -c \"exec(open('main.py').read().replace('plt.show()', "
     "'plt.savefig(\\\"/tmp/h/f.png\\\")'))\""},
    {"javascript_hello", "javascript", "console.log(1)\n", "main.js", "", "node main.js"},
    {"java_hello", "java",
     "public class Main {\n  public static void main(String[] args) {\n    System.out.println(1);\n  }\n}\n",
     "Main.java", "", "javac Main.java && java Main"},
    {"cpp_hello", "cpp", "#include <iostream>\nint main() { std::cout << 1 << '\\n'; }\n", "main.cpp", "",
     "g++ -std=c++23 -O2 -o main main.cpp && ./main"},
    {"go_hello", "go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n", "main.go",
     "export GOCACHE=/tmp/c GOPATH=/tmp/go GOFLAGS=-mod=mod GOTOOLCHAIN=local && printf 'module h\\ngo 1.24\\n' "
     ">go.mod",
     "go build -o h . && ./h"},
    {"go_new_program", "go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n", "main.go",
     "export GOCACHE=/tmp/c GOPATH=/tmp/go GOFLAGS=-mod=mod GOTOOLCHAIN=local && printf 'module h\\ngo 1.24\\n' "
     ">go.mod",
     "sed -i \"s/Println([0-9]*)/Println($(date +%N))/\" main.go && go build -o h . && ./h", true},
    {"r_cat", "r", "cat(1, '\\n')\n", "main.R", "", "Rscript main.R"},
    {"r_ggplot2_chart", "r",
     "library(ggplot2)\nprint(ggplot(data.frame(x = 1:3, y = c(3, 1, 2)), aes(x, y)) + geom_point())\n", "main.R", "",
     "Rscript -e 'png(\"/tmp/h/f.png\")' -e 'source(\"main.R\")' -e 'invisible(dev.off())'"},
    {"ruby_puts", "ruby", "puts 1\n", "main.rb", "", "ruby main.rb"},
};

void BM_EngineRun(benchmark::State &state, const LanguageCase &which)
{
    if (!which.newProgramEachRun) {
        runCode(state, QString::fromUtf8(which.code), QString::fromLatin1(which.language));
        return;
    }
    RunRequest request;
    request.language = QString::fromLatin1(which.language);
    qint64 counter = QDateTime::currentMSecsSinceEpoch();
    for (auto _ : state) {
        request.code = QString::fromUtf8(which.code)
                           .replace(QStringLiteral("Println(1)"), QStringLiteral("Println(%1)").arg(++counter));
        auto result = engine().run(request);
        if (!result || result->exitCode != 0) {
            state.SkipWithError(result ? "the program failed" : qPrintable(result.error().message));
            return;
        }
    }
}

/// Each iteration asks the container for one more timed build and run; it answers with the microseconds it took.
/// `cpus`: the container's CPU limit, 0 for none.
void floor(benchmark::State &state, const LanguageCase &which, double cpus)
{
    ContainerSpec spec;
    spec.cpus = cpus;
    spec.image = *engine().catalog().runImage(*LanguageRegistry::instance().find(QString::fromLatin1(which.language)));
    // The script is $0's program and $1 its file name.
    const QString script =
        QStringLiteral("export HOME=/tmp && mkdir -p /tmp/h && cd /tmp/h && printf '%s' \"$0\" "
                       ">\"$1\" && { %1 :; } && { %2; } >/dev/null && echo ready\n"
                       "while read -r _; do s=$(date +%s%N); { %2; } >/dev/null; "
                       "e=$(date +%s%N); echo $(( (e - s) / 1000 )); done\n")
            .arg(QString::fromUtf8(which.setup).isEmpty() ? QString()
                                                          : QString::fromUtf8(which.setup) + QStringLiteral(" &&"),
                 QString::fromUtf8(which.command));
    spec.command = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script, QString::fromUtf8(which.code),
                    QString::fromLatin1(which.file)};
    auto id = backend()->createContainer(spec);
    if (!id) {
        state.SkipWithError(qPrintable(id.error().message));
        return;
    }
    auto stream = backend()->startAttached(*id);
    QByteArray out;
    const auto nextLine = [&]() -> QByteArray {
        while (!out.contains('\n')) {
            if (!stream || (*stream)->read(out, std::chrono::seconds(120)) != ContainerStream::ReadStatus::Data) {
                return {};
            }
        }
        const qsizetype end = out.indexOf('\n');
        const QByteArray line = out.left(end);
        out.remove(0, end + 1);
        return line;
    };
    if (nextLine() != "ready") {
        state.SkipWithError("the image could not build and run the program");
    } else {
        for (auto _ : state) {
            if (!(*stream)->write("next\n")) {
                state.SkipWithError("the container went away");
                break;
            }
            state.SetIterationTime(nextLine().toDouble() / 1e6);
        }
    }
    (void)backend()->removeContainer(*id);
}

/// `which` through the MCP dispatcher as `llm-sandbox --mcp` serves a client: a journal records every run and keeps
/// its files (resource links), the client has initialized with or without MCP Apps (`apps`).
void BM_McpRun(benchmark::State &state, const LanguageCase &which, bool apps)
{
    static const QTemporaryDir folder;
    static JournalRecorder journal(folder.filePath(QStringLiteral("journal.sqlite")), JournalRecorder::Context{});
    static const Subscription recording = engine().subscribe(&journal);
    using namespace sandbox::mcp;
    DispatcherOptions options;
    options.exchangeSink = &journal;
    options.resourceTemplates = SandboxTools::resourceTemplates(&engine());
    McpDispatcher dispatcher(SandboxTools::tools(CodeExecutor::forEngine(&engine()), &engine()),
                             SandboxTools::resources(&engine()), {}, options);
    const auto message = [](int id, const QString &method, const QJsonObject &params) {
        return test::compactJson(test::jsonRpcRequest(id, method, params));
    };
    const QJsonObject capabilities =
        apps ? QJsonObject{{QStringLiteral("extensions"),
                            QJsonObject{
                                {RunViewResource::kExtension,
                                 QJsonObject{{QStringLiteral("mimeTypes"), QJsonArray{RunViewResource::kMimeType}}}}}}}
             : QJsonObject{};
    dispatcher
        .handle(
            message(0, QStringLiteral("initialize"),
                    test::initializeParams(QStringLiteral("2025-11-25"), QStringLiteral("benchmark"), capabilities)))
        .waitForFinished();
    const QByteArray call =
        message(1, QStringLiteral("tools/call"),
                test::toolCallParams(QStringLiteral("execute_code"),
                                     QJsonObject{{QStringLiteral("code"), QString::fromUtf8(which.code)},
                                                 {QStringLiteral("language"), which.language}}));
    for (auto _ : state) {
        QFuture<QJsonDocument> reply = dispatcher.handle(call);
        reply.waitForFinished();
        const QJsonObject result = reply.result().object().value(QStringLiteral("result")).toObject();
        if (result.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("exit_code")) != 0) {
            state.SkipWithError("the program failed");
            return;
        }
    }
}

void BM_Floor(benchmark::State &state, const LanguageCase &which)
{
    floor(state, which, 0);
}

void BM_FloorAtCpuLimit(benchmark::State &state, const LanguageCase &which)
{
    floor(state, which, SandboxSettings{}.cpus);
}

/// A run in a Python session: its interpreter is already running, so the code only needs compiling.
void BM_SessionRunPrint(benchmark::State &state)
{
    static const auto session = engine().createSession(SessionRequest{});
    if (!session) {
        state.SkipWithError(qPrintable(session.error().message));
        return;
    }
    RunRequest request;
    request.language.clear();
    request.sessionId = session->id;
    request.code = QStringLiteral("print(1)");
    for (auto _ : state) {
        auto result = engine().run(request);
        if (!result || result->exitCode != 0) {
            state.SkipWithError(result ? "the program failed" : qPrintable(result.error().message));
            return;
        }
    }
}

/// A program of a language that needs a library the image lacks, from the language's default registry.
struct LibraryCase
{
    const char *name;
    const char *language;
    const char *library;
    const char *code;
};

/// Only npm's registry and Debian's mirror are reachable from the machines this runs on; the other languages'
/// registries need folders the tests make (LibraryCacheTest covers the cache with such a folder).
const LibraryCase kLibraryCases[] = {
    {"javascript_is_number", "javascript", "is-number@7.0.0", "require('is-number');\nconsole.log(1);\n"},
    {"cpp_libboost", "cpp", "libboost-dev",
     "#include <boost/any.hpp>\n#include <iostream>\nint main() { boost::any a = 1; std::cout << 1 << '\\n'; }\n"},
};

/// `which` with its library: installed for every call (`cached` false: the library cache off), or taken from the
/// cache that a first call filled, in a sandbox warmed with it (issue 49: the second call costs within 1.2x of one
/// without libraries).
void BM_LibraryRun(benchmark::State &state, const LibraryCase &which, bool cached)
{
    static const QTemporaryDir folder;
    static std::map<bool, std::unique_ptr<ExecutionEngine>> engines;
    auto &slot = engines[cached];
    if (!slot) {
        SandboxSettings settings = engine().settings();
        settings.libraryCacheFolder = cached ? folder.path() : QString();
        slot = std::make_unique<ExecutionEngine>(backend(), settings);
    }
    RunRequest request;
    request.language = QString::fromLatin1(which.language);
    request.code = QString::fromUtf8(which.code);
    request.libraries = {QString::fromLatin1(which.library)};
    request.timeout = std::chrono::minutes(5);
    if (cached && !slot->run(request)) {
        state.SkipWithError("the call that fills the cache failed");
        return;
    }
    for (auto _ : state) {
        if (cached) {
            // Each call once the engine has warmed a sandbox with the set after the last one, as a model's next call
            // comes after it read the last result.
            state.PauseTiming();
            const auto giveUpAt = std::chrono::steady_clock::now() + std::chrono::minutes(1);
            while (slot->warmContainersWithLibraries(request.language) == 0 &&
                   std::chrono::steady_clock::now() < giveUpAt) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            state.ResumeTiming();
        }
        auto result = slot->run(request);
        if (!result || result->exitCode != 0) {
            state.SkipWithError(result ? qPrintable(QString::fromUtf8(result->stderrData))
                                       : qPrintable(result.error().message));
            return;
        }
        if (result->librariesCached != cached) {
            state.SkipWithError(cached ? "the libraries were installed, not taken from the cache"
                                       : "the libraries came from a cache that is off");
            return;
        }
    }
}

/// Baseline: create, start, wait for and remove a container running `python3 -c 'print(1)'`
/// directly (no runner), in the same image: the cost of `docker run --rm`.
void BM_BareContainerRunPrint(benchmark::State &state)
{
    const Language python = *LanguageRegistry::instance().find(QStringLiteral("python"));
    const QString image = *engine().catalog().runImage(python);
    for (auto _ : state) {
        ContainerSpec spec;
        spec.image = image;
        spec.command = {QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("print(1)")};
        auto id = backend()->createContainer(spec);
        if (!id) {
            state.SkipWithError(qPrintable(id.error().message));
            return;
        }
        auto stream = backend()->startAttached(*id);
        if (stream) {
            QByteArray out;
            while ((*stream)->read(out, std::chrono::seconds(30)) == ContainerStream::ReadStatus::Data) {
            }
        }
        (void)backend()->removeContainer(*id);
    }
}

} // namespace

BENCHMARK(BM_BareContainerRunPrint)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);
BENCHMARK(BM_SessionRunPrint)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false\nsandbox.mcp.info=false"));
    const struct
    {
        const char *name;
        bool pooled;
        QString code;
    } runtimeCases[] = {{"pooled_print", true, QStringLiteral("print(1)\n")},
                        {"cold_container_print", false, QStringLiteral("print(1)\n")},
                        {"pooled_matplotlib_chart", true, kMatplotlibChart}};
    for (const auto &which : runtimeCases) {
        for (const auto &[label, runtime] :
             {std::pair{"runc", QString()}, std::pair{"gvisor", QStringLiteral("runsc")}}) {
            benchmark::RegisterBenchmark((std::string("BM_Runtime/") + which.name + "/" + label).c_str(), BM_Runtime,
                                         runtime, which.pooled, which.code)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime()
                ->MinWarmUpTime(which.pooled ? 5 : 0)
                ->MinTime(5);
        }
    }
    for (const LanguageCase &which : kCases) {
        benchmark::RegisterBenchmark((std::string("BM_Floor/") + which.name).c_str(), BM_Floor, which)
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->MinTime(5);
        benchmark::RegisterBenchmark((std::string("BM_FloorAtCpuLimit/") + which.name).c_str(), BM_FloorAtCpuLimit,
                                     which)
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->MinTime(5);
        // Warmed up: a warm container's preloaded interpreter starts after its first run and is ready seconds later.
        benchmark::RegisterBenchmark((std::string("BM_EngineRun/") + which.name).c_str(), BM_EngineRun, which)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->MinWarmUpTime(5)
            ->MinTime(5);
        // Through MCP a program is the same each call: the cases that change it every run are the engine's alone.
        for (const bool apps : {false, true}) {
            if (which.newProgramEachRun) {
                break;
            }
            benchmark::RegisterBenchmark((std::string("BM_McpRun/") + which.name + (apps ? "/apps" : "/plain")).c_str(),
                                         BM_McpRun, which, apps)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime()
                ->MinWarmUpTime(5)
                ->MinTime(5);
        }
    }
    for (const LibraryCase &which : kLibraryCases) {
        benchmark::RegisterBenchmark((std::string("BM_LibraryRun/") + which.name + "/installed").c_str(), BM_LibraryRun,
                                     which, false)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(3);
        benchmark::RegisterBenchmark((std::string("BM_LibraryRun/") + which.name + "/cached").c_str(), BM_LibraryRun,
                                     which, true)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->MinTime(5);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
