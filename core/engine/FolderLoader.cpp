#include "engine/FolderLoader.h"

#include "runnerclient/RunnerClient.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QLocale>
#include <chrono>

namespace sandbox {

namespace {

constexpr std::chrono::seconds kLoaderStartTimeout{60};
constexpr std::chrono::seconds kFileTimeout{120};
constexpr std::chrono::milliseconds kPoll{100};
/// put_file requests sent before the first of them is answered.
constexpr qsizetype kInFlight = 16;

QString sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

struct FolderFile
{
    QString workdir;  ///< where the sandbox sees the folder
    QString source;   ///< the file on the host
    QString relative; ///< below the folder
    qint64 size = 0;
};

} // namespace

Result<void> FolderLoader::load(ContainerBackend &backend, const QString &containerId, const QList<BindMount> &binds,
                                const std::function<void(const QString &)> &progress)
{
    QList<FolderFile> files;
    qint64 total = 0;
    for (const BindMount &bind : binds) {
        // The copy holds regular files and folders only; a link would not be followed all the same.
        QDirIterator walk(bind.source, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
        while (walk.hasNext()) {
            walk.next();
            const QFileInfo info = walk.fileInfo();
            if (!info.isFile() || info.isSymLink()) {
                continue;
            }
            const QString relative = QDir(bind.source).relativeFilePath(info.filePath());
            if (info.size() > kMaxFileBytes) {
                return Error{QStringLiteral("%1 in a shared folder is %2: a Kubernetes sandbox takes files of at most "
                                            "%3 (share it with Docker or Podman, or leave it out of the folder)")
                                 .arg(bind.target + u'/' + relative, sizeText(info.size()), sizeText(kMaxFileBytes)),
                             ErrorCode::BadRequest};
            }
            total += info.size();
            files.append({bind.target, info.filePath(), relative, info.size()});
        }
    }
    if (total > kMaxBytes) {
        return Error{QStringLiteral("The shared folders hold %1: a Kubernetes sandbox takes at most %2 of them, copied "
                                    "into its pod (share less, or use Docker or Podman, which mount them)")
                         .arg(sizeText(total), sizeText(kMaxBytes)),
                     ErrorCode::BadRequest};
    }
    auto stream = backend.attachFolderLoader(containerId);
    if (!stream) {
        return stream.error();
    }
    RunnerClient loader(std::move(*stream));
    if (auto ready = loader.waitReady(kLoaderStartTimeout); !ready) {
        return ready.error();
    }
    // Requests go out ahead of their answers (a few at a time): over a cluster's connection each round trip costs
    // more than the file.
    QHash<QString, QString> pending; // request id -> where the file goes
    const auto answered = [&]() -> Result<void> {
        const auto giveUpAt = std::chrono::steady_clock::now() + kFileTimeout;
        while (std::chrono::steady_clock::now() < giveUpAt) {
            auto message = loader.next(kPoll);
            if (!message) {
                return message.error();
            }
            if (!message->has_value() || !pending.contains(eventId(**message))) {
                continue;
            }
            const QString path = pending.take(eventId(**message));
            if (const auto *error = std::get_if<RunnerErrorEvent>(&**message)) {
                return Error{QStringLiteral("Copying %1 into the pod failed: %2").arg(path, error->message),
                             ErrorCode::SandboxFailed};
            }
            return {};
        }
        return Error{QStringLiteral("The pod did not take the shared folders' files within %1 s.")
                         .arg(std::chrono::duration_cast<std::chrono::seconds>(kFileTimeout).count()),
                     ErrorCode::SandboxFailed};
    };
    QElapsedTimer sinceReport;
    sinceReport.start();
    qint64 copied = 0;
    for (qsizetype index = 0; index < files.size(); ++index) {
        const FolderFile &file = files.at(index);
        const QString path = file.workdir + u'/' + file.relative;
        QFile source(file.source);
        if (!source.open(QIODevice::ReadOnly)) {
            return Error{
                QStringLiteral("Could not read %1 of a shared folder's copy: %2").arg(path, source.errorString()),
                ErrorCode::EngineFailed};
        }
        const QString id = QStringLiteral("f%1").arg(index);
        if (auto sent =
                loader.send(RunnerPutFileRequest{id, file.workdir, RunnerFile{file.relative, source.readAll(), 0644}});
            !sent) {
            return sent.error();
        }
        pending.insert(id, path);
        while (pending.size() >= kInFlight || (index + 1 == files.size() && !pending.isEmpty())) {
            if (auto taken = answered(); !taken) {
                return taken.error();
            }
        }
        copied += file.size;
        if (progress && (sinceReport.elapsed() >= 1000 || index + 1 == files.size())) {
            progress(QStringLiteral("Copying the shared folders into the pod: %1 of %2 files (%3 of %4)")
                         .arg(index + 1)
                         .arg(files.size())
                         .arg(sizeText(copied), sizeText(total)));
            sinceReport.restart();
        }
    }
    // The loader's stdin ends: it exits and the sandbox's container starts.
    loader.close();
    return {};
}

} // namespace sandbox
