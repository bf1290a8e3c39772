// Issue 46, item 11: a second `llm-sandbox` brings the running window forward instead of opening a second app over
// the same journal; `--new-instance` opens one anyway.
#include "gui/SingleInstance.h"

#include "GuiTestSupport.h"

#include <QDir>
#include <QFile>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <thread>

using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

TEST(SingleInstanceTest, theSecondInstanceAsksTheFirstToShowItsWindowAndAThirdAfterTheFirstEndedIsFirst)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString name = folder.filePath(QStringLiteral("instance"));
    auto first = std::make_unique<SingleInstance>(name);
    ASSERT_EQ(first->outcome(), SingleInstance::Outcome::First);
    EXPECT_EQ(QFile(name).permissions() & (QFileDevice::ReadOther | QFileDevice::WriteOther),
              QFileDevice::Permissions())
        << "only this user may ask for the window";
    QSignalSpy asked(first.get(), &SingleInstance::activationRequested);

    // The second asks while this thread's event loop lets the first answer.
    std::optional<SingleInstance::Outcome> second;
    std::thread starting([&] { second = SingleInstance(name, 5000).outcome(); });
    ASSERT_TRUE(waitUntil([&] { return asked.count() == 1; }, 10s));
    ASSERT_TRUE(waitUntil([&] { return second.has_value(); }, 10s));
    starting.join();
    EXPECT_EQ(*second, SingleInstance::Outcome::Activated);

    // A stranger's bytes on the socket show nothing.
    QLocalSocket stranger;
    stranger.connectToServer(name);
    ASSERT_TRUE(stranger.waitForConnected(2000));
    stranger.write("GET / HTTP/1.1\r\n");
    stranger.flush();
    ASSERT_TRUE(waitUntil([&] { return stranger.state() == QLocalSocket::UnconnectedState; }, 10s));
    EXPECT_EQ(asked.count(), 1);

    first.reset();
    EXPECT_EQ(SingleInstance(name, 200).outcome(), SingleInstance::Outcome::First) << "the lock went with the first";
}

TEST(SingleInstanceTest, theRealAppStartedTwiceKeepsOneWindowUnlessANewInstanceIsAskedFor)
{
    ASSERT_FALSE(qEnvironmentVariable("LLM_SANDBOX_BIN").isEmpty()) << "ctest sets LLM_SANDBOX_BIN";
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString runtime = folder.filePath(QStringLiteral("runtime"));
    ASSERT_TRUE(QDir().mkpath(runtime));
    QFile::setPermissions(runtime, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime);
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), folder.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), folder.filePath(QStringLiteral("journal.sqlite")));
    // No engine is needed to open a window.
    environment.insert(QStringLiteral("DOCKER_HOST"),
                       QStringLiteral("unix://") + folder.filePath(QStringLiteral("no")));
    const auto start = [&](QProcess &process, const QStringList &arguments) {
        process.setProcessEnvironment(environment);
        process.start(qEnvironmentVariable("LLM_SANDBOX_BIN"), arguments);
        return process.waitForStarted(10000);
    };
    QProcess first;
    ASSERT_TRUE(start(first, {}));
    const auto stopFirst = qScopeGuard([&] {
        first.terminate();
        first.waitForFinished(30000);
    });
    // It holds the lock, and listens, from its start.
    ASSERT_TRUE(waitUntil(
        [&] { return !QDir(runtime).entryList({QStringLiteral("llm-sandbox-*.lock")}, QDir::Files).isEmpty(); }, 60s));

    QProcess second;
    ASSERT_TRUE(start(second, {}));
    ASSERT_TRUE(second.waitForFinished(60000));
    EXPECT_EQ(second.exitCode(), 0);
    EXPECT_TRUE(second.readAllStandardError().contains("already running; its window was brought forward"));
    EXPECT_EQ(first.state(), QProcess::Running);

    QProcess third;
    ASSERT_TRUE(start(third, {QStringLiteral("--new-instance")}));
    EXPECT_FALSE(third.waitForFinished(3000)) << "a window of its own: " << third.readAllStandardError().toStdString();
    third.terminate();
    ASSERT_TRUE(third.waitForFinished(30000));
}
