#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <functional>

namespace sandbox::mcp {

/// The channel of one request: its id, the answers addressed to it, and where the messages sent while it is handled
/// (its progress, its log messages) go. A transport's sink is bound to the request once, when its handling begins,
/// so nothing later has to ask which request a message belongs to. Copyable; notify() may be called from any thread
/// the sink allows.
class Reply final
{
public:
    using Notify = std::function<void(const QJsonObject &message)>;

    Reply(QJsonValue id, Notify notify);

    const QJsonValue &id() const { return m_id; }
    /// The success answer to the request.
    QJsonObject result(const QJsonObject &result) const;
    /// The error answer to the request.
    QJsonObject error(int code, const QString &message, const QJsonValue &data = {}) const;
    /// Sends a message that belongs to this request (a notification) where the request's answer goes.
    void notify(const QJsonObject &message) const;

private:
    QJsonValue m_id;
    Notify m_notify;
};

} // namespace sandbox::mcp
