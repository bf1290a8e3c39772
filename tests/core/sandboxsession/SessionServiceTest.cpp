#include "sandboxsession/SessionService.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

/// A preparer that must not be reached: the request is refused before a container would start.
SessionService::Preparer unreachable(bool &called)
{
    return [&called](const Language &, const QString &) -> Result<std::unique_ptr<SandboxContainer>> {
        called = true;
        return Error{QStringLiteral("no container in this test"), ErrorCode::SandboxFailed};
    };
}

} // namespace

TEST(SessionServiceTest, relativePathsAndPathsBelowTheWorkdirAreAccepted)
{
    EXPECT_EQ(*SessionService::sessionPath(QStringLiteral("data/input.csv")), QStringLiteral("data/input.csv"));
    EXPECT_EQ(*SessionService::sessionPath(QStringLiteral("/sandbox/data/input.csv")),
              QStringLiteral("data/input.csv"));
    EXPECT_EQ(*SessionService::sessionPath(QStringLiteral("a..b")), QStringLiteral("a..b"));
}

TEST(SessionServiceTest, pathsThatLeaveTheWorkdirAreBadRequests)
{
    for (const QString &path :
         {QStringLiteral("../etc/passwd"), QStringLiteral("data/../../x"), QStringLiteral("/etc/passwd"),
          QStringLiteral("/sandbox/../etc"), QString(), QStringLiteral("/sandbox/"),
          QString(QStringLiteral("a") + QChar(0) + QStringLiteral("b")), QString(1025, QLatin1Char('a'))}) {
        auto checked = SessionService::sessionPath(path);
        ASSERT_FALSE(checked.ok()) << path.toStdString();
        EXPECT_EQ(checked.error().code, ErrorCode::BadRequest);
    }
}

TEST(SessionServiceTest, fileOperationsCheckThePathBeforeLookingForTheSession)
{
    SessionService service(std::chrono::seconds(60), 2, 1024);
    auto written = service.writeFile(QStringLiteral("nope"), {}, QStringLiteral("../x"), "data");
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().code, ErrorCode::BadRequest);
    auto read = service.readFile(QStringLiteral("nope"), {}, QStringLiteral("x"));
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, ErrorCode::NotFound);
}

TEST(SessionServiceTest, filesOverTheLimitAreRefused)
{
    SessionService service(std::chrono::seconds(60), 2, 4);
    auto written = service.writeFile(QStringLiteral("nope"), {}, QStringLiteral("x"), "12345");
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().code, ErrorCode::LimitReached);
}

TEST(SessionServiceTest, closingAnUnknownSessionIsNotFound)
{
    SessionService service(std::chrono::seconds(60), 2, 1024);
    auto closed = service.close(QStringLiteral("nope"), {});
    ASSERT_FALSE(closed.ok());
    EXPECT_EQ(closed.error().code, ErrorCode::NotFound);
    EXPECT_TRUE(service.list({}).isEmpty());
}

TEST(SessionServiceTest, badRequestsNeverStartAContainer)
{
    SessionService service(std::chrono::seconds(60), 2, 1024);
    bool called = false;
    SessionRequest request;
    request.timeout = std::chrono::milliseconds(0);
    auto created = service.create(request, unreachable(called));
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().code, ErrorCode::BadRequest);

    request = SessionRequest{};
    request.language = QStringLiteral("cobol");
    created = service.create(request, unreachable(called));
    ASSERT_FALSE(created.ok());
    EXPECT_FALSE(called);
}

TEST(SessionServiceTest, disabledSessionsAreALimitReached)
{
    SessionService service(std::chrono::seconds(60), 0, 1024);
    bool called = false;
    auto created = service.create(SessionRequest{}, unreachable(called));
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().code, ErrorCode::LimitReached);
    EXPECT_FALSE(called);
}

TEST(SessionServiceTest, aPreparerFailureIsTheCreateError)
{
    SessionService service(std::chrono::seconds(60), 2, 1024);
    bool called = false;
    auto created = service.create(SessionRequest{}, unreachable(called));
    ASSERT_FALSE(created.ok());
    EXPECT_TRUE(called);
    EXPECT_EQ(created.error().code, ErrorCode::SandboxFailed);
    EXPECT_TRUE(service.list({}).isEmpty());
}
