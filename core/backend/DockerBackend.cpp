#include "backend/DockerBackend.h"

#include "backend/DockerAttachStream.h"
#include "backend/DockerJsonProgress.h"
#include "backend/DockerStats.h"
#include "backend/RegistryErrors.h"
#include "backend/TarArchive.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QUrlQuery>
#include <QVersionNumber>
#include <cmath>
#include <thread>

Q_LOGGING_CATEGORY(lcDocker, "sandbox.backend.docker")

namespace sandbox {

namespace {

// Docker 20.10 speaks 1.41; newer engines still accept it, and it has everything we use.
const QVersionNumber kPreferredApi(1, 41);

QString jsonQuery(const QJsonObject &object)
{
    return percentEncoded(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

/// The Unix seconds of an engine's RFC 3339 time ("2026-12-05T22:30:01.123456789Z"), 0 when it cannot be read. Qt reads
/// at most milliseconds: the fraction is left out.
qint64 unixSeconds(QString time)
{
    static const QRegularExpression fraction(QStringLiteral("\\.\\d+"));
    const QDateTime parsed = QDateTime::fromString(time.remove(fraction), Qt::ISODate);
    return parsed.isValid() ? parsed.toSecsSinceEpoch() : 0;
}

QJsonObject toJson(const QHash<QString, QString> &map)
{
    QJsonObject object;
    for (auto it = map.begin(); it != map.end(); ++it) {
        object.insert(it.key(), it.value());
    }
    return object;
}

/// Splits a reference "repo:tag" (the tag is after the last colon that follows the last slash).
std::pair<QString, QString> splitReference(const QString &reference)
{
    const int slash = int(reference.lastIndexOf(QLatin1Char('/')));
    const int colon = int(reference.lastIndexOf(QLatin1Char(':')));
    if (colon > slash) {
        return {reference.left(colon), reference.mid(colon + 1)};
    }
    return {reference, QStringLiteral("latest")};
}

} // namespace

DockerBackend::DockerBackend(HttpEndpoint endpoint, QString name) : m_http(std::move(endpoint)), m_name(std::move(name))
{}

Result<HttpEndpoint> DockerBackend::endpointFromEnvironment(const BackendConnection &settings)
{
    QString host = qEnvironmentVariable("DOCKER_HOST");
    if (host.isEmpty()) {
        host = settings.dockerHost.isEmpty() ? QStringLiteral("unix:///var/run/docker.sock") : settings.dockerHost;
    }
    // The docker CLI treats any non-empty DOCKER_TLS_VERIFY as "on"; a TLS folder in the settings means it too.
    const QString certPath = qEnvironmentVariable("DOCKER_CERT_PATH");
    if (certPath.isEmpty() && !settings.dockerTlsPath.isEmpty()) {
        return HttpEndpoint::parse(host, true, settings.dockerTlsPath);
    }
    const bool tlsVerify = !qEnvironmentVariable("DOCKER_TLS_VERIFY").isEmpty();
    return HttpEndpoint::parse(host, tlsVerify, certPath);
}

Result<QString> DockerBackend::apiPrefix()
{
    std::lock_guard lock(m_versionMutex);
    if (!m_apiPrefix.isEmpty()) {
        return m_apiPrefix;
    }
    auto reply =
        m_http.send({.method = "GET", .path = QStringLiteral("/version"), .timeout = std::chrono::seconds(10)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Asking the engine for its version"));
    }
    const QJsonObject version = QJsonDocument::fromJson(reply->body).object();
    const auto server = QVersionNumber::fromString(version.value(QStringLiteral("ApiVersion")).toString());
    const auto minimum = QVersionNumber::fromString(version.value(QStringLiteral("MinAPIVersion")).toString());
    QVersionNumber chosen = server.isNull() ? kPreferredApi : std::min(server, kPreferredApi);
    if (!minimum.isNull() && chosen < minimum) {
        chosen = minimum;
    }
    m_apiPrefix = QStringLiteral("/v") + chosen.toString();
    qCDebug(lcDocker) << "using API" << m_apiPrefix;
    return m_apiPrefix;
}

Result<HttpResponse> DockerBackend::call(HttpRequest request)
{
    auto prefix = apiPrefix();
    if (!prefix) {
        return prefix.error();
    }
    request.path = *prefix + request.path;
    return m_http.send(request);
}

Result<HttpResponse> DockerBackend::callUnversioned(const HttpRequest &request) const
{
    return m_http.send(request);
}

Error DockerBackend::engineError(const HttpResponse &response, const QString &what) const
{
    QString message = QJsonDocument::fromJson(response.body).object().value(QStringLiteral("message")).toString();
    if (message.isEmpty()) {
        message = QString::fromUtf8(response.body.left(500)).trimmed();
    }
    return Error{QStringLiteral("%1 failed: the %2 engine answered %3: %4")
                     .arg(what, m_name)
                     .arg(response.status)
                     .arg(message.isEmpty() ? QStringLiteral("(no message)") : message),
                 ErrorCode::EngineFailed};
}

Result<BackendInfo> DockerBackend::probe()
{
    auto info = versionInfo();
    if (!info) {
        return info;
    }
    // A rootless engine lists "name=rootless" among its security options.
    auto system = call({.method = "GET", .path = QStringLiteral("/info"), .timeout = std::chrono::seconds(30)});
    if (!system) {
        return system.error();
    }
    if (!system->isSuccess()) {
        return engineError(*system, QStringLiteral("Asking the engine for its details"));
    }
    const QJsonObject details = QJsonDocument::fromJson(system->body).object();
    const QJsonArray options = details.value(QStringLiteral("SecurityOptions")).toArray();
    info->rootless = options.contains(QJsonValue(QStringLiteral("name=rootless")));
    info->cgroupVersion = details.value(QStringLiteral("CgroupVersion")).toString();
    return info;
}

Result<QList<OciRuntime>> DockerBackend::runtimes()
{
    auto system = call({.method = "GET", .path = QStringLiteral("/info"), .timeout = std::chrono::seconds(30)});
    if (!system) {
        return system.error();
    }
    if (!system->isSuccess()) {
        return engineError(*system, QStringLiteral("Asking the engine for its runtimes"));
    }
    const QJsonObject info = QJsonDocument::fromJson(system->body).object();
    const QString defaultRuntime = info.value(QStringLiteral("DefaultRuntime")).toString();
    const QJsonObject registered = info.value(QStringLiteral("Runtimes")).toObject();
    QList<OciRuntime> list;
    for (auto it = registered.begin(); it != registered.end(); ++it) {
        const QJsonObject runtime = it.value().toObject();
        QStringList arguments;
        for (const QJsonValue &argument : runtime.value(QStringLiteral("runtimeArgs")).toArray()) {
            arguments << argument.toString();
        }
        list.append(
            {it.key(), runtime.value(QStringLiteral("path")).toString(), arguments, it.key() == defaultRuntime});
    }
    return list;
}

QString DockerBackend::runtimeRegistration(const QString &wanted) const
{
    return QStringLiteral("Register it in the engine's /etc/docker/daemon.json, e.g. {\"runtimes\": {\"%1\": "
                          "{\"path\": \"/usr/bin/%1\"}}} (merged with what is there), then reload dockerd "
                          "(`kill -HUP` its process, or restart it).")
        .arg(wanted);
}

Result<BackendInfo> DockerBackend::versionInfo()
{
    auto prefix = apiPrefix();
    if (!prefix) {
        return prefix.error();
    }
    auto reply = call({.method = "GET", .path = QStringLiteral("/version"), .timeout = std::chrono::seconds(10)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Asking the engine for its version"));
    }
    const QJsonObject version = QJsonDocument::fromJson(reply->body).object();
    BackendInfo info;
    info.name = m_name;
    info.endpoint = m_http.endpoint().displayName;
    info.version = version.value(QStringLiteral("Version")).toString();
    info.apiVersion = prefix->mid(2);
    info.os = version.value(QStringLiteral("Os")).toString() + QLatin1Char('/') +
              version.value(QStringLiteral("Arch")).toString();
    return info;
}

Result<bool> DockerBackend::hasImage(const QString &reference)
{
    auto reply = call({.method = "GET", .path = QStringLiteral("/images/%1/json").arg(percentEncoded(reference))});
    if (!reply) {
        return reply.error();
    }
    if (reply->status == 404) {
        return false;
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Looking up image %1").arg(reference));
    }
    return true;
}

Result<QList<ImageInfo>> DockerBackend::listImages(const QString &labelKey)
{
    const QJsonObject filters{{QStringLiteral("label"), QJsonArray{labelKey}}};
    auto reply = call({.method = "GET", .path = QStringLiteral("/images/json?filters=") + jsonQuery(filters)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Listing images"));
    }
    QList<ImageInfo> images;
    for (const QJsonValue &value : QJsonDocument::fromJson(reply->body).array()) {
        const QJsonObject object = value.toObject();
        const QJsonObject labels = object.value(QStringLiteral("Labels")).toObject();
        for (const QJsonValue &tag : object.value(QStringLiteral("RepoTags")).toArray()) {
            ImageInfo image;
            image.reference = productReference(tag.toString());
            image.id = object.value(QStringLiteral("Id")).toString();
            image.sizeBytes = qint64(object.value(QStringLiteral("Size")).toDouble());
            image.created = QDateTime::fromSecsSinceEpoch(qint64(object.value(QStringLiteral("Created")).toDouble()));
            for (auto it = labels.begin(); it != labels.end(); ++it) {
                image.labels.insert(it.key(), it.value().toString());
            }
            images.append(image);
        }
    }
    return images;
}

Result<void> DockerBackend::streamJsonProgress(HttpRequest request, const ProgressCallback &progress,
                                               const QString &what, DockerJsonProgress::Style style)
{
    DockerJsonProgress stream(progress, style);
    request.timeout = std::chrono::milliseconds(0);
    request.onData = [&](const QByteArray &chunk) {
        stream.feed(chunk);
        return true;
    };
    auto reply = call(std::move(request));
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, what);
    }
    stream.finish();
    if (!stream.error().isEmpty()) {
        return Error{QStringLiteral("%1 failed: %2").arg(what, stream.error()), ErrorCode::EngineFailed};
    }
    return {};
}

Result<void> DockerBackend::importImage(const QString &tarPath, const QString &reference,
                                        const QHash<QString, QString> &labels, const ProgressCallback &progress)
{
    QFile tar(tarPath);
    if (!tar.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("Could not open %1: %2").arg(tarPath, tar.errorString())};
    }
    const auto [repo, tag] = splitReference(reference);
    QString path =
        QStringLiteral("/images/create?fromSrc=-&repo=%1&tag=%2").arg(percentEncoded(repo), percentEncoded(tag));
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        path += QStringLiteral("&changes=") + percentEncoded(QStringLiteral("LABEL %1=%2").arg(it.key(), it.value()));
    }
    HttpRequest request{.method = "POST", .path = path, .bodyDevice = &tar, .contentType = "application/x-tar"};
    return streamJsonProgress(std::move(request), progress, QStringLiteral("Importing image %1").arg(reference));
}

Result<void> DockerBackend::buildImage(const QByteArray &contextTar, const QString &reference,
                                       const QHash<QString, QString> &buildArgs, const QHash<QString, QString> &labels,
                                       BuildCache cache, const ProgressCallback &progress,
                                       const std::atomic_bool *cancelled)
{
    QString path = QStringLiteral("/build?t=%1&rm=1&forcerm=1&buildargs=%2&labels=%3")
                       .arg(percentEncoded(reference), jsonQuery(toJson(buildArgs)), jsonQuery(toJson(labels)));
    if (cache == BuildCache::Ignore) {
        path += QStringLiteral("&nocache=1");
    }
    // Closing the connection is what stops a build: the engine cancels it (and its step's container) and tags
    // nothing.
    HttpRequest request{
        .method = "POST", .path = path, .body = contextTar, .contentType = "application/x-tar", .cancelled = cancelled};
    return streamJsonProgress(std::move(request), progress, QStringLiteral("Building image %1").arg(reference));
}

Result<void> DockerBackend::exportImages(const QStringList &references, const DataSink &sink)
{
    QString path = QStringLiteral("/images/get?");
    for (const QString &reference : references) {
        path += QStringLiteral("names=%1&").arg(percentEncoded(reference));
    }
    path.chop(1);
    bool sinkStopped = false;
    HttpRequest request{.method = "GET", .path = path, .timeout = std::chrono::milliseconds(0)};
    request.onData = [&](const QByteArray &chunk) {
        sinkStopped = !sink(chunk);
        return !sinkStopped;
    };
    const QString what =
        QStringLiteral("Exporting %1 from the %2 engine").arg(references.join(QStringLiteral(", ")), m_name);
    auto reply = call(std::move(request));
    if (!reply) {
        return sinkStopped ? Error{QStringLiteral("%1 stopped: the receiving side gave up.").arg(what)} : reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, what);
    }
    return {};
}

Result<QStringList> DockerBackend::loadImages(QIODevice &archive, const ProgressCallback &progress)
{
    HttpRequest request{.method = "POST",
                        .path = QStringLiteral("/images/load?quiet=1"),
                        .bodyDevice = &archive,
                        .contentType = "application/x-tar"};
    // "Loaded image: NAME" per image (Docker), or one line with the names separated by commas (Podman).
    const QString loadedPrefix = QStringLiteral("Loaded image: ");
    QStringList loaded;
    auto streamed = streamJsonProgress(
        std::move(request),
        [&](const QString &line) {
            if (line.startsWith(loadedPrefix)) {
                for (const QString &name : line.mid(loadedPrefix.size()).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    loaded << name.trimmed();
                }
            }
            if (progress) {
                progress(line);
            }
        },
        QStringLiteral("Loading images into the %1 engine").arg(m_name));
    if (!streamed) {
        return streamed.error();
    }
    return loaded;
}

Result<void> DockerBackend::tagImage(const QString &image, const QString &reference)
{
    const auto [repo, tag] = splitReference(reference);
    auto reply = call({.method = "POST",
                       .path = QStringLiteral("/images/%1/tag?repo=%2&tag=%3")
                                   .arg(percentEncoded(image), percentEncoded(repo), percentEncoded(tag))});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Tagging image %1 as %2").arg(image, reference));
    }
    return {};
}

Result<void> DockerBackend::removeImage(const QString &reference)
{
    auto reply = call({.method = "DELETE", .path = QStringLiteral("/images/%1").arg(percentEncoded(reference))});
    if (!reply) {
        return reply.error();
    }
    if (reply->status == 404) {
        return {};
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Removing image %1").arg(reference));
    }
    return {};
}

Result<void> DockerBackend::pushImage(const QString &reference, const ProgressCallback &progress)
{
    return pushImage(reference, RegistryCredentials{}, progress, nullptr);
}

Result<void> DockerBackend::pushImage(const QString &reference, const RegistryCredentials &credentials,
                                      const ProgressCallback &progress, const std::atomic_bool *cancelled)
{
    const auto [repo, tag] = splitReference(reference);
    // The engine takes the registry's credentials from the client in this header (it does not read the docker
    // CLI's login store) and wants the header even when there are none: "{}" then, which suits registries that
    // accept pushes without a login (a cluster's own registry, one on loopback).
    HttpRequest request{.method = "POST",
                        .path =
                            QStringLiteral("/images/%1/push?tag=%2").arg(percentEncoded(repo), percentEncoded(tag)) +
                            pushOptions(reference.section(QLatin1Char('/'), 0, 0)),
                        .headers = {"X-Registry-Auth: " + credentials.registryAuthHeader()},
                        .cancelled = cancelled};
    const QString what = QStringLiteral("Pushing image %1").arg(reference);
    const ProgressCallback redacted = [&](const QString &line) {
        if (progress) {
            progress(credentials.redact(line));
        }
    };
    auto pushed = streamJsonProgress(std::move(request), redacted, what, DockerJsonProgress::Style::Layers);
    if (pushed) {
        return {};
    }
    const QString engineMessage = credentials.redact(pushed.error().message);
    if (pushed.error().code != ErrorCode::EngineFailed) {
        return Error{engineMessage, pushed.error().code};
    }
    const QString message = RegistryErrors::pushMessage(reference, engineMessage, !credentials.isEmpty());
    const bool missing = message.contains(QLatin1String("The engine has no image named"));
    return Error{message, missing ? ErrorCode::ImageMissing : ErrorCode::EngineFailed};
}

Result<void> DockerBackend::checkRegistryLogin(const RegistryCredentials &credentials)
{
    RegistryCredentials asked = credentials;
    asked.serverAddress = loginAddress(credentials.serverAddress);
    auto reply = call({.method = "POST",
                       .path = QStringLiteral("/auth"),
                       .body = asked.authRequestBody(),
                       .contentType = "application/json",
                       // The engine may have to try HTTPS, then HTTP, and wait for each to time out.
                       .timeout = std::chrono::seconds(90)});
    if (!reply) {
        return reply.error();
    }
    if (reply->isSuccess()) {
        return {};
    }
    QString message = QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("message")).toString();
    if (message.isEmpty()) {
        message = QStringLiteral("HTTP status %1").arg(reply->status);
    }
    message = credentials.redact(message);
    const bool refused = reply->status == 401 || RegistryErrors::loginRefused(message);
    return Error{RegistryErrors::loginMessage(credentials, message),
                 refused ? ErrorCode::BadRequest : ErrorCode::EngineFailed};
}

QHash<QString, QString> DockerBackend::tmpfsMounts(const ContainerSpec &spec) const
{
    // The engine's uid= and gid= give a mount to the container's user.
    const QString uid = spec.user.section(QLatin1Char(':'), 0, 0);
    const QString gid = spec.user.section(QLatin1Char(':'), 1, 1);
    QHash<QString, QString> mounts;
    for (const Tmpfs &mount : spec.tmpfs) {
        QStringList options = mount.mountOptions();
        if (mount.ownedBySandboxUser && !uid.isEmpty()) {
            options << QStringLiteral("uid=") + uid << QStringLiteral("gid=") + (gid.isEmpty() ? uid : gid);
        }
        mounts.insert(mount.path, options.join(QLatin1Char(',')));
    }
    return mounts;
}

Result<QStringList> DockerBackend::securityOptions(const ContainerSpec &spec) const
{
    const QString seccompPrefix = QStringLiteral("seccomp=");
    QStringList options;
    if (spec.noNewPrivileges) {
        options << QStringLiteral("no-new-privileges");
    }
    bool namesProfile = false;
    for (const QString &option : spec.securityOpt) {
        if (!option.startsWith(seccompPrefix)) {
            options << option;
            continue;
        }
        namesProfile = true;
        const QString value = option.mid(seccompPrefix.size());
        if (value == QLatin1String("unconfined") || value.trimmed().startsWith(QLatin1Char('{'))) {
            options << option;
            continue;
        }
        QFile file(value);
        if (!file.open(QIODevice::ReadOnly)) {
            return Error{QStringLiteral("Could not read the seccomp profile %1: %2").arg(value, file.errorString())};
        }
        options << seccompPrefix + QString::fromUtf8(file.readAll());
    }
    if (!namesProfile && !spec.seccompProfile.isEmpty()) {
        options << seccompPrefix + QString::fromUtf8(spec.seccompProfile);
    }
    return options;
}

Result<QString> DockerBackend::createContainer(const ContainerSpec &spec)
{
    if (spec.network.kind == ContainerNetwork::Kind::EgressProxyClient) {
        return Error{QStringLiteral("The %1 backend has no egress-proxy-client network: its builders reach the "
                                    "egress proxy through its socket.")
                         .arg(m_name),
                     ErrorCode::BadRequest};
    }
    auto securityOpt = securityOptions(spec);
    if (!securityOpt) {
        return securityOpt.error();
    }
    QJsonArray ulimits;
    for (const Ulimit &limit : spec.ulimits) {
        ulimits.append(QJsonObject{{QStringLiteral("Name"), limit.name},
                                   {QStringLiteral("Soft"), double(limit.soft)},
                                   {QStringLiteral("Hard"), double(limit.hard)}});
    }
    QJsonObject hostConfig{
        {QStringLiteral("NetworkMode"), spec.network.text()},
        {QStringLiteral("CapDrop"), QJsonArray::fromStringList(spec.capDrop)},
        {QStringLiteral("SecurityOpt"), QJsonArray::fromStringList(*securityOpt)},
        {QStringLiteral("ReadonlyRootfs"), spec.readOnlyRootfs},
        {QStringLiteral("Privileged"), spec.privileged},
        {QStringLiteral("Ulimits"), ulimits},
        {QStringLiteral("Tmpfs"), toJson(tmpfsMounts(spec))},
        // No engine log of the runner's stream (output, artifacts, downloaded files): attach carries it, and a
        // json-file or journald log would keep every run's output on disk for the container's life or for good.
        {QStringLiteral("LogConfig"),
         QJsonObject{{QStringLiteral("Type"), QStringLiteral("none")}, {QStringLiteral("Config"), QJsonObject()}}},
    };
    if (spec.memoryBytes > 0) {
        hostConfig.insert(QStringLiteral("Memory"), double(spec.memoryBytes));
        // Swap equal to memory: the limit is a real limit, not memory plus swap.
        hostConfig.insert(QStringLiteral("MemorySwap"), double(spec.memoryBytes));
    }
    if (spec.cpus > 0) {
        hostConfig.insert(QStringLiteral("NanoCpus"), double(std::llround(spec.cpus * 1e9)));
    }
    if (spec.pidsLimit > 0) {
        hostConfig.insert(QStringLiteral("PidsLimit"), spec.pidsLimit);
    }
    if (!spec.volumesFrom.isEmpty()) {
        hostConfig.insert(QStringLiteral("VolumesFrom"), QJsonArray::fromStringList(spec.volumesFrom));
    }
    if (!spec.extraHosts.isEmpty()) {
        QJsonArray hosts;
        for (auto it = spec.extraHosts.begin(); it != spec.extraHosts.end(); ++it) {
            hosts.append(QString(it.key() + u':' + it.value()));
        }
        hostConfig.insert(QStringLiteral("ExtraHosts"), hosts);
    }
    if (!spec.binds.isEmpty()) {
        QJsonArray mounts;
        for (const BindMount &bind : spec.binds) {
            mounts.append(QJsonObject{
                {QStringLiteral("Type"), QStringLiteral("bind")},
                {QStringLiteral("Source"), bind.source},
                {QStringLiteral("Target"), bind.target},
                {QStringLiteral("ReadOnly"), bind.readOnly},
                {QStringLiteral("BindOptions"), QJsonObject{{QStringLiteral("Propagation"), QStringLiteral("rprivate")},
                                                            {QStringLiteral("NonRecursive"), true}}},
            });
        }
        hostConfig.insert(QStringLiteral("Mounts"), mounts);
    }
    if (!spec.runtime.isEmpty()) {
        hostConfig.insert(QStringLiteral("Runtime"), spec.runtime);
    }
    QJsonArray environment;
    for (auto it = spec.environment.begin(); it != spec.environment.end(); ++it) {
        environment.append(QString(it.key() + u'=' + it.value()));
    }
    const QJsonObject body{
        {QStringLiteral("Image"), spec.image},
        {QStringLiteral("Cmd"), QJsonArray::fromStringList(spec.command)},
        {QStringLiteral("Entrypoint"), QJsonArray()},
        {QStringLiteral("User"), spec.user},
        {QStringLiteral("WorkingDir"), spec.workingDir},
        {QStringLiteral("Labels"), toJson(spec.labels)},
        {QStringLiteral("Env"), environment},
        {QStringLiteral("Tty"), false},
        {QStringLiteral("OpenStdin"), true},
        {QStringLiteral("StdinOnce"), true},
        {QStringLiteral("AttachStdin"), true},
        {QStringLiteral("AttachStdout"), true},
        {QStringLiteral("AttachStderr"), true},
        {QStringLiteral("NetworkDisabled"), spec.network.isNone()},
        {QStringLiteral("HostConfig"), hostConfig},
    };
    auto reply = call({.method = "POST",
                       .path = QStringLiteral("/containers/create"),
                       .body = QJsonDocument(body).toJson(QJsonDocument::Compact),
                       .contentType = "application/json"});
    if (!reply) {
        return reply.error();
    }
    if (reply->status == 404) {
        return Error{QStringLiteral("The image %1 is not in the %2 engine. Build it with `llm-sandbox images build`, "
                                    "or point the language at an image that exists.")
                         .arg(spec.image, m_name),
                     ErrorCode::ImageMissing};
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Creating a container"));
    }
    return QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("Id")).toString();
}

Result<std::unique_ptr<ContainerStream>> DockerBackend::startAttached(const QString &containerId)
{
    auto prefix = apiPrefix();
    if (!prefix) {
        return prefix.error();
    }
    // Attach before start, so not a byte of the runner's output is missed.
    auto connection =
        m_http.upgrade("POST", *prefix + QStringLiteral("/containers/%1/attach?stream=1&stdin=1&stdout=1&stderr=1")
                                             .arg(percentEncoded(containerId)));
    if (!connection) {
        return connection.error();
    }
    auto reply =
        call({.method = "POST", .path = QStringLiteral("/containers/%1/start").arg(percentEncoded(containerId))});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Starting the container"));
    }
    return std::unique_ptr<ContainerStream>(std::make_unique<DockerAttachStream>(std::move(*connection)));
}

Result<void> DockerBackend::removeContainer(const QString &containerId)
{
    auto reply = call({.method = "DELETE",
                       .path = QStringLiteral("/containers/%1?force=1&v=1").arg(percentEncoded(containerId)),
                       .timeout = std::chrono::seconds(60)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess() && reply->status != 404) {
        return engineError(*reply, QStringLiteral("Removing container %1").arg(containerId.left(12)));
    }
    return {};
}

Result<QList<ContainerSummary>> DockerBackend::listContainerSummaries(const QString &labelKey)
{
    const QJsonObject filters{{QStringLiteral("label"), QJsonArray{labelKey}}};
    auto reply =
        call({.method = "GET", .path = QStringLiteral("/containers/json?all=1&filters=") + jsonQuery(filters)});
    if (!reply) {
        return reply.error();
    }
    if (!reply->isSuccess()) {
        return engineError(*reply, QStringLiteral("Listing containers"));
    }
    QList<ContainerSummary> containers;
    for (const QJsonValue &value : QJsonDocument::fromJson(reply->body).array()) {
        const QJsonObject object = value.toObject();
        ContainerSummary container;
        container.id = object.value(QStringLiteral("Id")).toString();
        container.image = productReference(object.value(QStringLiteral("Image")).toString());
        container.created = QDateTime::fromSecsSinceEpoch(object.value(QStringLiteral("Created")).toInteger(), Qt::UTC);
        container.state = object.value(QStringLiteral("State")).toString();
        const QJsonObject labels = object.value(QStringLiteral("Labels")).toObject();
        for (auto it = labels.begin(); it != labels.end(); ++it) {
            container.labels.insert(it.key(), it.value().toString());
        }
        containers.append(container);
    }
    return containers;
}

Result<QJsonObject> DockerBackend::statsSample(const QString &containerId)
{
    auto reply = call({.method = "GET",
                       .path = QStringLiteral("/containers/%1/stats?stream=false").arg(percentEncoded(containerId)),
                       .timeout = std::chrono::seconds(30)});
    if (!reply) {
        return reply.error();
    }
    if (reply->status == 404) {
        return Error{QStringLiteral("There is no container %1 in the %2 engine.").arg(containerId.left(12), m_name),
                     ErrorCode::NotFound};
    }
    if (!reply->isSuccess()) {
        return engineError(*reply,
                           QStringLiteral("Reading the resource use of container %1").arg(containerId.left(12)));
    }
    return QJsonDocument::fromJson(reply->body).object();
}

Result<ContainerStats> DockerBackend::containerStats(const QString &containerId)
{
    // Not one-shot: its answer has no previous CPU reading (and Docker 20.10 still takes a second for it).
    auto first = statsSample(containerId);
    if (!first) {
        return first.error();
    }
    if (DockerStats::hasPreviousCpu(*first)) {
        return DockerStats::fromSample(*first);
    }
    // Podman answers at once with one reading: CPU use needs a second one, as far apart as Docker's.
    std::this_thread::sleep_for(std::chrono::seconds(1));
    auto second = statsSample(containerId);
    if (!second) {
        return second.error();
    }
    ContainerStats stats = DockerStats::fromSample(*second);
    stats.cpuCores = DockerStats::cpuCoresBetween(*first, *second);
    return stats;
}

Result<ContainerEnd> DockerBackend::howEnded(const QString &containerId)
{
    // The attach stream closes as the container's process ends, a moment before the engine records it stopped.
    const auto giveUpAt = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    QJsonObject state;
    for (;;) {
        auto reply = call({.method = "GET", .path = QStringLiteral("/containers/%1/json").arg(containerId)});
        if (!reply) {
            return reply.error();
        }
        if (!reply->isSuccess()) {
            return engineError(*reply, QStringLiteral("Inspecting container %1").arg(containerId));
        }
        state = QJsonDocument::fromJson(reply->body).object().value(QStringLiteral("State")).toObject();
        if (!state.value(QStringLiteral("Running")).toBool() || std::chrono::steady_clock::now() > giveUpAt) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ContainerEnd end;
    end.oomKilled = state.value(QStringLiteral("OOMKilled")).toBool();
    if (!state.value(QStringLiteral("Running")).toBool()) {
        end.exitCode = state.value(QStringLiteral("ExitCode")).toInt();
    }
    if (end.oomKilled || end.exitCode != 137) {
        return end;
    }
    // Ended by SIGKILL with no OOM kill on record: asked of the engine, or the kernel's OOM killer unrecorded.
    const QJsonObject filters{{QStringLiteral("container"), QJsonArray{containerId}},
                              {QStringLiteral("event"), QJsonArray{QStringLiteral("kill"), QStringLiteral("stop")}}};
    auto events = pastEvents(jsonQuery(filters), unixSeconds(state.value(QStringLiteral("StartedAt")).toString()));
    if (!events) {
        return events.error();
    }
    if (!events->isSuccess()) {
        return engineError(*events, QStringLiteral("Reading the events of container %1").arg(containerId));
    }
    end.killedThroughEngine = !events->body.trimmed().isEmpty();
    return end;
}

Result<HttpResponse> DockerBackend::pastEvents(const QString &filters, qint64 since)
{
    return call({.method = "GET",
                 .path = QStringLiteral("/events?since=%1&until=%2&filters=%3")
                             .arg(since)
                             .arg(QDateTime::currentSecsSinceEpoch() + 1)
                             .arg(filters)});
}

} // namespace sandbox
