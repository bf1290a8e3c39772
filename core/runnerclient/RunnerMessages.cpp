#include "runnerclient/RunnerMessages.h"

#include <QJsonArray>
#include <array>
#include <optional>
#include <utility>

namespace sandbox {

namespace {

template <class... Ts>
struct Overloaded : Ts...
{
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

constexpr std::array<std::pair<RunnerDoneReason, const char *>, 7> kReasons{{
    {RunnerDoneReason::Exit, "exit"},
    {RunnerDoneReason::Timeout, "timeout"},
    {RunnerDoneReason::OutOfMemory, "oom"},
    {RunnerDoneReason::CpuLimit, "cpu_limit"},
    {RunnerDoneReason::OutputLimit, "output_limit"},
    {RunnerDoneReason::Cancelled, "cancelled"},
    {RunnerDoneReason::Error, "error"},
}};

QString reasonName(RunnerDoneReason reason)
{
    for (const auto &[value, name] : kReasons) {
        if (value == reason) {
            return QLatin1String(name);
        }
    }
    return QStringLiteral("error");
}

std::optional<RunnerDoneReason> reasonNamed(const QString &name)
{
    for (const auto &[value, text] : kReasons) {
        if (name == QLatin1String(text)) {
            return value;
        }
    }
    return std::nullopt;
}

QString base64(const QByteArray &data)
{
    return QString::fromLatin1(data.toBase64());
}

QJsonObject fileJson(const RunnerFile &file)
{
    return QJsonObject{{QStringLiteral("path"), file.path},
                       {QStringLiteral("data"), base64(file.data)},
                       {QStringLiteral("mode"), file.mode}};
}

/// Reads the fields of one message; the first problem is kept and makes the message malformed.
class FieldReader final
{
public:
    FieldReader(const QJsonObject &json, QString type) : m_json(json), m_type(std::move(type)) {}

    QString string(const char *key, bool required = true)
    {
        const QJsonValue value = m_json.value(QLatin1String(key));
        if (value.isString()) {
            return value.toString();
        }
        if (required || !(value.isUndefined() || value.isNull())) {
            fail(key, "a string");
        }
        return {};
    }

    qint64 number(const char *key, bool required = true, qint64 fallback = 0)
    {
        const QJsonValue value = m_json.value(QLatin1String(key));
        if (value.isDouble()) {
            return qint64(value.toDouble());
        }
        if (required || !(value.isUndefined() || value.isNull())) {
            fail(key, "a number");
        }
        return fallback;
    }

    bool boolean(const char *key, bool fallback = false)
    {
        const QJsonValue value = m_json.value(QLatin1String(key));
        if (value.isBool()) {
            return value.toBool();
        }
        if (!value.isUndefined()) {
            fail(key, "true or false");
        }
        return fallback;
    }

    QByteArray data(const char *key, bool required = true)
    {
        const QString text = string(key, required);
        auto decoded = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded) {
            fail(key, "base64");
            return {};
        }
        return *decoded;
    }

    QStringList strings(const char *key, bool required = true)
    {
        const QJsonValue value = m_json.value(QLatin1String(key));
        if (value.isUndefined() && !required) {
            return {};
        }
        QStringList list;
        if (!value.isArray()) {
            fail(key, "an array of strings");
            return list;
        }
        for (const QJsonValue &item : value.toArray()) {
            if (!item.isString()) {
                fail(key, "an array of strings");
                return {};
            }
            list << item.toString();
        }
        return list;
    }

    QJsonArray array(const char *key, bool required = true)
    {
        const QJsonValue value = m_json.value(QLatin1String(key));
        if (value.isArray()) {
            return value.toArray();
        }
        if (required || !value.isUndefined()) {
            fail(key, "an array");
        }
        return {};
    }

    void fail(const char *key, const char *expected)
    {
        if (m_problem.isEmpty()) {
            m_problem = QStringLiteral("\"%1\" of a %2 message is not %3")
                            .arg(QLatin1String(key), m_type, QLatin1String(expected));
        }
    }

    const QString &problem() const { return m_problem; }

private:
    const QJsonObject &m_json;
    QString m_type;
    QString m_problem;
};

RunnerFile readFile(const QJsonObject &json, FieldReader &fields)
{
    FieldReader reader(json, QStringLiteral("file"));
    RunnerFile file{reader.string("path"), reader.data("data"), int(reader.number("mode", false, 0644))};
    if (!reader.problem().isEmpty()) {
        fields.fail("files", "a list of files");
    }
    return file;
}

} // namespace

QJsonObject toJson(const RunnerRequest &request)
{
    return std::visit(
        Overloaded{
            [](const RunnerRunRequest &run) {
                QJsonArray files;
                for (const RunnerFile &file : run.files) {
                    files.append(fileJson(file));
                }
                QJsonArray steps;
                for (const RunnerStep &step : run.steps) {
                    QJsonObject entry{{QStringLiteral("name"), step.name},
                                      {QStringLiteral("argv"), QJsonArray::fromStringList(step.argv)}};
                    if (!step.preload.isEmpty()) {
                        entry.insert(QStringLiteral("preload"), QJsonArray::fromStringList(step.preload));
                    }
                    if (!step.reuseKey.isEmpty()) {
                        entry.insert(QStringLiteral("reuse_output"),
                                     QJsonObject{{QStringLiteral("key"), step.reuseKey},
                                                 {QStringLiteral("file"), step.reuseFile}});
                    }
                    steps.append(entry);
                }
                QJsonObject env;
                for (auto it = run.env.begin(); it != run.env.end(); ++it) {
                    env.insert(it.key(), it.value());
                }
                QJsonObject json{
                    {QStringLiteral("op"), QStringLiteral("run")},
                    {QStringLiteral("id"), run.id},
                    {QStringLiteral("workdir"), run.workdir},
                    {QStringLiteral("files"), files},
                    {QStringLiteral("steps"), steps},
                    {QStringLiteral("env"), env},
                    {QStringLiteral("timeout_ms"), double(run.timeout.count())},
                    {QStringLiteral("max_output_bytes"), double(run.maxOutputBytes)},
                    {QStringLiteral("max_artifact_bytes"), double(run.maxArtifactBytes)},
                    {QStringLiteral("max_artifacts"), run.maxArtifacts},
                    {QStringLiteral("keep_files"), run.keepFiles},
                };
                if (run.cpuLimit.count() > 0) {
                    json.insert(QStringLiteral("cpu_limit_ms"), double(run.cpuLimit.count()));
                }
                if (!run.outputDir.isEmpty()) {
                    json.insert(QStringLiteral("output_dir"), run.outputDir);
                }
                if (!run.scratchDirs.isEmpty()) {
                    json.insert(QStringLiteral("scratch_dirs"), QJsonArray::fromStringList(run.scratchDirs));
                }
                if (!run.keptDirs.isEmpty()) {
                    QJsonArray kept;
                    for (const RunnerKeptDir &directory : run.keptDirs) {
                        QJsonObject entry{{QStringLiteral("path"), directory.path}};
                        if (!directory.seed.isEmpty()) {
                            entry.insert(QStringLiteral("seed"), directory.seed);
                        }
                        kept.append(entry);
                    }
                    json.insert(QStringLiteral("kept_dirs"), kept);
                }
                if (!run.resultDirs.isEmpty()) {
                    QJsonArray results;
                    for (const RunnerResultDir &directory : run.resultDirs) {
                        results.append(QJsonObject{{QStringLiteral("path"), directory.path},
                                                   {QStringLiteral("seed"), directory.seed}});
                    }
                    json.insert(QStringLiteral("result_dirs"), results);
                    json.insert(QStringLiteral("max_result_files"), run.maxResultFiles);
                    json.insert(QStringLiteral("max_result_bytes"), double(run.maxResultBytes));
                }
                if (run.keepProcesses) {
                    json.insert(QStringLiteral("keep_processes"), true);
                }
                return json;
            },
            [](const RunnerCancelRequest &cancel) {
                return QJsonObject{{QStringLiteral("op"), QStringLiteral("cancel")}, {QStringLiteral("id"), cancel.id}};
            },
            [](const RunnerPutFileRequest &put) {
                QJsonObject json = fileJson(put.file);
                json.insert(QStringLiteral("op"), QStringLiteral("put_file"));
                json.insert(QStringLiteral("id"), put.id);
                json.insert(QStringLiteral("workdir"), put.workdir);
                return json;
            },
            [](const RunnerGetFileRequest &get) {
                return QJsonObject{{QStringLiteral("op"), QStringLiteral("get_file")},
                                   {QStringLiteral("id"), get.id},
                                   {QStringLiteral("workdir"), get.workdir},
                                   {QStringLiteral("path"), get.path},
                                   {QStringLiteral("max_bytes"), double(get.maxBytes)}};
            },
            [](const RunnerPingRequest &) {
                return QJsonObject{{QStringLiteral("op"), QStringLiteral("ping")}};
            },
        },
        request);
}

Result<RunnerRequest> runnerRequestFromJson(const QJsonObject &json)
{
    const QString op = json.value(QStringLiteral("op")).toString();
    FieldReader fields(json, op.isEmpty() ? QStringLiteral("request") : op);
    RunnerRequest request;
    if (op == QLatin1String("run")) {
        RunnerRunRequest run;
        run.id = fields.string("id");
        run.workdir = fields.string("workdir");
        for (const QJsonValue &file : fields.array("files", false)) {
            run.files.append(readFile(file.toObject(), fields));
        }
        for (const QJsonValue &value : fields.array("steps")) {
            FieldReader step(value.toObject(), QStringLiteral("step"));
            run.steps.append(RunnerStep{step.string("name"), step.strings("argv"), step.strings("preload", false)});
            if (const QJsonObject reuse = value.toObject().value(QStringLiteral("reuse_output")).toObject();
                !reuse.isEmpty()) {
                run.steps.last().reuseKey = reuse.value(QStringLiteral("key")).toString();
                run.steps.last().reuseFile = reuse.value(QStringLiteral("file")).toString();
            }
            if (!step.problem().isEmpty()) {
                fields.fail("steps", "a list of steps");
            }
        }
        const QJsonObject env = json.value(QStringLiteral("env")).toObject();
        for (auto it = env.begin(); it != env.end(); ++it) {
            run.env.insert(it.key(), it.value().toString());
        }
        run.timeout = std::chrono::milliseconds(fields.number("timeout_ms", false, 30000));
        run.cpuLimit = std::chrono::milliseconds(fields.number("cpu_limit_ms", false, 0));
        run.maxOutputBytes = fields.number("max_output_bytes", false, run.maxOutputBytes);
        run.outputDir = fields.string("output_dir", false);
        run.maxArtifactBytes = fields.number("max_artifact_bytes", false, run.maxArtifactBytes);
        run.maxArtifacts = int(fields.number("max_artifacts", false, run.maxArtifacts));
        run.keepFiles = fields.boolean("keep_files");
        run.scratchDirs = fields.strings("scratch_dirs", false);
        for (const QJsonValue &value : fields.array("kept_dirs", false)) {
            FieldReader kept(value.toObject(), QStringLiteral("kept_dirs"));
            run.keptDirs.append(RunnerKeptDir{kept.string("path"), kept.string("seed", false)});
            if (!kept.problem().isEmpty()) {
                fields.fail("kept_dirs", "a list of directories");
            }
        }
        for (const QJsonValue &value : fields.array("result_dirs", false)) {
            FieldReader result(value.toObject(), QStringLiteral("result_dirs"));
            run.resultDirs.append(RunnerResultDir{result.string("path"), result.string("seed")});
            if (!result.problem().isEmpty()) {
                fields.fail("result_dirs", "a list of directories");
            }
        }
        run.maxResultFiles = int(fields.number("max_result_files", false, run.maxResultFiles));
        run.maxResultBytes = fields.number("max_result_bytes", false, run.maxResultBytes);
        run.keepProcesses = fields.boolean("keep_processes");
        request = std::move(run);
    } else if (op == QLatin1String("cancel")) {
        request = RunnerCancelRequest{fields.string("id")};
    } else if (op == QLatin1String("put_file")) {
        request = RunnerPutFileRequest{
            fields.string("id"), fields.string("workdir"),
            RunnerFile{fields.string("path"), fields.data("data"), int(fields.number("mode", false, 0644))}};
    } else if (op == QLatin1String("get_file")) {
        request = RunnerGetFileRequest{fields.string("id"), fields.string("workdir"), fields.string("path"),
                                       fields.number("max_bytes", false, 10 * 1024 * 1024)};
    } else if (op == QLatin1String("ping")) {
        request = RunnerPingRequest{};
    } else {
        return Error{QStringLiteral("Not a runner request: unknown op \"%1\".").arg(op.left(40)),
                     ErrorCode::BadRequest};
    }
    if (!fields.problem().isEmpty()) {
        return Error{QStringLiteral("Malformed runner request: %1.").arg(fields.problem()), ErrorCode::BadRequest};
    }
    return request;
}

QJsonObject toJson(const RunnerEvent &event)
{
    return std::visit(Overloaded{
                          [](const RunnerReadyEvent &ready) {
                              QJsonObject json{{QStringLiteral("ev"), QStringLiteral("ready")},
                                               {QStringLiteral("version"), ready.version}};
                              if (ready.limits.reported) {
                                  json.insert(QStringLiteral("limits"), ready.limits.toJson());
                              }
                              return json;
                          },
                          [](const RunnerOutputEvent &output) {
                              return QJsonObject{{QStringLiteral("ev"), QStringLiteral("output")},
                                                 {QStringLiteral("id"), output.id},
                                                 {QStringLiteral("step"), output.step},
                                                 {QStringLiteral("stream"), output.stream == OutputStream::Stderr
                                                                                ? QStringLiteral("stderr")
                                                                                : QStringLiteral("stdout")},
                                                 {QStringLiteral("data"), base64(output.data)}};
                          },
                          [](const RunnerStepEvent &step) {
                              return QJsonObject{{QStringLiteral("ev"), QStringLiteral("step")},
                                                 {QStringLiteral("id"), step.id},
                                                 {QStringLiteral("step"), step.step},
                                                 {QStringLiteral("exit_code"), step.exitCode},
                                                 {QStringLiteral("wall_ms"), double(step.wallMs)},
                                                 {QStringLiteral("cpu_ms"), double(step.cpuMs)},
                                                 {QStringLiteral("max_rss_kb"), double(step.maxRssKb)}};
                          },
                          [](const RunnerArtifactEvent &artifact) {
                              return QJsonObject{{QStringLiteral("ev"), QStringLiteral("artifact")},
                                                 {QStringLiteral("id"), artifact.id},
                                                 {QStringLiteral("name"), artifact.name},
                                                 {QStringLiteral("size"), double(artifact.data.size())},
                                                 {QStringLiteral("data"), base64(artifact.data)}};
                          },
                          [](const RunnerResultFileEvent &file) {
                              QJsonObject json{{QStringLiteral("ev"), QStringLiteral("result_file")},
                                               {QStringLiteral("id"), file.id},
                                               {QStringLiteral("dir"), file.dir},
                                               {QStringLiteral("name"), file.name},
                                               {QStringLiteral("type"), file.type},
                                               {QStringLiteral("size"), double(file.size)}};
                              if (file.data) {
                                  json.insert(QStringLiteral("data"), base64(*file.data));
                              }
                              return json;
                          },
                          [](const RunnerErrorEvent &error) {
                              QJsonObject json{{QStringLiteral("ev"), QStringLiteral("error")},
                                               {QStringLiteral("message"), error.message}};
                              if (!error.id.isEmpty()) {
                                  json.insert(QStringLiteral("id"), error.id);
                              }
                              return json;
                          },
                          [](const RunnerDoneEvent &done) {
                              return QJsonObject{{QStringLiteral("ev"), QStringLiteral("done")},
                                                 {QStringLiteral("id"), done.id},
                                                 {QStringLiteral("exit_code"), done.exitCode},
                                                 {QStringLiteral("reason"), reasonName(done.reason)},
                                                 {QStringLiteral("failed_step"), done.failedStep.isEmpty()
                                                                                     ? QJsonValue()
                                                                                     : QJsonValue(done.failedStep)},
                                                 {QStringLiteral("wall_ms"), double(done.wallMs)},
                                                 {QStringLiteral("cpu_ms"), double(done.cpuMs)},
                                                 {QStringLiteral("max_rss_kb"), double(done.maxRssKb)},
                                                 {QStringLiteral("output_truncated"), done.outputTruncated},
                                                 {QStringLiteral("artifacts_dropped"), done.artifactsDropped},
                                                 {QStringLiteral("processes_survived"), done.processesSurvived}};
                          },
                          [](const RunnerFileEvent &file) {
                              QJsonObject json{{QStringLiteral("ev"), QStringLiteral("file")},
                                               {QStringLiteral("id"), file.id},
                                               {QStringLiteral("path"), file.path},
                                               {QStringLiteral("size"), double(file.size)}};
                              if (!file.data.isEmpty()) {
                                  json.insert(QStringLiteral("data"), base64(file.data));
                              }
                              return json;
                          },
                          [](const RunnerPongEvent &) {
                              return QJsonObject{{QStringLiteral("ev"), QStringLiteral("pong")}};
                          },
                      },
                      event);
}

Result<RunnerEvent> runnerEventFromJson(const QJsonObject &json, const QByteArray &payload)
{
    const QString type = json.value(QStringLiteral("ev")).toString();
    FieldReader fields(json, type.isEmpty() ? QStringLiteral("runner") : type);
    RunnerEvent event;
    if (type == QLatin1String("ready")) {
        event = RunnerReadyEvent{int(fields.number("version")),
                                 EnforcedLimits::fromJson(json.value(QStringLiteral("limits")).toObject())};
    } else if (type == QLatin1String("output")) {
        RunnerOutputEvent output;
        output.id = fields.string("id");
        output.step = fields.string("step", false);
        const QString stream = fields.string("stream");
        if (stream == QLatin1String("stderr")) {
            output.stream = OutputStream::Stderr;
        } else if (stream != QLatin1String("stdout")) {
            fields.fail("stream", "stdout or stderr");
        }
        output.data = fields.data("data");
        event = std::move(output);
    } else if (type == QLatin1String("step")) {
        event = RunnerStepEvent{fields.string("id"),
                                fields.string("step"),
                                int(fields.number("exit_code")),
                                fields.number("wall_ms", false),
                                fields.number("cpu_ms", false),
                                fields.number("max_rss_kb", false)};
    } else if (type == QLatin1String("artifact")) {
        event = RunnerArtifactEvent{fields.string("id"), fields.string("name"), fields.data("data")};
    } else if (type == QLatin1String("result_file")) {
        RunnerResultFileEvent file{fields.string("id"),   fields.string("dir"),         fields.string("name"),
                                   fields.string("type"), fields.number("size", false), std::nullopt};
        if (json.contains(QStringLiteral("raw"))) {
            file.data = payload;
        } else if (json.contains(QStringLiteral("data"))) {
            file.data = fields.data("data");
        }
        event = std::move(file);
    } else if (type == QLatin1String("error")) {
        event = RunnerErrorEvent{fields.string("id", false), fields.string("message")};
    } else if (type == QLatin1String("done")) {
        RunnerDoneEvent done;
        done.id = fields.string("id");
        done.exitCode = int(fields.number("exit_code"));
        const QString reason = fields.string("reason");
        if (const auto known = reasonNamed(reason)) {
            done.reason = *known;
        } else {
            fields.fail("reason", "a known reason");
        }
        done.failedStep = fields.string("failed_step", false);
        done.wallMs = fields.number("wall_ms", false);
        done.cpuMs = fields.number("cpu_ms", false);
        done.maxRssKb = fields.number("max_rss_kb", false);
        done.outputTruncated = fields.boolean("output_truncated");
        done.artifactsDropped = int(fields.number("artifacts_dropped", false));
        done.processesSurvived = fields.boolean("processes_survived");
        event = std::move(done);
    } else if (type == QLatin1String("file")) {
        event = RunnerFileEvent{fields.string("id"), fields.string("path"), fields.number("size", false),
                                fields.data("data", false)};
    } else if (type == QLatin1String("pong")) {
        event = RunnerPongEvent{};
    } else {
        return Error{QStringLiteral("The sandbox runner sent an unknown message \"%1\".").arg(type.left(40)),
                     ErrorCode::SandboxFailed};
    }
    if (!fields.problem().isEmpty()) {
        return Error{QStringLiteral("The sandbox runner sent a malformed message: %1.").arg(fields.problem()),
                     ErrorCode::SandboxFailed};
    }
    return event;
}

QString eventId(const RunnerEvent &event)
{
    return std::visit(Overloaded{
                          [](const RunnerReadyEvent &) { return QString(); },
                          [](const RunnerPongEvent &) { return QString(); },
                          [](const auto &withId) { return withId.id; },
                      },
                      event);
}

} // namespace sandbox
