#include "cli/BuildProgressView.h"

#include "cli/CliContext.h"

#include <QRegularExpression>

namespace sandbox::cli {

namespace {

constexpr int kBarWidth = 24;
constexpr int kRedrawMs = 150;

} // namespace

double BuildProgressView::Estimate::fraction() const
{
    if (steps <= 0) {
        return -1;
    }
    double inStep = 0;
    if (packages > 0) {
        inStep = std::min(1.0, packageLines / (2.0 * packages));
    }
    return std::clamp((std::max(step - 1, 0) + inStep) / steps, 0.0, 1.0);
}

void BuildProgressView::Estimate::update(const QString &line)
{
    static const QRegularExpression stepLine(QStringLiteral(R"(^step (\d+)/(\d+)\b)"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression aptSummary(QStringLiteral(R"(^\d+ upgraded, (\d+) newly installed)"));
    if (const auto match = stepLine.match(line); match.hasMatch()) {
        step = match.captured(1).toInt();
        steps = match.captured(2).toInt();
        packages = 0;
        packageLines = 0;
    } else if (const auto summary = aptSummary.match(line); summary.hasMatch()) {
        packages = summary.captured(1).toInt();
    } else if (line.startsWith(QLatin1String("Unpacking ")) || line.startsWith(QLatin1String("Setting up "))) {
        ++packageLines;
    }
}

BuildProgressView::BuildProgressView(QTextStream &stream, bool terminal, int width)
    : m_stream(stream), m_terminal(terminal), m_width(std::max(width, 40))
{
    m_sinceDraw.start();
}

BuildProgressView::Row &BuildProgressView::rowFor(const ImageBuildEvent &event)
{
    const QString name = event.name.isEmpty() ? tr("copy") : event.name;
    for (Row &row : m_rows) {
        if (row.name == name) {
            return row;
        }
    }
    m_rows.append(Row{.name = name, .state = tr("waiting"), .lastLine = {}, .estimate = {}});
    return m_rows.last();
}

void BuildProgressView::handle(const ImageBuildEvent &event)
{
    QMutexLocker lock(&m_mutex);
    Row &row = rowFor(event);
    QString plain;
    bool force = false;
    switch (event.kind) {
    case ImageBuildEvent::Kind::UpToDate:
        row.state = tr("up to date");
        row.complete = true;
        plain = tr("%1: up to date").arg(event.reference);
        force = true;
        break;
    case ImageBuildEvent::Kind::Started:
        row.state = tr("building");
        row.active = true;
        plain = tr("%1: building").arg(event.reference);
        force = true;
        break;
    case ImageBuildEvent::Kind::Output: {
        // An engine may send several lines in one piece (Podman does).
        QStringList lines;
        for (const QString &line : event.line.split(QLatin1Char('\n'))) {
            const QString trimmed = line.trimmed();
            if (trimmed.isEmpty()) {
                continue;
            }
            row.estimate.update(trimmed);
            row.lastLine = trimmed;
            lines << QStringLiteral("  [%1] %2").arg(row.name, trimmed);
        }
        if (lines.isEmpty()) {
            return;
        }
        plain = lines.join(QLatin1Char('\n'));
        break;
    }
    case ImageBuildEvent::Kind::Finished:
        row.state = tr("built in %1 s").arg(event.seconds, 0, 'f', 1);
        row.active = false;
        row.complete = true;
        row.lastLine.clear();
        plain = tr("%1: built in %2 s").arg(event.reference).arg(event.seconds, 0, 'f', 1);
        force = true;
        break;
    case ImageBuildEvent::Kind::Failed:
        row.state = tr("failed");
        row.active = false;
        row.lastLine = event.line;
        plain = tr("%1: failed: %2").arg(event.reference, event.line);
        force = true;
        break;
    }
    if (!m_terminal) {
        m_stream << plain << Qt::endl;
        return;
    }
    redraw(force);
}

void BuildProgressView::finish()
{
    QMutexLocker lock(&m_mutex);
    if (m_terminal) {
        redraw(true);
    }
}

QString BuildProgressView::render(const Row &row) const
{
    QString bar;
    const double fraction = row.estimate.fraction();
    if (row.complete) {
        bar = QString(kBarWidth, QLatin1Char('#'));
    } else if (row.active && fraction >= 0) {
        const int filled = int(fraction * kBarWidth);
        bar = QString(filled, QLatin1Char('#')) + QString(kBarWidth - filled, QLatin1Char('.'));
    } else {
        bar = QString(kBarWidth, QLatin1Char('.'));
    }
    QString text = padded(row.name, -18) + QStringLiteral(" [%1] ").arg(bar);
    if (row.active && fraction >= 0) {
        text += QStringLiteral("%1% ").arg(int(fraction * 100), 3);
    }
    text += row.state;
    if (!row.lastLine.isEmpty()) {
        text += QStringLiteral("  ") + row.lastLine;
    }
    return truncated(text, m_width - 1);
}

void BuildProgressView::redraw(bool force)
{
    if (!force && m_sinceDraw.elapsed() < kRedrawMs) {
        return;
    }
    m_sinceDraw.restart();
    if (m_drawnLines > 0) {
        m_stream << QStringLiteral("\x1b[%1A").arg(m_drawnLines);
    }
    for (const Row &row : m_rows) {
        m_stream << "\r\x1b[2K" << render(row) << '\n';
    }
    m_drawnLines = int(m_rows.size());
    m_stream.flush();
}

} // namespace sandbox::cli
