#include "cli/CliContext.h"

#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::cli;

namespace {

int statusFor(ErrorCode code)
{
    return exitStatusFor(Error{QStringLiteral("failure"), code});
}

} // namespace

TEST(ExitStatus, requestsTheCallerCanFixAreUsageErrors)
{
    EXPECT_EQ(statusFor(ErrorCode::BadRequest), ExitUsage);
    EXPECT_EQ(statusFor(ErrorCode::NotFound), ExitUsage);
    EXPECT_EQ(statusFor(ErrorCode::Unavailable), ExitUsage);
}

TEST(ExitStatus, sandboxFailuresAre125LikeDockerRun)
{
    for (ErrorCode code :
         {ErrorCode::Internal, ErrorCode::EngineUnreachable, ErrorCode::EngineFailed, ErrorCode::ImageMissing,
          ErrorCode::LimitReached, ErrorCode::InstallFailed, ErrorCode::SandboxFailed}) {
        EXPECT_EQ(statusFor(code), 125) << errorCodeName(code);
    }
}

TEST(ExitStatus, policyRefusalAndCancellationHaveTheirOwnStatus)
{
    EXPECT_EQ(statusFor(ErrorCode::PolicyRefused), 126);
    EXPECT_EQ(statusFor(ErrorCode::LimitsNotEnforced), 126);
    EXPECT_EQ(statusFor(ErrorCode::Cancelled), 130);
}

TEST(ExitStatus, anErrorWithoutACodeIsAnInternalFailure)
{
    EXPECT_EQ(exitStatusFor(Error{QStringLiteral("something unexpected")}), 125);
}
