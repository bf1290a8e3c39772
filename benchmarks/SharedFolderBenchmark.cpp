// What sharing a folder costs a run (issue 47): print(1) through the pool with a shared folder of 10,000 files and
// 1 GiB against the same without one, alternated in one process, medians and their ratio (these machines are noisy:
// compare ratios, not times); and the first copy of the folder, made once. With --writable the folder takes results
// (its /data/NAME is made links to the copy before each run), and the cost of saving a result of --save-mib MiB that
// a run writes there is set against `cp` of the same file on the host: the run that writes it to /data/NAME against
// the same run writing it to /tmp, the difference against cp's time.
//
//   BACKEND=docker build/bin/shared_folder_benchmark [--files 10000] [--mib 1024] [--runs 30] [--writable]
//       [--save-mib 50]
//
// On the Kubernetes test API server (the folder is copied into each pod; the first run shows what that costs):
//   BACKEND=kubernetes tests/kubernetes/apiserver/with-apiserver -- build/bin/shared_folder_benchmark --runs 20
//
// Needs a container engine and the Python image (scripts/run-demo prepares both).
#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "folders/FolderSnapshot.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

/// Microseconds of one run of `code` (print(1)), or -1 when it failed: a pooled print(1) takes a few milliseconds.
qint64 runUs(ExecutionEngine &engine, const QString &code = QStringLiteral("print(1)"))
{
    RunRequest request;
    request.code = code;
    request.timeout = 60s;
    QElapsedTimer timer;
    timer.start();
    auto result = engine.run(request);
    return result && result->exitCode == 0 ? timer.nsecsElapsed() / 1000 : -1;
}

double median(std::vector<qint64> values)
{
    std::sort(values.begin(), values.end());
    return values.empty()      ? 0
           : values.size() % 2 ? double(values[values.size() / 2])
                               : (values[values.size() / 2 - 1] + values[values.size() / 2]) / 2.0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*=false"));
    QCommandLineParser parser;
    const QCommandLineOption filesOption(QStringLiteral("files"), QStringLiteral("Files in the folder."),
                                         QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption mibOption(QStringLiteral("mib"), QStringLiteral("MiB in the folder."),
                                       QStringLiteral("MIB"), QStringLiteral("1024"));
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Runs of each kind."),
                                        QStringLiteral("N"), QStringLiteral("30"));
    const QCommandLineOption writableOption(QStringLiteral("writable"), QStringLiteral("The folder takes results."));
    const QCommandLineOption saveOption(QStringLiteral("save-mib"),
                                        QStringLiteral("MiB of a result saved (with --writable; 0: none)."),
                                        QStringLiteral("MIB"), QStringLiteral("50"));
    parser.addOptions({filesOption, mibOption, runsOption, writableOption, saveOption});
    parser.addHelpOption();
    parser.process(app);
    const int files = parser.value(filesOption).toInt();
    const qint64 bytes = parser.value(mibOption).toLongLong() * 1024 * 1024;
    const int runs = parser.value(runsOption).toInt();

    QTemporaryDir host(QDir::tempPath() + QStringLiteral("/shared-folder-benchmark-XXXXXX"));
    const QByteArray block(int(std::max<qint64>(1, bytes / files)), 'x');
    for (int i = 0; i < files; ++i) {
        const QString folder = host.filePath(QStringLiteral("data/%1").arg(i / 500));
        QDir().mkpath(folder);
        QFile file(QStringLiteral("%1/file-%2.csv").arg(folder).arg(i));
        if (!file.open(QIODevice::WriteOnly) || file.write(block) != block.size()) {
            std::fprintf(stderr, "could not write the folder's files in %s\n", qPrintable(host.path()));
            return 1;
        }
    }
    const bool writable = parser.isSet(writableOption);
    auto folder = SharedFolder::parse(host.filePath(QStringLiteral("data")) +
                                      (writable ? QStringLiteral(":bench:rw") : QStringLiteral(":bench")));
    const QString backendName = qEnvironmentVariable("BACKEND", QStringLiteral("docker"));
    auto backend = BackendFactory::create(backendName);
    auto settings = SandboxSettings::fromEnvironment();
    if (!folder || !backend || !settings) {
        std::fprintf(stderr, "cannot start: %s\n",
                     qPrintable(!folder    ? folder.error().message
                                : !backend ? backend.error().message
                                           : settings.error().message));
        return 1;
    }
    settings->policy = QStringLiteral("permissive");
    ExecutionEngine plain(*backend, *settings);
    settings->sharedFolders = {*folder};
    QElapsedTimer copy;
    copy.start();
    auto first = FolderSnapshot::update(*folder, {});
    const qint64 copyMs = copy.elapsed();
    ExecutionEngine sharing(*backend, *settings);
    // Warm both pools before measuring. The first run with the folder starts a sandbox (on Kubernetes: a pod, into
    // which the folder is copied).
    const qint64 firstPlainUs = runUs(plain);
    const qint64 firstSharingUs = runUs(sharing);
    std::vector<qint64> without;
    std::vector<qint64> with;
    int failed = 0;
    for (int i = 0; i < runs; ++i) {
        for (auto [engine, times] : {std::pair{&plain, &without}, std::pair{&sharing, &with}}) {
            const qint64 us = runUs(*engine);
            us < 0 ? ++failed : (times->push_back(us), 0);
        }
    }
    QElapsedTimer update;
    update.start();
    FolderSnapshot::update(*folder, {});
    const qint64 updateMs = update.elapsed();
    std::printf("backend %s, folder of %d files, %lld MiB; %d runs of each, %d failed\n", qPrintable(backendName),
                files, static_cast<long long>(bytes / (1024 * 1024)), runs, failed);
    std::printf("first copy of the folder: %lld ms (%s)\n", static_cast<long long>(copyMs),
                first ? "ok" : qPrintable(first.error().message));
    std::printf("update with nothing changed: %lld ms\n", static_cast<long long>(updateMs));
    std::printf("first run (a sandbox started): %lld ms without the folder, %lld ms with it\n",
                static_cast<long long>(firstPlainUs / 1000), static_cast<long long>(firstSharingUs / 1000));
    std::printf("print(1) without a shared folder: median %.2f ms\n", median(without) / 1000);
    std::printf("print(1) with the shared folder:  median %.2f ms\n", median(with) / 1000);
    std::printf("ratio with / without: %.3f (target: at most 1.10)\n", median(with) / std::max(1.0, median(without)));

    const qint64 saveBytes = parser.value(saveOption).toLongLong() * 1024 * 1024;
    if (writable && saveBytes > 0) {
        const QString write = QStringLiteral("open('%1', 'wb').write(b'x' * %2)\n");
        const QString saved = folder->path + QStringLiteral("/result.bin");
        std::vector<qint64> toTmp;
        std::vector<qint64> toFolder;
        std::vector<qint64> copies;
        QFile source(host.filePath(QStringLiteral("result.bin")));
        if (!source.open(QIODevice::WriteOnly) || source.write(QByteArray(saveBytes, 'x')) != saveBytes) {
            std::fprintf(stderr, "could not write the file to copy\n");
            return 1;
        }
        source.close();
        for (int i = 0; i < std::max(3, runs / 5); ++i) {
            const qint64 tmp = runUs(sharing, write.arg(QStringLiteral("/tmp/result.bin")).arg(saveBytes));
            const qint64 data = runUs(sharing, write.arg(QStringLiteral("/data/bench/result.bin")).arg(saveBytes));
            const bool landed = QFileInfo(saved).size() == saveBytes;
            QFile::remove(saved); // not in the next run's copy of the folder
            QElapsedTimer cp;
            cp.start();
            const int copied = QProcess::execute(QStringLiteral("cp"), {source.fileName(), saved});
            copies.push_back(cp.nsecsElapsed() / 1000);
            QFile::remove(saved);
            if (tmp < 0 || data < 0 || !landed || copied != 0) {
                ++failed;
                continue;
            }
            toTmp.push_back(tmp);
            toFolder.push_back(data);
        }
        const double cost = median(toFolder) - median(toTmp);
        std::printf("a run writing %lld MiB to /tmp: median %.0f ms; to /data/bench (saved): median %.0f ms\n",
                    static_cast<long long>(saveBytes >> 20), median(toTmp) / 1000, median(toFolder) / 1000);
        std::printf("saving it: %.0f ms; cp of the same file on the host: median %.0f ms; ratio %.2f "
                    "(target: at most 1.10)\n",
                    cost / 1000, median(copies) / 1000, cost / std::max(1.0, median(copies)));
    }
    QDir(FolderSnapshot::viewOf(*folder)).removeRecursively();
    return failed == 0 ? 0 : 1;
}
