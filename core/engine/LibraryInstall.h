#pragma once

// The engine's own parts (not for its users): a run's or a session's libraries, installed for it.

#include "engine/EngineRun.h"
#include "engine/LibraryInstallPlan.h"

namespace sandbox {

/// A fresh container of a language's image with libraries installed and no network. The install runs in a builder
/// sandbox of its own (the language's builder image, with its compilers) whose only way out is the egress proxy
/// (EgressProxy), and what it wrote is copied into a container that never had network. Reports and collects
/// through the run it serves.
class ExecutionEngine::LibraryInstall final
{
public:
    /// `forSession`: the install opens a session (its errors say the session was not created, not that the code was
    /// not run).
    LibraryInstall(Run &run, bool forSession) : m_run(run), m_forSession(forSession) {}

    /// The container of `image` with `plan` (`libraries`) installed, started with `options` (its labels, a run's own
    /// shared folders, its egress proxy). The builder that installs gets no shared folder: it has a network (through
    /// an egress proxy of its own).
    /// The same libraries installed for the same image with the same settings before, in any process, are unpacked
    /// from the library cache instead (LibraryCache; SandboxContainer::librariesCached()).
    Result<std::unique_ptr<SandboxContainer>> start(const Language &language, const QString &image,
                                                    const QStringList &libraries, const LibraryInstallPlan &plan,
                                                    const ContainerOptions &options = {});
    /// The container of `image` with the set the library cache holds for `plan` (`libraries`) unpacked in it, started
    /// with `options`; NotFound when the cache does not hold that set (or it failed its check). For a sandbox warmed
    /// ahead of a run (ExecutionEngine::prewarmLibraries).
    Result<std::unique_ptr<SandboxContainer>> startFromCache(const Language &language, const QString &image,
                                                             const QStringList &libraries,
                                                             const LibraryInstallPlan &plan,
                                                             const ContainerOptions &options = {});
    /// The key of `plan`'s set in the library cache (LibraryCache::keyFor); empty when the cache is off.
    Result<QString> cacheKey(const Language &language, const QString &image, const QStringList &libraries,
                             const LibraryInstallPlan &plan) const;

private:
    /// Installs `plan` (`libraries`) in the builder `container`.
    Result<void> install(SandboxContainer &container, const Language &language, const QStringList &libraries,
                         const LibraryInstallPlan &plan);
    /// What the install wrote, packed in the builder for the sandbox that runs the code.
    struct Packed
    {
        QByteArray archive;
        qint64 unpackedBytes = 0; ///< what it takes unpacked (du), which that sandbox's /tmp is given on top
    };
    /// Packs what the install wrote in the builder `installer` (Language::LibraryInstaller::installedPaths, the
    /// project files) and copies it out.
    Result<Packed> pack(SandboxContainer &installer, const Language &language);
    /// The cache's set of `key` unpacked in a container of `image` started with `options`, or nullopt when the cache
    /// does not hold it (`problem`: why, when it held one that failed its check).
    std::optional<Result<std::unique_ptr<SandboxContainer>>>
    startCached(const Language &language, const QString &image, const QStringList &libraries, const QString &key,
                const ContainerOptions &options, QString *problem = nullptr);
    /// A container of `image` started with `options`, `libraries` unpacked in it.
    Result<std::unique_ptr<SandboxContainer>> startWithLibraries(const Language &language, const QString &image,
                                                                 const ContainerOptions &options, Packed libraries);
    /// Unpacks `archive` in `container`.
    Result<void> unpack(SandboxContainer &container, const Language &language, QByteArray archive);
    /// The builder's /tmp: SandboxSettings::installScratchBytes, never less than a sandbox's.
    qint64 scratchBytes() const;
    /// A request of the engine's own steps (install, pack, unpack): no source file, no artifacts, the install
    /// timeout.
    RunnerRunRequest setupRequest(const Language &language, QList<RunnerStep> steps) const;
    /// Sends `request` to `container` and reads its events to the end: an error naming `what` when it was cancelled
    /// or a step did not exit with 0 (with its output, and that the session was not created or the code not run).
    /// Returns the steps' standard output.
    Result<QByteArray> runSetup(SandboxContainer &container, const RunnerRunRequest &request, const QString &what);

    Run &m_run;
    bool m_forSession;
};

} // namespace sandbox
