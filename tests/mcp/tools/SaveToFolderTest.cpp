// Issue 47: save_to_folder puts a file one of the client's runs produced into a folder the user shared for results,
// written by llm-sandbox (ResultWriter) and kept in the journal. A stand-in RunFunction plays the engine, a map the
// journal; the folders are real.
#include "journal/ExchangeSink.h"
#include "mcp/McpTestSupport.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"
#include "settings/SandboxSettings.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QMap>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <mutex>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

/// The journal's side: each run's files and what was saved for it, as the recorder keeps them.
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
    void recordSavedResult(const QString &runId, const SavedResult &result) override
    {
        const std::lock_guard lock(mutex);
        saved[runId].append(result);
    }
    Result<QList<SavedResult>> savedResults(const QString &runId) override
    {
        const std::lock_guard lock(mutex);
        return saved.value(runId);
    }

    std::mutex mutex;
    QMap<QString, QList<Artifact>> runs;
    QMap<QString, QString> connections; ///< each run's RunRequest::connection
    QMap<QString, QList<SavedResult>> saved;
};

/// A client of a server whose runs each produce a table and a chart, with `settings`' shared folders.
struct Client
{
    Client(MemoryJournal &journal, const SandboxSettings &settings)
        : dispatcher(SandboxTools::tools(CodeExecutor([&journal](const RunRequest &request, const std::stop_token &,
                                                                 RunObserver *observer) -> Result<RunResult> {
                                             static std::atomic<int> counter = 0;
                                             const QString runId = QStringLiteral("run-%1").arg(++counter);
                                             observer->runStarted(runId, request);
                                             RunResult result;
                                             result.runId = runId;
                                             result.exitCode = 0;
                                             result.artifacts = {artifact(QStringLiteral("data/table.csv"),
                                                                          QStringLiteral("text/csv"), "a,b\n1,2\n"),
                                                                 artifact(QStringLiteral("chart.png"),
                                                                          QStringLiteral("image/png"), "png")};
                                             const std::lock_guard lock(journal.mutex);
                                             journal.runs.insert(runId, result.artifacts);
                                             journal.connections.insert(runId, request.connection);
                                             return result;
                                         }),
                                         nullptr, settings),
                     SandboxTools::resources(), sink.sink(), options(journal))
    {
        initializeSession(dispatcher);
    }
    static DispatcherOptions options(MemoryJournal &journal)
    {
        DispatcherOptions options;
        options.exchangeSink = &journal;
        return options;
    }
    /// Runs code; the run's id.
    QString run()
    {
        const QJsonObject result =
            replyTo(dispatcher, toolCall(1, QStringLiteral("execute_code"),
                                         QJsonObject{{QStringLiteral("code"), QStringLiteral("x")}}))
                .object()
                .value(QStringLiteral("result"))
                .toObject();
        return result.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("run_id")).toString();
    }
    /// save_to_folder's result.
    QJsonObject save(const QJsonObject &arguments)
    {
        return replyTo(dispatcher, toolCall(2, QStringLiteral("save_to_folder"), arguments))
            .object()
            .value(QStringLiteral("result"))
            .toObject();
    }
    QJsonObject tool(const QString &name)
    {
        const QJsonArray tools = replyTo(dispatcher, request(3, QStringLiteral("tools/list")))
                                     .object()
                                     .value(QStringLiteral("result"))
                                     .toObject()
                                     .value(QStringLiteral("tools"))
                                     .toArray();
        for (const QJsonValue &tool : tools) {
            if (tool.toObject().value(QStringLiteral("name")).toString() == name) {
                return tool.toObject();
            }
        }
        return {};
    }

    SinkRecorder sink;
    McpDispatcher dispatcher;
};

QString text(const QJsonObject &result)
{
    return result.value(QStringLiteral("content")).toArray()[0].toObject().value(QStringLiteral("text")).toString();
}

bool isError(const QJsonObject &result)
{
    return result.value(QStringLiteral("isError")).toBool();
}

class SaveToFolderTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_root = QDir(m_dir.path()).canonicalPath();
        ASSERT_TRUE(QDir(m_root).mkpath(QStringLiteral("Sales 2026")));
        ASSERT_TRUE(QDir(m_root).mkpath(QStringLiteral("Reference")));
        m_settings.sharedFolders = {
            SharedFolder{m_root + QStringLiteral("/Sales 2026"), QStringLiteral("sales"), true},
            SharedFolder{m_root + QStringLiteral("/Reference"), QStringLiteral("reference"), false},
        };
    }

    QByteArray read(const QString &name) const
    {
        QFile file(m_root + QStringLiteral("/Sales 2026/") + name);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }

    static QJsonObject arguments(const QString &runId, const QString &artifact, const QString &folder,
                                 const QString &name = {})
    {
        QJsonObject arguments{{QStringLiteral("run_id"), runId},
                              {QStringLiteral("artifact"), artifact},
                              {QStringLiteral("folder"), folder}};
        if (!name.isEmpty()) {
            arguments.insert(QStringLiteral("name"), name);
        }
        return arguments;
    }

    QTemporaryDir m_dir;
    QString m_root;
    SandboxSettings m_settings;
    MemoryJournal m_journal;
};

} // namespace

TEST_F(SaveToFolderTest, savesARunsFileAndSaysWhereItLandedAsTheSandboxSeesIt)
{
    Client client(m_journal, m_settings);
    const QString runId = client.run();
    ASSERT_FALSE(runId.isEmpty());

    const QJsonObject result = client.save(arguments(runId, QStringLiteral("data/table.csv"), QStringLiteral("sales")));
    ASSERT_FALSE(isError(result)) << qPrintable(text(result));
    const QJsonObject answer = QJsonDocument::fromJson(text(result).toUtf8()).object();
    EXPECT_EQ(answer.value(QStringLiteral("path")).toString(), QStringLiteral("/data/sales/table.csv"));
    EXPECT_EQ(answer.value(QStringLiteral("size")).toInteger(), 8);
    // Never the host's path (nor the user's name in it).
    EXPECT_FALSE(text(result).contains(m_root)) << qPrintable(text(result));
    EXPECT_EQ(read(QStringLiteral("table.csv")), QByteArray("a,b\n1,2\n"));

    const QList<SavedResult> saved = m_journal.saved.value(runId);
    ASSERT_EQ(saved.size(), 1);
    EXPECT_EQ(saved[0].folderName, QStringLiteral("sales"));
    EXPECT_EQ(saved[0].fileName, QStringLiteral("table.csv"));
    EXPECT_EQ(saved[0].hostPath(), m_root + QStringLiteral("/Sales 2026/table.csv"));
    EXPECT_EQ(saved[0].bytes, 8);
    EXPECT_EQ(saved[0].sha256.size(), 64);
}

TEST_F(SaveToFolderTest, anExistingFileIsKeptAndTheResultSavedUnderTheNextFreeName)
{
    Client client(m_journal, m_settings);
    const QString runId = client.run();
    ASSERT_FALSE(isError(
        client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales"), QStringLiteral("q1.png")))));
    const QJsonObject again =
        client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales"), QStringLiteral("q1.png")));
    ASSERT_FALSE(isError(again)) << qPrintable(text(again));
    const QJsonObject answer = QJsonDocument::fromJson(text(again).toUtf8()).object();
    EXPECT_EQ(answer.value(QStringLiteral("path")).toString(), QStringLiteral("/data/sales/q1 (2).png"));
    EXPECT_EQ(answer.value(QStringLiteral("note")).toString(),
              QStringLiteral("q1.png was there already and was kept; the file was saved as q1 (2).png."));

    // Overwriting is not offered, and asked for anyway it is refused.
    EXPECT_FALSE(client.tool(QStringLiteral("save_to_folder"))
                     .value(QStringLiteral("inputSchema"))
                     .toObject()
                     .value(QStringLiteral("properties"))
                     .toObject()
                     .contains(QStringLiteral("overwrite")));
    QJsonObject overwrite =
        arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales"), QStringLiteral("q1.png"));
    overwrite.insert(QStringLiteral("overwrite"), true);
    const QJsonObject refused = client.save(overwrite);
    EXPECT_TRUE(isError(refused));
    EXPECT_EQ(text(refused), QStringLiteral("The user has not allowed results to replace files; save without "
                                            "overwrite, and the file gets the next free name."));
    EXPECT_EQ(QDir(m_root + QStringLiteral("/Sales 2026")).entryList(QDir::Files | QDir::Hidden).size(), 2);
}

TEST_F(SaveToFolderTest, overwriteReplacesAFileWhenTheUserAllowsIt)
{
    m_settings.shareOverwrite = true;
    Client client(m_journal, m_settings);
    const QJsonObject tool = client.tool(QStringLiteral("save_to_folder"));
    EXPECT_TRUE(tool.value(QStringLiteral("inputSchema"))
                    .toObject()
                    .value(QStringLiteral("properties"))
                    .toObject()
                    .contains(QStringLiteral("overwrite")));
    EXPECT_TRUE(tool.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("destructiveHint")).toBool());

    QFile existing(m_root + QStringLiteral("/Sales 2026/table.csv"));
    ASSERT_TRUE(existing.open(QIODevice::WriteOnly));
    existing.write("old");
    existing.close();
    const QString runId = client.run();
    QJsonObject overwrite = arguments(runId, QStringLiteral("data/table.csv"), QStringLiteral("sales"));
    overwrite.insert(QStringLiteral("overwrite"), true);
    const QJsonObject result = client.save(overwrite);
    ASSERT_FALSE(isError(result)) << qPrintable(text(result));
    EXPECT_EQ(QJsonDocument::fromJson(text(result).toUtf8()).object().value(QStringLiteral("path")).toString(),
              QStringLiteral("/data/sales/table.csv"));
    EXPECT_EQ(read(QStringLiteral("table.csv")), QByteArray("a,b\n1,2\n"));
}

TEST_F(SaveToFolderTest, refusalsSayWhatWasRefusedAndWhatToDoInstead)
{
    Client client(m_journal, m_settings);
    const QString runId = client.run();

    const QJsonObject unknown = client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("desktop")));
    EXPECT_TRUE(isError(unknown));
    EXPECT_EQ(text(unknown), QStringLiteral("No shared folder is named \"desktop\"; results may be saved in: sales."));

    const QJsonObject readOnly =
        client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("reference")));
    EXPECT_TRUE(isError(readOnly));
    EXPECT_EQ(text(readOnly), QStringLiteral("The shared folder \"reference\" is read-only (/data/reference); results "
                                             "may be saved in: sales."));

    const QJsonObject missing = client.save(arguments(runId, QStringLiteral("other.png"), QStringLiteral("sales")));
    EXPECT_TRUE(isError(missing));
    EXPECT_EQ(text(missing),
              QStringLiteral("Run %1 of this client has no file named \"other.png\": give the run_id and "
                             "one of the names in the artifacts execute_code returned.")
                  .arg(runId));

    for (const QString &name : {QStringLiteral(".bashrc"), QStringLiteral("../x.csv"), QStringLiteral("a/b.csv"),
                                QStringLiteral("two\nlines.csv")}) {
        const QJsonObject refused =
            client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales"), name));
        EXPECT_TRUE(isError(refused)) << qPrintable(name);
        EXPECT_TRUE(text(refused).startsWith(QLatin1String("The file name \""))) << qPrintable(text(refused));
    }
    EXPECT_TRUE(QDir(m_root + QStringLiteral("/Sales 2026")).isEmpty());
    EXPECT_TRUE(QDir(m_root + QStringLiteral("/Reference")).isEmpty());
    EXPECT_FALSE(QFile::exists(m_root + QStringLiteral("/x.csv")));
    EXPECT_TRUE(m_journal.saved.isEmpty());
}

TEST_F(SaveToFolderTest, anotherClientCannotSaveTheRunsFiles)
{
    Client maker(m_journal, m_settings);
    const QString runId = maker.run();
    Client other(m_journal, m_settings);
    const QJsonObject refused = other.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales")));
    EXPECT_TRUE(isError(refused));
    EXPECT_TRUE(text(refused).contains(QLatin1String("of this client has no file named"))) << qPrintable(text(refused));
    EXPECT_TRUE(QDir(m_root + QStringLiteral("/Sales 2026")).isEmpty());
}

TEST_F(SaveToFolderTest, aRunSavesAtMostAHundredFiles)
{
    Client client(m_journal, m_settings);
    const QString runId = client.run();
    for (int i = 0; i < 100; ++i) {
        const QJsonObject saved = client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales")));
        ASSERT_FALSE(isError(saved)) << i << qPrintable(text(saved));
    }
    const QJsonObject refused = client.save(arguments(runId, QStringLiteral("chart.png"), QStringLiteral("sales")));
    EXPECT_TRUE(isError(refused));
    EXPECT_EQ(text(refused), QStringLiteral("\"chart.png\" was not saved: this run has saved 100 files, the limit of "
                                            "files saved per run."));
    // Another run has a limit of its own.
    const QString second = client.run();
    EXPECT_FALSE(isError(client.save(arguments(second, QStringLiteral("chart.png"), QStringLiteral("sales")))));
}

TEST_F(SaveToFolderTest, offeredOnlyWhenAFolderTakesResultsAndNamingOnlyThose)
{
    SandboxSettings readOnly = m_settings;
    readOnly.sharedFolders.removeFirst();
    Client without(m_journal, readOnly);
    EXPECT_TRUE(without.tool(QStringLiteral("save_to_folder")).isEmpty());
    EXPECT_FALSE(without.tool(QStringLiteral("execute_code")).isEmpty());

    Client with(m_journal, m_settings);
    const QJsonObject tool = with.tool(QStringLiteral("save_to_folder"));
    ASSERT_FALSE(tool.isEmpty());
    const QString description = tool.value(QStringLiteral("description")).toString();
    EXPECT_TRUE(description.contains(QLatin1String("Folders that take results: sales."))) << qPrintable(description);
    EXPECT_FALSE(description.contains(QLatin1String("reference")));
    EXPECT_FALSE(QJsonDocument(tool).toJson().contains(m_root.toUtf8()));
    EXPECT_EQ(tool.value(QStringLiteral("inputSchema")).toObject().value(QStringLiteral("required")).toArray(),
              (QJsonArray{QStringLiteral("run_id"), QStringLiteral("artifact"), QStringLiteral("folder")}));
}
