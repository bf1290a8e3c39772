// Latency of one sandboxed run of `print(1)`, against baselines measured in the same
// process: a bare container run of the same command through the same Engine API (what
// `docker run --rm` costs), a run in a session (persistent interpreter) and a matplotlib
// scatter plot; and Go and Java hello worlds beside their floors, the same build and run (Go's with a warm cache)
// inside a running container of the same image. Report the ratios, not the absolute times: these machines are noisy.
//
//   build/bin/run_latency_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "lang/LanguageRegistry.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <benchmark/benchmark.h>

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
    static ExecutionEngine instance(backend(), SandboxSettings{});
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

void BM_EngineRunPrint(benchmark::State &state)
{
    runCode(state, QStringLiteral("print(1)"));
}

void BM_EngineRunScatterPlot(benchmark::State &state)
{
    runCode(state, QStringLiteral("import matplotlib.pyplot as plt\nplt.scatter([1, 2, 3], [3, 1, 2])\nplt.show()\n"));
}

const QString kGoHello = QStringLiteral("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n");

void BM_EngineRunGoHello(benchmark::State &state)
{
    runCode(state, kGoHello, QStringLiteral("go"));
}

/// Times a toolchain's own cost inside a running container of `language`'s image, no sandbox around it: `script`
/// (a shell program whose $0 is `code`) prints "ready" once it is set up, then, for each line it reads, the
/// microseconds one build and run took.
void measureFloor(benchmark::State &state, const QString &language, const char *script, const QString &code)
{
    ContainerSpec spec;
    spec.image = *engine().catalog().runImage(*LanguageRegistry::instance().find(language));
    spec.command = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), QString::fromLatin1(script), code};
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
        state.SkipWithError("the image could not build the program");
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

/// The floor of a Go run: `go build` and the program with a warm build cache.
void BM_GoHelloFloor(benchmark::State &state)
{
    measureFloor(state, QStringLiteral("go"),
                 R"(export GOCACHE=/tmp/c GOPATH=/tmp/go GOFLAGS=-mod=mod GOTOOLCHAIN=local HOME=/tmp
mkdir -p /tmp/h && cd /tmp/h && printf 'module h\ngo 1.24\n' >go.mod
printf '%s' "$0" >main.go && go build -o h . && echo ready
while read -r _; do s=$(date +%s%N); go build -o h . && ./h >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000 )); done
)",
                 kGoHello);
}

const QString kJavaHello = QStringLiteral(
    "public class Main {\n  public static void main(String[] args) {\n    System.out.println(1);\n  }\n}\n");

void BM_EngineRunJavaHello(benchmark::State &state)
{
    runCode(state, kJavaHello, QStringLiteral("java"));
}

/// The floor of a Java run: plain `javac` and `java` of the image's JDK, no flags.
void BM_JavaHelloFloor(benchmark::State &state)
{
    measureFloor(state, QStringLiteral("java"), R"(export HOME=/tmp
mkdir -p /tmp/h && cd /tmp/h && printf '%s' "$0" >Main.java && javac Main.java && echo ready
while read -r _; do s=$(date +%s%N); javac Main.java && java Main >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000 )); done
)",
                 kJavaHello);
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
BENCHMARK(BM_EngineRunPrint)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);
BENCHMARK(BM_SessionRunPrint)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);
BENCHMARK(BM_EngineRunScatterPlot)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);
BENCHMARK(BM_GoHelloFloor)->Unit(benchmark::kMillisecond)->UseManualTime()->MinTime(5);
BENCHMARK(BM_EngineRunGoHello)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);
BENCHMARK(BM_JavaHelloFloor)->Unit(benchmark::kMillisecond)->UseManualTime()->MinTime(5);
BENCHMARK(BM_EngineRunJavaHello)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false"));
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
