// A run's network (issue 48) where runs are shown: its Network tab and Details row (RunView), the globe that marks it
// in the live log and History, and Compare, over a journal written in the test.
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/history/DiffView.h"
#include "gui/history/HistoryModel.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/widgets/NetworkConnectionModel.h"
#include "gui/widgets/NetworkView.h"
#include "gui/widgets/RunTableModel.h"
#include "gui/widgets/RunView.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalReader.h"
#include "journal/JournalRecorder.h"
#include "journal/RunDiff.h"
#include "journal/RunJournal.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFormLayout>
#include <QGuiApplication>
#include <QIcon>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTranslator>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

class RunNetworkTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("journal.sqlite"));
        auto journal = RunJournal::open(m_path);
        ASSERT_TRUE(journal) << qPrintable(journal.error().message);
        // English's plural forms ("1 connection", "3 connections") come from its translation, as in the app.
        ASSERT_TRUE(m_english.load(QStringLiteral(":/i18n/llm-sandbox_en.qm")));
        QCoreApplication::installTranslator(&m_english);
    }
    void TearDown() override { QCoreApplication::removeTranslator(&m_english); }

    /// Records run `id`; with `network`, one allowed to reach api.test over HTTPS that fetched from it twice (the
    /// second time with the user's secret API_TOKEN added by the proxy) and was refused other.test.
    void record(const QString &id, bool network, JournalRecorder *live = nullptr)
    {
        JournalRecorder own(m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
        JournalRecorder &recorder = live ? *live : own;
        RunRequest request;
        request.language = QStringLiteral("python");
        request.code = QStringLiteral("import urllib.request");
        request.source = RunSource::Mcp;
        recorder.runStarted(id, request);
        RunResult result;
        result.runId = id;
        result.exitCode = 0;
        result.durationMs = 900;
        if (network) {
            result.networkGranted = NetworkAllowList({NetworkHost{QStringLiteral("api.test"), {443}}});
            result.network = {
                NetworkConnection{.startedMs = 1000,
                                  .method = "CONNECT",
                                  .host = "api.test",
                                  .port = 443,
                                  .allowed = true,
                                  .address = "203.0.113.10",
                                  .status = 200,
                                  .bytesOut = 1536,
                                  .bytesIn = 3 * 1024 * 1024,
                                  .durationMs = 250},
                NetworkConnection{.startedMs = 1300,
                                  .method = "GET",
                                  .host = "other.test",
                                  .port = 80,
                                  .allowed = false,
                                  .reason = "not an allowed host",
                                  .status = 403},
                NetworkConnection{.startedMs = 1500,
                                  .method = "CONNECT",
                                  .host = "api.test",
                                  .port = 443,
                                  .allowed = true,
                                  .address = "203.0.113.10",
                                  .status = 200,
                                  .bytesOut = 10,
                                  .bytesIn = 20,
                                  .durationMs = 40,
                                  .secret = "API_TOKEN"},
            };
        }
        recorder.runFinished(id, result, std::nullopt);
        recorder.flush();
    }

    JournalRun read(const QString &id) const
    {
        auto run = JournalReader(m_path).run(id);
        EXPECT_TRUE(run) << qPrintable(run.error().message);
        return run ? *run : JournalRun{};
    }

    /// The Details tab's rows, label → value.
    static QMap<QString, QString> details(RunView &view)
    {
        QMap<QString, QString> rows;
        for (const QFormLayout *form : view.findChildren<QFormLayout *>()) {
            for (int row = 0; row < form->rowCount(); ++row) {
                const QLayoutItem *name = form->itemAt(row, QFormLayout::LabelRole);
                const QLayoutItem *field = form->itemAt(row, QFormLayout::FieldRole);
                auto *label = name ? qobject_cast<QLabel *>(name->widget()) : nullptr;
                auto *value = field ? qobject_cast<QLabel *>(field->widget()) : nullptr;
                if (label && value) {
                    rows.insert(label->text(), value->text());
                }
            }
        }
        return rows;
    }

    /// A tooltip's text as it reads.
    static QString plain(const QVariant &toolTip)
    {
        QTextDocument document;
        document.setHtml(toolTip.toString());
        return document.toPlainText();
    }

    QTemporaryDir m_dir;
    QString m_path;
    ThumbnailProvider m_thumbnails;
    QTranslator m_english;
};

} // namespace

TEST_F(RunNetworkTest, aRunsViewListsEveryConnectionUnderTheHostsItWasAllowedARefusedOneMarked)
{
    record(QStringLiteral("online"), true);
    record(QStringLiteral("offline"), false);
    RunView view(m_thumbnails);
    view.resize(1000, 600);
    view.show();
    auto *tabs = view.findChild<QTabWidget *>(QStringLiteral("runTabs"));
    ASSERT_NE(tabs, nullptr);

    view.showRun(read(QStringLiteral("online")));
    ASSERT_TRUE(tabs->isTabVisible(RunView::NetworkTab));
    EXPECT_EQ(tabs->tabText(RunView::NetworkTab), QStringLiteral("Network"));
    auto *network = view.findChild<NetworkView *>(QStringLiteral("runNetwork"));
    ASSERT_NE(network, nullptr);
    EXPECT_EQ(network->findChild<QLabel *>(QStringLiteral("networkAllowed"))->text(),
              QStringLiteral("Allowed: api.test:443"));
    EXPECT_EQ(network->findChild<QLabel *>(QStringLiteral("networkSummary"))->text(),
              QStringLiteral("3 connections, 1 refused."));
    auto *table = network->findChild<QTableView *>(QStringLiteral("networkConnections"));
    ASSERT_NE(table, nullptr);
    QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QAbstractItemModel *rows = table->model();
    ASSERT_EQ(rows->rowCount(), 3);
    const auto cell = [rows](int row, int column, int role = Qt::DisplayRole) {
        return rows->index(row, column).data(role);
    };
    EXPECT_EQ(cell(0, NetworkConnectionModel::Endpoint).toString(), QStringLiteral("api.test:443"));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Endpoint, Qt::ToolTipRole).toString(),
              QStringLiteral("api.test:443, reached at 203.0.113.10"));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Method).toString(), QStringLiteral("CONNECT"));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Result).toString(), QStringLiteral("Allowed"));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Status).toString(), QStringLiteral("200"));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Sent).toString(), dataSizeText(1536));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Received).toString(), dataSizeText(3 * 1024 * 1024));
    EXPECT_EQ(cell(0, NetworkConnectionModel::Duration).toString(), durationText(250));
    EXPECT_FALSE(cell(0, NetworkConnectionModel::Result, Qt::ForegroundRole).isValid()) << "an allowed one is plain";

    EXPECT_EQ(cell(1, NetworkConnectionModel::Endpoint).toString(), QStringLiteral("other.test:80"));
    EXPECT_EQ(cell(1, NetworkConnectionModel::Result).toString(), QStringLiteral("Refused"));
    EXPECT_EQ(cell(1, NetworkConnectionModel::Reason).toString(), QStringLiteral("not an allowed host"));
    EXPECT_EQ(cell(1, NetworkConnectionModel::Status).toString(), QStringLiteral("403"));
    const QColor failed = StateColors::of(QGuiApplication::palette()).failed;
    EXPECT_EQ(cell(1, NetworkConnectionModel::Result, Qt::ForegroundRole).value<QColor>(), failed);
    EXPECT_EQ(cell(1, NetworkConnectionModel::Reason, Qt::ForegroundRole).value<QColor>(), failed);
    EXPECT_EQ(rows->headerData(NetworkConnectionModel::Sent, Qt::Horizontal).toString(), QStringLiteral("Sent"));
    // The proxy's reasons, recorded in English, in the user's language; one it does not know as it is.
    EXPECT_EQ(networkReasonText(QStringLiteral("port 8080 is not allowed for this host")),
              QStringLiteral("port 8080 is not allowed for this host"));
    EXPECT_EQ(networkReasonText(QStringLiteral("ERR_SOMETHING_NEW")), QStringLiteral("ERR_SOMETHING_NEW"));
    {
        QTranslator chinese;
        ASSERT_TRUE(chinese.load(QStringLiteral(":/i18n/llm-sandbox_zh_CN.qm")));
        QCoreApplication::installTranslator(&chinese);
        EXPECT_NE(networkReasonText(QStringLiteral("not an allowed host")), QStringLiteral("not an allowed host"));
        EXPECT_TRUE(networkReasonText(QStringLiteral("port 8080 is not allowed for this host")).contains(u"8080"));
        EXPECT_NE(networkReasonText(QStringLiteral("port 8080 is not allowed for this host")),
                  QStringLiteral("port 8080 is not allowed for this host"));
        // Every sentence the engine records (NetworkConnection::fromLogLine) is one the app translates.
        const NetworkAllowList granted = *NetworkAllowList::parse(QStringLiteral("api.test:8080"));
        for (const char *line : {
                 "1.0\t0\tGET\tother.test\t80\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-",
                 "1.0\t0\tGET\t10.1.2.3\t80\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-",
                 "1.0\t0\tGET\tapi.test\t8081\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-",
                 "1.0\t0\tGET\tapi.test\t8080\tTCP_DENIED\t403\t1\t1\t-\tERR_ACCESS_DENIED\t-",
                 "1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t503\t1\t1\t-\tERR_DNS_FAIL\t-",
                 "1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t503\t1\t1\t-\tERR_CONNECT_FAIL\t-",
                 "1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t504\t1\t1\t-\tERR_READ_TIMEOUT\t-",
                 "1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t0\t1\t1\t-\tERR_CLIENT_GONE\t-",
                 "1.0\t0\tGET\tapi.test\t8080\tTCP_MISS\t400\t1\t1\t-\tERR_INVALID_REQ\t-",
                 "1.0\t0\tCONNECT\tapi.test\t8080\tTCP_DENIED\t403\t0\t0\t-\tERR_TLS_SERVER_NAME\tevil.test",
                 "1.0\t0\tCONNECT\tapi.test\t8080\tTCP_DENIED\t403\t0\t0\t-\tERR_NOT_TLS\t-",
             }) {
            const auto connection = NetworkConnection::fromLogLine(line, granted);
            ASSERT_TRUE(connection && !connection->reason.isEmpty()) << line;
            EXPECT_NE(networkReasonText(connection->reason), connection->reason) << qPrintable(connection->reason);
        }
        QCoreApplication::removeTranslator(&chinese);
    }

    EXPECT_EQ(cell(2, NetworkConnectionModel::Received).toString(), dataSizeText(20)) << "in the order they ended";

    // The secret the proxy added, by name, where it did; its column only for a run that had one.
    EXPECT_EQ(cell(2, NetworkConnectionModel::Secret).toString(), QStringLiteral("API_TOKEN"));
    EXPECT_EQ(
        cell(2, NetworkConnectionModel::Secret, Qt::ToolTipRole).toString(),
        QStringLiteral("The egress proxy put the value of the secret API_TOKEN into this request; the sandbox saw "
                       "only a placeholder."));
    EXPECT_TRUE(cell(0, NetworkConnectionModel::Secret).toString().isEmpty());
    EXPECT_TRUE(cell(1, NetworkConnectionModel::Secret, Qt::ToolTipRole).toString().isEmpty());
    EXPECT_EQ(rows->headerData(NetworkConnectionModel::Secret, Qt::Horizontal).toString(), QStringLiteral("Secret"));
    EXPECT_FALSE(table->isColumnHidden(NetworkConnectionModel::Secret));
    {
        JournalRun withoutSecrets = read(QStringLiteral("online"));
        QJsonArray connections = withoutSecrets.network.value(QStringLiteral("connections")).toArray();
        for (qsizetype i = 0; i < connections.size(); ++i) {
            QJsonObject connection = connections[i].toObject();
            connection.remove(QStringLiteral("secret"));
            connections[i] = connection;
        }
        withoutSecrets.network.insert(QStringLiteral("connections"), connections);
        view.showRun(withoutSecrets);
        EXPECT_TRUE(table->isColumnHidden(NetworkConnectionModel::Secret));
        EXPECT_EQ(details(view).value(QStringLiteral("Network:")),
                  QStringLiteral("api.test:443 · 3 connections, 1 refused"));
        view.showRun(read(QStringLiteral("online")));
    }

    // The whole host and result are in view, never elided.
    tabs->setCurrentIndex(RunView::NetworkTab);
    QApplication::processEvents();
    for (int column : {NetworkConnectionModel::Endpoint, NetworkConnectionModel::Result}) {
        EXPECT_GE(table->columnWidth(column), table->fontMetrics().horizontalAdvance(cell(1, column).toString()))
            << column;
    }

    // The Details say it in a row of plain text.
    EXPECT_EQ(details(view).value(QStringLiteral("Network:")),
              QStringLiteral("api.test:443 · 3 connections, 1 refused · 1 with secret API_TOKEN"));

    // A run without network shows nothing of one.
    view.showRun(read(QStringLiteral("offline")));
    EXPECT_FALSE(tabs->isTabVisible(RunView::NetworkTab));
    EXPECT_FALSE(details(view).contains(QStringLiteral("Network:")));
    EXPECT_EQ(tabs->currentIndex(), int(RunView::OutputTab)) << "off the tab it no longer has, to the output";
}

TEST_F(RunNetworkTest, theLiveLogMarksARunWithNetworkAndItsViewGetsTheConnectionsAsItEnds)
{
    record(QStringLiteral("offline"), false);
    JournalFeed feed(m_path);
    LiveLogPage page(feed, m_thumbnails);
    page.resize(1200, 700);
    page.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return page.model()->rowCount() == 1; }, 10000));

    // Followed live: the run starts without network and has it once it ended.
    JournalRecorder recorder(m_path, JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}});
    record(QStringLiteral("online"), true, &recorder);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return page.model()->rowCount() == 2 && !page.model()->runAt(0).networkHosts.isEmpty(); }, 10000));
    const QModelIndex online = page.model()->index(0, RunTableModel::Source);
    EXPECT_EQ(online.data(RunTableModel::RunIdRole).toString(), QStringLiteral("online"));
    EXPECT_TRUE(online.data(Qt::DecorationRole).value<QIcon>().availableSizes().size() > 0) << "the globe";
    EXPECT_EQ(plain(online.data(Qt::ToolTipRole)), QStringLiteral("MCP\nNetwork: api.test, other.test"));
    EXPECT_TRUE(online.data(RunTableModel::SearchRole).toString().contains(QStringLiteral("other.test")))
        << "the filter finds a run by a host it reached";
    const QModelIndex offline = page.model()->index(1, RunTableModel::Source);
    EXPECT_FALSE(offline.data(Qt::DecorationRole).isValid());
    EXPECT_EQ(plain(offline.data(Qt::ToolTipRole)), QStringLiteral("MCP"));

    auto *view = page.findChild<RunView *>();
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return view->run().id == QStringLiteral("online") && view->run().hasNetwork(); }, 10000))
        << "the newest run is followed";
    auto *tabs = view->findChild<QTabWidget *>(QStringLiteral("runTabs"));
    EXPECT_TRUE(tabs->isTabVisible(RunView::NetworkTab));
    EXPECT_EQ(view->findChild<NetworkView *>()->connections().rowCount(), 3);
}

TEST_F(RunNetworkTest, historyMarksARunWithNetworkAndCompareNamesTheHostsAsWhatWentIn)
{
    record(QStringLiteral("offline"), false);
    record(QStringLiteral("online"), true);
    JournalFeed feed(m_path);
    HistoryModel model(feed);
    model.fetchMore({});
    feed.waitForIdle();
    ASSERT_EQ(model.rowCount(), 2);
    const int online = model.rowOf(QStringLiteral("online"));
    const int offline = model.rowOf(QStringLiteral("offline"));
    EXPECT_TRUE(model.index(online, RunTableModel::Source).data(Qt::DecorationRole).isValid());
    EXPECT_TRUE(plain(model.index(online, RunTableModel::Source).data(Qt::ToolTipRole))
                    .endsWith(QStringLiteral("Network: api.test, other.test")))
        << qPrintable(plain(model.index(online, RunTableModel::Source).data(Qt::ToolTipRole)));
    EXPECT_FALSE(model.index(offline, RunTableModel::Source).data(Qt::DecorationRole).isValid());

    const JournalRun a = read(QStringLiteral("offline"));
    const JournalRun b = read(QStringLiteral("online"));
    const RunDiff diff = RunDiff::compare(a, b);
    EXPECT_FALSE(diff.identical()) << "the same code and output, but one could reach api.test";
    DiffView view;
    view.setDiff(diff, a, b, DiffView::Sides::TwoRuns);
    EXPECT_EQ(view.findChild<QLabel *>(QStringLiteral("diffBanner"))->text(), QStringLiteral("The runs differ"));
    const QString summary = view.findChild<QLabel *>(QStringLiteral("diffSummary"))->text();
    EXPECT_TRUE(summary.contains(QStringLiteral("Network: <b>none → api.test:443</b>"))) << qPrintable(summary);
    view.setDiff(RunDiff::compare(b, b), b, b, DiffView::Sides::TwoRuns);
    EXPECT_FALSE(view.findChild<QLabel *>(QStringLiteral("diffSummary"))->text().contains(QStringLiteral("Network")))
        << "the same hosts: nothing to say";
}
