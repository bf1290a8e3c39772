#include "fakes/FakeRunner.h"

#include "Protocol.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace sandbox::test {

namespace {

// The real runner's largest output chunk.
constexpr qsizetype kMaxChunk = 64 * 1024;

/// The container's attached stdin/stdout: a closed connection is end of file on the runner's stdin.
class FakeRunnerStream final : public ContainerStream
{
public:
    explicit FakeRunnerStream(std::shared_ptr<FakeRunner> runner) : m_runner(std::move(runner)) {}
    ~FakeRunnerStream() override { m_runner->closeWrite(); }

    Result<void> write(const QByteArray &data) override { return m_runner->write(data); }
    ReadStatus read(QByteArray &out, std::chrono::milliseconds timeout) override
    {
        return m_runner->read(out, timeout);
    }
    void closeWrite() override { m_runner->closeWrite(); }

private:
    std::shared_ptr<FakeRunner> m_runner;
};

QString below(const QString &directory, const QString &path)
{
    return QDir::cleanPath(directory + QLatin1Char('/') + path);
}

/// Removes everything below `directory` (the runner empties the workdir and scratch directories before a run).
void removeBelow(QHash<QString, QByteArray> &files, const QString &directory)
{
    const QString prefix = QDir::cleanPath(directory) + QLatin1Char('/');
    files.removeIf([&prefix](const auto &entry) { return entry.key().startsWith(prefix); });
}

QByteArray decoded(const QJsonValue &base64)
{
    return QByteArray::fromBase64(base64.toString().toLatin1());
}

} // namespace

FakeRunner::FakeRunner(QString containerId, QHash<QString, QByteArray> files, int protocolVersion, Script script,
                       QJsonObject limits)
    : m_containerId(std::move(containerId)), m_protocolVersion(protocolVersion), m_limits(std::move(limits)),
      m_script(std::move(script)), m_files(std::move(files))
{}

FakeRunner::~FakeRunner()
{
    closeWrite();
}

std::unique_ptr<ContainerStream> FakeRunner::start()
{
    QJsonObject ready{{QStringLiteral("ev"), QStringLiteral("ready")}, {QStringLiteral("version"), m_protocolVersion}};
    if (!m_limits.isEmpty()) {
        ready.insert(QStringLiteral("limits"), m_limits);
    }
    send(ready);
    m_thread = std::thread([this] { serveRuns(); });
    m_runThreadId = m_thread.get_id();
    return std::make_unique<FakeRunnerStream>(shared_from_this());
}

void FakeRunner::kill()
{
    std::shared_ptr<FakeRunGate> gate;
    {
        std::lock_guard lock(m_mutex);
        m_killed = true;
        gate = m_currentGate;
    }
    m_changed.notify_all();
    if (gate) {
        gate->wake();
    }
    stopThread();
}

void FakeRunner::closeWrite()
{
    std::shared_ptr<FakeRunGate> gate;
    {
        std::lock_guard lock(m_mutex);
        m_stdinClosed = true;
        gate = m_currentGate;
    }
    m_changed.notify_all();
    if (gate) {
        gate->wake();
    }
    stopThread();
}

void FakeRunner::stopThread()
{
    // A script may kill its own container: the run thread cannot wait for itself, and must not wait for the
    // lock either, which a thread joining it may hold.
    if (std::this_thread::get_id() == m_runThreadId) {
        return;
    }
    const std::lock_guard lock(m_threadMutex);
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

bool FakeRunner::isAlive() const
{
    return !m_killed && !m_stdinClosed;
}

QHash<QString, QByteArray> FakeRunner::files() const
{
    std::lock_guard lock(m_mutex);
    return m_files;
}

Result<void> FakeRunner::write(const QByteArray &data)
{
    const std::lock_guard writing(m_writeMutex);
    if (m_killed) {
        return Error{QStringLiteral("The fake container %1 has stopped.").arg(m_containerId), ErrorCode::SandboxFailed};
    }
    if (m_stdinClosed) {
        return Error{QStringLiteral("The stdin of fake container %1 is closed.").arg(m_containerId),
                     ErrorCode::SandboxFailed};
    }
    m_input.append(data);
    for (qsizetype newline = m_input.indexOf('\n'); newline >= 0; newline = m_input.indexOf('\n')) {
        const QByteArray line = m_input.left(newline);
        m_input.remove(0, newline + 1);
        handleLine(line);
    }
    return {};
}

ContainerStream::ReadStatus FakeRunner::read(QByteArray &out, std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, timeout, [this] { return !m_output.isEmpty() || m_killed || m_exited; });
    // What the runner wrote before the container ended still arrives, then the end.
    if (!m_output.isEmpty()) {
        out.append(m_output);
        m_output.clear();
        return ContainerStream::ReadStatus::Data;
    }
    return m_killed || m_exited ? ContainerStream::ReadStatus::Closed : ContainerStream::ReadStatus::Timeout;
}

void FakeRunner::send(const QJsonObject &message)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_killed) {
            return;
        }
        m_output.append(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    }
    m_changed.notify_all();
}

void FakeRunner::handleLine(const QByteArray &line)
{
    runner::Request request;
    try {
        request = runner::parseRequest(std::string_view(line.constData(), size_t(line.size())));
    } catch (const runner::ProtocolError &error) {
        QJsonObject message{{QStringLiteral("ev"), QStringLiteral("error")},
                            {QStringLiteral("message"), QString::fromStdString(error.what())}};
        if (!error.id().empty()) {
            message.insert(QStringLiteral("id"), QString::fromStdString(error.id()));
        }
        send(message);
        if (error.isRun()) {
            // The host waits for the `done` of every run, refused ones included.
            sendDone(QString::fromStdString(error.id()), FakeRunScript{}, -1, QStringLiteral("error"));
        }
        return;
    }
    const QString id = QString::fromStdString(request.id);
    switch (request.operation) {
    case runner::Operation::Ping:
        send({{QStringLiteral("ev"), QStringLiteral("pong")}});
        break;
    case runner::Operation::Run: {
        {
            std::lock_guard lock(m_mutex);
            m_queue.push_back({id, QJsonDocument::fromJson(line).object()});
        }
        m_changed.notify_all();
        break;
    }
    case runner::Operation::Cancel: {
        std::shared_ptr<FakeRunGate> gate;
        bool wasQueued = false;
        {
            std::lock_guard lock(m_mutex);
            if (m_currentRun == id) {
                m_cancelRequested = true;
                gate = m_currentGate;
            } else if (auto queued = std::find_if(m_queue.begin(), m_queue.end(),
                                                  [&id](const QueuedRun &run) { return run.id == id; });
                       queued != m_queue.end()) {
                m_queue.erase(queued);
                wasQueued = true;
            }
        }
        if (gate) {
            gate->wake();
        }
        if (wasQueued) {
            sendDone(id, FakeRunScript{}, -1, QStringLiteral("cancelled"));
        }
        // Otherwise the cancel crossed the run's `done`: nothing to do, as in the real runner.
        break;
    }
    case runner::Operation::PutFile:
    case runner::Operation::GetFile: {
        const QString workdir = QString::fromStdString(request.file.workdir);
        const QString relative = QString::fromStdString(request.file.file.path);
        const QString path = below(workdir, relative);
        QJsonObject answer{{QStringLiteral("ev"), QStringLiteral("file")},
                           {QStringLiteral("id"), id},
                           {QStringLiteral("path"), relative}};
        std::unique_lock lock(m_mutex);
        if (request.operation == runner::Operation::PutFile) {
            const QByteArray data = QByteArray::fromStdString(request.file.file.data);
            m_files.insert(path, data);
            answer.insert(QStringLiteral("size"), double(data.size()));
        } else {
            const auto it = m_files.constFind(path);
            QString refusal;
            if (it == m_files.constEnd()) {
                refusal = QStringLiteral("cannot open '%1': No such file or directory").arg(relative);
            } else if (quint64(it->size()) > request.file.maxBytes) {
                refusal = QStringLiteral("'%1' is larger than %2 bytes").arg(relative).arg(request.file.maxBytes);
            }
            if (!refusal.isEmpty()) {
                lock.unlock();
                send({{QStringLiteral("ev"), QStringLiteral("error")},
                      {QStringLiteral("id"), id},
                      {QStringLiteral("message"), refusal}});
                return;
            }
            answer.insert(QStringLiteral("size"), double(it->size()));
            answer.insert(QStringLiteral("data"), QString::fromLatin1(it->toBase64()));
        }
        lock.unlock();
        send(answer);
        break;
    }
    }
}

void FakeRunner::serveRuns()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [this] { return !m_queue.empty() || m_killed || m_stdinClosed; });
        if (m_killed || m_stdinClosed) {
            break;
        }
        const QueuedRun run = m_queue.front();
        m_queue.pop_front();
        m_currentRun = run.id;
        m_cancelRequested = false;
        lock.unlock();
        execute(run);
        lock.lock();
        m_currentRun.clear();
        m_currentGate.reset();
    }
    // At the end of its stdin the runner kills everything and exits: the stream ends.
    m_exited = true;
    lock.unlock();
    m_changed.notify_all();
}

bool FakeRunner::interrupted() const
{
    return m_cancelRequested || m_killed || m_stdinClosed;
}

void FakeRunner::execute(const QueuedRun &run)
{
    const QJsonObject &request = run.request;
    FakeRun fake;
    fake.containerId = m_containerId;
    fake.request = request;
    fake.id = run.id;
    fake.keepFiles = request.value(QStringLiteral("keep_files")).toBool();
    fake.keepProcesses = request.value(QStringLiteral("keep_processes")).toBool();
    for (const QJsonValue &step : request.value(QStringLiteral("steps")).toArray()) {
        fake.steps.append(step.toObject().value(QStringLiteral("name")).toString());
    }
    const QJsonArray files = request.value(QStringLiteral("files")).toArray();
    if (!files.isEmpty()) {
        fake.code = decoded(files.first().toObject().value(QStringLiteral("data")));
    }
    const QString workdir = request.value(QStringLiteral("workdir")).toString();
    {
        std::lock_guard lock(m_mutex);
        if (!fake.keepFiles) {
            removeBelow(m_files, workdir);
            for (const QJsonValue &scratch : request.value(QStringLiteral("scratch_dirs")).toArray()) {
                removeBelow(m_files, scratch.toString());
            }
        }
        if (const QString outputDir = request.value(QStringLiteral("output_dir")).toString(); !outputDir.isEmpty()) {
            removeBelow(m_files, QDir::isAbsolutePath(outputDir) ? outputDir : below(workdir, outputDir));
        }
        for (const QJsonValue &value : files) {
            const QJsonObject file = value.toObject();
            m_files.insert(below(workdir, file.value(QStringLiteral("path")).toString()),
                           decoded(file.value(QStringLiteral("data"))));
        }
        fake.files = m_files;
    }

    const FakeRunScript script = m_script(fake);
    const QString step = fake.steps.isEmpty() ? QStringLiteral("run") : fake.steps.last();
    const auto sendOutput = [&](const QList<FakeOutputChunk> &chunks) {
        for (const FakeOutputChunk &chunk : chunks) {
            for (qsizetype at = 0; at < chunk.data.size(); at += kMaxChunk) {
                send({{QStringLiteral("ev"), QStringLiteral("output")},
                      {QStringLiteral("id"), run.id},
                      {QStringLiteral("step"), step},
                      {QStringLiteral("stream"), chunk.stream},
                      {QStringLiteral("data"), QString::fromLatin1(chunk.data.mid(at, kMaxChunk).toBase64())}});
            }
        }
    };
    sendOutput(script.output);
    if (script.gate) {
        {
            std::lock_guard lock(m_mutex);
            m_currentGate = script.gate;
        }
        script.gate->arrive();
        script.gate->waitUntilOpen([this] { return interrupted(); });
    }
    if (m_killed || m_stdinClosed) {
        return; // the container (or its runner) is gone: no `done`
    }
    if (m_cancelRequested) {
        // The runner kills the step: 128 + SIGKILL.
        sendDone(run.id, script, 137, QStringLiteral("cancelled"));
        return;
    }
    if (script.containerDies) {
        kill();
        return;
    }
    sendOutput(script.outputAfterGate);
    {
        std::lock_guard lock(m_mutex);
        for (auto it = script.writesFiles.begin(); it != script.writesFiles.end(); ++it) {
            m_files.insert(below(workdir, it.key()), it.value());
        }
    }
    for (const QString &name : fake.steps) {
        const bool last = name == fake.steps.last() || name == script.failedStep;
        send({{QStringLiteral("ev"), QStringLiteral("step")},
              {QStringLiteral("id"), run.id},
              {QStringLiteral("step"), name},
              {QStringLiteral("exit_code"), last ? script.exitCode : 0},
              {QStringLiteral("wall_ms"), double(script.wallMs)},
              {QStringLiteral("cpu_ms"), double(script.cpuMs)},
              {QStringLiteral("max_rss_kb"), double(script.maxRssKb)}});
        if (last) {
            break;
        }
    }
    if (!script.errorMessage.isEmpty()) {
        send({{QStringLiteral("ev"), QStringLiteral("error")},
              {QStringLiteral("id"), run.id},
              {QStringLiteral("message"), script.errorMessage}});
    }
    for (const FakeArtifact &artifact : script.artifacts) {
        send({{QStringLiteral("ev"), QStringLiteral("artifact")},
              {QStringLiteral("id"), run.id},
              {QStringLiteral("name"), artifact.name},
              {QStringLiteral("size"), double(artifact.data.size())},
              {QStringLiteral("data"), QString::fromLatin1(artifact.data.toBase64())}});
    }
    sendDone(run.id, script, script.exitCode, script.reason);
}

void FakeRunner::sendDone(const QString &id, const FakeRunScript &script, int exitCode, const QString &reason)
{
    send({{QStringLiteral("ev"), QStringLiteral("done")},
          {QStringLiteral("id"), id},
          {QStringLiteral("exit_code"), exitCode},
          {QStringLiteral("reason"), reason},
          {QStringLiteral("failed_step"), script.failedStep.isEmpty() ? QJsonValue() : QJsonValue(script.failedStep)},
          {QStringLiteral("wall_ms"), double(script.wallMs)},
          {QStringLiteral("cpu_ms"), double(script.cpuMs)},
          {QStringLiteral("max_rss_kb"), double(script.maxRssKb)},
          {QStringLiteral("output_truncated"), script.outputTruncated},
          {QStringLiteral("artifacts_dropped"), script.artifactsDropped},
          {QStringLiteral("processes_survived"), script.processesSurvived}});
}

} // namespace sandbox::test
