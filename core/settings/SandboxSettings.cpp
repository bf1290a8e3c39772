#include "settings/SandboxSettings.h"

#include "engine/EnforcedLimits.h"
#include "lang/LanguageRegistry.h"
#include "libraries/LibraryCache.h"
#include "security/CodePolicy.h"
#include "security/PolicyRulesFile.h"

#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QThread>

Q_LOGGING_CATEGORY(lcSettings, "sandbox.settings")

namespace sandbox {

Result<qint64> parseByteSize(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)i?b?\s*$)"),
                                            QRegularExpression::CaseInsensitiveOption);
    const auto match = pattern.match(text);
    if (!match.hasMatch()) {
        return Error{QStringLiteral("\"%1\" is not a size (use e.g. 512m or 2g)").arg(text)};
    }
    const double number = match.captured(1).toDouble();
    const QString unit = match.captured(2).toLower();
    double factor = 1;
    if (unit == QLatin1String("k")) {
        factor = 1024.0;
    } else if (unit == QLatin1String("m")) {
        factor = 1024.0 * 1024;
    } else if (unit == QLatin1String("g")) {
        factor = 1024.0 * 1024 * 1024;
    } else if (unit == QLatin1String("t")) {
        factor = 1024.0 * 1024 * 1024 * 1024;
    }
    return qint64(number * factor);
}

Result<bool> parseBoolean(const QString &text)
{
    const QString value = text.trimmed().toLower();
    if (value == QLatin1String("true") || value == QLatin1String("1") || value == QLatin1String("yes") ||
        value == QLatin1String("on")) {
        return true;
    }
    if (value == QLatin1String("false") || value == QLatin1String("0") || value == QLatin1String("no") ||
        value == QLatin1String("off")) {
        return false;
    }
    return Error{QStringLiteral("\"%1\" is not a boolean (use true/1/yes/on or false/0/no/off)").arg(text)};
}

QByteArray builtinSeccompProfile()
{
    static const QByteArray profile = [] {
        QFile file(QStringLiteral(":/seccomp/llm-sandbox.json"));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    return profile;
}

namespace {

/// The first of `names` that is set, with its name (for messages).
std::pair<QString, QString> firstSet(std::initializer_list<const char *> names)
{
    for (const char *name : names) {
        if (qEnvironmentVariableIsSet(name)) {
            return {QString::fromLatin1(name), qEnvironmentVariable(name)};
        }
    }
    return {};
}

Error badVariable(const QString &name, const QString &why)
{
    return Error{QStringLiteral("Invalid %1: %2.").arg(name, why)};
}

QStringList splitList(const QString &text)
{
    QStringList out;
    for (const QString &item : text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        out << item;
    }
    return out;
}

} // namespace

int SandboxSettings::defaultMaxRuns()
{
    return std::max(8, 4 * QThread::idealThreadCount());
}

Result<SandboxSettings> SandboxSettings::fromEnvironment(SandboxSettings defaults)
{
    SandboxSettings settings = std::move(defaults);

    if (auto [name, value] = firstSet({"SANDBOX_MEM_LIMIT", "SANDBOX_MEMORY"}); !name.isEmpty()) {
        auto bytes = parseByteSize(value);
        if (!bytes) {
            return badVariable(name, bytes.error().message);
        }
        if (*bytes < 16LL * 1024 * 1024) {
            return badVariable(name, QStringLiteral("at least 16m is needed"));
        }
        settings.memoryBytes = *bytes;
    }
    if (auto [name, value] = firstSet({"SANDBOX_CPU_COUNT", "SANDBOX_CPUS"}); !name.isEmpty()) {
        bool ok = false;
        const double cpus = value.toDouble(&ok);
        if (!ok || cpus <= 0 || cpus > 1024) {
            return badVariable(name, QStringLiteral("\"%1\" is not a CPU count (e.g. 1 or 0.5)").arg(value));
        }
        settings.cpus = cpus;
    }
    if (auto [name, value] = firstSet({"SANDBOX_NETWORK_MODE"}); !name.isEmpty()) {
        static const QRegularExpression networkName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]*$"));
        if (!networkName.match(value).hasMatch()) {
            return badVariable(name, QStringLiteral("\"%1\" is not a network name").arg(value));
        }
        if (value != QLatin1String("none")) {
            qCWarning(lcSettings) << "SANDBOX_NETWORK_MODE =" << value << ": sandboxes get network access";
        }
        settings.networkMode = value;
    }
    if (auto [name, value] = firstSet({"SANDBOX_RUNTIME"}); !name.isEmpty()) {
        static const QRegularExpression runtimeName(QStringLiteral("^([A-Za-z0-9][A-Za-z0-9_.-]*)?$"));
        if (!runtimeName.match(value.trimmed()).hasMatch()) {
            return badVariable(name, QStringLiteral("\"%1\" is not a runtime name (e.g. runsc)").arg(value));
        }
        settings.runtime = value.trimmed();
    }
    if (auto [name, value] = firstSet({"SANDBOX_READ_ONLY"}); !name.isEmpty()) {
        auto flag = parseBoolean(value);
        if (!flag) {
            return badVariable(name, flag.error().message);
        }
        settings.readOnlyRootfs = *flag;
    }
    if (auto [name, value] = firstSet({"SANDBOX_PRIVILEGED"}); !name.isEmpty()) {
        auto flag = parseBoolean(value);
        if (!flag) {
            return badVariable(name, flag.error().message);
        }
        if (*flag) {
            qCWarning(lcSettings) << "SANDBOX_PRIVILEGED is on: sandboxes run privileged";
        }
        settings.privileged = *flag;
    }
    if (auto [name, value] = firstSet({"SANDBOX_CAP_DROP"}); !name.isEmpty()) {
        settings.capDrop = splitList(value);
        if (!settings.capDrop.contains(QStringLiteral("ALL"), Qt::CaseInsensitive)) {
            qCWarning(lcSettings) << "SANDBOX_CAP_DROP does not drop ALL capabilities:" << settings.capDrop;
        }
    }
    if (auto [name, value] = firstSet({"SANDBOX_SECURITY_OPT"}); !name.isEmpty()) {
        settings.securityOpt = splitList(value);
        if (settings.securityOpt.contains(QStringLiteral("seccomp=unconfined"))) {
            qCWarning(lcSettings)
                << "SANDBOX_SECURITY_OPT has seccomp=unconfined: sandboxes run without a seccomp filter";
        }
    }
    bool engineProfile = false;
    if (auto [name, value] = firstSet({"SANDBOX_SECCOMP_PROFILE"}); !name.isEmpty()) {
        engineProfile = value == QLatin1String("engine");
        if (engineProfile) {
            qCWarning(lcSettings) << "SANDBOX_SECCOMP_PROFILE=engine: sandboxes get the engine's default seccomp "
                                     "profile, which allows more (Podman's: user namespaces)";
            settings.seccompProfile.clear();
        } else if (value != QLatin1String("builtin")) {
            QFile file(value);
            if (!file.open(QIODevice::ReadOnly)) {
                return badVariable(name, QStringLiteral("cannot read %1 (%2); use builtin, engine or the path of a "
                                                        "seccomp profile")
                                             .arg(value, file.errorString()));
            }
            settings.seccompProfile = file.readAll();
            const QJsonObject profile = QJsonDocument::fromJson(settings.seccompProfile).object();
            if (!profile.contains(QStringLiteral("defaultAction"))) {
                return badVariable(name, QStringLiteral("%1 is not a seccomp profile (a JSON object with "
                                                        "\"defaultAction\")")
                                             .arg(value));
            }
        }
    }
    // Never a silent fall back to the engine's more permissive profile.
    if (settings.seccompProfile.isEmpty() && !engineProfile) {
        return Error{QStringLiteral("The built-in seccomp profile (:/seccomp/llm-sandbox.json) is missing from this "
                                    "build of llm-sandbox: rebuild it, or set SANDBOX_SECCOMP_PROFILE to the path of "
                                    "a profile (or to engine for the engine's own)."),
                     ErrorCode::BadRequest};
    }
    for (const Language &language : LanguageRegistry::instance().languages()) {
        const QByteArray variable = "LLM_SANDBOX_IMAGE_" + language.name.toUpper().toLatin1();
        if (const QString image = qEnvironmentVariable(variable.constData()); !image.isEmpty()) {
            settings.imageOverrides.insert(language.name, image);
        }
    }
    settings.baseImage = qEnvironmentVariable("LLM_SANDBOX_BASE_IMAGE");
    if (auto [name, value] = firstSet({"SANDBOX_ALLOW_UNENFORCED_LIMITS"}); !name.isEmpty()) {
        const QStringList known = EnforcedLimits::limitNames();
        QStringList accepted;
        for (const QString &limit : splitList(value)) {
            if (limit == QLatin1String("all")) {
                accepted = known;
                break;
            }
            if (!known.contains(limit)) {
                return badVariable(name, QStringLiteral("\"%1\" is not a limit; use a comma list of %2, or all")
                                             .arg(limit, known.join(QStringLiteral(", "))));
            }
            accepted.append(limit);
        }
        settings.allowUnenforcedLimits = accepted;
    }
    if (auto [name, value] = firstSet({"SANDBOX_POLICY"}); !name.isEmpty()) {
        auto policy = CodePolicy::preset(value);
        if (!policy) {
            return badVariable(name, policy.error().message);
        }
        settings.policy = policy->name();
    }
    if (auto [name, value] = firstSet({"LLM_SANDBOX_SHARE"}); !name.isEmpty()) {
        auto folders = SharedFolder::parseList(value);
        if (!folders) {
            return badVariable(name, folders.error().message);
        }
        settings.sharedFolders = *folders;
    }
    if (auto [name, value] = firstSet({"LLM_SANDBOX_SHARE_OVERWRITE"}); !name.isEmpty()) {
        auto flag = parseBoolean(value);
        if (!flag) {
            return badVariable(name, flag.error().message);
        }
        settings.shareOverwrite = *flag;
    }
    if (auto [name, value] = firstSet({"LLM_SANDBOX_NETWORK_ALLOW"}); !name.isEmpty()) {
        auto allowed = NetworkAllowList::parse(value);
        if (!allowed) {
            return badVariable(name, allowed.error().message);
        }
        settings.networkAllow = *allowed;
    }
    if (auto [name, value] = firstSet({"LLM_SANDBOX_PROXY_NETWORK"}); !name.isEmpty()) {
        if (value == QLatin1String("none") || value == QLatin1String("host")) {
            return badVariable(name, QStringLiteral("the egress proxy needs a network of its own: name a bridge "
                                                    "network"));
        }
        settings.proxyNetwork = value;
    }
    if (auto [name, value] = firstSet({"LLM_SANDBOX_PROXY_HOSTS"}); !name.isEmpty()) {
        for (const QString &entry : splitList(value)) {
            const QString host = entry.section(u'=', 0, 0).trimmed().toLower();
            const QHostAddress address(entry.section(u'=', 1).trimmed());
            auto parsed = NetworkHost::parse(host);
            if (!entry.contains(u'=') || address.isNull() || !parsed || parsed->isWildcard() ||
                !parsed->ports.isEmpty() || !QHostAddress(host).isNull()) {
                return badVariable(name, QStringLiteral("\"%1\" is not NAME=IP-ADDRESS").arg(entry));
            }
            settings.proxyHosts.insert(host, address.toString());
        }
    }
    if (auto [name, value] = firstSet({"LLM_SANDBOX_PROXY_TRUST"}); !name.isEmpty()) {
        QFile file(value);
        if (!file.open(QIODevice::ReadOnly)) {
            return badVariable(name, QStringLiteral("cannot read %1 (%2)").arg(value, file.errorString()));
        }
        settings.proxyTrust = file.read(1024 * 1024);
        if (!settings.proxyTrust.contains("-----BEGIN CERTIFICATE-----")) {
            return badVariable(name, QStringLiteral("%1 holds no PEM certificate").arg(value));
        }
    }
    settings.libraryCacheFolder = LibraryCache::defaultFolder();
    auto policyRules = PolicyRulesFile::load();
    if (!policyRules) {
        return policyRules.error();
    }
    settings.policyRules = *policyRules;
    const struct
    {
        const char *name;
        int minimum;
        int maximum;
        int *target;
    } integers[] = {
        {"LLM_SANDBOX_POOL_SIZE", 0, 64, &settings.poolSize},
        {"LLM_SANDBOX_POOL_MAX_USES", 1, 100000, &settings.poolMaxUses},
        {"LLM_SANDBOX_MAX_ARTIFACTS", 0, 10000, &settings.maxArtifacts},
        {"LLM_SANDBOX_MAX_SESSIONS", 0, 64, &settings.maxSessions},
        {"LLM_SANDBOX_MAX_RUNS", 1, 1024, &settings.maxRuns},
    };
    for (const auto &integer : integers) {
        if (auto [name, value] = firstSet({integer.name}); !name.isEmpty()) {
            bool ok = false;
            const int number = value.toInt(&ok);
            if (!ok || number < integer.minimum || number > integer.maximum) {
                return badVariable(name, QStringLiteral("\"%1\" is not a whole number from %2 to %3")
                                             .arg(value)
                                             .arg(integer.minimum)
                                             .arg(integer.maximum));
            }
            *integer.target = number;
        }
    }
    const struct
    {
        const char *name;
        qint64 *target;
    } artifactSizes[] = {
        {"LLM_SANDBOX_MAX_ARTIFACT_BYTES", &settings.maxArtifactBytes},
        {"LLM_SANDBOX_MAX_ARTIFACTS_TOTAL_BYTES", &settings.maxArtifactsTotalBytes},
        {"LLM_SANDBOX_INSTALL_SCRATCH", &settings.installScratchBytes},
        {"LLM_SANDBOX_LIBRARY_CACHE_SIZE", &settings.libraryCacheBytes},
    };
    for (const auto &size : artifactSizes) {
        if (auto [name, value] = firstSet({size.name}); !name.isEmpty()) {
            auto bytes = parseByteSize(value);
            if (!bytes) {
                return badVariable(name, bytes.error().message);
            }
            *size.target = *bytes;
        }
    }
    const struct
    {
        const char *name;
        int maximum;
        std::chrono::seconds *target;
    } durations[] = {
        {"SANDBOX_CPU_TIME_LIMIT", 86400, &settings.cpuTimeLimit},
        {"LLM_SANDBOX_POOL_IDLE_SECONDS", 86400, &settings.poolIdleTimeout},
        {"LLM_SANDBOX_SESSION_IDLE_SECONDS", 7 * 86400, &settings.sessionIdleTimeout},
        {"LLM_SANDBOX_DEFAULT_TIMEOUT", 3600, &settings.defaultTimeout},
    };
    for (const auto &duration : durations) {
        if (auto [name, value] = firstSet({duration.name}); !name.isEmpty()) {
            bool ok = false;
            const int seconds = value.toInt(&ok);
            if (!ok || seconds < 1 || seconds > duration.maximum) {
                return badVariable(
                    name,
                    QStringLiteral("\"%1\" is not a number of seconds from 1 to %2").arg(value).arg(duration.maximum));
            }
            *duration.target = std::chrono::seconds(seconds);
        }
    }
    return settings;
}

} // namespace sandbox
