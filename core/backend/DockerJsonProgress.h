#pragma once

#include "backend/ContainerBackend.h"

#include <QByteArray>
#include <QString>

namespace sandbox {

/// Reads the JSON message stream that the Docker API sends for builds, imports and pushes (one object per line,
/// split across chunks anywhere), turns messages into progress lines and keeps the error a message reports: these
/// operations answer 200 at once, so a failure arrives inside the stream, not as an HTTP status.
class DockerJsonProgress final
{
public:
    enum class Style
    {
        /// "stream" or "status" text as it comes (builds, imports).
        Plain,
        /// Per-layer status ("3f4a1b2c: Pushed"), without the byte-count updates that would flood the output.
        Layers,
    };

    explicit DockerJsonProgress(ProgressCallback progress, Style style = Style::Plain);

    /// Takes the next chunk of the body and reports the lines it completes.
    void feed(const QByteArray &chunk);
    /// Reports a last message that did not end with a newline.
    void finish();
    /// The error a message reported (errorDetail.message, else error), empty when none did.
    QString error() const { return m_error; }

private:
    void handle(const QByteArray &line);

    ProgressCallback m_progress;
    Style m_style;
    QByteArray m_pending;
    QString m_error;
};

} // namespace sandbox
