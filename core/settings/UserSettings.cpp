#include "settings/UserSettings.h"

#include <QDir>
#include <algorithm>

namespace sandbox {

namespace {

const QString kBackend = QStringLiteral("engine/backend");
const QString kDockerHost = QStringLiteral("docker/host");
const QString kDockerTlsPath = QStringLiteral("docker/tlsPath");
const QString kContainerHost = QStringLiteral("podman/host");
const QString kKubeconfig = QStringLiteral("kubernetes/kubeconfig");
const QString kKubeContext = QStringLiteral("kubernetes/context");
const QString kKubeNamespace = QStringLiteral("kubernetes/namespace");
const QString kRegistry = QStringLiteral("kubernetes/registry");
const QString kRuntimeKey = QStringLiteral("engine/runtime");
const QString kDefaultTimeoutKey = QStringLiteral("engine/defaultTimeoutSeconds");
const QString kJournalMaxAge = QStringLiteral("journal/maxAgeDays");
const QString kJournalMaxSize = QStringLiteral("journal/maxSizeMiB");
const QString kServerStartsWithApp = QStringLiteral("server/startWithApp");
const QString kServerPort = QStringLiteral("server/port");
const QString kServerKeepsRunningInTray = QStringLiteral("server/keepRunningInTray");
const QString kLanguage = QStringLiteral("app/language");
const QString kSharedFolders = QStringLiteral("folders/shared");
const QString kNetworkAllow = QStringLiteral("network/allow");
const QString kAddedServersObjects = QStringLiteral("assistants/addedServersObjects");

/// A stored integer within [low, high]; anything else (hand-edited files) is the default.
int boundedInt(const QSettings &settings, const QString &key, int fallback, int low, int high)
{
    bool ok = false;
    const int value = settings.value(key, fallback).toInt(&ok);
    return ok && value >= low && value <= high ? value : fallback;
}

/// A shared folder as kept in the file: SharedFolder::text() with the mode always said, so that a read-only folder
/// named "rw" is not read back as a writable one.
QString storedText(const SharedFolder &folder)
{
    return folder.path + QLatin1Char(':') + folder.name +
           (folder.writable ? QStringLiteral(":rw") : QStringLiteral(":ro"));
}

} // namespace

UserSettings::UserSettings(QObject *parent)
    : QObject(parent), m_settings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("llm-sandbox"),
                                  QStringLiteral("llm-sandbox"))
{}

QString UserSettings::backend() const
{
    m_settings.sync();
    return m_settings.value(kBackend).toString().trimmed().toLower();
}

QString UserSettings::effectiveBackend() const
{
    const QString fromEnvironment = qEnvironmentVariable("BACKEND").trimmed().toLower();
    if (!fromEnvironment.isEmpty()) {
        return fromEnvironment;
    }
    return chosenBackend();
}

QString UserSettings::chosenBackend() const
{
    const QString chosen = backend();
    return chosen.isEmpty() ? defaultBackend() : chosen;
}

void UserSettings::setBackend(const QString &backend)
{
    write(kBackend, backend.trimmed().toLower());
}

BackendConnection UserSettings::connection() const
{
    m_settings.sync();
    const auto text = [this](const QString &key) {
        return m_settings.value(key).toString().trimmed();
    };
    return BackendConnection{.dockerHost = text(kDockerHost),
                             .dockerTlsPath = text(kDockerTlsPath),
                             .containerHost = text(kContainerHost),
                             .kubeconfig = text(kKubeconfig),
                             .kubeContext = text(kKubeContext),
                             .kubeNamespace = text(kKubeNamespace),
                             .registry = text(kRegistry)};
}

void UserSettings::setConnection(const BackendConnection &connection)
{
    if (connection == this->connection()) {
        return;
    }
    const std::pair<QString, QString> values[] = {
        {kDockerHost, connection.dockerHost},       {kDockerTlsPath, connection.dockerTlsPath},
        {kContainerHost, connection.containerHost}, {kKubeconfig, connection.kubeconfig},
        {kKubeContext, connection.kubeContext},     {kKubeNamespace, connection.kubeNamespace},
        {kRegistry, connection.registry},
    };
    for (const auto &[key, value] : values) {
        if (value.trimmed().isEmpty()) {
            m_settings.remove(key);
        } else {
            m_settings.setValue(key, value.trimmed());
        }
    }
    m_settings.sync();
    emit changed();
}

QString UserSettings::runtime() const
{
    m_settings.sync();
    return m_settings.value(kRuntimeKey).toString().trimmed();
}

void UserSettings::setRuntime(const QString &runtime)
{
    write(kRuntimeKey, runtime.trimmed());
}

std::chrono::seconds UserSettings::defaultTimeout() const
{
    m_settings.sync();
    return std::chrono::seconds(boundedInt(m_settings, kDefaultTimeoutKey, int(kDefaultTimeout.count()), 1, 86400));
}

void UserSettings::setDefaultTimeout(std::chrono::seconds timeout)
{
    write(kDefaultTimeoutKey, qlonglong(std::clamp<qint64>(timeout.count(), 1, 86400)));
}

QList<SharedFolder> UserSettings::sharedFolders() const
{
    m_settings.sync();
    // One "PATH:NAME:rw" or "PATH:NAME:ro" per entry (a mode always: a folder named "rw" stays read-only), read
    // without parse()'s checks of the disk: a folder that has gone is still the user's choice, shown as such on the
    // Folders page. Entries no editor wrote are left out.
    QList<SharedFolder> folders;
    for (const QString &entry : m_settings.value(kSharedFolders).toStringList()) {
        SharedFolder folder;
        QString rest = entry;
        if (!rest.endsWith(QLatin1String(":rw")) && !rest.endsWith(QLatin1String(":ro"))) {
            continue;
        }
        folder.writable = rest.endsWith(QLatin1String(":rw"));
        rest.chop(3);
        const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
        if (colon <= 0) {
            continue;
        }
        folder.path = rest.left(colon);
        folder.name = rest.mid(colon + 1);
        const bool taken = std::any_of(folders.cbegin(), folders.cend(),
                                       [&folder](const SharedFolder &other) { return other.name == folder.name; });
        if (QDir::isAbsolutePath(folder.path) && SharedFolder::nameIsValid(folder.name) && !taken) {
            folders << folder;
        }
    }
    return folders;
}

void UserSettings::setSharedFolders(const QList<SharedFolder> &folders)
{
    QStringList entries;
    for (const SharedFolder &folder : folders) {
        entries << storedText(folder);
    }
    if (entries.isEmpty()) {
        if (m_settings.contains(kSharedFolders)) {
            m_settings.remove(kSharedFolders);
            m_settings.sync();
            emit changed();
        }
        return;
    }
    write(kSharedFolders, entries);
}

QList<SharedFolder> UserSettings::usableSharedFolders() const
{
    QList<SharedFolder> usable;
    for (const SharedFolder &folder : sharedFolders()) {
        // Checked again at each start: the folder may have gone, or become a link to somewhere else.
        if (auto checked = SharedFolder::parse(storedText(folder)); checked) {
            usable << *checked;
        }
    }
    return usable;
}

NetworkAllowList UserSettings::networkAllow() const
{
    m_settings.sync();
    // A hand-edited entry that does not parse allows nothing, never more than the user wrote.
    auto allowed = NetworkAllowList::parse(m_settings.value(kNetworkAllow).toString());
    return allowed ? *allowed : NetworkAllowList();
}

void UserSettings::setNetworkAllow(const NetworkAllowList &allowed)
{
    if (allowed.isEmpty()) {
        if (m_settings.contains(kNetworkAllow)) {
            m_settings.remove(kNetworkAllow);
            m_settings.sync();
            emit changed();
        }
        return;
    }
    write(kNetworkAllow, allowed.text());
}

bool UserSettings::serverStartsWithApp() const
{
    m_settings.sync();
    return m_settings.value(kServerStartsWithApp, false).toBool();
}

void UserSettings::setServerStartsWithApp(bool starts)
{
    write(kServerStartsWithApp, starts);
}

bool UserSettings::serverKeepsRunningInTray() const
{
    m_settings.sync();
    return m_settings.value(kServerKeepsRunningInTray, true).toBool();
}

void UserSettings::setServerKeepsRunningInTray(bool keeps)
{
    write(kServerKeepsRunningInTray, keeps);
}

int UserSettings::serverPort() const
{
    m_settings.sync();
    return boundedInt(m_settings, kServerPort, kDefaultServerPort, 1, 65535);
}

void UserSettings::setServerPort(int port)
{
    write(kServerPort, std::clamp(port, 1, 65535));
}

QString UserSettings::language() const
{
    m_settings.sync();
    const QString language = m_settings.value(kLanguage).toString();
    return languages().contains(language) ? language : QString();
}

void UserSettings::setLanguage(const QString &language)
{
    write(kLanguage, languages().contains(language) ? language : QString());
}

const QStringList &UserSettings::languages()
{
    static const QStringList languages{QStringLiteral("en"), QStringLiteral("zh_CN")};
    return languages;
}

int UserSettings::journalMaxAgeDays() const
{
    m_settings.sync();
    return boundedInt(m_settings, kJournalMaxAge, kDefaultJournalMaxAgeDays, 1, 36500);
}

void UserSettings::setJournalMaxAgeDays(int days)
{
    write(kJournalMaxAge, std::clamp(days, 1, 36500));
}

int UserSettings::journalMaxSizeMiB() const
{
    m_settings.sync();
    return boundedInt(m_settings, kJournalMaxSize, kDefaultJournalMaxSizeMiB, 16, 1024 * 1024);
}

void UserSettings::setJournalMaxSizeMiB(int mebibytes)
{
    write(kJournalMaxSize, std::clamp(mebibytes, 16, 1024 * 1024));
}

void UserSettings::write(const QString &key, const QVariant &value)
{
    if (m_settings.value(key) == value) {
        return;
    }
    m_settings.setValue(key, value);
    m_settings.sync(); // another process (an MCP server starting) reads the file, not our memory
    emit changed();
}

bool UserSettings::addedServersObject(const QString &configPath) const
{
    m_settings.sync();
    return m_settings.value(kAddedServersObjects).toStringList().contains(configPath);
}

void UserSettings::setAddedServersObject(const QString &configPath, bool added)
{
    m_settings.sync();
    QStringList paths = m_settings.value(kAddedServersObjects).toStringList();
    if (paths.contains(configPath) == added) {
        return;
    }
    if (added) {
        paths.append(configPath);
    } else {
        paths.removeAll(configPath);
    }
    write(kAddedServersObjects, paths);
}

} // namespace sandbox
