#pragma once

#include "backend/ContainerBackend.h"
#include "settings/SandboxSettings.h"

#include <QString>

namespace sandbox {

/// The hardened ContainerSpec of every sandbox container, from the settings: the runner as the main process,
/// a non-root user, no capabilities, no new privileges, the seccomp profile, a read-only root with tmpfs scratch
/// space, memory / CPU / pids / ulimits, and the labels that name the container and the process owning it.
class ContainerSpecFactory final
{
public:
    /// `ownerIdentity`: the value of ownerLabel() (OrphanReaper::ownIdentity()).
    ContainerSpecFactory(SandboxSettings settings, QString ownerIdentity);

    /// The spec of a sandbox of `image`; `networkMode` overrides the settings' (the network of an install step).
    ContainerSpec make(const QString &image, const QString &networkMode = {}) const;

    const SandboxSettings &settings() const { return m_settings; }

    /// Label on every container the engine creates (value: an id of the container).
    static QString runLabel() { return QStringLiteral("io.llm-sandbox.run"); }
    /// Label naming the process that owns a container (host:pid:start time).
    static QString ownerLabel() { return QStringLiteral("io.llm-sandbox.owner"); }
    /// Label naming the session a container serves (`llm-sandbox ps` shows it where a container has it).
    static QString sessionLabel() { return QStringLiteral("io.llm-sandbox.session"); }

private:
    SandboxSettings m_settings;
    QString m_ownerIdentity;
};

} // namespace sandbox
