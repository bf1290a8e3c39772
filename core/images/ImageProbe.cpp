#include "images/ImageProbe.h"

#include "engine/ContainerSpecFactory.h"

#include <QDeadlineTimer>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QThread>

// The images module's category, defined in ImageBuilder.cpp.
Q_DECLARE_LOGGING_CATEGORY(lcImages)

namespace sandbox {

Result<QByteArray> ImageProbe::run(ContainerBackend &backend, const QString &image, const QStringList &command,
                                   std::chrono::milliseconds timeout)
{
    ContainerSpec spec;
    spec.image = image;
    spec.command = command;
    spec.network = ContainerNetwork::none();
    // A sandbox uid of its own, as runs have, not the image's user (uid 1000, the desktop user's on most hosts):
    // RLIMIT_NPROC counts a uid's threads host-wide, so a browser's threads left the probe unable to start.
    spec.user = ContainerSpecFactory::nextSandboxUser();
    // Named, not left to the engine, as runs name them: Podman's defaults cannot be set when its service
    // runs with lower hard limits.
    spec.ulimits = {Ulimit{QStringLiteral("nofile"), 1024, 1024}, Ulimit{QStringLiteral("nproc"), 256, 256}};
    auto created = backend.createContainer(spec);
    if (!created) {
        return created.error();
    }
    const QString id = *created;
    // Removed whatever happens below: a probe leaves nothing behind. Podman may refuse (500) while it is still
    // cleaning up after the process exited, so a refusal is retried for a moment.
    const auto removeLater = qScopeGuard([&] {
        for (int attempt = 1; attempt <= 5; ++attempt) {
            if (backend.removeContainer(id)) {
                return;
            }
            QThread::msleep(200 * attempt);
        }
        qCWarning(lcImages).noquote() << "could not remove the probe container" << id.left(12);
    });
    auto stream = backend.startAttached(id);
    if (!stream) {
        return stream.error();
    }
    (*stream)->closeWrite();
    QByteArray output;
    const QDeadlineTimer deadline(timeout);
    while (!deadline.hasExpired()) {
        const auto status = (*stream)->read(output, std::chrono::milliseconds(deadline.remainingTime()));
        if (status == ContainerStream::ReadStatus::Closed) {
            return output;
        }
        if (status == ContainerStream::ReadStatus::Failed) {
            return Error{QStringLiteral("Reading the output of `%1` in %2 failed.").arg(command.join(u' '), image)};
        }
    }
    return Error{QStringLiteral("`%1` in %2 did not finish in %3 s.")
                     .arg(command.join(u' '), image)
                     .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()),
                 ErrorCode::SandboxFailed};
}

QString ImageProbe::versionIn(const QByteArray &output)
{
    static const QRegularExpression number(QStringLiteral(R"((\d+\.\d+(\.\d+)?))"));
    return number.match(QString::fromUtf8(output)).captured(1);
}

} // namespace sandbox
