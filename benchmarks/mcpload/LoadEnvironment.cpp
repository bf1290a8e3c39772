#include "LoadEnvironment.h"

#include "images/ImageCatalog.h"
#include "lang/LanguageRegistry.h"
#include "settings/SandboxSettings.h"

#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>

namespace sandbox::mcpload {

QProcessEnvironment serverEnvironment(const QString &folder, const QString &journal, const QString &backend)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder + QStringLiteral("/config"));
    environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), journal);
    environment.insert(QStringLiteral("BACKEND"), backend);
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    return environment;
}

bool stopProcess(QProcess &process)
{
    if (process.state() == QProcess::NotRunning) {
        return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }
    process.terminate();
    if (!process.waitForFinished(int(std::chrono::milliseconds(kStopTimeout).count()))) {
        process.kill();
        process.waitForFinished(5000);
        return false;
    }
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

Result<QByteArray> runCommand(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(int(std::chrono::milliseconds(kCommandTimeout).count())) ||
        process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        const QString why = process.error() == QProcess::UnknownError
                                ? QStringLiteral("exit status %1").arg(process.exitCode())
                                : process.errorString();
        process.kill();
        process.waitForFinished(5000);
        return Error{QStringLiteral("`%1 %2` failed (%3): %4")
                         .arg(program, arguments.join(QLatin1Char(' ')), why,
                              QString::fromUtf8(process.readAllStandardError()).trimmed())};
    }
    return process.readAllStandardOutput();
}

QString engineCommand(const QString &backend)
{
    if (backend == QLatin1String("docker") || backend == QLatin1String("podman")) {
        return backend;
    }
    return {};
}

Result<QString> pythonImage()
{
    const Result<SandboxSettings> settings = SandboxSettings::fromEnvironment();
    if (!settings) {
        return settings.error();
    }
    const Result<Language> python = LanguageRegistry::instance().find(QStringLiteral("python"));
    if (!python) {
        return python.error();
    }
    return ImageCatalog(ImageCatalog::defaultRunnerPath(), settings->imageOverrides, settings->baseImage)
        .runImage(*python);
}

int sandboxContainers(const QString &engine, qint64 pid)
{
    if (engine.isEmpty()) {
        return -1;
    }
    // Docker prints the labels as k=v,k=v, Podman as map[k:v k:v].
    const Result<QByteArray> labels = runCommand(engine, {QStringLiteral("ps"), QStringLiteral("--filter"),
                                                          QStringLiteral("label=io.llm-sandbox.run"),
                                                          QStringLiteral("--format"), QStringLiteral("{{.Labels}}")});
    if (!labels) {
        return -1;
    }
    static const QRegularExpression owner(QStringLiteral(R"(io\.llm-sandbox\.owner[=:][^,\s\]]*:(\d+):\d+)"));
    int count = 0;
    for (const QByteArray &line : labels->split('\n')) {
        const QRegularExpressionMatch match = owner.match(QString::fromUtf8(line));
        count += match.hasMatch() && match.captured(1).toLongLong() == pid ? 1 : 0;
    }
    return count;
}

JournalCheck checkJournal(const QString &path, RunSource source, const QList<QByteArray> &answered)
{
    JournalCheck check;
    check.expected = int(answered.size());
    const JournalReader reader(path);
    RunFilter filter;
    filter.sources = {source};
    const Result<QList<JournalRun>> runs = reader.list(filter, 0, INT_MAX);
    if (!runs) {
        check.error = runs.error().message;
        return check;
    }
    const QSet<QByteArray> wanted(answered.begin(), answered.end());
    for (const JournalRun &summary : *runs) {
        if (summary.status != RunStatus::Finished) {
            ++check.notFinished;
            continue;
        }
        ++check.finished;
        const Result<JournalRun> run = reader.run(summary.id);
        if (!run) {
            check.error = run.error().message;
            return check;
        }
        if (wanted.contains(run->stdoutData)) {
            RecordedRun &recorded = check.runs[run->stdoutData];
            recorded.durationMs = run->durationMs;
            recorded.coldStart = run->coldStart;
            ++recorded.times;
        }
    }
    for (const QByteArray &output : answered) {
        const int times = check.runs.value(output).times;
        check.recorded += times == 1 ? 1 : 0;
        check.missing += times == 0 ? 1 : 0;
        check.duplicated += times > 1 ? 1 : 0;
    }
    return check;
}

qint64 journalRecordedAtNs(const JournalReader &reader, const QString &stdoutText, const QElapsedTimer &clock)
{
    RunFilter filter;
    filter.text = stdoutText;
    filter.status = RunStatus::Finished;
    const QDeadlineTimer deadline(kJournalTimeout);
    while (!deadline.hasExpired()) {
        if (const Result<int> found = reader.count(filter); found && *found > 0) {
            return clock.nsecsElapsed();
        }
        runEventLoopFor(kJournalPollInterval);
    }
    return -1;
}

std::unique_ptr<test::StdioMcpClient> startStdioServer(const QString &binary, const QProcessEnvironment &environment,
                                                       const QString &stderrFile)
{
    auto client = std::make_unique<test::StdioMcpClient>();
    QProcess &process = client->process();
    process.setProgram(binary);
    process.setArguments({QStringLiteral("--mcp")});
    process.setProcessEnvironment(environment);
    process.setStandardErrorFile(stderrFile);
    process.start();
    return client;
}

bool waitForExit(test::StdioMcpClient &client, QDeadlineTimer deadline)
{
    QProcess &process = client.process();
    if (process.state() != QProcess::NotRunning &&
        !process.waitForFinished(int(std::max<qint64>(1, deadline.remainingTime())))) {
        stopProcess(process);
        return false;
    }
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

QString fileTail(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().right(1000)) : QString();
}

} // namespace sandbox::mcpload
