#include "mcp/tools/SandboxTools.h"

#include "artifacts/MimeTypes.h"
#include "engine/ExecutionEngine.h"
#include "folders/ResultWriter.h"
#include "journal/ExchangeSink.h"
#include "lang/LanguageRegistry.h"
#include "mcp/tools/LanguageDetails.h"
#include "mcp/tools/SessionHandle.h"
#include "mcp/tools/SharedFolderTools.h"
#include "mcp/tools/SkillResources.h"
#include "mcp/tools/apps/RunViewResource.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringDecoder>
#include <QUrl>
#include <algorithm>
#include <mutex>

namespace sandbox::mcp {

namespace {

QString compactJson(const QJsonDocument &document)
{
    return QString::fromUtf8(document.toJson(QJsonDocument::Compact));
}

QJsonObject property(const QString &type, const QString &description)
{
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required = {})
{
    QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty()) {
        schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    }
    return schema;
}

QJsonObject readOnlyAnnotations(const QString &title)
{
    return QJsonObject{{QStringLiteral("title"), title},
                       {QStringLiteral("readOnlyHint"), true},
                       {QStringLiteral("openWorldHint"), false}};
}

QString languageList()
{
    return LanguageRegistry::instance().names().join(QStringLiteral(", "));
}

QJsonObject sessionId(const QString &description)
{
    QJsonObject id = property(QStringLiteral("string"), description);
    id.insert(QStringLiteral("minLength"), 1);
    return id;
}

/// 2026-07-28 clients on HTTP send the language as `Mcp-Param-Language` too: a gateway can route runs by language
/// (to hosts with that image) without reading the body.
const std::pair<QString, QString> kLanguageHeader{QStringLiteral("language"), QStringLiteral("Language")};

const QString kNoBackend =
    QStringLiteral("Sessions need a container backend, and none is configured. Start Docker or Podman (or set BACKEND, "
                   "DOCKER_HOST or KUBECONFIG for the server) and restart the llm-sandbox MCP server.");

/// Relays the progress of opening a session (image build, library installs) to the client.
class SessionProgress final : public RunObserver
{
public:
    explicit SessionProgress(const ToolCall &call) : m_call(call) {}
    void runProgress(const QString &, const RunProgress &progress) override
    {
        m_call.log(LogLevel::Debug, progress.message);
        m_call.progress(progress.message);
    }

private:
    const ToolCall &m_call;
};

QJsonObject sessionJson(const SessionInfo &session)
{
    QJsonObject json{
        {QStringLiteral("session_id"), session.id},
        {QStringLiteral("language"), session.language},
        {QStringLiteral("libraries"), QJsonArray::fromStringList(session.libraries)},
        {QStringLiteral("timeout"), qint64(std::chrono::duration_cast<std::chrono::seconds>(session.timeout).count())},
        {QStringLiteral("keeps_variables"), session.keepsVariables},
        {QStringLiteral("runs"), session.runs},
        {QStringLiteral("created_at"), session.createdAt.toString(Qt::ISODate)},
        {QStringLiteral("last_used_at"), session.lastUsedAt.toString(Qt::ISODate)},
        {QStringLiteral("expires_at"), session.expiresAt.toString(Qt::ISODate)},
    };
    if (session.librariesCached) { // only then: other sessions answer as they always did
        json.insert(QStringLiteral("libraries_cached"), true);
    }
    if (!session.network.isEmpty()) { // only a session with network says so: others answer as they always did
        json.insert(QStringLiteral("network"), QJsonArray::fromStringList(session.network));
    }
    return json;
}

QString jsonText(const QJsonObject &object)
{
    return compactJson(QJsonDocument(object));
}

/// A session tool: `handler` runs only when a backend is configured; otherwise it answers why there is none.
Tool sessionTool(ExecutionEngine *engine, const QString &unavailable, Tool tool,
                 std::function<QJsonObject(ExecutionEngine &, const ToolCall &)> handler)
{
    tool.handler = [engine, unavailable, handler = std::move(handler)](const ToolCall &call) {
        return engine ? handler(*engine, call) : errorToolResult(unavailable);
    };
    return tool;
}

/// A session's file path, relative to /sandbox.
QJsonObject sessionPath()
{
    QJsonObject path = property(QStringLiteral("string"),
                                QStringLiteral("File path relative to the session's working directory /sandbox, "
                                               "e.g. data/input.csv (no \"..\")."));
    path.insert(QStringLiteral("minLength"), 1);
    return path;
}

/// A tool that changes the session but destroys nothing.
QJsonObject changingAnnotations(const QString &title)
{
    return QJsonObject{{QStringLiteral("title"), title},
                       {QStringLiteral("readOnlyHint"), false},
                       {QStringLiteral("destructiveHint"), false},
                       {QStringLiteral("openWorldHint"), false}};
}

/// The `network` argument of execute_code and create_session, offered only where the user allows some network:
/// elsewhere the tools are listed as they always were.
std::optional<QJsonObject> networkProperty(const NetworkAllowList &allowed)
{
    if (allowed.isEmpty()) {
        return std::nullopt;
    }
    QJsonObject network = property(
        QStringLiteral("array"),
        QStringLiteral("Hosts the code needs to reach over HTTP or HTTPS (\"api.example.org\", \"HOST:PORT\"), "
                       "within what the user allows: %1. Without it the code has no network. The code reaches them "
                       "through a proxy its HTTP clients find in HTTP_PROXY/HTTPS_PROXY; every connection is listed "
                       "in the result's network.connections.")
            .arg(allowed.text()));
    network.insert(QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    network.insert(QStringLiteral("maxItems"), 32);
    return network;
}

Tool createSessionTool(ExecutionEngine *engine, const QString &unavailable, qint64 defaultTimeout,
                       const NetworkAllowList &networkAllow)
{
    QJsonObject language = property(QStringLiteral("string"),
                                    QStringLiteral("Programming language of the session: %1.").arg(languageList()));
    language.insert(QStringLiteral("default"), QStringLiteral("python"));
    QJsonObject libraries = property(QStringLiteral("array"),
                                     QStringLiteral("Packages to install once, when the session starts (the session "
                                                    "has no network afterwards)."));
    libraries.insert(QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    libraries.insert(QStringLiteral("default"), QJsonArray());
    QJsonObject timeout = property(QStringLiteral("integer"),
                                   QStringLiteral("Default seconds each execute_code in the session may run."));
    timeout.insert(QStringLiteral("default"), defaultTimeout);
    timeout.insert(QStringLiteral("minimum"), 1);
    timeout.insert(QStringLiteral("maximum"), 3600);
    QJsonObject properties{{QStringLiteral("language"), language},
                           {QStringLiteral("libraries"), libraries},
                           {QStringLiteral("timeout"), timeout}};
    if (auto network = networkProperty(networkAllow)) {
        properties.insert(QStringLiteral("network"), *network);
    }
    return sessionTool(
        engine, unavailable,
        Tool{.name = QStringLiteral("create_session"),
             .title = QStringLiteral("Create session"),
             .description = QStringLiteral(
                 "Start a persistent sandbox session and return its session_id. Pass the session_id to execute_code "
                 "to run several pieces of code in the same sandbox: files persist, and for Python and R so do "
                 "variables, imports and functions. Libraries are installed once, here. Close it with close_session; "
                 "it also closes by itself after a while without use (see expires_at)."),
             .inputSchema = objectSchema(properties),
             .outputSchema = {},
             .annotations = changingAnnotations(QStringLiteral("Create session")),
             .longRunning = true,
             .handler = {},
             .headerArguments = {kLanguageHeader}},
        [](ExecutionEngine &engine, const ToolCall &call) {
            SessionRequest request;
            request.language = call.arguments.value(QStringLiteral("language")).toString();
            for (const QJsonValue &library : call.arguments.value(QStringLiteral("libraries")).toArray()) {
                request.libraries << library.toString();
            }
            // Read even where the tool does not offer it (CodeExecutor::execute).
            for (const QJsonValue &host : call.arguments.value(QStringLiteral("network")).toArray()) {
                request.network << host.toString();
            }
            request.timeout = std::chrono::seconds(call.arguments.value(QStringLiteral("timeout")).toInteger(30));
            const QString secret = call.sessionHandles ? SessionHandle::newSecret() : QString();
            request.owner = call.sessionHandles ? SessionHandle::ownerOf(secret) : call.owner;
            SessionProgress progress(call);
            auto session = engine.createSession(request, call.stop, &progress);
            if (!session) {
                return errorToolResult(session.error().message);
            }
            if (call.sessionHandles) {
                session->id = SessionHandle::handle(session->id, secret);
            }
            return textToolResult(jsonText(sessionJson(*session)));
        });
}

Tool listSessionsTool(ExecutionEngine *engine, const QString &unavailable)
{
    return sessionTool(
        engine, unavailable,
        Tool{.name = QStringLiteral("list_sessions"),
             .title = QStringLiteral("List sessions"),
             .description = QStringLiteral("List the open sessions as JSON: session_id, language, libraries, runs, "
                                           "and when each expires unless used."),
             .inputSchema = objectSchema({}),
             .outputSchema = {},
             .annotations = readOnlyAnnotations(QStringLiteral("List sessions")),
             .longRunning = false,
             .handler = {}},
        [](ExecutionEngine &engine, const ToolCall &call) {
            QJsonArray sessions;
            for (const SessionInfo &session : engine.sessions(call.owner)) {
                sessions.append(sessionJson(session));
            }
            return textToolResult(jsonText(QJsonObject{{QStringLiteral("sessions"), sessions}}));
        });
}

Tool closeSessionTool(ExecutionEngine *engine, const QString &unavailable)
{
    return sessionTool(
        engine, unavailable,
        Tool{.name = QStringLiteral("close_session"),
             .title = QStringLiteral("Close session"),
             .description = QStringLiteral("Close a session and remove its sandbox with everything in it."),
             .inputSchema =
                 objectSchema({{QStringLiteral("session_id"), sessionId(QStringLiteral("The session to close."))}},
                              {QStringLiteral("session_id")}),
             .outputSchema = {},
             .annotations = QJsonObject{{QStringLiteral("title"), QStringLiteral("Close session")},
                                        {QStringLiteral("readOnlyHint"), false},
                                        {QStringLiteral("destructiveHint"), true},
                                        {QStringLiteral("idempotentHint"), true},
                                        {QStringLiteral("openWorldHint"), false}},
             .longRunning = true,
             .handler = {}},
        [](ExecutionEngine &engine, const ToolCall &call) {
            const QString id = call.arguments.value(QStringLiteral("session_id")).toString();
            const SessionHandle session = SessionHandle::resolve(id, call.owner);
            if (auto closed = engine.closeSession(session.id, session.owner); !closed) {
                return errorToolResult(closed.error().message);
            }
            return textToolResult(jsonText(QJsonObject{{QStringLiteral("closed"), id}}));
        });
}

Tool uploadFileTool(ExecutionEngine *engine, const QString &unavailable)
{
    QJsonObject encoding = property(QStringLiteral("string"),
                                    QStringLiteral("How `content` is encoded: text (UTF-8) or base64 (any bytes)."));
    encoding.insert(QStringLiteral("enum"), QJsonArray{QStringLiteral("text"), QStringLiteral("base64")});
    encoding.insert(QStringLiteral("default"), QStringLiteral("text"));
    return sessionTool(
        engine, unavailable,
        Tool{
            .name = QStringLiteral("upload_file"),
            .title = QStringLiteral("Upload file"),
            .description = QStringLiteral("Write a file into a session's working directory (/sandbox), where code "
                                          "run in the session can read it. At most %1 MiB per file.")
                               .arg(SandboxSettings().maxSessionFileBytes / (1024 * 1024)),
            .inputSchema = objectSchema(
                {{QStringLiteral("session_id"), sessionId(QStringLiteral("The session."))},
                 {QStringLiteral("path"), sessionPath()},
                 {QStringLiteral("content"), property(QStringLiteral("string"), QStringLiteral("The file's content."))},
                 {QStringLiteral("encoding"), encoding}},
                {QStringLiteral("session_id"), QStringLiteral("path"), QStringLiteral("content")}),
            .outputSchema = {},
            .annotations = changingAnnotations(QStringLiteral("Upload file")),
            .longRunning = true,
            .handler = {}},
        [](ExecutionEngine &engine, const ToolCall &call) {
            const QString content = call.arguments.value(QStringLiteral("content")).toString();
            QByteArray data;
            if (call.arguments.value(QStringLiteral("encoding")).toString() == QLatin1String("base64")) {
                auto decoded =
                    QByteArray::fromBase64Encoding(content.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
                if (!decoded) {
                    return errorToolResult(QStringLiteral("The content is not valid base64; send text with "
                                                          "encoding \"text\" or fix the encoding."));
                }
                data = *decoded;
            } else {
                data = content.toUtf8();
            }
            const QString file = call.arguments.value(QStringLiteral("path")).toString();
            const SessionHandle session =
                SessionHandle::resolve(call.arguments.value(QStringLiteral("session_id")).toString(), call.owner);
            auto written = engine.writeSessionFile(session.id, file, data, session.owner);
            if (!written) {
                return errorToolResult(written.error().message);
            }
            return textToolResult(
                jsonText(QJsonObject{{QStringLiteral("path"), file}, {QStringLiteral("size"), *written}}));
        });
}

Tool downloadFileTool(ExecutionEngine *engine, const QString &unavailable)
{
    return sessionTool(
        engine, unavailable,
        Tool{.name = QStringLiteral("download_file"),
             .title = QStringLiteral("Download file"),
             .description = QStringLiteral("Read a file from a session's working directory (/sandbox), e.g. one the "
                                           "code wrote. Returns JSON with the content as text when it is UTF-8, "
                                           "else as base64 (see encoding). At most %1 MiB.")
                                .arg(SandboxSettings().maxSessionFileBytes / (1024 * 1024)),
             .inputSchema = objectSchema({{QStringLiteral("session_id"), sessionId(QStringLiteral("The session."))},
                                          {QStringLiteral("path"), sessionPath()}},
                                         {QStringLiteral("session_id"), QStringLiteral("path")}),
             .outputSchema = {},
             .annotations = readOnlyAnnotations(QStringLiteral("Download file")),
             .longRunning = true,
             .handler = {}},
        [](ExecutionEngine &engine, const ToolCall &call) {
            const QString file = call.arguments.value(QStringLiteral("path")).toString();
            const SessionHandle session =
                SessionHandle::resolve(call.arguments.value(QStringLiteral("session_id")).toString(), call.owner);
            auto data = engine.readSessionFile(session.id, file, session.owner);
            if (!data) {
                return errorToolResult(data.error().message);
            }
            QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
            const QString text = utf8.decode(*data);
            const bool isText = !utf8.hasError() && !data->contains('\0');
            return textToolResult(jsonText(QJsonObject{
                {QStringLiteral("path"), file},
                {QStringLiteral("size"), qint64(data->size())},
                {QStringLiteral("encoding"), isText ? QStringLiteral("text") : QStringLiteral("base64")},
                {QStringLiteral("content"), isText ? text : QString::fromLatin1(data->toBase64())},
            }));
        });
}

QList<Tool> sessionTools(ExecutionEngine *engine, const QString &unavailable, qint64 defaultTimeout,
                         const NetworkAllowList &networkAllow)
{
    return {createSessionTool(engine, unavailable, defaultTimeout, networkAllow), listSessionsTool(engine, unavailable),
            closeSessionTool(engine, unavailable), uploadFileTool(engine, unavailable),
            downloadFileTool(engine, unavailable)};
}

/// The names of `folders` as a model reads them in a list: "sales, reports"; "none" for no folder.
QString folderNames(const QList<SharedFolder> &folders)
{
    QStringList names;
    for (const SharedFolder &folder : folders) {
        names << folder.name;
    }
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

/// save_to_folder, for the folders of `settings` that take results (there is at least one).
Tool saveToFolderTool(const SandboxSettings &settings)
{
    QList<SharedFolder> writable;
    for (const SharedFolder &folder : settings.sharedFolders) {
        if (folder.writable) {
            writable << folder;
        }
    }
    const ResultLimits limits;
    QJsonObject runId = sessionId(QStringLiteral("The run_id execute_code returned for the run that made the file."));
    QJsonObject artifact = property(QStringLiteral("string"),
                                    QStringLiteral("The file's name as the run's `artifacts` list names it (the {name} "
                                                   "of its sandbox://runs/{run_id}/artifacts/{name} link)."));
    artifact.insert(QStringLiteral("minLength"), 1);
    QJsonObject folder = property(QStringLiteral("string"),
                                  QStringLiteral("The shared folder to save into, by name (it is /data/NAME in "
                                                 "sandboxes): %1.")
                                      .arg(folderNames(writable)));
    // No enum of the names: a wrong one gets the handler's answer, which says which folders take results.
    folder.insert(QStringLiteral("minLength"), 1);
    QJsonObject properties{
        {QStringLiteral("run_id"), runId},
        {QStringLiteral("artifact"), artifact},
        {QStringLiteral("folder"), folder},
        {QStringLiteral("name"),
         property(
             QStringLiteral("string"),
             QStringLiteral("The file name to save it as, e.g. summary.csv: a plain name, no folders, not starting "
                            "with '.'. Default: the artifact's own file name."))},
    };
    QString description =
        QStringLiteral("Save a file one of your execute_code runs produced into a folder the user shared for results, "
                       "so the user has it on their computer. llm-sandbox writes it (up to %1 MiB per file, %2 files "
                       "per run) and answers where it landed, as /data/NAME/file. ")
            .arg(limits.maxFileBytes / (1024 * 1024))
            .arg(limits.maxFiles);
    description += QStringLiteral("Folders that take results: %1. ").arg(folderNames(writable));
    description += settings.shareOverwrite ? QStringLiteral("An existing file is kept unless you set overwrite.")
                                           : QStringLiteral("An existing file is never replaced: the result gets the "
                                                            "next free name, e.g. summary (2).csv.");
    if (settings.shareOverwrite) {
        QJsonObject overwrite = property(QStringLiteral("boolean"),
                                         QStringLiteral("Replace a file of the same name in the folder (the user "
                                                        "allowed it). Default: save under the next free name."));
        overwrite.insert(QStringLiteral("default"), false);
        properties.insert(QStringLiteral("overwrite"), overwrite);
    }
    return Tool{
        .name = QStringLiteral("save_to_folder"),
        .title = QStringLiteral("Save to folder"),
        .description = description,
        .inputSchema =
            objectSchema(properties, {QStringLiteral("run_id"), QStringLiteral("artifact"), QStringLiteral("folder")}),
        .outputSchema = {},
        .annotations = QJsonObject{{QStringLiteral("title"), QStringLiteral("Save to folder")},
                                   {QStringLiteral("readOnlyHint"), false},
                                   {QStringLiteral("destructiveHint"), settings.shareOverwrite},
                                   {QStringLiteral("idempotentHint"), false},
                                   {QStringLiteral("openWorldHint"), false}},
        .longRunning = true,
        .handler =
            [folders = settings.sharedFolders, writable, overwriteAllowed = settings.shareOverwrite,
             limits](const ToolCall &call) {
                const QString folderName = call.arguments.value(QStringLiteral("folder")).toString();
                const auto folder = std::find_if(folders.cbegin(), folders.cend(),
                                                 [&](const SharedFolder &shared) { return shared.name == folderName; });
                if (folder == folders.cend()) {
                    return errorToolResult(
                        QStringLiteral("No shared folder is named \"%1\"; results may be saved in: %2.")
                            .arg(folderName.left(64), folderNames(writable)));
                }
                if (!folder->writable) {
                    return errorToolResult(
                        QStringLiteral("The shared folder \"%1\" is read-only (%2); results may be saved in: %3.")
                            .arg(folder->name, folder->mountPath(), folderNames(writable)));
                }
                const bool overwrite = call.arguments.value(QStringLiteral("overwrite")).toBool();
                if (overwrite && !overwriteAllowed) {
                    return errorToolResult(QStringLiteral("The user has not allowed results to replace files; save "
                                                          "without overwrite, and the file gets the next free name."));
                }
                if (!call.journal) {
                    return errorToolResult(QStringLiteral("A run's files are saved from the run journal, and it is "
                                                          "turned off (LLM_SANDBOX_JOURNAL=off)."));
                }
                const QString runId = call.arguments.value(QStringLiteral("run_id")).toString();
                const QString artifactName = call.arguments.value(QStringLiteral("artifact")).toString();
                // Another client's run reads as missing, as its resources do.
                auto artifact = call.journal->storedArtifact(runId, artifactName, call.connection);
                if (!artifact) {
                    return errorToolResult(
                        artifact.error().code == ErrorCode::NotFound
                            ? QStringLiteral("Run %1 of this client has no file named \"%2\": give the run_id and "
                                             "one of the names in the artifacts execute_code returned.")
                                  .arg(runId.left(64), artifactName.left(200))
                            : artifact.error().message);
                }
                // The artifact may sit in a subfolder of the run's output directory (plots/a.png): it is saved as
                // a.png unless named.
                QString name = call.arguments.value(QStringLiteral("name")).toString();
                if (name.isEmpty()) {
                    name = artifactName.section(QLatin1Char('/'), -1);
                }
                // One save at a time: two calls for the same run would each count the other's file as not yet
                // saved.
                static std::mutex saving;
                const std::lock_guard lock(saving);
                auto earlier = call.journal->savedResults(runId);
                if (!earlier) {
                    return errorToolResult(earlier.error().message);
                }
                ResultWriter writer(limits);
                for (const SavedResult &saved : std::as_const(*earlier)) {
                    writer.countEarlier(1, saved.bytes);
                }
                auto saved = writer.save(*folder, name, artifact->data, overwrite);
                if (!saved) {
                    return errorToolResult(saved.error().message);
                }
                call.journal->recordSavedResult(runId, *saved);
                QJsonObject answer{{QStringLiteral("path"), saved->sandboxPath()},
                                   {QStringLiteral("size"), saved->bytes}};
                if (saved->fileName != name) {
                    answer.insert(QStringLiteral("note"),
                                  QStringLiteral("%1 was there already and was kept; the file was saved as %2.")
                                      .arg(name, saved->fileName));
                }
                return textToolResult(jsonText(answer));
            },
    };
}

Tool executeCode(const CodeExecutor &executor, qint64 defaultTimeout, const QList<SharedFolder> &folders,
                 const NetworkAllowList &networkAllow)
{
    QJsonObject code = property(QStringLiteral("string"), QStringLiteral("The complete program to run."));
    code.insert(QStringLiteral("minLength"), 1);
    QJsonObject language =
        property(QStringLiteral("string"),
                 QStringLiteral("Programming language: %1 (aliases such as py, js, node, c++, golang are accepted).")
                     .arg(languageList()));
    language.insert(QStringLiteral("default"), QStringLiteral("python"));
    QJsonObject libraries = property(
        QStringLiteral("array"),
        QStringLiteral("Packages to install before the code runs, with the language's package manager (pip, npm, "
                       "Maven coordinates, Go modules, R packages, gems)."));
    libraries.insert(QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    libraries.insert(QStringLiteral("default"), QJsonArray());
    QJsonObject timeout = property(QStringLiteral("integer"),
                                   QStringLiteral("Seconds the program may run; it is killed when they are up (in a "
                                                  "session: the session's timeout unless given)."));
    timeout.insert(QStringLiteral("default"), defaultTimeout);
    timeout.insert(QStringLiteral("minimum"), 1);
    timeout.insert(QStringLiteral("maximum"), 3600);

    QJsonObject properties{
        {QStringLiteral("code"), code},
        {QStringLiteral("language"), language},
        {QStringLiteral("libraries"), libraries},
        {QStringLiteral("timeout"), timeout},
        {QStringLiteral("session_id"),
         sessionId(QStringLiteral("Run in this session (from create_session): files, and for Python and R variables, "
                                  "persist from one call to the next. Language defaults to the session's."))}};
    if (auto network = networkProperty(networkAllow)) {
        properties.insert(QStringLiteral("network"), *network);
    }
    return Tool{
        .name = QStringLiteral("execute_code"),
        .title = QStringLiteral("Execute code"),
        .description =
            QStringLiteral(
                "Execute code in a secure, isolated container (no network by default, memory/CPU/time limits). "
                "Supported languages: %1. Returns JSON with exit_code, stdout, stderr, duration_ms, timed_out, "
                "stop_reason and resource_usage. Charts are captured automatically (matplotlib, seaborn, plotly, R "
                "graphics, ggplot2) and any image or HTML file the code writes to $LLM_SANDBOX_OUTPUT_DIR is returned; "
                "each image comes back as an image.%2")
                .arg(languageList(), SharedFolderTools::executeCodeSentence(folders)),
        .inputSchema = objectSchema(properties, {QStringLiteral("code")}),
        .outputSchema = CodeExecutor::outputSchema(),
        .annotations = QJsonObject{{QStringLiteral("title"), QStringLiteral("Execute code")},
                                   {QStringLiteral("readOnlyHint"), false},
                                   {QStringLiteral("destructiveHint"), false},
                                   {QStringLiteral("idempotentHint"), false}},
        .longRunning = true,
        .handler = [executor](const ToolCall &call) { return executor.execute(call); },
        .headerArguments = {kLanguageHeader},
        .uiMeta = RunViewResource::toolMeta(),
    };
}

Tool getSupportedLanguages()
{
    return Tool{
        .name = QStringLiteral("get_supported_languages"),
        .title = QStringLiteral("Supported languages"),
        .description = QStringLiteral("List the programming languages execute_code supports, as a JSON array of "
                                      "names."),
        .inputSchema = objectSchema({}),
        .outputSchema = {},
        .annotations = readOnlyAnnotations(QStringLiteral("Supported languages")),
        .longRunning = false,
        .handler =
            [](const ToolCall &) {
                return textToolResult(
                    compactJson(QJsonDocument(QJsonArray::fromStringList(LanguageRegistry::instance().names()))));
            },
    };
}

Tool getLanguageDetails(ExecutionEngine *engine)
{
    return Tool{
        .name = QStringLiteral("get_language_details"),
        .title = QStringLiteral("Language details"),
        .description = QStringLiteral("Details of one language as JSON: version command, package manager, "
                                      "preinstalled libraries, visualization support and examples."),
        .inputSchema = objectSchema(
            {{QStringLiteral("language"),
              property(
                  QStringLiteral("string"),
                  QStringLiteral("Language name or alias, e.g. python, js, cpp. Supported: %1.").arg(languageList()))}},
            {QStringLiteral("language")}),
        .outputSchema = {},
        .annotations = readOnlyAnnotations(QStringLiteral("Language details")),
        .longRunning = false,
        .handler =
            [engine](const ToolCall &call) {
                const Result<Language> language =
                    LanguageRegistry::instance().find(call.arguments.value(QStringLiteral("language")).toString());
                if (!language) {
                    // The Python server's answer (llm_sandbox/mcp_server/server.py), with the choices added.
                    QString name = call.arguments.value(QStringLiteral("language")).toString();
                    if (name.size() > 40) {
                        name = name.left(40) + QStringLiteral("...");
                    }
                    return errorToolResult(compactJson(QJsonDocument(QJsonObject{
                        {QStringLiteral("error"), QStringLiteral("Unsupported language: %1. Supported languages: %2.")
                                                      .arg(name, languageList())}})));
                }
                return textToolResult(compactJson(QJsonDocument(LanguageDetails::toJson(*language, engine))));
            },
        .headerArguments = {kLanguageHeader},
    };
}

} // namespace

ToolRegistry SandboxTools::tools(const CodeExecutor &executor, ExecutionEngine *engine)
{
    return tools(executor, engine, engine ? engine->settings() : SandboxSettings{});
}

ToolRegistry SandboxTools::tools(const CodeExecutor &executor, ExecutionEngine *engine, const SandboxSettings &settings)
{
    // The timeout a call gets when it names none: the user's setting (LLM_SANDBOX_DEFAULT_TIMEOUT, the app's
    // settings), advertised as the schema's default so an assistant knows it.
    const qint64 defaultTimeout = settings.defaultTimeout.count();
    const QList<SharedFolder> &folders = settings.sharedFolders;
    QList<Tool> tools{executeCode(executor, defaultTimeout, folders, settings.networkAllow), getSupportedLanguages(),
                      getLanguageDetails(engine)};
    // Sessions fail for the reason runs do (invalid settings, a backend that cannot be made), when there is one.
    tools << sessionTools(engine,
                          engine || !executor.unavailableReason() ? kNoBackend : executor.unavailableReason()->message,
                          defaultTimeout, settings.networkAllow);
    // Only where the user shared folders: a server that shares nothing lists the tools it always did.
    if (!folders.isEmpty()) {
        tools << SharedFolderTools::listTool(folders);
    }
    // Only offered when the user shared a folder for results: nothing is shared by default, and a tool that can only
    // answer "no folder" would cost every conversation its description.
    if (std::any_of(folders.cbegin(), folders.cend(), [](const SharedFolder &folder) { return folder.writable; })) {
        tools << saveToFolderTool(settings);
    }
    return ToolRegistry(tools);
}

QList<Resource> SandboxTools::resources(ExecutionEngine *engine)
{
    QList<Resource> resources{
        Resource{
            .uri = QStringLiteral("sandbox://languages"),
            .name = QStringLiteral("languages"),
            .title = QStringLiteral("Supported languages"),
            .description = QStringLiteral("Details of every supported language (version command, package manager, "
                                          "preinstalled libraries, visualization support, examples), keyed by name."),
            .mimeType = QStringLiteral("application/json"),
            .read =
                [engine] {
                    return QString::fromUtf8(
                        QJsonDocument(LanguageDetails::all(engine)).toJson(QJsonDocument::Indented));
                },
        },
        RunViewResource::resource()};
    return resources + SkillResources::resources(engine);
}

namespace {

/// The two variables of a URI `prefix` + {first} + `middle` + {second}, each percent-decoded; nothing when the
/// URI is not of that shape.
std::optional<std::pair<QString, QString>> templateVariables(const QString &uri, const QString &prefix,
                                                             const QString &middle)
{
    if (!uri.startsWith(prefix)) {
        return std::nullopt;
    }
    const QString rest = uri.mid(prefix.size());
    const qsizetype split = rest.indexOf(middle);
    if (split <= 0 || split + middle.size() >= rest.size()) {
        return std::nullopt;
    }
    return std::pair{QUrl::fromPercentEncoding(rest.left(split).toUtf8()),
                     QUrl::fromPercentEncoding(rest.mid(split + middle.size()).toUtf8())};
}

Error notFound(const QString &uri)
{
    return Error{QStringLiteral("Resource not found: %1").arg(uri.left(200)), ErrorCode::NotFound};
}

} // namespace

QList<ResourceTemplate> SandboxTools::resourceTemplates(ExecutionEngine *engine)
{
    const QString runs = QStringLiteral("sandbox://runs/");
    const QString sessions = QStringLiteral("sandbox://sessions/");
    return {
        ResourceTemplate{
            .uriTemplate = runs + QStringLiteral("{run_id}/artifacts/{name}"),
            .name = QStringLiteral("run-artifact"),
            .title = QStringLiteral("A file a run produced"),
            .description = QStringLiteral("A chart, page or data file that one of this client's execute_code calls "
                                          "produced, as the run journal keeps it (execute_code links to it)."),
            .prefix = runs,
            .read = [runs](const QString &uri, const ResourceReader &reader) -> Result<ResourceContents> {
                const auto parts = templateVariables(uri, runs, QStringLiteral("/artifacts/"));
                if (!parts || !reader.journal) {
                    return notFound(uri);
                }
                // Another client's run reads as missing: whether it exists is not this client's to learn.
                auto artifact = reader.journal->storedArtifact(parts->first, parts->second, reader.connection);
                if (!artifact) {
                    return artifact.error().code == ErrorCode::NotFound ? notFound(uri) : artifact.error();
                }
                return ResourceContents{artifact->mimeType, artifact->data};
            },
        },
        ResourceTemplate{
            .uriTemplate = sessions + QStringLiteral("{session_id}/files/{path}"),
            .name = QStringLiteral("session-file"),
            .title = QStringLiteral("A file in a session"),
            .description = QStringLiteral("A file in the working directory of one of this client's sessions "
                                          "(create_session), as it is now; subscribe to hear when runs change it."),
            .prefix = sessions,
            .read = [engine, sessions](const QString &uri, const ResourceReader &reader) -> Result<ResourceContents> {
                const auto parts = templateVariables(uri, sessions, QStringLiteral("/files/"));
                if (!parts || !engine) {
                    return notFound(uri);
                }
                const SessionHandle session = SessionHandle::resolve(parts->first, reader.owner);
                auto data = engine->readSessionFile(session.id, parts->second, session.owner);
                if (!data) {
                    return data.error();
                }
                return ResourceContents{mimeTypeForContent(parts->second, *data), *data};
            },
            // A run or an upload in the session may change any of its files.
            .changedBy =
                [sessions](const QString &uri, const QJsonObject &arguments) {
                    const QString session = arguments.value(QStringLiteral("session_id")).toString();
                    const auto parts = templateVariables(uri, sessions, QStringLiteral("/files/"));
                    return !session.isEmpty() && parts && parts->first == session;
                },
        },
    };
}

} // namespace sandbox::mcp
