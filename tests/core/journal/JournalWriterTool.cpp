// A separate process that records runs into a journal, for the tests of several writers at once and of a writer
// killed mid-run.
//
//   journal-writer-tool DATABASE write TAG RUNS CHUNKS   records RUNS finished runs TAG-0.., each with CHUNKS chunks
//                                                        on stdout and on stderr (see expectedOutput in the test)
//   journal-writer-tool DATABASE hold TAG                starts run TAG, commits some output, prints "mid-run" and
//                                                        waits to be killed
//   journal-writer-tool DATABASE stream TAG              starts run TAG and commits; then each line read from stdin
//                                                        is committed as stdout ("ok" after each), until "end",
//                                                        which finishes the run
//   journal-writer-tool DATABASE network TAG             records run TAG, a finished Python run that was allowed
//                                                        two hosts and reached them, and was refused two others (the
//                                                        screenshots of a run with network: scripts/screenshots)
#include "journal/JournalRecorder.h"

#include <QCoreApplication>
#include <QDateTime>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace sandbox;

namespace {

QByteArray chunk(const QString &runId, const char *stream, int index)
{
    return QStringLiteral("%1 %2 chunk %3\n").arg(runId, QLatin1String(stream)).arg(index).toUtf8();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4) {
        std::fputs("usage: journal-writer-tool DATABASE (write TAG RUNS CHUNKS | hold TAG)\n", stderr);
        return 2;
    }
    const QString database = args[1];
    const QString mode = args[2];
    const QString tag = args[3];
    JournalRecorder recorder(database, JournalRecorder::Context{.backend = QStringLiteral("docker")});
    if (mode == QLatin1String("hold")) {
        RunRequest request;
        request.code = QStringLiteral("while True: pass");
        recorder.runStarted(tag, request);
        recorder.runOutput(tag, OutputStream::Stdout, QByteArrayLiteral("started\n"));
        recorder.flush();
        std::puts("mid-run");
        std::fflush(stdout);
        for (;;) {
            ::pause(); // until the test kills us
        }
    }
    if (mode == QLatin1String("stream")) {
        RunRequest request;
        request.code = QStringLiteral("for line in sys.stdin: print(line)");
        recorder.runStarted(tag, request);
        recorder.flush();
        std::puts("ok");
        std::fflush(stdout);
        char line[4096];
        while (std::fgets(line, sizeof line, stdin) && std::strcmp(line, "end\n") != 0) {
            recorder.runOutput(tag, OutputStream::Stdout, QByteArray(line));
            recorder.flush();
            std::puts("ok");
            std::fflush(stdout);
        }
        RunResult result;
        result.runId = tag;
        result.exitCode = 0;
        recorder.runFinished(tag, result, std::nullopt);
        return 0;
    }
    if (mode == QLatin1String("network")) {
        RunRequest request;
        request.language = QStringLiteral("python");
        request.source = RunSource::Mcp;
        request.clientName = QStringLiteral("claude-ai");
        request.clientVersion = QStringLiteral("0.14.1");
        request.network = {QStringLiteral("api.example.org"), QStringLiteral("*.example.com")};
        request.code =
            QStringLiteral("import json, urllib.request\n\n"
                           "with urllib.request.urlopen(\"https://api.example.org/v1/rates?base=EUR\") as answer:\n"
                           "    rates = json.load(answer)[\"rates\"]\n"
                           "for currency in (\"USD\", \"GBP\", \"JPY\"):\n"
                           "    print(f\"1 EUR = {rates[currency]} {currency}\")\n\n"
                           "urllib.request.urlretrieve(\"https://data.example.com/cities.csv\", "
                           "\"cities.csv\")\n"
                           "print(open(\"cities.csv\").read().count(\"\\n\"), \"cities\")\n\n"
                           "for url in (\"http://example.net/\", \"https://ads.example.net/\"):\n"
                           "    try:\n"
                           "        urllib.request.urlopen(url, timeout=5)\n"
                           "    except Exception as error:\n"
                           "        print(url, \"->\", error)\n");
        recorder.runStarted(tag, request);
        const QByteArray output = "1 EUR = 1.0842 USD\n1 EUR = 0.8571 GBP\n1 EUR = 162.38 JPY\n4127 cities\n"
                                  "http://example.net/ -> HTTP Error 403: Forbidden\n"
                                  "https://ads.example.net/ -> Tunnel connection failed: 403 Forbidden\n";
        recorder.runOutput(tag, OutputStream::Stdout, output);
        RunResult result;
        result.runId = tag;
        result.exitCode = 0;
        result.stdoutData = output;
        result.durationMs = 2340;
        result.wallMs = 1870;
        result.cpuMs = 310;
        result.peakMemoryKb = 38 * 1024;
        auto granted = NetworkAllowList::parse(QStringLiteral("api.example.org, *.example.com"));
        result.networkGranted = granted ? *granted : NetworkAllowList();
        const qint64 start = QDateTime::currentMSecsSinceEpoch();
        result.network = {
            NetworkConnection{.startedMs = start + 310,
                              .method = QStringLiteral("CONNECT"),
                              .host = QStringLiteral("api.example.org"),
                              .port = 443,
                              .allowed = true,
                              .address = QStringLiteral("203.0.113.10"),
                              .status = 200,
                              .bytesOut = 1247,
                              .bytesIn = 49463,
                              .durationMs = 412},
            NetworkConnection{.startedMs = start + 740,
                              .method = QStringLiteral("CONNECT"),
                              .host = QStringLiteral("data.example.com"),
                              .port = 443,
                              .allowed = true,
                              .address = QStringLiteral("185.199.108.133"),
                              .status = 200,
                              .bytesOut = 892,
                              .bytesIn = 214872,
                              .durationMs = 655},
            NetworkConnection{.startedMs = start + 1420,
                              .method = QStringLiteral("GET"),
                              .host = QStringLiteral("example.net"),
                              .port = 80,
                              .allowed = false,
                              .reason = QStringLiteral("not an allowed host"),
                              .status = 403,
                              .bytesOut = 78,
                              .bytesIn = 0,
                              .durationMs = 1},
            NetworkConnection{.startedMs = start + 1460,
                              .method = QStringLiteral("CONNECT"),
                              .host = QStringLiteral("ads.example.net"),
                              .port = 443,
                              .allowed = false,
                              .reason = QStringLiteral("not an allowed host"),
                              .status = 403,
                              .durationMs = 1},
        };
        recorder.runFinished(tag, result, std::nullopt);
        return 0;
    }
    if (mode != QLatin1String("write") || args.size() < 6) {
        return 2;
    }
    const int runs = args[4].toInt();
    const int chunks = args[5].toInt();
    for (int run = 0; run < runs; ++run) {
        const QString runId = QStringLiteral("%1-%2").arg(tag).arg(run);
        RunRequest request;
        request.code = QStringLiteral("print(%1)").arg(run);
        recorder.runStarted(runId, request);
        for (int index = 0; index < chunks; ++index) {
            recorder.runOutput(runId, OutputStream::Stdout, chunk(runId, "out", index));
            recorder.runOutput(runId, OutputStream::Stderr, chunk(runId, "err", index));
            // Commits now and then so the processes' transactions really interleave.
            if (index % 10 == 9) {
                recorder.flush();
            }
        }
        RunResult result;
        result.runId = runId;
        result.exitCode = 0;
        recorder.runFinished(runId, result, std::nullopt);
    }
    return 0; // the recorder's destructor commits the rest
}
