#include "mcp/tools/ArgumentValidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox::mcp;

namespace {

const QJsonObject kSchema = QJsonDocument::fromJson(R"({
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "The program.", "minLength": 1},
        "language": {"type": "string", "default": "python"},
        "libraries": {"type": "array", "items": {"type": "string"}, "default": []},
        "timeout": {"type": "integer", "default": 30, "minimum": 1, "maximum": 3600},
        "mode": {"type": "string", "enum": ["fast", "slow"]}
    },
    "required": ["code"]
})")
                                .object();

QString errorFor(const QJsonObject &arguments)
{
    const auto result = ArgumentValidator::validate(kSchema, arguments);
    return result.ok() ? QString() : result.error().message;
}

TEST(ArgumentValidatorTest, fillsInDefaultsOfMissingArguments)
{
    const auto result = ArgumentValidator::validate(kSchema, {{QStringLiteral("code"), QStringLiteral("x")}});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->value(QStringLiteral("language")).toString(), QStringLiteral("python"));
    EXPECT_EQ(result->value(QStringLiteral("timeout")).toInt(), 30);
    EXPECT_TRUE(result->value(QStringLiteral("libraries")).isArray());
    EXPECT_FALSE(result->contains(QStringLiteral("mode")));
}

TEST(ArgumentValidatorTest, nullMeansNotGiven)
{
    const auto result = ArgumentValidator::validate(
        kSchema, {{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("libraries"), QJsonValue::Null}});
    ASSERT_TRUE(result.ok());
    EXPECT_TRUE(result->value(QStringLiteral("libraries")).toArray().isEmpty());
    EXPECT_TRUE(errorFor({{QStringLiteral("code"), QJsonValue::Null}}).startsWith(QStringLiteral("Missing required")));
}

TEST(ArgumentValidatorTest, missingRequiredArgumentIsNamedWithItsDescription)
{
    EXPECT_EQ(errorFor({}), QStringLiteral("Missing required argument \"code\" (string): The program."));
}

TEST(ArgumentValidatorTest, wrongTypesAreNamedWithWhatWasSent)
{
    EXPECT_EQ(errorFor({{QStringLiteral("code"), 42}}),
              QStringLiteral("Argument \"code\" must be a string, but got a number (42)."));
    EXPECT_EQ(
        errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), QStringLiteral("abc")}}),
        QStringLiteral("Argument \"timeout\" must be an integer, but got a string (\"abc\")."));
    EXPECT_EQ(errorFor({{QStringLiteral("code"), QStringLiteral("x")},
                        {QStringLiteral("libraries"), QStringLiteral("numpy")}}),
              QStringLiteral("Argument \"libraries\" must be an array of strings, but got a string (\"numpy\")."));
}

TEST(ArgumentValidatorTest, integersMustBeWholeButMayBeWrittenAsDecimals)
{
    EXPECT_TRUE(errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), 30.0}}).isEmpty());
    EXPECT_FALSE(errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), 2.5}}).isEmpty());
}

TEST(ArgumentValidatorTest, boundsAndEnumsAreChecked)
{
    EXPECT_EQ(errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), 0}}),
              QStringLiteral("Argument \"timeout\" must be at least 1, but got 0."));
    EXPECT_EQ(errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), 4000}}),
              QStringLiteral("Argument \"timeout\" must be at most 3600, but got 4000."));
    EXPECT_EQ(
        errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("mode"), QStringLiteral("medium")}}),
        QStringLiteral("Argument \"mode\" must be one of \"fast\", \"slow\", but got a string (\"medium\")."));
    EXPECT_EQ(errorFor({{QStringLiteral("code"), QString()}}), QStringLiteral("Argument \"code\" must not be empty."));
}

TEST(ArgumentValidatorTest, unknownArgumentsAreIgnored)
{
    EXPECT_TRUE(errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("verbose"), true}}).isEmpty());
}

} // namespace

// The Python server (FastMCP + pydantic's lax mode) accepted these; assistants send them.
TEST(ArgumentValidatorTest, arraySentAsJsonTextIsParsed)
{
    const auto result =
        ArgumentValidator::validate(kSchema, {{QStringLiteral("code"), QStringLiteral("x")},
                                              {QStringLiteral("libraries"), QStringLiteral(" [\"numpy\"] ")}});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->value(QStringLiteral("libraries")).toArray(), QJsonArray{QStringLiteral("numpy")});
}

TEST(ArgumentValidatorTest, integerSentAsNumericStringIsANumber)
{
    const auto result = ArgumentValidator::validate(
        kSchema, {{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), QStringLiteral("45")}});
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_TRUE(result->value(QStringLiteral("timeout")).isDouble());
    EXPECT_EQ(result->value(QStringLiteral("timeout")).toInt(), 45);
}

TEST(ArgumentValidatorTest, convertedValuesAreStillChecked)
{
    EXPECT_EQ(
        errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), QStringLiteral("0")}}),
        QStringLiteral("Argument \"timeout\" must be at least 1, but got 0."));
    EXPECT_EQ(
        errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("timeout"), QStringLiteral("4.5")}}),
        QStringLiteral("Argument \"timeout\" must be an integer, but got a string (\"4.5\")."));
    EXPECT_EQ(
        errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("libraries"), QStringLiteral("[1]")}}),
        QStringLiteral("Argument \"libraries\" must be an array of strings, but item 1 is a number (1)."));
    EXPECT_EQ(errorFor({{QStringLiteral("code"), QStringLiteral("x")},
                        {QStringLiteral("libraries"), QStringLiteral("numpy")}}),
              QStringLiteral("Argument \"libraries\" must be an array of strings, but got a string (\"numpy\")."));
    EXPECT_EQ(
        errorFor({{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("libraries"), QStringLiteral("{}")}}),
        QStringLiteral("Argument \"libraries\" must be an array of strings, but got a string (\"{}\")."));
}

TEST(ArgumentValidatorTest, stringsStayStrings)
{
    // A string parameter is never converted: code that happens to be JSON or a number is still code.
    const auto result = ArgumentValidator::validate(kSchema, {{QStringLiteral("code"), QStringLiteral("[1, 2]")}});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->value(QStringLiteral("code")).toString(), QStringLiteral("[1, 2]"));
}

TEST(ArgumentValidatorTest, booleansSentAsTextAreBooleans)
{
    const QJsonObject schema = QJsonDocument::fromJson(R"({"type": "object", "properties": {
        "flag": {"type": "boolean"}}})")
                                   .object();
    EXPECT_EQ(ArgumentValidator::validate(schema, {{QStringLiteral("flag"), QStringLiteral("true")}})
                  ->value(QStringLiteral("flag")),
              QJsonValue(true));
    EXPECT_EQ(ArgumentValidator::validate(schema, {{QStringLiteral("flag"), QStringLiteral("Off")}})
                  ->value(QStringLiteral("flag")),
              QJsonValue(false));
    EXPECT_FALSE(ArgumentValidator::validate(schema, {{QStringLiteral("flag"), QStringLiteral("maybe")}}).ok());
}
