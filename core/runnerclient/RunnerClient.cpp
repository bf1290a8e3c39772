#include "runnerclient/RunnerClient.h"

#include <QJsonDocument>

namespace sandbox {

namespace {

// A message is a line; the largest legitimate one carries an artifact in base64.
constexpr qsizetype kMaxLine = 256LL * 1024 * 1024;

} // namespace

RunnerClient::RunnerClient(std::unique_ptr<ContainerStream> stream) : m_stream(std::move(stream))
{
}

Result<void> RunnerClient::send(const QJsonObject &message)
{
    return m_stream->write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
}

Result<std::optional<QJsonObject>> RunnerClient::next(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (const qsizetype newline = m_buffer.indexOf('\n'); newline >= 0) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(m_buffer.left(newline), &error);
            m_buffer.remove(0, newline + 1);
            if (!document.isObject()) {
                return Error{QStringLiteral("The sandbox runner sent an unreadable message (%1).").arg(error.errorString()), ErrorCode::SandboxFailed};
            }
            return std::optional<QJsonObject>(document.object());
        }
        if (m_buffer.size() > kMaxLine) {
            return Error{QStringLiteral("The sandbox runner sent an oversized message."), ErrorCode::SandboxFailed};
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return std::optional<QJsonObject>();
        }
        switch (m_stream->read(m_buffer, left)) {
        case ContainerStream::ReadStatus::Data:
            break;
        case ContainerStream::ReadStatus::Timeout:
            return std::optional<QJsonObject>();
        case ContainerStream::ReadStatus::Closed:
        case ContainerStream::ReadStatus::Failed:
            return Error{QStringLiteral("The sandbox container stopped unexpectedly."), ErrorCode::SandboxFailed};
        }
    }
}

Result<void> RunnerClient::waitReady(std::chrono::milliseconds timeout)
{
    auto message = next(timeout);
    if (!message) {
        return message.error();
    }
    if (!message->has_value()) {
        return Error{QStringLiteral("The sandbox runner did not start within %1 s.").arg(timeout.count() / 1000.0), ErrorCode::SandboxFailed};
    }
    const QJsonObject &ready = **message;
    if (ready.value(QStringLiteral("ev")).toString() != QLatin1String("ready")) {
        return Error{QStringLiteral("The sandbox runner did not announce itself."), ErrorCode::SandboxFailed};
    }
    if (ready.value(QStringLiteral("version")).toInt() != 1) {
        return Error{QStringLiteral("The sandbox image has a runner of another protocol version; rebuild the images "
                                    "with `llm-sandbox images build`."), ErrorCode::ImageMissing};
    }
    return {};
}

void RunnerClient::close()
{
    m_stream->closeWrite();
}

} // namespace sandbox
