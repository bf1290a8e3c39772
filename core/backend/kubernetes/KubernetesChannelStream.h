#pragma once

#include "backend/ContainerStream.h"
#include "util/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <chrono>
#include <memory>
#include <optional>

class QObject;
class QThread;

namespace sandbox {

/// A process's stdin/stdout in a pod, through attach (or exec) over WebSocket with the Kubernetes channel protocol
/// (v5.channel.k8s.io, else v4.channel.k8s.io): every binary message starts with its channel, 0 stdin, 1 stdout,
/// 2 stderr (to the log), 3 the process's final Status. The socket lives on a thread of its own with an event loop;
/// this object's blocking calls meet it under a mutex.
class KubernetesChannelStream final : public ContainerStream
{
public:
    struct Options
    {
        QUrl url; ///< wss://host:port/api/v1/namespaces/NS/pods/NAME/attach?...
        QByteArray authorization;
        QByteArray caPem; ///< empty: the system's CAs
        QByteArray certPem;
        QByteArray keyPem;
        bool verifyPeer = true;
        /// Offered in this order; the server picks one (v5.channel.k8s.io and v4.channel.k8s.io are spoken).
        QStringList protocols = {QStringLiteral("v5.channel.k8s.io"), QStringLiteral("v4.channel.k8s.io")};
        std::chrono::milliseconds connectTimeout{std::chrono::seconds(30)};
    };

    /// Connects and returns once the server agreed to a channel subprotocol. A refused upgrade is an error that
    /// carries the server's HTTP status in its text ("403").
    static Result<std::unique_ptr<KubernetesChannelStream>> open(const Options &options);
    ~KubernetesChannelStream() override;

    Result<void> write(const QByteArray &data) override;
    ReadStatus read(QByteArray &out, std::chrono::milliseconds timeout) override;
    /// v5.channel.k8s.io: a close message for the stdin channel. v4.channel.k8s.io has none: the process's
    /// stdin stays open until the connection closes (the runner's protocol never relies on end of file).
    void closeWrite() override;

    /// The subprotocol the server chose.
    QString protocol() const;
    /// The exit code from the status channel, once the process ended (0 on Success).
    std::optional<int> exitCode() const;

    struct Shared;

private:
    KubernetesChannelStream();
    void post(const QByteArray &frame);

    std::shared_ptr<Shared> m_shared;
    std::unique_ptr<QThread> m_thread;
    QObject *m_context = nullptr; ///< lives on m_thread; owns the socket
};

} // namespace sandbox
