#include "engine/UserStops.h"

#include <gtest/gtest.h>

using namespace sandbox;

TEST(UserStopsTest, aPersonsStopAndTheCallersBothStopTheRunButOnlyThePersonsSaysSo)
{
    UserStops stops;
    std::stop_source caller;
    const auto byCaller = stops.add(QStringLiteral("a"), caller.get_token());
    const auto byPerson = stops.add(QStringLiteral("b"), {});

    caller.request_stop();
    EXPECT_TRUE(byCaller->token().stop_requested());
    EXPECT_FALSE(byCaller->stoppedByUser());

    EXPECT_FALSE(byPerson->token().stop_requested());
    EXPECT_TRUE(stops.stop(QStringLiteral("b")));
    EXPECT_TRUE(byPerson->token().stop_requested());
    EXPECT_TRUE(byPerson->stoppedByUser());
    EXPECT_FALSE(stops.stop(QStringLiteral("unknown")));
}

TEST(UserStopsTest, aRunThatEndedIsNoLongerStoppable)
{
    UserStops stops;
    stops.add(QStringLiteral("gone"), {}).reset();
    EXPECT_FALSE(stops.stop(QStringLiteral("gone")));
}

TEST(UserStopsTest, whatTheStopMadeOfTheRunReadsAsStoppedByTheUser)
{
    RunResult cancelled;
    cancelled.reason = StopReason::Cancelled;
    cancelled.exitCode = 137;
    cancelled.stdoutData = "partial";
    auto fromCancelled = UserStops::endedByUser(cancelled, 17'250);
    ASSERT_TRUE(fromCancelled.ok());
    EXPECT_EQ(fromCancelled->reason, StopReason::StoppedByUser);
    EXPECT_EQ(fromCancelled->stdoutData, "partial") << "what it printed is kept";
    EXPECT_TRUE(
        fromCancelled->stderrData.endsWith("the user stopped this run from the LLM Sandbox app after 17.3 s.\n"))
        << fromCancelled->stderrData.toStdString();

    // The sandbox removed under it (Backends → Stop), or stopped before its program started.
    for (const ErrorCode code : {ErrorCode::SandboxFailed, ErrorCode::Cancelled}) {
        auto fromError = UserStops::endedByUser(Error{QStringLiteral("gone"), code}, 2'000);
        ASSERT_TRUE(fromError.ok());
        EXPECT_EQ(fromError->reason, StopReason::StoppedByUser);
        EXPECT_EQ(fromError->exitCode, 137);
    }
}

TEST(UserStopsTest, aRunThatEndedOnItsOwnOrFailedOtherwiseKeepsItsEnding)
{
    RunResult exited;
    exited.exitCode = 0;
    EXPECT_EQ(UserStops::endedByUser(exited, 10)->reason, StopReason::Exited);
    RunResult timedOut;
    timedOut.reason = StopReason::TimedOut;
    EXPECT_EQ(UserStops::endedByUser(timedOut, 10)->reason, StopReason::TimedOut);
    auto unreachable = UserStops::endedByUser(Error{QStringLiteral("no engine"), ErrorCode::EngineUnreachable}, 10);
    ASSERT_FALSE(unreachable.ok());
    EXPECT_EQ(unreachable.error().code, ErrorCode::EngineUnreachable);
}
