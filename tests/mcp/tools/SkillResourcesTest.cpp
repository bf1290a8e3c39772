// The Skills extension (io.modelcontextprotocol/skills, SEP-2640) through the dispatcher: advertised to 2025-11-25
// and 2026-07-28 clients, skills/list and skills/get with the spec's entry shape and a digest of what resources/read
// serves, the same SKILL.md as a plain resource, and its text made from the language registry the tools use.
#include "mcp/tools/SkillResources.h"

#include "lang/LanguageRegistry.h"
#include "mcp/McpTestSupport.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/RequestMeta.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

const QString kSkill = QStringLiteral("skill://llm-sandbox/SKILL.md");

QJsonObject withMeta(QJsonObject params)
{
    params.insert(QStringLiteral("_meta"),
                  QJsonObject{{RequestMeta::kProtocolVersion, QStringLiteral("2026-07-28")},
                              {RequestMeta::kClientInfo, QJsonObject{{QStringLiteral("name"), QStringLiteral("c")},
                                                                     {QStringLiteral("version"), QStringLiteral("1")}}},
                              {RequestMeta::kClientCapabilities, QJsonObject()}});
    return params;
}

class SkillResourcesTest : public ::testing::Test
{
protected:
    SkillResourcesTest()
        : dispatcher(SandboxTools::tools(CodeExecutor(RunFunction())), SandboxTools::resources(), recorder.sink())
    {}

    QJsonObject reply(const QByteArray &message) { return replyTo(dispatcher, message).object(); }
    QJsonObject result(const QByteArray &message) { return reply(message).value(QStringLiteral("result")).toObject(); }
    QString read(const QString &uri)
    {
        return result(request(9, QStringLiteral("resources/read"), QJsonObject{{QStringLiteral("uri"), uri}}))
            .value(QStringLiteral("contents"))
            .toArray()
            .at(0)
            .toObject()
            .value(QStringLiteral("text"))
            .toString();
    }

    SinkRecorder recorder;
    McpDispatcher dispatcher;
};

} // namespace

TEST_F(SkillResourcesTest, theExtensionIsAdvertisedAndSkillsListedWithADigestOfWhatIsRead)
{
    const QJsonObject capabilities =
        result(initializeRequest(0, QStringLiteral("2025-11-25"))).value(QStringLiteral("capabilities")).toObject();
    EXPECT_TRUE(
        capabilities.value(QStringLiteral("extensions")).toObject().value(SkillResources::kExtension).isObject());

    const QJsonArray skills =
        result(request(1, QStringLiteral("skills/list"))).value(QStringLiteral("skills")).toArray();
    ASSERT_EQ(skills.size(), 2);
    const QJsonObject english = skills.at(0).toObject();
    EXPECT_EQ(english.value(QStringLiteral("uri")).toString(), kSkill);
    const QJsonObject frontmatter = english.value(QStringLiteral("frontmatter")).toObject();
    EXPECT_EQ(frontmatter.value(QStringLiteral("name")).toString(), QStringLiteral("llm-sandbox"));
    EXPECT_FALSE(frontmatter.value(QStringLiteral("description")).toString().isEmpty());
    EXPECT_EQ(skills.at(1).toObject().value(QStringLiteral("frontmatter")).toObject().value(QStringLiteral("name")),
              QStringLiteral("llm-sandbox-zh"));

    // The skill's one file is what resources/read serves, byte for byte.
    const QJsonArray files = english.value(QStringLiteral("resources")).toArray();
    ASSERT_EQ(files.size(), 1);
    const QByteArray text = read(kSkill).toUtf8();
    ASSERT_TRUE(text.startsWith("---\nname: llm-sandbox\ndescription: ")) << text.left(200).constData();
    EXPECT_EQ(files.at(0).toObject().value(QStringLiteral("uri")).toString(), kSkill);
    EXPECT_EQ(files.at(0).toObject().value(QStringLiteral("size")).toInteger(), text.size());
    EXPECT_EQ(files.at(0).toObject().value(QStringLiteral("digest")).toString(),
              QStringLiteral("sha256:") +
                  QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex()));

    // A plain resource too, for clients without the extension.
    const QJsonArray listed =
        result(request(2, QStringLiteral("resources/list"))).value(QStringLiteral("resources")).toArray();
    QStringList uris;
    for (const QJsonValue &resource : listed) {
        uris << resource.toObject().value(QStringLiteral("uri")).toString();
    }
    EXPECT_TRUE(uris.contains(kSkill)) << qPrintable(uris.join(QLatin1Char(' ')));
    EXPECT_TRUE(uris.contains(QStringLiteral("skill://llm-sandbox-zh/SKILL.md")));
}

TEST_F(SkillResourcesTest, getAnswersTheSkillOrInvalidParamsAndThe2026RevisionGetsCachingHints)
{
    initializeSession(dispatcher);
    const QJsonObject got =
        result(request(1, QStringLiteral("skills/get"), QJsonObject{{QStringLiteral("uri"), kSkill}}));
    EXPECT_EQ(got.value(QStringLiteral("skill")).toObject().value(QStringLiteral("uri")).toString(), kSkill);
    const QJsonObject unknown =
        reply(request(2, QStringLiteral("skills/get"),
                      QJsonObject{{QStringLiteral("uri"), QStringLiteral("skill://other/SKILL.md")}}))
            .value(QStringLiteral("error"))
            .toObject();
    EXPECT_EQ(unknown.value(QStringLiteral("code")).toInt(), -32602);
    EXPECT_TRUE(unknown.value(QStringLiteral("message")).toString().contains(QLatin1String("skill://other")));

    const QJsonObject listed = result(request(3, QStringLiteral("skills/list"), withMeta(QJsonObject())));
    EXPECT_EQ(listed.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    EXPECT_EQ(listed.value(QStringLiteral("skills")).toArray().size(), 2);
    EXPECT_GT(listed.value(QStringLiteral("ttlMs")).toInt(), 0);
    EXPECT_FALSE(listed.value(QStringLiteral("cacheScope")).toString().isEmpty());
    const QJsonObject perRequest =
        result(request(4, QStringLiteral("skills/get"), withMeta(QJsonObject{{QStringLiteral("uri"), kSkill}})));
    EXPECT_EQ(perRequest.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    const QJsonObject discovered = result(request(5, QStringLiteral("server/discover"), withMeta(QJsonObject())));
    EXPECT_TRUE(discovered.value(QStringLiteral("capabilities"))
                    .toObject()
                    .value(QStringLiteral("extensions"))
                    .toObject()
                    .contains(SkillResources::kExtension));
}

// What the skill says comes from the registry the tools are made from: every language and its package manager, and
// the limits of the settings; both languages have the same sections.
TEST_F(SkillResourcesTest, theSkillIsMadeFromTheLanguageRegistryInEnglishAndChinese)
{
    initializeSession(dispatcher);
    const QString english = read(kSkill);
    const QString chinese = read(QStringLiteral("skill://llm-sandbox-zh/SKILL.md"));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        EXPECT_TRUE(english.contains(
            QStringLiteral("| `%1` (%2) | %3 |").arg(language.name, language.displayName, language.packageManager)))
            << qPrintable(language.name);
        EXPECT_TRUE(chinese.contains(
            QStringLiteral("| `%1`（%2） | %3 |").arg(language.name, language.displayName, language.packageManager)))
            << qPrintable(language.name);
    }
    EXPECT_TRUE(english.contains(QLatin1String("- time: 30 s unless the call gives `timeout`")));
    EXPECT_TRUE(chinese.contains(QStringLiteral("- 时间：30 秒")));
    EXPECT_EQ(english.count(QLatin1String("\n## ")), chinese.count(QLatin1String("\n## ")));
    // Nobody shared a folder or allowed a host here: the skill does not mention them.
    EXPECT_FALSE(english.contains(QLatin1String("## The user's folders")));
    EXPECT_FALSE(english.contains(QLatin1String("## Network")));
}
