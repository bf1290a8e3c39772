#include "network/NetworkSecret.h"

#include "util/PrivateFiles.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>

namespace sandbox {

namespace {

constexpr qsizetype kMaxValueBytes = 8 * 1024;

Error badRequest(const QString &message)
{
    return Error{message, ErrorCode::BadRequest};
}

} // namespace

bool NetworkSecret::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^[A-Z_][A-Z0-9_]{0,63}$)"));
    // Not a variable that the sandbox or its proxy relies on.
    static const QStringList reserved{QStringLiteral("PATH"),
                                      QStringLiteral("HOME"),
                                      QStringLiteral("USER"),
                                      QStringLiteral("SHELL"),
                                      QStringLiteral("LANG"),
                                      QStringLiteral("TMPDIR"),
                                      QStringLiteral("PYTHONPATH"),
                                      QStringLiteral("NODE_OPTIONS"),
                                      QStringLiteral("LD_PRELOAD"),
                                      QStringLiteral("LD_LIBRARY_PATH"),
                                      QStringLiteral("HTTP_PROXY"),
                                      QStringLiteral("HTTPS_PROXY"),
                                      QStringLiteral("NO_PROXY"),
                                      QStringLiteral("SSL_CERT_FILE"),
                                      QStringLiteral("REQUESTS_CA_BUNDLE"),
                                      QStringLiteral("CURL_CA_BUNDLE"),
                                      QStringLiteral("GIT_SSL_CAINFO"),
                                      QStringLiteral("NODE_EXTRA_CA_CERTS"),
                                      QStringLiteral("JAVA_TOOL_OPTIONS")};
    return pattern.match(name).hasMatch() && !reserved.contains(name) && !name.startsWith(QLatin1String("LLM_SANDBOX"));
}

Result<NetworkSecret> NetworkSecret::make(const QString &name, const QStringList &hosts, const QString &header)
{
    if (!isValidName(name)) {
        return badRequest(QStringLiteral("A secret's name is the environment variable a run sees it in: capital "
                                         "letters, digits and _, not starting with a digit, at most 64, and not one "
                                         "the sandbox uses itself (\"%1\" is not one).")
                              .arg(name.left(80)));
    }
    if (hosts.isEmpty()) {
        return badRequest(
            QStringLiteral("The secret %1 needs the hosts it may be sent to (--host api.example.org).").arg(name));
    }
    NetworkSecret secret{.name = name, .hosts = {}, .header = header.trimmed(), .createdAt = {}};
    for (const QString &host : hosts) {
        auto parsed = NetworkHost::parse(host.trimmed());
        if (!parsed || !parsed->ports.isEmpty() || parsed->isWildcard() || !QHostAddress(parsed->pattern).isNull()) {
            return badRequest(QStringLiteral("A secret is bound to host names as they are, without port or wildcard "
                                             "(\"%1\" is not one).")
                                  .arg(host.left(260)));
        }
        if (!secret.hosts.contains(parsed->pattern)) {
            secret.hosts << parsed->pattern;
        }
    }
    static const QRegularExpression headerPattern(QStringLiteral(R"(^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}):[ \t]*(.*)$)"));
    const auto match = headerPattern.match(secret.header);
    const QString valueTemplate = match.hasMatch() ? match.captured(2) : QString();
    if (!match.hasMatch() || valueTemplate.count(QStringLiteral("{}")) != 1 ||
        std::any_of(valueTemplate.cbegin(), valueTemplate.cend(),
                    [](QChar c) { return c.unicode() < 0x20 || c.unicode() > 0x7e || c == u'"' || c == u'\\'; })) {
        return badRequest(QStringLiteral("The header of the secret %1 is \"Name: value\" with {} once where the secret "
                                         "goes, in printable ASCII without quotes or backslashes, e.g. "
                                         "'Authorization: Bearer {}'.")
                              .arg(name));
    }
    secret.header = match.captured(1) + QStringLiteral(": ") + valueTemplate;
    secret.createdAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    return secret;
}

Result<void> NetworkSecret::checkValue(const QByteArray &value)
{
    if (value.isEmpty()) {
        return badRequest(QStringLiteral("The secret's value is empty."));
    }
    if (value.size() > kMaxValueBytes) {
        return badRequest(QStringLiteral("The secret's value is longer than %1 bytes.").arg(kMaxValueBytes));
    }
    if (std::any_of(value.cbegin(), value.cend(),
                    [](char c) { return c < 0x20 || c > 0x7e || c == '"' || c == '\\'; })) {
        return badRequest(QStringLiteral("The secret's value can go into a header only as printable ASCII without "
                                         "quotes or backslashes (a line break at its end is not part of it)."));
    }
    return {};
}

QString NetworkSecret::headerName() const
{
    return header.section(u':', 0, 0);
}

QByteArray NetworkSecret::headerValue(const QByteArray &value) const
{
    QByteArray result = header.section(u':', 1).trimmed().toLatin1();
    return result.replace("{}", value);
}

bool NetworkSecret::isReachableWith(const NetworkAllowList &granted) const
{
    return std::any_of(hosts.cbegin(), hosts.cend(), [&granted](const QString &host) {
        return std::any_of(granted.hosts().cbegin(), granted.hosts().cend(),
                           [&host](const NetworkHost &allowed) { return allowed.covers(host); });
    });
}

QJsonObject NetworkSecret::toJson() const
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("hosts"), QJsonArray::fromStringList(hosts)},
            {QStringLiteral("header"), header},
            {QStringLiteral("created_at"), createdAt}};
}

Result<NetworkSecret> NetworkSecret::fromJson(const QJsonObject &json)
{
    QStringList hosts;
    for (const QJsonValue host : json.value(QStringLiteral("hosts")).toArray()) {
        hosts << host.toString();
    }
    auto secret =
        make(json.value(QStringLiteral("name")).toString(), hosts, json.value(QStringLiteral("header")).toString());
    if (secret) {
        secret->createdAt = json.value(QStringLiteral("created_at")).toString();
    }
    return secret;
}

QString GrantedSecret::makePlaceholder(const QString &name)
{
    QByteArray random(16, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(random.data()), random.size() / 4);
    return QStringLiteral("LLMSANDBOX_PLACEHOLDER_%1_%2").arg(name, QString::fromLatin1(random.toHex()));
}

QString NetworkSecretsFile::path()
{
    if (QString path = qEnvironmentVariable("LLM_SANDBOX_SECRETS_FILE"); !path.isEmpty()) {
        return path;
    }
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/llm-sandbox/secrets.json");
}

Result<QList<NetworkSecret>> NetworkSecretsFile::load(const QString &path)
{
    QFile file(path);
    if (!file.exists()) {
        return QList<NetworkSecret>();
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("Cannot read the secrets file %1: %2.").arg(path, file.errorString())};
    }
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(file.read(1024 * 1024), &parseError);
    if (!document.isObject()) {
        return Error{QStringLiteral("The secrets file %1 is not one (%2): fix or remove it.")
                         .arg(path, parseError.errorString())};
    }
    QList<NetworkSecret> secrets;
    for (const QJsonValue entry : document.object().value(QStringLiteral("secrets")).toArray()) {
        auto secret = NetworkSecret::fromJson(entry.toObject());
        if (!secret) {
            return Error{QStringLiteral("The secrets file %1 has an entry that is not one: %2")
                             .arg(path, secret.error().message)};
        }
        secrets << *secret;
    }
    return secrets;
}

Result<void> NetworkSecretsFile::save(const QList<NetworkSecret> &secrets, const QString &path)
{
    QJsonArray entries;
    for (const NetworkSecret &secret : secrets) {
        entries.append(secret.toJson());
    }
    const QJsonObject document{{QStringLiteral("version"), 1}, {QStringLiteral("secrets"), entries}};
    QString error;
    if (!PrivateFiles::makeDirectory(QFileInfo(path).absolutePath()) ||
        !PrivateFiles::write(path, QJsonDocument(document).toJson(), &error)) {
        return Error{QStringLiteral("Cannot write the secrets file %1: %2.").arg(path, error)};
    }
    return {};
}

} // namespace sandbox
