#include "runnerclient/RunnerClient.h"

#include <QJsonDocument>
#include <utility>

namespace sandbox {

namespace {

// A message is a line; the largest legitimate one carries an artifact in base64. A result file's bytes follow their
// message as they are, up to the same size.
constexpr qsizetype kMaxLine = 256LL * 1024 * 1024;
constexpr std::chrono::milliseconds kPollInterval{100};

} // namespace

RunnerClient::RunnerClient(std::unique_ptr<ContainerStream> stream) : m_stream(std::move(stream)) {}

Result<void> RunnerClient::send(const RunnerRequest &request)
{
    auto written = m_stream->write(QJsonDocument(toJson(request)).toJson(QJsonDocument::Compact) + '\n');
    if (!written) {
        return written.error().withCode(ErrorCode::SandboxFailed);
    }
    return {};
}

Result<std::optional<RunnerEvent>> RunnerClient::next(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // Drops what was read when it is the larger half of the buffer.
    const auto compact = [this] {
        if (m_start > m_buffer.size() / 2) {
            m_buffer.remove(0, m_start);
            m_start = 0;
        }
    };
    const auto event = [](const QJsonObject &message, const QByteArray &payload) -> Result<std::optional<RunnerEvent>> {
        auto read = runnerEventFromJson(message, payload);
        if (!read) {
            return read.error();
        }
        return std::optional<RunnerEvent>(std::move(*read));
    };
    for (;;) {
        if (m_rawHeader) {
            if (m_buffer.size() - m_start >= m_rawBytes) {
                const QByteArray payload = m_buffer.mid(m_start, m_rawBytes);
                m_start += m_rawBytes;
                compact();
                const QJsonObject message = *std::exchange(m_rawHeader, std::nullopt);
                return event(message, payload);
            }
        } else if (const qsizetype newline = m_buffer.indexOf('\n', m_start + m_scanned); newline >= 0) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(
                QByteArray::fromRawData(m_buffer.constData() + m_start, newline - m_start), &error);
            m_start = newline + 1;
            m_scanned = 0;
            compact();
            if (!document.isObject()) {
                return Error{
                    QStringLiteral("The sandbox runner sent an unreadable message (%1).").arg(error.errorString()),
                    ErrorCode::SandboxFailed};
            }
            const QJsonObject message = document.object();
            if (const QJsonValue raw = message.value(QStringLiteral("raw")); !raw.isUndefined()) {
                // The message's bytes follow it as they are.
                m_rawBytes = raw.toInteger(-1);
                if (m_rawBytes < 0 || m_rawBytes > kMaxLine) {
                    return Error{QStringLiteral("The sandbox runner announced an invalid or oversized file."),
                                 ErrorCode::SandboxFailed};
                }
                m_rawHeader = message;
                continue;
            }
            return event(message, {});
        } else {
            m_scanned = m_buffer.size() - m_start;
            if (m_scanned > kMaxLine) {
                return Error{QStringLiteral("The sandbox runner sent an oversized message."), ErrorCode::SandboxFailed};
            }
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return std::optional<RunnerEvent>();
        }
        switch (m_stream->read(m_buffer, left)) {
        case ContainerStream::ReadStatus::Data:
            break;
        case ContainerStream::ReadStatus::Timeout:
            return std::optional<RunnerEvent>();
        case ContainerStream::ReadStatus::Closed:
        case ContainerStream::ReadStatus::Failed:
            return Error{QStringLiteral("The sandbox container stopped unexpectedly."), ErrorCode::SandboxFailed};
        }
    }
}

Result<EnforcedLimits> RunnerClient::waitReady(std::chrono::milliseconds timeout)
{
    auto message = next(timeout);
    if (!message) {
        return message.error();
    }
    if (!message->has_value()) {
        return Error{QStringLiteral("The sandbox runner did not start within %1 s.").arg(timeout.count() / 1000.0),
                     ErrorCode::SandboxFailed};
    }
    const auto *ready = std::get_if<RunnerReadyEvent>(&**message);
    if (!ready) {
        return Error{QStringLiteral("The sandbox runner did not announce itself."), ErrorCode::SandboxFailed};
    }
    if (ready->version != 1) {
        return Error{QStringLiteral("The sandbox image has a runner of another protocol version; rebuild the images "
                                    "with `llm-sandbox images build`."),
                     ErrorCode::ImageMissing};
    }
    return ready->limits;
}

Result<RunnerFileEvent> RunnerClient::transferFile(const RunnerRequest &request, std::chrono::milliseconds timeout)
{
    const QString id = std::visit(
        [](const auto &each) -> QString {
            if constexpr (requires { each.id; }) {
                return each.id;
            } else {
                return {};
            }
        },
        request);
    if (auto sent = send(request); !sent) {
        return sent.error();
    }
    const auto giveUpAt = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < giveUpAt) {
        auto message = next(kPollInterval);
        if (!message) {
            return message.error();
        }
        if (!message->has_value() || eventId(**message) != id) {
            continue;
        }
        if (auto *file = std::get_if<RunnerFileEvent>(&**message)) {
            return std::move(*file);
        }
        if (const auto *error = std::get_if<RunnerErrorEvent>(&**message)) {
            return Error{error->message, ErrorCode::BadRequest};
        }
    }
    return Error{QStringLiteral("The sandbox did not answer the file operation within %1 s.")
                     .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()),
                 ErrorCode::SandboxFailed};
}

void RunnerClient::close()
{
    m_stream->closeWrite();
}

} // namespace sandbox
