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

    /// A sandbox container's spec for gVisor, with the same bounds as under runc:
    /// - processes: RLIMIT_NPROC (`nproc`) at the pids limit. gVisor's kernel enforces it per uid, and that kernel is
    ///   the sandbox's alone, so it bounds the sandbox's tasks as the pids cgroup does under runc (fork fails with
    ///   EAGAIN). The host's pids cgroup holds the whole sandbox, where each task of the sandbox costs the Sentry
    ///   host threads that the Sentry keeps (ptrace platform: over ten each in a shell fork bomb, and growing with its
    ///   churn and while the runner kills it; at 32 per task the Sentry once reached the limit there and stopped),
    ///   so it is raised to keep bounding the Sentry without stopping it before the sandbox's own limit.
    /// - seccomp (with runsc --oci-seccomp, as scripts/lib/setup.sh registers it, the Sentry applies the profile):
    ///   gVisor answers every refusal with EPERM, whatever errno the profile names, but a refusal with ENOSYS is what
    ///   tells a program to fall back (the C library from clone3 to clone, whose flags the profile checks; coreutils
    ///   from fchmodat2 to fchmodat). So what the profile refuses with ENOSYS (clone3, and every call it does not
    ///   list) goes to gVisor's kernel, which answers ENOSYS itself for what it does not implement; every refusal
    ///   with EPERM (mount, unshare, namespaces in clone's flags, keyctl, bpf, ptrace, socket families, ...) stays.
    /// - System V IPC objects and POSIX message queues (shmget, semget, msgget, mq_open) are refused (EPERM): they
    ///   outlive their processes, and gVisor has no /proc/sysvipc and mounts no /dev/mqueue, where the runner finds
    ///   them to remove between pooled runs. POSIX shared memory and semaphores (files in /dev/shm) stay.
    static void adapt(ContainerSpec &spec);
    /// How many host tasks the host's pids cgroup allows a gVisor sandbox per task of its own.
    static constexpr int kHostTasksPerTask = 64;

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
