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
#include "journal/JournalRecorder.h"

#include <QCoreApplication>
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
