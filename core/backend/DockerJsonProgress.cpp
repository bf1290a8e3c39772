#include "backend/DockerJsonProgress.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandbox {

DockerJsonProgress::DockerJsonProgress(ProgressCallback progress, Style style)
    : m_progress(std::move(progress)), m_style(style)
{}

void DockerJsonProgress::feed(const QByteArray &chunk)
{
    m_pending.append(chunk);
    qsizetype newline;
    while ((newline = m_pending.indexOf('\n')) >= 0) {
        const QByteArray line = m_pending.left(newline);
        m_pending.remove(0, newline + 1);
        handle(line);
    }
}

void DockerJsonProgress::finish()
{
    const QByteArray rest = std::exchange(m_pending, QByteArray());
    handle(rest);
}

void DockerJsonProgress::handle(const QByteArray &line)
{
    if (line.trimmed().isEmpty()) {
        return;
    }
    const QJsonObject message = QJsonDocument::fromJson(line).object();
    const QString detail =
        message.value(QStringLiteral("errorDetail")).toObject().value(QStringLiteral("message")).toString();
    const QString error = detail.isEmpty() ? message.value(QStringLiteral("error")).toString() : detail;
    if (!error.trimmed().isEmpty()) {
        m_error = error.trimmed();
        return;
    }
    QString text = message.value(QStringLiteral("stream")).toString();
    if (text.isEmpty()) {
        text = message.value(QStringLiteral("status")).toString();
    }
    text = text.trimmed();
    if (m_style == Style::Layers) {
        // "Pushing" with a byte count comes many times a second per layer; its start and end are enough.
        if (message.value(QStringLiteral("progressDetail")).toObject().contains(QStringLiteral("current"))) {
            return;
        }
        const QString id = message.value(QStringLiteral("id")).toString();
        if (!id.isEmpty() && !text.isEmpty()) {
            text = QStringLiteral("%1: %2").arg(id, text);
        }
    }
    if (!text.isEmpty() && m_progress) {
        m_progress(text);
    }
}

} // namespace sandbox
