#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace sandbox::mcp {

/// One JSON-RPC message as received, read once: what it is, its id, method and params, and what a transport needs to
/// route it (whether an answer is owed, its progress token, whether it takes the 2026-07-28 path). Both transports
/// and the dispatcher use the same reading; a malformed message carries the error it is to be answered with.
class McpMessage final
{
public:
    enum class Kind
    {
        Request,
        Notification,
        /// Nothing to do and nothing to answer: a response (this server sends no requests), or a notification
        /// whose params are malformed.
        Ignored,
        /// Answered with error(): code and text, addressed to id() when it is usable.
        Invalid,
    };

    static McpMessage parse(const QJsonValue &value);

    Kind kind() const { return m_kind; }
    /// The message as received (an empty object when it was not one).
    const QJsonObject &object() const { return m_object; }
    /// Null when the message has no usable id (a string or a number).
    const QJsonValue &id() const { return m_id; }
    const QString &method() const { return m_method; }
    const QJsonObject &params() const { return m_params; }
    /// `params._meta.progressToken` when it is a string or a number; undefined otherwise.
    QJsonValue progressToken() const;
    /// It names a method and carries an id, valid or not: an answer is owed, so a transport waits for one.
    bool awaitsAnswer() const;
    /// A request of the 2026-07-28 era (RequestMeta::isPerRequest), well-formed or not: the 2026-07-28 path answers
    /// even its faults.
    bool isPerRequest() const;
    /// For Kind::Invalid: the JSON-RPC error code and its text.
    int errorCode() const { return m_errorCode; }
    const QString &errorText() const { return m_errorText; }

private:
    static McpMessage invalid(QJsonObject object, QJsonValue id, int code, QString text);

    Kind m_kind = Kind::Invalid;
    QJsonObject m_object;
    QJsonValue m_id = QJsonValue::Null;
    QString m_method;
    QJsonObject m_params;
    int m_errorCode = 0;
    QString m_errorText;
};

} // namespace sandbox::mcp
