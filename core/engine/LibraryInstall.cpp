#include "engine/LibraryInstall.h"

#include "engine/EgressProxy.h"
#include "libraries/LibraryCache.h"
#include "runnerclient/RunnerClient.h"
#include "util/Redaction.h"

#include <algorithm>

namespace sandbox {

namespace {

/// The network of an install's egress proxy: the engine's default.
const ContainerNetwork kInstallNetwork = ContainerNetwork::named(QStringLiteral("bridge"));
/// What an installer sandbox packs its libraries into, in its working directory, for the sandbox that runs the code.
const QString kLibraryArchive = QStringLiteral(".llm-sandbox-libraries.tar.gz");
/// The largest library archive copied from an installer sandbox (it travels through the runner protocol).
constexpr qint64 kMaxLibraryArchiveBytes = 128LL * 1024 * 1024;

/// The end of an install's output, at most about 2,000 characters, starting at a line (or else a word): never cut
/// inside a word.
QString logTail(const QString &log)
{
    constexpr qsizetype kKept = 2000;
    if (log.size() <= kKept) {
        return log;
    }
    QString tail = log.right(kKept);
    qsizetype start = tail.indexOf(u'\n');
    if (start < 0 || start > kKept / 2) {
        start = tail.indexOf(u' ');
    }
    return QStringLiteral("…") + tail.mid(start + 1);
}

} // namespace

Result<QString> ExecutionEngine::LibraryInstall::cacheKey(const Language &language, const QString &image,
                                                          const QStringList &libraries,
                                                          const LibraryInstallPlan &plan) const
{
    const SandboxSettings &settings = m_run.engine().m_settings;
    if (!LibraryCache(settings.libraryCacheFolder, settings.libraryCacheBytes).isEnabled()) {
        return QString();
    }
    auto builderImage = m_run.engine().m_catalog.builderImage(language);
    if (!builderImage) {
        return builderImage.error();
    }
    return LibraryCache::keyFor(language, image, *builderImage, libraries, plan);
}

std::optional<Result<std::unique_ptr<SandboxContainer>>>
ExecutionEngine::LibraryInstall::startCached(const Language &language, const QString &image,
                                             const QStringList &libraries, const QString &key,
                                             const ContainerOptions &options, QString *problem)
{
    const SandboxSettings &settings = m_run.engine().m_settings;
    LibraryCache cache(settings.libraryCacheFolder, settings.libraryCacheBytes);
    auto hit = cache.find(key, problem);
    if (!hit) {
        return std::nullopt;
    }
    m_run.report(RunProgress::Kind::LibraryInstall,
                 QStringLiteral("Libraries from the cache: %1 (%2 MiB unpacked), installed before for this image")
                     .arg(libraries.join(QStringLiteral(", ")))
                     .arg((hit->unpackedBytes + 1024 * 1024 - 1) / (1024 * 1024)));
    auto container = startWithLibraries(language, image, options, Packed{std::move(hit->archive), hit->unpackedBytes});
    if (container) {
        (*container)->setLibrariesCached(true);
    }
    return container;
}

Result<std::unique_ptr<SandboxContainer>>
ExecutionEngine::LibraryInstall::startFromCache(const Language &language, const QString &image,
                                                const QStringList &libraries, const LibraryInstallPlan &plan,
                                                const ContainerOptions &options)
{
    auto key = cacheKey(language, image, libraries, plan);
    if (!key) {
        return key.error();
    }
    QString problem;
    if (auto started =
            key->isEmpty() ? std::nullopt : startCached(language, image, libraries, *key, options, &problem)) {
        return std::move(*started);
    }
    return Error{problem.isEmpty() ? QStringLiteral("The library cache does not hold %1 for this image.")
                                         .arg(libraries.join(QStringLiteral(", ")))
                                   : problem,
                 ErrorCode::NotFound};
}

Result<std::unique_ptr<SandboxContainer>>
ExecutionEngine::LibraryInstall::start(const Language &language, const QString &image, const QStringList &libraries,
                                       const LibraryInstallPlan &plan, const ContainerOptions &options)
{
    auto builderImage = m_run.engine().m_catalog.builderImage(language);
    if (!builderImage) {
        return builderImage.error();
    }
    const SandboxSettings &settings = m_run.engine().m_settings;
    LibraryCache cache(settings.libraryCacheFolder, settings.libraryCacheBytes);
    const QString key = LibraryCache::keyFor(language, image, *builderImage, libraries, plan);
    QString problem;
    if (auto started = startCached(language, image, libraries, key, options, &problem)) {
        return std::move(*started);
    }
    if (!problem.isEmpty()) {
        m_run.report(RunProgress::Kind::LibraryInstall, problem);
    }
    // Declared before the builder: removed after it, whose volumes it holds.
    std::unique_ptr<EgressProxyContainer> proxy;
    ContainerOptions builder;
    builder.sharedFolders = false;
    builder.extraTmpBytes = scratchBytes() - m_run.engine().m_settings.tmpBytes;
    LibraryInstallPlan confined = plan;
    if (plan.needsNetwork) {
        auto proxyImage = m_run.engine().m_catalog.proxyImage();
        if (!proxyImage) {
            return proxyImage.error();
        }
        QStringList reachable;
        for (const EgressRule &rule : plan.egress) {
            reachable << QStringLiteral("%1:%2").arg(rule.host).arg(rule.port);
        }
        m_run.report(RunProgress::Kind::ContainerStart,
                     QStringLiteral("Starting the egress proxy (it lets through %1 only)").arg(reachable.join(", ")));
        // Where the proxy speaks TLS to a registry itself (with a login), it trusts what the builder trusts.
        const bool speaksTls = std::any_of(plan.egress.begin(), plan.egress.end(),
                                           [](const EgressRule &rule) { return !rule.login.isEmpty() && rule.tls; });
        ProxyExtras extras;
        if (speaksTls && !plan.trustedCertificates.isEmpty()) {
            auto files = EgressProxy::registryTrustFiles(plan.trustedCertificates);
            if (!files) {
                return files.error();
            }
            extras.files = *files;
        }
        auto config =
            EgressProxy::squidConfig(plan.egress, m_run.engine().m_starter.proxyReach(), !extras.files.isEmpty());
        if (!config) {
            return config.error();
        }
        auto started = m_run.engine().m_starter.startProxy(
            language, *proxyImage, *config, kInstallNetwork,
            [this](const RunProgress &progress) { m_run.report(progress); }, {}, extras);
        if (!started) {
            return started.error();
        }
        proxy = std::move(*started);
        builder.volumesFrom = proxy->builderVolumes();
        builder.network = proxy->builderNetwork();
        confined.argv = EgressProxy::relayed(SandboxContainer::runnerPath(), proxy->upstream(), plan.argv);
        confined.environment.insert(EgressProxy::clientEnvironment());
    }
    m_run.report(
        RunProgress::Kind::ContainerStart,
        QStringLiteral("Starting a %1 builder sandbox (%2) to install %3")
            .arg(language.displayName,
                 plan.needsNetwork ? QStringLiteral("no network but the egress proxy") : QStringLiteral("no network"),
                 plan.argv.join(QLatin1Char(' '))));
    auto installer = m_run.startContainer(language, *builderImage, builder);
    if (!installer) {
        return installer.error();
    }
    if (auto installed = install(**installer, language, libraries, confined); !installed) {
        return installed.error();
    }
    auto packed = pack(**installer, language);
    if (!packed) {
        return packed.error();
    }
    if (cache.isEnabled()) {
        LibraryCache::Entry entry;
        entry.key = key;
        entry.language = language.name;
        entry.libraries = libraries;
        entry.image = image;
        entry.unpackedBytes = packed->unpackedBytes;
        // Not kept is no failure of the run: the next call installs again.
        if (auto kept = cache.store(entry, packed->archive); !kept) {
            m_run.report(RunProgress::Kind::LibraryInstall, kept.error().message);
        }
    }
    if (auto going = m_run.checkNotCancelled(); !going) {
        return going.error();
    }
    m_run.report(RunProgress::Kind::ContainerStart,
                 QStringLiteral("Starting a %1 sandbox (%2) for the installed libraries")
                     .arg(language.displayName, options.egressUpstream.isEmpty()
                                                    ? QStringLiteral("no network")
                                                    : QStringLiteral("no network but its egress proxy")));
    return startWithLibraries(language, image, options, std::move(*packed));
}

Result<std::unique_ptr<SandboxContainer>>
ExecutionEngine::LibraryInstall::startWithLibraries(const Language &language, const QString &image,
                                                    const ContainerOptions &options, Packed libraries)
{
    // The code's sandbox keeps its limits: its /tmp (and memory) get the libraries' room on top.
    ContainerOptions withLibraries = options;
    withLibraries.extraTmpBytes += libraries.unpackedBytes;
    auto container = m_run.startContainer(language, image, withLibraries);
    if (!container) {
        return container.error();
    }
    if (auto unpacked = unpack(**container, language, std::move(libraries.archive)); !unpacked) {
        return unpacked.error();
    }
    return container;
}

qint64 ExecutionEngine::LibraryInstall::scratchBytes() const
{
    const SandboxSettings &settings = m_run.engine().m_settings;
    return std::max(settings.installScratchBytes, settings.tmpBytes);
}

RunnerRunRequest ExecutionEngine::LibraryInstall::setupRequest(const Language &language, QList<RunnerStep> steps) const
{
    const SandboxSettings &settings = m_run.engine().m_settings;
    RunnerRunRequest request = m_run.runRequest(RunRequest{}, language, nullptr);
    request.files.clear();
    request.steps = std::move(steps);
    request.timeout = settings.installTimeout;
    request.cpuLimit = settings.cpuTimeLimitFor(settings.installTimeout);
    request.outputDir.clear();
    return request;
}

Result<QByteArray> ExecutionEngine::LibraryInstall::runSetup(SandboxContainer &container,
                                                             const RunnerRunRequest &request, const QString &what)
{
    if (auto sent = container.runner().send(request); !sent) {
        return sent.error();
    }
    bool clean = false;
    auto done = m_run.collect(container.runner(), request.timeout, clean, true);
    if (!done) {
        return done.error();
    }
    if (done->reason == StopReason::Cancelled) {
        return Error{QStringLiteral("%1 was cancelled.").arg(what), ErrorCode::Cancelled};
    }
    if (done->reason != StopReason::Exited || done->exitCode != 0) {
        const QString log = QString::fromUtf8(QByteArray(done->stderrData + done->stdoutData).trimmed());
        // What ran out, and where: a full scratch space reads as a failed command otherwise.
        const QString full =
            log.contains(QLatin1String("No space left on device"))
                ? QStringLiteral(
                      " The builder's scratch space (/tmp, %1 MiB) is full: raise LLM_SANDBOX_INSTALL_SCRATCH.")
                      .arg((scratchBytes() + 1024 * 1024 - 1) / (1024 * 1024))
                : QString();
        // `what` names the libraries and the log repeats the install's command and output: either may hold URLs with
        // credentials.
        return Error{redactCredentials(QStringLiteral("%1 failed (%2); %3%4 %5")
                                           .arg(what,
                                                done->timedOut() ? QStringLiteral("timed out")
                                                                 : QStringLiteral("exit code %1").arg(done->exitCode),
                                                m_forSession ? QStringLiteral("the session was not created.")
                                                             : QStringLiteral("the code was not run."),
                                                full, logTail(log))),
                     ErrorCode::InstallFailed};
    }
    return done->stdoutData;
}

Result<void> ExecutionEngine::LibraryInstall::install(SandboxContainer &container, const Language &language,
                                                      const QStringList &libraries, const LibraryInstallPlan &plan)
{
    RunnerRunRequest install = setupRequest(language, {RunnerStep{QStringLiteral("install"), plan.argv}});
    for (const FileEntry &file : plan.offlineFiles) {
        install.files.append(RunnerFile{file.path, file.data, file.mode});
    }
    install.files += Run::projectFiles(language);
    for (auto it = plan.environment.begin(); it != plan.environment.end(); ++it) {
        install.env.insert(it.key(), it.value());
    }
    auto installed = runSetup(
        container, install,
        QStringLiteral("Installing %1 with %2").arg(libraries.join(QStringLiteral(", ")), language.packageManager));
    if (!installed) {
        return installed.error();
    }
    return {};
}

Result<ExecutionEngine::LibraryInstall::Packed> ExecutionEngine::LibraryInstall::pack(SandboxContainer &installer,
                                                                                      const Language &language)
{
    // Paths relative to / for tar; a path the install did not create (go.sum without dependencies) is skipped.
    QStringList paths;
    for (const QString &path : language.libraries.installedPaths + language.projectFiles.keys()) {
        const QString absolute = path.startsWith(u'/') ? path : SandboxContainer::workdir() + u'/' + path;
        paths << absolute.mid(1);
    }
    QStringList archive{QStringLiteral("tar"),  QStringLiteral("--ignore-failed-read"),
                        QStringLiteral("-C"),   QStringLiteral("/"),
                        QStringLiteral("-czf"), kLibraryArchive,
                        QStringLiteral("--")};
    // What it takes unpacked, in KiB, on the last line ("N total").
    QStringList measure{QStringLiteral("sh"), QStringLiteral("-c"),
                        QStringLiteral("cd / && du -skc -- \"$@\" 2>/dev/null | tail -n 1; exit 0"),
                        QStringLiteral("du")};
    RunnerRunRequest packing = setupRequest(language, {RunnerStep{QStringLiteral("pack"), archive + paths},
                                                       RunnerStep{QStringLiteral("pack"), measure + paths}});
    packing.keepFiles = true;
    auto output = runSetup(installer, packing, QStringLiteral("Packing the installed libraries"));
    if (!output) {
        return output.error();
    }
    const qint64 unpackedKiB = output->trimmed().split('\n').last().split('\t').first().toLongLong();
    auto copied = installer.runner().transferFile(
        RunnerGetFileRequest{m_run.id(), SandboxContainer::workdir(), kLibraryArchive, kMaxLibraryArchiveBytes},
        m_run.engine().m_settings.installTimeout);
    if (!copied) {
        return Error{QStringLiteral("Copying the installed libraries out of the installer sandbox failed (at most "
                                    "%1 MiB compressed): %2")
                         .arg(kMaxLibraryArchiveBytes / (1024 * 1024))
                         .arg(copied.error().message),
                     ErrorCode::InstallFailed};
    }
    m_run.report(RunProgress::Kind::LibraryInstall,
                 QStringLiteral("Copying %1 KiB of installed libraries into the sandbox (%2 MiB unpacked)")
                     .arg((copied->data.size() + 1023) / 1024)
                     .arg((unpackedKiB + 1023) / 1024));
    return Packed{std::move(copied->data), unpackedKiB * 1024};
}

Result<void> ExecutionEngine::LibraryInstall::unpack(SandboxContainer &container, const Language &language,
                                                     QByteArray archive)
{
    RunnerRunRequest unpacking = setupRequest(
        language,
        {RunnerStep{QStringLiteral("unpack"),
                    {QStringLiteral("tar"), QStringLiteral("-C"), QStringLiteral("/"), QStringLiteral("-xzf"),
                     kLibraryArchive}},
         RunnerStep{QStringLiteral("unpack"), {QStringLiteral("rm"), QStringLiteral("-f"), kLibraryArchive}}});
    unpacking.files = {RunnerFile{kLibraryArchive, std::move(archive)}};
    auto unpacked = runSetup(container, unpacking, QStringLiteral("Unpacking the installed libraries"));
    if (!unpacked) {
        return unpacked.error();
    }
    return {};
}

} // namespace sandbox
