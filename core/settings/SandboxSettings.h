#pragma once

#include "folders/SharedFolder.h"
#include "network/NetworkAllowList.h"
#include "security/PolicyRule.h"
#include "util/Result.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <chrono>
#include <memory>

namespace sandbox {

class NetworkSecretSource;

/// The seccomp profile shipped with the program (resources/seccomp/llm-sandbox.json): the
/// engines' default minus namespaces, mounting, keyrings, BPF, perf, ptrace, module loading and
/// similar calls sandboxed code never needs.
QByteArray builtinSeccompProfile();

/// The limits and hardening every sandbox container gets. The defaults are the safe values;
/// fromEnvironment() applies the SANDBOX_* variables the Python llm-sandbox read.
struct SandboxSettings
{
    qint64 memoryBytes = 512LL * 1024 * 1024; ///< swap is set equal: no swap beyond it
    double cpus = 1.0;
    int pidsLimit = 256;
    int nofileLimit = 1024;
    int nprocLimit = 1024; ///< per UID: each sandbox has its own (user); pidsLimit is the per-run bound
    qint64 fileSizeLimitBytes = 256LL * 1024 * 1024;
    qint64 workdirBytes = 256LL * 1024 * 1024;          ///< tmpfs size of /sandbox
    qint64 tmpBytes = 256LL * 1024 * 1024;              ///< tmpfs size of /tmp
    qint64 maxOutputBytes = 1024LL * 1024;              ///< stdout + stderr per run
    qint64 maxArtifactBytes = 16LL * 1024 * 1024;       ///< per artifact
    int maxArtifacts = 32;                              ///< per run
    qint64 maxArtifactsTotalBytes = 64LL * 1024 * 1024; ///< all artifacts of a run together
    /// "uid:gid" every sandbox runs as; empty (the default): a uid of its own for each sandbox
    /// (ContainerSpecFactory::nextSandboxUser).
    QString user;
    QString networkMode = QStringLiteral("none");
    /// The OCI runtime of the sandbox containers (SANDBOX_RUNTIME, else the user settings): runsc for gVisor, or
    /// any runtime the engine has registered; on Kubernetes a RuntimeClass, or the program its handler names.
    /// Empty: the engine's default.
    QString runtime;
    bool readOnlyRootfs = true;
    bool privileged = false;
    QStringList capDrop = {QStringLiteral("ALL")};
    QStringList securityOpt = {QStringLiteral("no-new-privileges")};
    /// The seccomp profile of every container, unless securityOpt names one; empty: the engine's
    /// default (SANDBOX_SECCOMP_PROFILE: builtin, engine, or a profile file).
    QByteArray seccompProfile = builtinSeccompProfile();
    std::chrono::seconds installTimeout{300}; ///< for installing the libraries a run names
    /// The scratch space (/tmp, memory) of a library install's builder (LLM_SANDBOX_INSTALL_SCRATCH): what a package
    /// manager downloads and unpacks before the result is packed; its memory limit grows by it, a tmpfs's pages being
    /// the container's memory. Large enough for Boost's headers with apt's lists and packages.
    qint64 installScratchBytes = 2LL * 1024 * 1024 * 1024;
    /// Where installed library sets are kept for later calls (LibraryCache; LLM_SANDBOX_LIBRARY_CACHE, "off": not
    /// kept), and how much of them at most (LLM_SANDBOX_LIBRARY_CACHE_SIZE).
    QString libraryCacheFolder;
    qint64 libraryCacheBytes = 2LL * 1024 * 1024 * 1024;
    /// The timeout of a run that names none (LLM_SANDBOX_DEFAULT_TIMEOUT, else the user settings, else 30 s).
    std::chrono::seconds defaultTimeout{30};
    /// CPU time (user + system) each process of a run may use before the kernel kills it
    /// (RLIMIT_CPU, whole seconds); zero: the run's timeout plus a second, so a busy loop on one
    /// CPU meets the wall-clock timeout first and a multi-threaded one is still bounded
    /// (SANDBOX_CPU_TIME_LIMIT).
    std::chrono::seconds cpuTimeLimit{0};
    int poolSize = 2; ///< warm containers kept per language; 0: a fresh container for every run
    std::chrono::seconds poolIdleTimeout{300};
    int poolMaxUses = 100;
    /// A session unused this long is closed, its container removed (LLM_SANDBOX_SESSION_IDLE_SECONDS).
    std::chrono::seconds sessionIdleTimeout{600};
    int maxSessions = 8; ///< open at once; each holds a container (LLM_SANDBOX_MAX_SESSIONS; 0 disables sessions)
    /// Runs going at once, engine-wide; more wait their turn and say so (LLM_SANDBOX_MAX_RUNS; default four per
    /// CPU, at least 8).
    int maxRuns = defaultMaxRuns();
    qint64 maxSessionFileBytes = 10LL * 1024 * 1024; ///< per upload_file / download_file
    /// The code policy checked before anything runs (permissive, default, strict; SANDBOX_POLICY).
    QString policy = QStringLiteral("default");
    /// The user's own rules, added to the chosen preset (PolicyRulesFile: LLM_SANDBOX_POLICY_FILE,
    /// else $XDG_CONFIG_HOME/llm-sandbox/policy.json).
    QList<PolicyRule> policyRules;
    /// Per-language image overrides ("python" -> "registry.example/python:3.12"), from
    /// LLM_SANDBOX_IMAGE_<LANG>.
    QHash<QString, QString> imageOverrides;
    /// A Debian 13 image to use instead of building the root filesystem with debootstrap.
    QString baseImage;
    /// Limits (EnforcedLimits::limitNames()) a sandbox may start without although the engine did not put them in
    /// force, e.g. rootless Podman on cgroup v1 (SANDBOX_ALLOW_UNENFORCED_LIMITS: a comma list or `all`); each such
    /// run logs a warning. Empty: a sandbox missing any requested limit is refused.
    QStringList allowUnenforcedLimits;
    /// The user's folders every sandbox may read at /data/NAME (LLM_SANDBOX_SHARE, else the user settings'
    /// Folders); none by default.
    QList<SharedFolder> sharedFolders;
    /// A result saved into a writable shared folder may replace a file of the same name there when it asks to
    /// (save_to_folder's `overwrite`; LLM_SANDBOX_SHARE_OVERWRITE). Off: it gets the next free name ("name (2).csv").
    bool shareOverwrite = false;
    /// What a run may ask to reach through its egress proxy (LLM_SANDBOX_NETWORK_ALLOW, else the user settings'
    /// Network page): nothing by default. A run gets network only when it asks (RunRequest::network).
    NetworkAllowList networkAllow;
    /// The container network the runs' egress proxies join (LLM_SANDBOX_PROXY_NETWORK): the engine's default.
    QString proxyNetwork = QStringLiteral("bridge");
    /// Names the runs' egress proxies resolve without asking DNS, NAME -> IP address, as /etc/hosts would
    /// (LLM_SANDBOX_PROXY_HOSTS="api.internal=203.0.113.7, ..."): a service known by address only. What a name
    /// resolves to is checked as every other (never a private address).
    QMap<QString, QString> proxyHosts;
    /// Certificates (PEM) a run's egress proxy trusts besides the system's when it opens a tunnel to add a secret
    /// (LLM_SANDBOX_PROXY_TRUST names the file): a company's own authority.
    QByteArray proxyTrust;
    /// Where runs with network get the user's secrets bound to hosts (NetworkSecret); none: no secrets are added.
    std::shared_ptr<NetworkSecretSource> networkSecrets;

    /// `defaults` (the safe values, or those with the user's settings applied) overridden by the
    /// environment; a bad value is an error naming the variable.
    static Result<SandboxSettings> fromEnvironment(SandboxSettings defaults);
    /// Four runs per CPU, at least 8.
    static int defaultMaxRuns();
    static Result<SandboxSettings> fromEnvironment() { return fromEnvironment(SandboxSettings()); }

    /// The CPU-time limit of one process of a run whose wall-clock limit is `timeout`.
    std::chrono::milliseconds cpuTimeLimitFor(std::chrono::milliseconds timeout) const
    {
        return cpuTimeLimit.count() > 0 ? std::chrono::milliseconds(cpuTimeLimit) : timeout + std::chrono::seconds(1);
    }
};

/// Parses "512m", "1g", "1073741824", "256k" (docker's memory notation).
Result<qint64> parseByteSize(const QString &text);
/// true/1/yes/on and false/0/no/off, case-insensitively.
Result<bool> parseBoolean(const QString &text);

} // namespace sandbox
