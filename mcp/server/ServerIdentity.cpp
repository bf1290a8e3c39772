#include "mcp/server/ServerIdentity.h"

#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"
#include "mcp/protocol/RequestMeta.h"
#include "mcp/tools/SkillResources.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace sandbox::mcp {

namespace {

const QString kInstructions = QStringLiteral(
    "Runs code in isolated, hardened containers (no network by default). Use execute_code to run Python, "
    "JavaScript, Java, C++, Go, R or Ruby; the result holds exit code, stdout, stderr, resource usage and why the "
    "program stopped, and every chart the code draws comes back as an image. get_language_details lists a "
    "language's preinstalled libraries and examples. How to use it well (sessions, charts and tables as data, "
    "limits, errors): the skill skill://llm-sandbox/SKILL.md (in Chinese: skill://llm-sandbox-zh/SKILL.md).");

/// The extensions this server offers to every client: the Skills extension's skills/list and skills/get.
QJsonObject extensions()
{
    return QJsonObject{{SkillResources::kExtension, QJsonObject()}};
}

} // namespace

ServerIdentity::ServerIdentity(QString version)
    : m_version(version.isEmpty() ? QCoreApplication::applicationVersion() : std::move(version))
{}

QJsonObject ServerIdentity::serverInfo(const QString &revision) const
{
    QJsonObject info{{QStringLiteral("name"), kName}, {QStringLiteral("version"), m_version}};
    if (revision >= ProtocolVersion::kStructuredContent) {
        info.insert(QStringLiteral("title"), QStringLiteral("LLM Sandbox"));
    }
    return info;
}

QJsonObject ServerIdentity::initializeResult(const QString &revision) const
{
    QJsonObject capabilities{
        {QStringLiteral("logging"), QJsonObject()},
        {QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("subscribe"), true}, {QStringLiteral("listChanged"), false}}},
        {QStringLiteral("extensions"), extensions()},
    };
    if (revision >= ProtocolVersion::kTasks) {
        capabilities.insert(QStringLiteral("tasks"),
                            QJsonObject{{QStringLiteral("list"), QJsonObject()},
                                        {QStringLiteral("cancel"), QJsonObject()},
                                        {QStringLiteral("requests"),
                                         QJsonObject{{QStringLiteral("tools"),
                                                      QJsonObject{{QStringLiteral("call"), QJsonObject()}}}}}});
    }
    return QJsonObject{{QStringLiteral("protocolVersion"), revision},
                       {QStringLiteral("capabilities"), capabilities},
                       {QStringLiteral("serverInfo"), serverInfo(revision)},
                       {QStringLiteral("instructions"), kInstructions}};
}

QJsonObject ServerIdentity::discoverResult() const
{
    const QJsonObject capabilities{
        {QStringLiteral("logging"), QJsonObject()},
        {QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("subscribe"), false}, {QStringLiteral("listChanged"), false}}},
        {QStringLiteral("prompts"), QJsonObject{{QStringLiteral("listChanged"), false}}},
        {QStringLiteral("extensions"), extensions()},
    };
    return completeResult(
        QJsonObject{{QStringLiteral("supportedVersions"), QJsonArray::fromStringList(ProtocolVersion::perRequest())},
                    {QStringLiteral("capabilities"), capabilities},
                    {QStringLiteral("instructions"), kInstructions}},
        kListTtlMs);
}

QJsonObject ServerIdentity::completeResult(QJsonObject result, std::optional<int> ttlMs) const
{
    result.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
    QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
    meta.insert(RequestMeta::kServerInfo, serverInfo(ProtocolVersion::kStateless));
    result.insert(QStringLiteral("_meta"), meta);
    if (ttlMs) {
        // Nothing here depends on who asks: the token only decides whether one may ask at all.
        result.insert(QStringLiteral("ttlMs"), *ttlMs);
        result.insert(QStringLiteral("cacheScope"), QStringLiteral("public"));
    }
    return result;
}

QJsonObject ServerIdentity::logMessage(LogLevel level, const QString &message)
{
    return jsonrpc::makeNotification(QStringLiteral("notifications/message"),
                                     QJsonObject{{QStringLiteral("level"), toString(level)},
                                                 {QStringLiteral("logger"), kName},
                                                 {QStringLiteral("data"), message}});
}

} // namespace sandbox::mcp
