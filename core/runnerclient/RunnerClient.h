#pragma once

#include "backend/ContainerStream.h"
#include "runnerclient/RunnerMessages.h"
#include "util/Result.h"

#include <QJsonObject>
#include <chrono>
#include <memory>
#include <optional>

namespace sandbox {

/// The host side of the runner protocol (runner/PROTOCOL.md): newline-delimited JSON over
/// the container's attached stream, as typed messages (RunnerMessages.h).
class RunnerClient final
{
public:
    explicit RunnerClient(std::unique_ptr<ContainerStream> stream);

    /// Sends `request`; an error (SandboxFailed) when the stream is gone.
    Result<void> send(const RunnerRequest &request);
    /// The next event, or nullopt when none arrived within `timeout`; an error (SandboxFailed) when the
    /// stream ended or the runner sent something that is not protocol.
    Result<std::optional<RunnerEvent>> next(std::chrono::milliseconds timeout);
    /// Waits for the runner's "ready" (ImageMissing when the image's runner speaks another version) and returns
    /// the limits it found in force.
    Result<EnforcedLimits> waitReady(std::chrono::milliseconds timeout);
    /// Sends a put_file or get_file request and waits up to `timeout` for its `file` answer; the runner's
    /// refusal is a BadRequest (a bad path, a missing or too large file).
    Result<RunnerFileEvent> transferFile(const RunnerRequest &request, std::chrono::milliseconds timeout);
    void close();

private:
    std::unique_ptr<ContainerStream> m_stream;
    /// What arrived and is not read yet starts at m_start; m_scanned bytes from there hold no newline. Each byte is
    /// searched once and moved at most once more (the buffer is compacted when its read part is the larger half),
    /// so reading is linear in what the runner sends, however it splits its lines.
    QByteArray m_buffer;
    qsizetype m_start = 0;
    qsizetype m_scanned = 0;
    /// A message read whose `"raw":N` bytes (m_rawBytes) have not all arrived yet.
    std::optional<QJsonObject> m_rawHeader;
    qsizetype m_rawBytes = 0;
};

} // namespace sandbox
