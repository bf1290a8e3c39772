#include "gui/SingleInstance.h"

#include "gui/GuiSettings.h"
#include "journal/RunJournal.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QLocalSocket>
#include <QStandardPaths>
#include <QThread>
#include <unistd.h>

namespace sandbox::gui {

namespace {

constexpr QByteArrayView kActivate = "activate\n";
constexpr QByteArrayView kShown = "shown\n";

} // namespace

QString SingleInstance::serverName()
{
    // The same user, settings and journal: the same instance. Another journal (LLM_SANDBOX_JOURNAL) or settings folder
    // (XDG_CONFIG_HOME) is another app, with its own window.
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArray::number(qulonglong(::getuid())));
    hash.addData(guiSettings().fileName().toUtf8());
    hash.addData(RunJournal::configuredPath().value_or(QStringLiteral("off")).toUtf8());
    QString folder = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (folder.isEmpty()) {
        folder = QDir::tempPath();
    }
    return folder + QStringLiteral("/llm-sandbox-") + QString::fromLatin1(hash.result().toHex().left(16));
}

SingleInstance::SingleInstance(const QString &name, int patienceMs, QObject *parent) : QObject(parent)
{
    // The lock decides who is first, also for two started at once; QLockFile takes over the lock of an instance that
    // crashed.
    m_lock = std::make_unique<QLockFile>(name + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0);
    if (!m_lock->tryLock(0)) {
        m_outcome = activate(name, patienceMs) ? Outcome::Activated : Outcome::NoAnswer;
        return;
    }
    // Only this user may ask for the window; a socket left by a crashed instance is replaced.
    QLocalServer::removeServer(name);
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    m_server.listen(name);
    connect(&m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server.nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket] { answer(socket); });
        }
    });
}

SingleInstance::~SingleInstance() = default;

void SingleInstance::answer(QLocalSocket *socket)
{
    if (!socket->canReadLine()) {
        if (socket->bytesAvailable() > 64) {
            socket->abort(); // not one of ours
        }
        return;
    }
    if (socket->readLine(64) == kActivate) {
        emit activationRequested();
        socket->write(kShown.data(), kShown.size());
        socket->flush();
    }
    socket->disconnectFromServer();
}

bool SingleInstance::activate(const QString &name, int timeoutMs)
{
    // The first instance may still be starting (its lock taken, its socket not yet listening): ask again a while.
    const QDeadlineTimer deadline(timeoutMs);
    do {
        QLocalSocket socket;
        socket.connectToServer(name);
        if (socket.waitForConnected(500)) {
            socket.write(kActivate.data(), kActivate.size());
            if (socket.waitForBytesWritten(1000) && socket.waitForReadyRead(2000) && socket.readLine(64) == kShown) {
                return true;
            }
        }
        QThread::msleep(100);
    } while (!deadline.hasExpired());
    return false;
}

} // namespace sandbox::gui
