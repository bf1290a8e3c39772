#include "backend/PodmanBackend.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>
#include <unistd.h>

namespace sandbox {

namespace {

// Podman's own API; every Podman 4 and 5 service accepts this version.
const QString kLibpodPrefix = QStringLiteral("/v4.0.0/libpod");

HttpEndpoint withPodmanHints(HttpEndpoint endpoint)
{
    endpoint.engineName = QStringLiteral("Podman's API service");
    endpoint.hostVariable = QStringLiteral("CONTAINER_HOST");
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    const bool userSocket = !runtimeDir.isEmpty() && endpoint.unixSocket.startsWith(runtimeDir + QLatin1Char('/'));
    const QString systemd = userSocket ? QStringLiteral("systemctl --user start podman.socket")
                                       : QStringLiteral("systemctl start podman.socket");
    endpoint.startAdvice = QStringLiteral("start the service with `podman system service --time=0 %1 &` or `%2`")
                               .arg(endpoint.displayName, systemd);
    return endpoint;
}

} // namespace

PodmanBackend::PodmanBackend(HttpEndpoint endpoint)
    : DockerBackend(withPodmanHints(std::move(endpoint)), QStringLiteral("podman"))
{}

Result<HttpEndpoint> PodmanBackend::endpointFromEnvironment(const BackendConnection &settings)
{
    // Not DOCKER_HOST: that names the Docker engine, and both engines are used side by side
    // (doctor reports both; images are copied from one into the other).
    QString host = qEnvironmentVariable("CONTAINER_HOST");
    if (host.isEmpty()) {
        host = settings.containerHost;
    }
    if (host.isEmpty()) {
        const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
        host = (::geteuid() == 0 || runtimeDir.isEmpty())
                   ? QStringLiteral("unix:///run/podman/podman.sock")
                   : QStringLiteral("unix://%1/podman/podman.sock").arg(runtimeDir);
    }
    // Podman's service has no TLS of its own (remote access goes over ssh, which is not supported here).
    return HttpEndpoint::parse(host, false, {});
}

Result<BackendInfo> PodmanBackend::probe()
{
    auto info = versionInfo();
    if (!info) {
        return info;
    }
    // Only Podman has the libpod API: this also catches DOCKER_HOST pointing at a Docker engine.
    auto reply = callUnversioned(
        {.method = "GET", .path = kLibpodPrefix + QStringLiteral("/info"), .timeout = std::chrono::seconds(30)});
    if (!reply) {
        return reply.error();
    }
    if (reply->status == 404) {
        return Error{QStringLiteral("The engine at %1 is not Podman (it has no libpod API); point CONTAINER_HOST at "
                                    "Podman's socket, or use --backend docker.")
                         .arg(httpEndpoint().displayName),
                     ErrorCode::EngineUnreachable};
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Asking Podman for its details"));
    }
    const QJsonObject podman = QJsonDocument::fromJson(reply->body).object();
    const QJsonObject host = podman.value(QStringLiteral("host")).toObject();
    info->rootless = host.value(QStringLiteral("security")).toObject().value(QStringLiteral("rootless")).toBool();
    // "v1" / "v2" in libpod's words.
    info->cgroupVersion = host.value(QStringLiteral("cgroupVersion")).toString().remove(QLatin1Char('v'));
    const QString version =
        podman.value(QStringLiteral("version")).toObject().value(QStringLiteral("Version")).toString();
    if (!version.isEmpty()) {
        info->version = version;
    }
    return info;
}

Result<void> PodmanBackend::importImage(const QString &tarPath, const QString &reference,
                                        const QHash<QString, QString> &labels, const ProgressCallback &progress)
{
    // The compatible /images/create?fromSrc=- of Podman 4 ignores the tag (it imports as
    // :latest); libpod's import takes the full reference.
    QFile tar(tarPath);
    if (!tar.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("Could not open %1: %2").arg(tarPath, tar.errorString())};
    }
    QString path = kLibpodPrefix + QStringLiteral("/images/import?reference=") + percentEncoded(reference);
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        path += QStringLiteral("&changes=") + percentEncoded(QStringLiteral("LABEL %1=%2").arg(it.key(), it.value()));
    }
    auto reply = callUnversioned({.method = "POST",
                                  .path = path,
                                  .bodyDevice = &tar,
                                  .contentType = "application/x-tar",
                                  .timeout = std::chrono::milliseconds(0)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Importing image %1").arg(reference));
    }
    if (progress) {
        progress(QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("Id")).toString());
    }
    return {};
}

QHash<QString, QString> PodmanBackend::tmpfsMounts(const ContainerSpec &spec) const
{
    QHash<QString, QString> mounts;
    for (const Tmpfs &mount : spec.tmpfs) {
        QStringList options = mount.mountOptions();
        // Podman refuses the uid=/gid= tmpfs options; its own "U" gives the mount to the container's user.
        if (mount.ownedBySandboxUser && !spec.user.isEmpty()) {
            options << QStringLiteral("U");
        }
        // Podman fills a tmpfs with what the image has at that path, Docker mounts it empty: an
        // image's leftover /tmp/hsperfdata_root, owned by root, would sit in the sandbox's /tmp.
        options << QStringLiteral("notmpcopyup");
        mounts.insert(mount.path, options.join(QLatin1Char(',')));
    }
    if (spec.readOnlyRootfs) {
        // A read-only container gets writable tmpfs mounts on /run and /var/tmp from Podman (its
        // read-only-tmpfs default), not from Docker: read-only ones (with the image's files, as
        // on Docker) keep the root filesystem as read-only as on Docker, and a pooled container
        // from carrying files from run to run.
        for (const QString &path : {QStringLiteral("/run"), QStringLiteral("/var/tmp")}) {
            if (!mounts.contains(path)) {
                const Tmpfs empty{
                    .path = path, .sizeBytes = 64 * 1024, .mode = std::nullopt, .executable = false, .readOnly = true};
                mounts.insert(path, empty.mountOptions().join(QLatin1Char(',')));
            }
        }
    }
    return mounts;
}

Result<QStringList> PodmanBackend::securityOptions(const ContainerSpec &spec) const
{
    const QString seccompPrefix = QStringLiteral("seccomp=");
    const bool namesProfile = std::any_of(spec.securityOpt.begin(), spec.securityOpt.end(),
                                          [&](const QString &option) { return option.startsWith(seccompPrefix); });
    QStringList options = spec.securityOpt;
    if (spec.noNewPrivileges) {
        options.prepend(QStringLiteral("no-new-privileges"));
    }
    if (namesProfile || spec.seccompProfile.isEmpty()) {
        return options; // a path, "unconfined" or nothing: Podman reads paths itself
    }
    const QString directory =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/seccomp");
    const QString path =
        QStringLiteral("%1/%2.json")
            .arg(directory,
                 QString::fromLatin1(
                     QCryptographicHash::hash(spec.seccompProfile, QCryptographicHash::Sha256).toHex().left(16)));
    QFile existing(path);
    if (!existing.open(QIODevice::ReadOnly) || existing.readAll() != spec.seccompProfile) {
        QSaveFile file(path);
        if (!QDir().mkpath(directory) || !file.open(QIODevice::WriteOnly) ||
            file.write(spec.seccompProfile) != spec.seccompProfile.size() || !file.commit()) {
            return Error{QStringLiteral("Could not write the seccomp profile for Podman to %1: %2")
                             .arg(path, file.errorString())};
        }
    }
    options << seccompPrefix + path;
    return options;
}

QString PodmanBackend::productReference(const QString &engineReference) const
{
    // Podman lists fully qualified names: images it loaded or imported under localhost/,
    // images it built under docker.io/.
    for (const QLatin1String prefix :
         {QLatin1String("localhost/"), QLatin1String("docker.io/library/"), QLatin1String("docker.io/")}) {
        if (engineReference.startsWith(prefix)) {
            return engineReference.mid(prefix.size());
        }
    }
    return engineReference;
}

namespace {

/// The host of "host[:port]" or "[v6]:port".
QString hostOf(const QString &registry)
{
    return registry.startsWith(QLatin1Char('[')) ? registry.section(QLatin1Char(']'), 0, 0).mid(1)
                                                 : registry.section(QLatin1Char(':'), 0, 0);
}

} // namespace

QString PodmanBackend::pushOptions(const QString &registry) const
{
    const QString host = hostOf(registry);
    const bool loopback =
        host == QLatin1String("localhost") || host.startsWith(QLatin1String("127.")) || host == QLatin1String("::1");
    return loopback ? QStringLiteral("&tlsVerify=false") : QString();
}

QString PodmanBackend::loginAddress(const QString &registry) const
{
    const QString host = hostOf(registry);
    if (host != QLatin1String("127.0.0.1") && host != QLatin1String("::1")) {
        return registry;
    }
    const QString port = registry.startsWith(QLatin1Char('[')) ? registry.section(QLatin1Char(']'), 1).mid(1)
                                                               : registry.section(QLatin1Char(':'), 1);
    return port.isEmpty() ? QStringLiteral("localhost") : QStringLiteral("localhost:") + port;
}

Result<QList<OciRuntime>> PodmanBackend::runtimes()
{
    auto reply = callUnversioned(
        {.method = "GET", .path = kLibpodPrefix + QStringLiteral("/info"), .timeout = std::chrono::seconds(30)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Asking Podman for its runtime"));
    }
    const QJsonObject runtime = QJsonDocument::fromJson(reply->body)
                                    .object()
                                    .value(QStringLiteral("host"))
                                    .toObject()
                                    .value(QStringLiteral("ociRuntime"))
                                    .toObject();
    return QList<OciRuntime>{{.name = runtime.value(QStringLiteral("name")).toString(),
                              .handler = runtime.value(QStringLiteral("path")).toString(),
                              .isDefault = true}};
}

QString PodmanBackend::runtimeRegistration(const QString &wanted) const
{
    return QStringLiteral("Podman's Docker-compatible API ignores a container's runtime, so Podman runs the sandboxes "
                          "under its default one: make %1 the default in containers.conf "
                          "(/etc/containers/containers.conf; rootless: ~/.config/containers/containers.conf), "
                          "[engine] runtime = \"%1\" with [engine.runtimes] %1 = [\"/usr/bin/%1\"], and restart "
                          "Podman's API service; every container of that service then runs under it.")
        .arg(wanted);
}

Result<HttpResponse> PodmanBackend::pastEvents(const QString &filters, qint64 since)
{
    return callUnversioned(
        {.method = "GET",
         .path = kLibpodPrefix + QStringLiteral("/events?stream=false&since=%1&filters=%2").arg(since).arg(filters)});
}

} // namespace sandbox
