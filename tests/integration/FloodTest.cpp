// A sandbox that floods everything at once, each beyond its cap — output, artifacts (more and larger than allowed) and
// scratch files — through a real `llm-sandbox --mcp`: the server's memory stays within what the caps allow, and
// another session's runs go on and answer while the flood is still running.
#include "BackendTestSupport.h"
#include "McpServerProcess.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

/// A field of /proc/PID/status in KiB ("VmHWM": the peak resident memory).
qint64 statusKb(qint64 pid, const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(QByteArray(field + ':'))) {
            return line.mid(field.size() + 1).trimmed().split(' ').first().toLongLong();
        }
    }
    return -1;
}

// 48 artifacts of 4 MiB (caps: 32, 64 MiB in all), one of 20 MiB (cap: 16 MiB), 2,000 scratch files, then 64 MiB of
// output on both streams (cap: 1 MiB), in lines and without.
constexpr QLatin1StringView kFlood(R"(import os, sys
os.makedirs('/sandbox/output', exist_ok=True)
block = os.urandom(4 * 1024 * 1024)
for i in range(48):
    with open(f'/sandbox/output/part{i:02}.bin', 'wb') as f:
        f.write(block)
with open('/sandbox/output/huge.bin', 'wb') as f:
    f.write(os.urandom(20 * 1024 * 1024))
for i in range(2000):
    with open(f'/tmp/scratch{i}', 'w') as f:
        f.write('x' * 1000)
line = 'y' * 1023 + '\n'
for i in range(32 * 1024):
    sys.stdout.write(line)
    sys.stderr.write(line)
sys.stdout.write('z' * (8 * 1024 * 1024))
print('flood done')
)");

class FloodTest : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(FloodTest, everyCapAtOnceKeepsTheServersMemoryBoundedAndOtherSessionsRunning)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    test::StdioServer server(
        {.backend = QString::fromStdString(GetParam()), .journal = folder.filePath(QStringLiteral("journal.sqlite"))});
    ASSERT_TRUE(server.process().waitForStarted());
    const qint64 pid = server.process().processId();
    ASSERT_TRUE(server.call(1, "initialize", test::kInitialize).contains("result"));
    const QString session = test::openPythonSession(server, 2);
    ASSERT_FALSE(session.isEmpty());
    const qint64 before = statusKb(pid, "VmHWM");

    server.send(10, "tools/call",
                {{"name", "execute_code"}, {"arguments", QJsonObject{{"code", QString(kFlood)}, {"timeout", 120}}}});
    // Another session's runs while the flood goes on: each answers, in order, before the flood has.
    int sessionRuns = 0;
    for (int i = 0; i < 5 && !server.answered(10); ++i) {
        const QJsonObject ran = server.call(
            20 + i, "tools/call",
            {{"name", "execute_code"},
             {"arguments", QJsonObject{{"code", QStringLiteral("x += 1\nprint(x)")}, {"session_id", session}}}});
        EXPECT_TRUE(test::toolText(ran).contains(QStringLiteral("\"stdout\":\"%1\\n\"").arg(i + 2)))
            << test::toolText(ran).left(400).toStdString();
        ++sessionRuns;
    }
    EXPECT_GE(sessionRuns, 1) << "the flood ended before another session could run";

    const QJsonObject flood = server.answer(10);
    const QJsonObject result = QJsonDocument::fromJson(test::toolText(flood).toUtf8()).object();
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(flood).toJson().left(2000).toStdString();
    EXPECT_TRUE(result.value("output_truncated").toBool()) << "the output cap";
    EXPECT_GT(result.value("artifacts_dropped").toInt(), 0) << "the artifact caps";
    EXPECT_LE(result.value("stdout").toString().size() + result.value("stderr").toString().size(), 1024 * 1024 + 4096);

    // What the caps allow the server to hold for the run: its output (1 MiB), its artifacts (64 MiB), and their copies
    // on the way to the journal and into the answer (resource links, not base64, above 256 KiB). The flood itself is
    // about 350 MiB.
    const qint64 after = statusKb(pid, "VmHWM");
    RecordProperty("server_peak_rss_kib_before", int(before));
    RecordProperty("server_peak_rss_kib_after", int(after));
    std::cout << "server peak RSS: " << before / 1024 << " MiB before the flood, " << after / 1024 << " MiB after\n";
    EXPECT_LT(after - before, 3 * 64 * 1024) << "the server held more than three times the artifact cap";

    server.process().closeWriteChannel();
    EXPECT_TRUE(server.process().waitForFinished(60000));
}

INSTANTIATE_TEST_SUITE_P(Backends, FloodTest, ::testing::ValuesIn(test::backendNames()), test::backendTestName);
