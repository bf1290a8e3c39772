// A run's files as MCP resources: resource_link items in execute_code's result, resources/read from the journal,
// only for the client whose call made the run. A stand-in RunFunction plays the engine, a map the journal.
#include "journal/ExchangeSink.h"
#include "mcp/McpTestSupport.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QJsonArray>
#include <QMap>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

const QByteArray kLargeImage(CodeExecutor::kMaxInlineImageBytes + 1, 'p');

RunResult resultWithFiles(const QString &runId)
{
    RunResult result;
    result.runId = runId;
    result.exitCode = 0;
    result.artifacts = {artifact(QStringLiteral("small.png"), QStringLiteral("image/png"), "tiny"),
                        artifact(QStringLiteral("big.png"), QStringLiteral("image/png"), kLargeImage),
                        artifact(QStringLiteral("data/table.csv"), QStringLiteral("text/csv"), "a,b\n1,2\n"),
                        artifact(QStringLiteral("page.html"), QStringLiteral("text/html"), "<p>hi</p>")};
    return result;
}

/// The journal's side: keeps each run's files as the recorder would.
class MemoryJournal final : public ExchangeSink
{
public:
    void recordExchange(const QString &, const QJsonObject &, const QJsonObject &, const QString &) override {}
    Result<Artifact> storedArtifact(const QString &runId, const QString &name, const QString &connection) override
    {
        const std::lock_guard lock(mutex);
        if (connection.isEmpty() || connections.value(runId) != connection) {
            return Error{QStringLiteral("another connection's run"), ErrorCode::NotFound};
        }
        for (const Artifact &file : runs.value(runId)) {
            if (file.name == name) {
                return file;
            }
        }
        return Error{QStringLiteral("no such artifact"), ErrorCode::NotFound};
    }
    void recordSavedResult(const QString &, const SavedResult &) override {}
    Result<QList<SavedResult>> savedResults(const QString &) override { return QList<SavedResult>(); }

    std::mutex mutex;
    QMap<QString, QList<Artifact>> runs;
    QMap<QString, QString> connections; ///< each run's RunRequest::connection
};

/// A client of a server whose runs all produce resultWithFiles(), journaled in `journal`.
struct Client
{
    Client(MemoryJournal &journal, const QString &protocolVersion = QStringLiteral("2025-11-25"))
        : dispatcher(SandboxTools::tools(CodeExecutor([&journal, this](const RunRequest &request, std::stop_token,
                                                                       RunObserver *observer) -> Result<RunResult> {
                         const QString runId = QStringLiteral("run-%1").arg(++counter);
                         observer->runStarted(runId, request);
                         RunResult result = resultWithFiles(runId);
                         const std::lock_guard lock(journal.mutex);
                         journal.runs.insert(runId, result.artifacts);
                         journal.connections.insert(runId, request.connection);
                         return result;
                     })),
                     SandboxTools::resources(), sink.sink(), options(journal))
    {
        initializeSession(dispatcher, protocolVersion);
    }
    static DispatcherOptions options(MemoryJournal &journal)
    {
        DispatcherOptions options;
        options.exchangeSink = &journal;
        options.resourceTemplates = SandboxTools::resourceTemplates();
        return options;
    }
    QJsonArray run()
    {
        return replyTo(dispatcher, toolCall(1, QStringLiteral("execute_code"),
                                            QJsonObject{{QStringLiteral("code"), QStringLiteral("plot()")}}))
            .object()
            .value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("content"))
            .toArray();
    }
    QJsonObject read(const QString &uri)
    {
        return replyTo(dispatcher,
                       request(2, QStringLiteral("resources/read"), QJsonObject{{QStringLiteral("uri"), uri}}))
            .object();
    }

    std::atomic<int> counter = 0;
    SinkRecorder sink;
    McpDispatcher dispatcher;
};

} // namespace

TEST(ArtifactResourceTest, linksReplaceLargeImagesAndFilesThatAreNotImages)
{
    const QJsonArray content =
        CodeExecutor::toToolResult(RunRequest{}, resultWithFiles(QStringLiteral("run-7")), true, true)
            .value(QStringLiteral("content"))
            .toArray();
    ASSERT_EQ(content.size(), 5);
    EXPECT_EQ(content[1].toObject().value(QStringLiteral("type")).toString(), QStringLiteral("image"));
    const QJsonObject big = content[2].toObject();
    EXPECT_EQ(big.value(QStringLiteral("type")).toString(), QStringLiteral("resource_link"));
    EXPECT_EQ(big.value(QStringLiteral("uri")).toString(), QStringLiteral("sandbox://runs/run-7/artifacts/big.png"));
    EXPECT_EQ(big.value(QStringLiteral("mimeType")).toString(), QStringLiteral("image/png"));
    EXPECT_EQ(big.value(QStringLiteral("size")).toInteger(), kLargeImage.size());
    EXPECT_EQ(big.value(QStringLiteral("name")).toString(), QStringLiteral("big.png"));
    // A '/' in a name is escaped: the template's {name} is one variable.
    EXPECT_EQ(content[3].toObject().value(QStringLiteral("uri")).toString(),
              QStringLiteral("sandbox://runs/run-7/artifacts/data%2Ftable.csv"));
    EXPECT_EQ(content[4].toObject().value(QStringLiteral("type")).toString(), QStringLiteral("resource_link"));
}

TEST(ArtifactResourceTest, withoutLinksTheResultIsAsBefore)
{
    const QJsonArray content = CodeExecutor::toToolResult(RunRequest{}, resultWithFiles(QStringLiteral("run-7")), true)
                                   .value(QStringLiteral("content"))
                                   .toArray();
    // Both images inline, the page embedded, the CSV only in the JSON's artifact list.
    ASSERT_EQ(content.size(), 4);
    EXPECT_EQ(content[1].toObject().value(QStringLiteral("type")).toString(), QStringLiteral("image"));
    EXPECT_EQ(content[2].toObject().value(QStringLiteral("data")).toString(),
              QString::fromLatin1(kLargeImage.toBase64()));
    EXPECT_EQ(content[3].toObject().value(QStringLiteral("type")).toString(), QStringLiteral("resource"));
}

TEST(ArtifactResourceTest, clientReadsItsRunsFilesFromTheJournal)
{
    MemoryJournal journal;
    Client client(journal);
    const QJsonArray content = client.run();
    QString csv;
    QString png;
    for (const QJsonValue &item : content) {
        const QString uri = item.toObject().value(QStringLiteral("uri")).toString();
        if (uri.endsWith(QLatin1String(".csv"))) {
            csv = uri;
        } else if (uri.endsWith(QLatin1String("big.png"))) {
            png = uri;
        }
    }
    ASSERT_FALSE(csv.isEmpty());
    ASSERT_FALSE(png.isEmpty());

    const QJsonObject text = client.read(csv)
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("contents"))
                                 .toArray()[0]
                                 .toObject();
    EXPECT_EQ(text.value(QStringLiteral("uri")).toString(), csv);
    EXPECT_EQ(text.value(QStringLiteral("mimeType")).toString(), QStringLiteral("text/csv"));
    EXPECT_EQ(text.value(QStringLiteral("text")).toString(), QStringLiteral("a,b\n1,2\n"));
    const QJsonObject blob = client.read(png)
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("contents"))
                                 .toArray()[0]
                                 .toObject();
    EXPECT_EQ(QByteArray::fromBase64(blob.value(QStringLiteral("blob")).toString().toLatin1()), kLargeImage);

    // A name the run does not have, and a URI of no template.
    EXPECT_EQ(client.read(QStringLiteral("sandbox://runs/run-1/artifacts/other.png"))
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::ResourceNotFound);
    EXPECT_EQ(client.read(QStringLiteral("sandbox://runs/run-1"))
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::ResourceNotFound);
}

TEST(ArtifactResourceTest, anotherClientCannotReadTheRunsFiles)
{
    MemoryJournal journal;
    Client maker(journal);
    const QString uri = maker.run()[2].toObject().value(QStringLiteral("uri")).toString();
    ASSERT_TRUE(maker.read(uri).contains(QStringLiteral("result")));
    Client other(journal);
    const QJsonObject refused = other.read(uri);
    EXPECT_EQ(refused.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::ResourceNotFound);
}

TEST(ArtifactResourceTest, clientsBefore20250618AndServersWithoutJournalGetFilesInline)
{
    MemoryJournal journal;
    Client older(journal, QStringLiteral("2025-03-26"));
    for (const QJsonValue &item : older.run()) {
        EXPECT_NE(item.toObject().value(QStringLiteral("type")).toString(), QStringLiteral("resource_link"));
    }
    McpDispatcher noJournal(
        SandboxTools::tools(CodeExecutor([](const RunRequest &, std::stop_token, RunObserver *) -> Result<RunResult> {
            return resultWithFiles(QStringLiteral("run-1"));
        })),
        {}, {});
    initializeSession(noJournal);
    const QJsonObject result = replyTo(noJournal, toolCall(1, QStringLiteral("execute_code"),
                                                           QJsonObject{{QStringLiteral("code"), QStringLiteral("x")}}))
                                   .object();
    EXPECT_FALSE(QJsonDocument(result).toJson().contains("resource_link"));
}

TEST(ArtifactResourceTest, templatesAreListedAndSubscriptionsAccepted)
{
    MemoryJournal journal;
    Client client(journal);
    const QJsonArray templates = replyTo(client.dispatcher, request(1, QStringLiteral("resources/templates/list")))
                                     .object()
                                     .value(QStringLiteral("result"))
                                     .toObject()
                                     .value(QStringLiteral("resourceTemplates"))
                                     .toArray();
    QStringList uris;
    for (const QJsonValue &entry : templates) {
        uris << entry.toObject().value(QStringLiteral("uriTemplate")).toString();
    }
    EXPECT_EQ(uris, (QStringList{QStringLiteral("sandbox://runs/{run_id}/artifacts/{name}"),
                                 QStringLiteral("sandbox://sessions/{session_id}/files/{path}")}));

    const QJsonObject capabilities = replyTo(client.dispatcher, initializeRequest(9, QStringLiteral("2025-11-25")))
                                         .object()
                                         .value(QStringLiteral("result"))
                                         .toObject()
                                         .value(QStringLiteral("capabilities"))
                                         .toObject();
    EXPECT_TRUE(capabilities.value(QStringLiteral("resources")).toObject().value(QStringLiteral("subscribe")).toBool());

    const auto subscribe = [&](const QString &method, const QString &uri) {
        return replyTo(client.dispatcher, request(2, method, QJsonObject{{QStringLiteral("uri"), uri}})).object();
    };
    // A file that does not exist yet may be watched: its creation is a change.
    EXPECT_TRUE(subscribe(QStringLiteral("resources/subscribe"), QStringLiteral("sandbox://sessions/s1/files/out.csv"))
                    .contains(QStringLiteral("result")));
    EXPECT_TRUE(subscribe(QStringLiteral("resources/subscribe"), QStringLiteral("sandbox://languages"))
                    .contains(QStringLiteral("result")));
    EXPECT_EQ(subscribe(QStringLiteral("resources/subscribe"), QStringLiteral("file:///etc/passwd"))
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::ResourceNotFound);
    EXPECT_TRUE(
        subscribe(QStringLiteral("resources/unsubscribe"), QStringLiteral("sandbox://sessions/s1/files/out.csv"))
            .contains(QStringLiteral("result")));
}
