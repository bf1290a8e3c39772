#include "backend/kubernetes/KubernetesChannelStream.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslKey>
#include <QThread>
#include <QWebSocket>
#include <QWebSocketHandshakeOptions>
#include <condition_variable>
#include <mutex>

Q_LOGGING_CATEGORY(lcKubeExec, "sandbox.backend.kubernetes.stream")

namespace sandbox {

namespace {

const QString kV5 = QStringLiteral("v5.channel.k8s.io");
const QString kV4 = QStringLiteral("v4.channel.k8s.io");

enum Channel : char
{
    Stdin = 0,
    Stdout = 1,
    Stderr = 2,
    Status = 3,
    Close = char(255),
};

/// The exit code a Status object of the error channel says: Success is 0, NonZeroExitCode names it.
std::optional<int> exitCodeOf(const QByteArray &statusJson)
{
    const QJsonObject status = QJsonDocument::fromJson(statusJson).object();
    if (status.value(QStringLiteral("status")).toString() == QLatin1String("Success")) {
        return 0;
    }
    const QJsonArray causes =
        status.value(QStringLiteral("details")).toObject().value(QStringLiteral("causes")).toArray();
    for (const QJsonValue &cause : causes) {
        if (cause.toObject().value(QStringLiteral("reason")).toString() == QLatin1String("ExitCode")) {
            return cause.toObject().value(QStringLiteral("message")).toString().toInt();
        }
    }
    return std::nullopt;
}

} // namespace

struct KubernetesChannelStream::Shared
{
    std::mutex mutex;
    std::condition_variable changed;
    bool connected = false;
    bool closed = false;
    QString error;
    QString protocol;
    QByteArray stdoutData;
    QByteArray stderrLine;
    QByteArray status;
    QWebSocket *socket = nullptr; ///< touched only on the socket's thread
};

KubernetesChannelStream::KubernetesChannelStream() : m_shared(std::make_shared<Shared>()), m_thread(new QThread) {}

Result<std::unique_ptr<KubernetesChannelStream>> KubernetesChannelStream::open(const Options &options)
{
    std::unique_ptr<KubernetesChannelStream> stream(new KubernetesChannelStream);
    stream->m_thread->setObjectName(QStringLiteral("kubernetes-attach"));
    stream->m_thread->start();
    stream->m_context = new QObject;
    stream->m_context->moveToThread(stream->m_thread.get());

    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (!options.caPem.isEmpty()) {
        tls.setCaCertificates(QSslCertificate::fromData(options.caPem, QSsl::Pem));
    }
    if (!options.verifyPeer) {
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    }
    if (!options.certPem.isEmpty()) {
        tls.setLocalCertificate(QSslCertificate(options.certPem, QSsl::Pem));
        QSslKey key(options.keyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull()) {
            key = QSslKey(options.keyPem, QSsl::Ec, QSsl::Pem);
        }
        if (key.isNull()) {
            return Error{QStringLiteral("The client key of the kubeconfig's user is neither an RSA nor an EC key in "
                                        "PEM format."),
                         ErrorCode::BadRequest};
        }
        tls.setPrivateKey(key);
    }
    QNetworkRequest request(options.url);
    if (!options.authorization.isEmpty()) {
        request.setRawHeader("Authorization", options.authorization);
    }
    QWebSocketHandshakeOptions handshake;
    handshake.setSubprotocols(options.protocols);

    std::shared_ptr<Shared> shared = stream->m_shared;
    QObject *context = stream->m_context;
    QMetaObject::invokeMethod(
        context,
        [shared, context, request, handshake, tls] {
            auto *socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, context);
            // The socket's own configuration: QWebSocket does not take the request's.
            socket->setSslConfiguration(tls);
            shared->socket = socket;
            QObject::connect(socket, &QWebSocket::connected, context, [shared, socket] {
                std::lock_guard lock(shared->mutex);
                shared->connected = true;
                shared->protocol = socket->subprotocol();
                shared->changed.notify_all();
            });
            QObject::connect(socket, &QWebSocket::disconnected, context, [shared, socket] {
                std::lock_guard lock(shared->mutex);
                if (!shared->connected && shared->error.isEmpty()) {
                    shared->error = socket->errorString();
                }
                shared->closed = true;
                shared->changed.notify_all();
            });
            QObject::connect(socket, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error), context,
                             [shared, socket](QAbstractSocket::SocketError) {
                                 std::lock_guard lock(shared->mutex);
                                 // Once connected, the end of the connection is the end of the stream.
                                 if (shared->connected) {
                                     qCDebug(lcKubeExec) << "exec connection:" << socket->errorString();
                                     return;
                                 }
                                 if (shared->error.isEmpty()) {
                                     shared->error = socket->errorString();
                                 }
                                 shared->closed = true;
                                 shared->changed.notify_all();
                             });
            QObject::connect(socket, &QWebSocket::binaryMessageReceived, context, [shared](const QByteArray &message) {
                if (message.isEmpty()) {
                    return;
                }
                const QByteArray payload = message.mid(1);
                std::lock_guard lock(shared->mutex);
                switch (message.at(0)) {
                case Stdout:
                    shared->stdoutData.append(payload);
                    break;
                case Stderr: {
                    shared->stderrLine.append(payload);
                    qsizetype newline;
                    while ((newline = shared->stderrLine.indexOf('\n')) >= 0) {
                        qCInfo(lcKubeExec).noquote()
                            << "runner:" << QString::fromUtf8(shared->stderrLine.left(newline));
                        shared->stderrLine.remove(0, newline + 1);
                    }
                    break;
                }
                case Status:
                    shared->status.append(payload);
                    break;
                default:
                    break;
                }
                shared->changed.notify_all();
            });
            socket->open(request, handshake);
        },
        Qt::QueuedConnection);

    std::unique_lock lock(shared->mutex);
    const bool settled =
        shared->changed.wait_for(lock, options.connectTimeout, [&] { return shared->connected || shared->closed; });
    if (!settled) {
        return Error{QStringLiteral("The Kubernetes API server at %1 did not answer the attach request within %2 s.")
                         .arg(options.url.host())
                         .arg(options.connectTimeout.count() / 1000),
                     ErrorCode::EngineUnreachable};
    }
    if (!shared->connected) {
        return Error{QStringLiteral("Attaching to the pod over WebSocket failed: %1").arg(shared->error),
                     ErrorCode::EngineFailed};
    }
    if (shared->protocol != kV5 && shared->protocol != kV4) {
        return Error{QStringLiteral("The Kubernetes API server agreed to no channel protocol this program speaks "
                                    "(offered %1 and %2, it chose \"%3\").")
                         .arg(kV5, kV4, shared->protocol),
                     ErrorCode::EngineFailed};
    }
    qCDebug(lcKubeExec) << "attached with" << shared->protocol;
    return stream;
}

KubernetesChannelStream::~KubernetesChannelStream()
{
    if (m_context) {
        QObject *context = m_context;
        QMetaObject::invokeMethod(
            context,
            [context] {
                // Deleting the socket aborts the connection; the server ends the exec'd process's streams.
                delete context;
            },
            Qt::BlockingQueuedConnection);
    }
    m_thread->quit();
    m_thread->wait();
}

void KubernetesChannelStream::post(const QByteArray &frame)
{
    std::shared_ptr<Shared> shared = m_shared;
    QMetaObject::invokeMethod(
        m_context,
        [shared, frame] {
            if (shared->socket) {
                shared->socket->sendBinaryMessage(frame);
            }
        },
        Qt::QueuedConnection);
}

Result<void> KubernetesChannelStream::write(const QByteArray &data)
{
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->closed) {
            return Error{QStringLiteral("The connection to the pod is closed%1.")
                             .arg(m_shared->error.isEmpty() ? QString() : QStringLiteral(": ") + m_shared->error),
                         ErrorCode::SandboxFailed};
        }
    }
    post(char(Stdin) + data);
    return {};
}

ContainerStream::ReadStatus KubernetesChannelStream::read(QByteArray &out, std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_shared->mutex);
    m_shared->changed.wait_for(lock, timeout, [&] { return !m_shared->stdoutData.isEmpty() || m_shared->closed; });
    if (!m_shared->stdoutData.isEmpty()) {
        out.append(m_shared->stdoutData);
        m_shared->stdoutData.clear();
        return ReadStatus::Data;
    }
    if (m_shared->closed) {
        return m_shared->error.isEmpty() ? ReadStatus::Closed : ReadStatus::Failed;
    }
    return ReadStatus::Timeout;
}

void KubernetesChannelStream::closeWrite()
{
    if (protocol() == kV5) {
        post(QByteArray{char(Close), char(Stdin)});
    }
}

QString KubernetesChannelStream::protocol() const
{
    std::lock_guard lock(m_shared->mutex);
    return m_shared->protocol;
}

std::optional<int> KubernetesChannelStream::exitCode() const
{
    std::lock_guard lock(m_shared->mutex);
    if (m_shared->status.isEmpty()) {
        return std::nullopt;
    }
    return exitCodeOf(m_shared->status);
}

} // namespace sandbox
