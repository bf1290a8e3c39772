#pragma once

#include "backend/ContainerBackend.h"
#include "engine/EnforcedLimits.h"

#include <optional>

namespace sandbox {

/// What a sandbox under gVisor (runsc) looks like from inside, where it differs from runc, all of it here (as
/// PodmanBackend holds Podman's differences). gVisor's Sentry is a kernel of its own: the sandbox's system calls never
/// reach the host's kernel, and the Sentry itself runs under gVisor's own seccomp filter. The OCI seccomp profile is
/// not applied inside (seccomp mode 0; runsc's --oci-seccomp would, but then Debian 12's runsc refuses new threads);
/// its /proc/self/status has no NoNewPrivs and no CapAmb line, its statfs does not flag a read-only root, and it shows
/// no cgroup filesystem: the engine puts the memory, pids and CPU limits on the cgroup of the whole sandbox (Sentry and
/// gofer) on the host, where the engine's statistics read the memory limit.
class GVisorRuntime final
{
public:
    /// Whether `runtime` is gVisor: its program is runsc (Docker's "runsc", a RuntimeClass "gvisor" with handler
    /// runsc).
    static bool isGVisor(const OciRuntime &runtime);
    /// gVisor's platform as the runtime's arguments choose it: "kvm", or "ptrace" (runsc's default).
    static QString platform(const OciRuntime &runtime);
    /// One line for doctor and the Backends page: what gVisor puts between the sandbox and the host's kernel.
    static QString description(const OciRuntime &runtime);

    /// What the runner found missing that gVisor replaces or that cannot be seen inside it: the missing limits that
    /// remain (still refused unless accepted), and a note saying what is in force instead and what was not verified.
    struct Assessment
    {
        QList<UnenforcedLimit> missing;
        QString note;
    };
    /// `limits`: the runner's report; `missing`: limits.compare(spec); `outsideMemoryLimit`: the memory limit the
    /// engine reports for the container's cgroup on the host (none: the engine reported none).
    static Assessment assess(const ContainerSpec &spec, const EnforcedLimits &limits,
                             const QList<UnenforcedLimit> &missing, std::optional<qint64> outsideMemoryLimit);
};

} // namespace sandbox
