#include "engine/ContainerSpecFactory.h"

#include "engine/EgressProxy.h"
#include "engine/SandboxContainer.h"
#include "folders/FolderSnapshot.h"
#include "folders/ResultWriter.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QUuid>
#include <atomic>

namespace sandbox {

ContainerSpecFactory::ContainerSpecFactory(SandboxSettings settings, QString ownerIdentity)
    : m_settings(std::move(settings)), m_ownerIdentity(std::move(ownerIdentity))
{}

QString ContainerSpecFactory::nextSandboxUser()
{
    static std::atomic<quint32> next = QRandomGenerator::system()->bounded(quint32(kSandboxUids));
    const int uid = kFirstSandboxUid + int(next.fetch_add(1) % kSandboxUids);
    return QStringLiteral("%1:%1").arg(uid);
}

ContainerSpec ContainerSpecFactory::make(const QString &image, const std::optional<ContainerNetwork> &network,
                                         bool sharedFolders) const
{
    const SandboxSettings &settings = m_settings;
    ContainerSpec spec;
    spec.image = image;
    spec.command = {SandboxContainer::runnerPath()};
    spec.user = settings.user.isEmpty() ? nextSandboxUser() : settings.user;
    spec.workingDir = SandboxContainer::workdir();
    spec.labels = {{runLabel(), QUuid::createUuid().toString(QUuid::Id128).left(16)}, {ownerLabel(), m_ownerIdentity}};
    spec.network = network ? *network : ContainerNetwork::named(settings.networkMode);
    spec.memoryBytes = settings.memoryBytes;
    spec.cpus = settings.cpus;
    spec.pidsLimit = settings.pidsLimit;
    spec.ulimits = {{QStringLiteral("nofile"), settings.nofileLimit, settings.nofileLimit},
                    {QStringLiteral("nproc"), settings.nprocLimit, settings.nprocLimit},
                    {QStringLiteral("fsize"), settings.fileSizeLimitBytes, settings.fileSizeLimitBytes},
                    {QStringLiteral("core"), 0, 0}};
    spec.capDrop = settings.capDrop;
    // The settings' words are Docker's ("no-new-privileges", "no-new-privileges:false"); the spec's is a flag.
    spec.noNewPrivileges = false;
    spec.securityOpt.clear();
    const QLatin1String noNewPrivileges("no-new-privileges");
    for (const QString &option : settings.securityOpt) {
        if (option.startsWith(noNewPrivileges)) {
            const QString value = option.mid(noNewPrivileges.size() + 1); // after ":" or "="
            spec.noNewPrivileges = value.isEmpty() || value == QLatin1String("true");
        } else {
            spec.securityOpt << option;
        }
    }
    spec.seccompProfile = settings.seccompProfile;
    spec.readOnlyRootfs = settings.readOnlyRootfs;
    spec.privileged = settings.privileged;
    // The scratch space belongs to the sandbox's user: it is the only place it can write.
    spec.tmpfs = {
        Tmpfs{.path = SandboxContainer::workdir(),
              .sizeBytes = settings.workdirBytes,
              .mode = 0755,
              .ownedBySandboxUser = true},
        Tmpfs{.path = QStringLiteral("/tmp"), .sizeBytes = settings.tmpBytes, .mode = 01777},
    };
    // The user's shared folders, as llm-sandbox's read-only copies (FolderSnapshot), which each run brings up to date.
    if (sharedFolders) {
        for (const SharedFolder &folder : settings.sharedFolders) {
            addSharedFolder(spec, folder);
        }
    }
    return spec;
}

void ContainerSpecFactory::addSharedFolder(ContainerSpec &spec, const SharedFolder &folder)
{
    const QString view = FolderSnapshot::viewOf(folder);
    if (!QFileInfo(view).isDir()) {
        return;
    }
    if (!folder.writable) {
        spec.binds << BindMount{view, folder.mountPath(), true};
        return;
    }
    spec.binds << BindMount{view, copyPathOf(folder), true};
    // As large as everything a run may save (ResultWriter); it counts against the sandbox's memory like /tmp.
    spec.tmpfs << Tmpfs{.path = folder.mountPath(),
                        .sizeBytes = ResultLimits{}.maxTotalBytes,
                        .mode = 0755,
                        .executable = false,
                        .ownedBySandboxUser = true};
}

QString ContainerSpecFactory::copyPathOf(const SharedFolder &folder)
{
    return QStringLiteral("/opt/llm-sandbox/shared/") + folder.name;
}

QList<RunnerResultDir> ContainerSpecFactory::resultDirsOf(const QList<SharedFolder> &folders)
{
    QList<RunnerResultDir> directories;
    for (const SharedFolder &folder : folders) {
        if (folder.writable && QFileInfo(FolderSnapshot::viewOf(folder)).isDir()) {
            directories << RunnerResultDir{folder.mountPath(), copyPathOf(folder)};
        }
    }
    return directories;
}

ContainerSpec ContainerSpecFactory::makeProxy(const QString &image, const QByteArray &config,
                                              const ContainerNetwork &network, ContainerBackend::EgressProxyReach reach,
                                              const QMap<QString, QString> &hosts, const QStringList &interceptedHosts,
                                              qsizetype filesBytes) const
{
    ContainerSpec spec = make(image, network, false); // the proxy has no business with the user's folders
    spec.extraHosts = hosts;
    spec.command = {QStringLiteral("/bin/sh"), QStringLiteral("/opt/llm-sandbox/start-proxy")};
    spec.workingDir = QStringLiteral("/tmp");
    spec.environment = {{EgressProxy::configVariable(), QString::fromUtf8(config)},
                        {EgressProxy::listenVariable(), reach == ContainerBackend::EgressProxyReach::SocketVolume
                                                            ? QStringLiteral("socket")
                                                            : QStringLiteral("address")}};
    if (!interceptedHosts.isEmpty()) {
        spec.environment.insert(EgressProxy::interceptVariable(), interceptedHosts.join(u' '));
    }
    if (filesBytes > 0) {
        spec.environment.insert(EgressProxy::filesVariable(), QString::number(filesBytes));
    }
    spec.labels.insert(EgressProxy::roleLabel(), EgressProxy::roleValue());
    // squid and one socat per connection: enough for a package manager's parallel downloads.
    spec.memoryBytes = 256LL * 1024 * 1024;
    spec.cpus = 1;
    spec.pidsLimit = 128;
    spec.tmpfs = {Tmpfs{.path = QStringLiteral("/tmp"), .sizeBytes = 16LL * 1024 * 1024, .executable = false}};
    return spec;
}

} // namespace sandbox
