// What the tray icon says and decides, without a tray (the offscreen platform has none).
#include "gui/tray/TrayStatus.h"

#include <QCoreApplication>
#include <QTranslator>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using CloseAction = TrayStatus::CloseAction;

namespace {

JournalRun ended(RunSource source, qint64 durationMs, int exitCode, RunStatus status = RunStatus::Finished)
{
    JournalRun run;
    run.id = QStringLiteral("run");
    run.source = source;
    run.language = QStringLiteral("python");
    run.clientName = source == RunSource::Mcp || source == RunSource::Http ? QStringLiteral("claude-ai") : QString();
    run.status = status;
    run.durationMs = durationMs;
    if (status == RunStatus::Finished) {
        run.exitCode = exitCode;
        run.stopReason = StopReason::Exited;
    } else {
        run.error = QStringLiteral("the engine went away");
    }
    return run;
}

/// English's plural forms ("1 client", "2 clients") come from its translation, as in the app.
class TrayStatusTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_english.load(QStringLiteral(":/i18n/llm-sandbox_en.qm")));
        QCoreApplication::installTranslator(&m_english);
    }
    void TearDown() override { QCoreApplication::removeTranslator(&m_english); }

    QTranslator m_english;
};

} // namespace

TEST_F(TrayStatusTest, summarySaysTheClientsAndTheRuns)
{
    EXPECT_EQ(TrayStatus::summary(true, 2, 1), QStringLiteral("2 clients, 1 running"));
    EXPECT_EQ(TrayStatus::summary(true, 1, 0), QStringLiteral("1 client, 0 running"));
    EXPECT_EQ(TrayStatus::summary(false, 0, 3), QStringLiteral("MCP server stopped · 3 running"));
    const QString tip = TrayStatus::toolTip(true, QUrl(QStringLiteral("http://127.0.0.1:8931/mcp")), 2, 1);
    EXPECT_EQ(tip, QStringLiteral("LLM Sandbox\nMCP server at http://127.0.0.1:8931/mcp\n2 clients, 1 running"));
}

TEST_F(TrayStatusTest, anAssistantsFailedRunOrALongRunIsToldWhileTheWindowIsNotInFront)
{
    // An assistant's run that failed: exit 1, or it could not run at all.
    auto failed = TrayStatus::notificationFor(ended(RunSource::Mcp, 1200, 1), false);
    ASSERT_TRUE(failed.has_value());
    EXPECT_TRUE(failed->failure);
    EXPECT_EQ(failed->title, QStringLiteral("Run failed: MCP · claude-ai"));
    EXPECT_EQ(failed->message, QStringLiteral("Python · Failed (exit 1) · 1.20 s"));
    auto broken = TrayStatus::notificationFor(ended(RunSource::Http, 0, 0, RunStatus::Failed), false);
    ASSERT_TRUE(broken.has_value());
    EXPECT_TRUE(broken->message.contains(QStringLiteral("the engine went away")));

    // A long one, from anywhere, whether it went well or not.
    auto longRun = TrayStatus::notificationFor(ended(RunSource::Gui, 45'000, 0), false);
    ASSERT_TRUE(longRun.has_value());
    EXPECT_FALSE(longRun->failure);
    EXPECT_EQ(longRun->title, QStringLiteral("Run finished after 45.0 s"));
    EXPECT_EQ(longRun->message, QStringLiteral("Python · Console · Succeeded"));
    EXPECT_TRUE(TrayStatus::notificationFor(ended(RunSource::Gui, 45'000, 2), false)->failure);

    // Not: a short run that went well, a short failed run of the console (the user watches it), a run while the
    // window is in front.
    EXPECT_FALSE(TrayStatus::notificationFor(ended(RunSource::Mcp, 1200, 0), false).has_value());
    EXPECT_FALSE(TrayStatus::notificationFor(ended(RunSource::Gui, 1200, 1), false).has_value());
    EXPECT_FALSE(TrayStatus::notificationFor(ended(RunSource::Mcp, 1200, 1), true).has_value());
    EXPECT_FALSE(TrayStatus::notificationFor(ended(RunSource::Gui, 45'000, 0), true).has_value());
}

TEST_F(TrayStatusTest, closingTheWindowHidesItInTheTrayOnlyWhileTheServerServesAndTheUserWantsIt)
{
    EXPECT_EQ(TrayStatus::closeAction(true, true, true, false), CloseAction::HideToTray);
    EXPECT_EQ(TrayStatus::closeAction(true, true, true, true), CloseAction::Quit) << "Quit from a menu quits";
    EXPECT_EQ(TrayStatus::closeAction(true, true, false, false), CloseAction::Quit) << "nothing to keep running";
    EXPECT_EQ(TrayStatus::closeAction(true, false, true, false), CloseAction::Quit) << "turned off";
    EXPECT_EQ(TrayStatus::closeAction(false, true, true, false), CloseAction::Quit) << "no tray on this desktop";
}

TEST_F(TrayStatusTest, aNotificationCarriesNoMarkupFromASandboxOrAClient)
{
    // Issue 44, item 11: notification servers may render markup in the body.
    JournalRun run = ended(RunSource::Mcp, 1200, 0, RunStatus::Failed);
    run.error = QStringLiteral("<a href='https://attacker.example'>click</a> & <img src='/etc/x.png'>");
    run.clientName = QStringLiteral("<b>client</b>");
    const auto notification = TrayStatus::notificationFor(run, false);
    ASSERT_TRUE(notification.has_value());
    for (const QString &text : {notification->title, notification->message}) {
        EXPECT_FALSE(text.contains(u'<') || text.contains(u'>') || text.contains(u'&')) << text.toStdString();
    }
    EXPECT_TRUE(notification->message.contains(QStringLiteral("\u2039a href='https://attacker.example'\u203Aclick")))
        << notification->message.toStdString();
}
