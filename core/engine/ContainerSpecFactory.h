#pragma once

#include "backend/ContainerBackend.h"
#include "runnerclient/RunnerMessages.h"
#include "settings/SandboxSettings.h"

#include <QString>
#include <optional>

namespace sandbox {

/// The hardened ContainerSpec of every sandbox container, from the settings: the runner as the main process,
/// a non-root user, no capabilities, no new privileges, the seccomp profile, a read-only root with tmpfs scratch
/// space, memory / CPU / pids / ulimits, and the labels that name the container and the process owning it.
class ContainerSpecFactory final
{
public:
    /// `ownerIdentity`: the value of ownerLabel() (OrphanReaper::ownIdentity()).
    ContainerSpecFactory(SandboxSettings settings, QString ownerIdentity);

    /// The spec of a sandbox of `image`; `network` overrides the settings' (the network of an install step). With
    /// `sharedFolders`, the settings' shared folders are mounted (addSharedFolder()).
    ContainerSpec make(const QString &image, const std::optional<ContainerNetwork> &network = {},
                       bool sharedFolders = true) const;
    /// The spec of an install's or a run's egress proxy (EgressProxy) of `image` with squid configuration `config`:
    /// the same hardening, on `network`, with its start script as the main process, listening as `reach` needs,
    /// resolving `hosts` (ContainerSpec::extraHosts) besides its network's names; the tunnels to `interceptedHosts`
    /// go to its intercepting port (EgressProxy::interceptVariable()); with `filesBytes`, its start script first
    /// unpacks the tar of that size it gets on its stdin (EgressProxy::filesVariable()).
    ContainerSpec makeProxy(const QString &image, const QByteArray &config, const ContainerNetwork &network,
                            ContainerBackend::EgressProxyReach reach, const QMap<QString, QString> &hosts = {},
                            const QStringList &interceptedHosts = {}, qsizetype filesBytes = 0) const;

    const SandboxSettings &settings() const { return m_settings; }

    /// Label on every container the engine creates (value: an id of the container).
    static QString runLabel() { return QStringLiteral("io.llm-sandbox.run"); }
    /// Label naming the process that owns a container (host:pid:start time).
    static QString ownerLabel() { return QStringLiteral("io.llm-sandbox.owner"); }
    /// Label naming the session a container serves (`llm-sandbox ps` shows it where a container has it).
    static QString sessionLabel() { return QStringLiteral("io.llm-sandbox.session"); }

    /// Mounts the copy of `folder` (FolderSnapshot) that the last update made: read-only at /data/NAME, or, for a
    /// writable folder, read-only at copyPathOf() with /data/NAME a small scratch file system of the sandbox's own
    /// (noexec) that the runner makes the copy's links again before each run and takes the run's results from after
    /// it (resultDirsOf(), runner/ResultFiles.h). Nothing of the host is ever writable to the sandbox. A folder whose
    /// copy is not there is not mounted.
    static void addSharedFolder(ContainerSpec &spec, const SharedFolder &folder);
    /// Where a writable folder's read-only copy is in the sandbox: /opt/llm-sandbox/shared/NAME.
    static QString copyPathOf(const SharedFolder &folder);
    /// The runner's result directories for the writable ones of `folders` that addSharedFolder() mounts.
    static QList<RunnerResultDir> resultDirsOf(const QList<SharedFolder> &folders);

    /// The user ids sandboxes run as when the settings name no user: each sandbox one of its own, so none shares
    /// RLIMIT_NPROC (which counts every thread of a uid host-wide) with a person's account (uid 1000 and up on a
    /// desktop) or with another sandbox. Above every desktop account, inside the 65536 ids a rootless engine maps,
    /// and each with an entry in the images' /etc/passwd (resources/images/base). The group id is the same number.
    static constexpr int kFirstSandboxUid = 20000;
    static constexpr int kSandboxUids = 40000;
    /// The next of them ("uid:gid"): in turn from a random start, so the sandboxes of one process never share one
    /// (until 40000 later) and those of two processes only by chance.
    static QString nextSandboxUser();

private:
    SandboxSettings m_settings;
    QString m_ownerIdentity;
};

} // namespace sandbox
