#include "gui/tray/TrayStatus.h"

#include "gui/RunText.h"

namespace sandbox::gui {

namespace {

bool isAssistants(const JournalRun &run)
{
    return run.source == RunSource::Mcp || run.source == RunSource::Http;
}

bool failed(const JournalRun &run)
{
    switch (run.status) {
    case RunStatus::Running:
        return false;
    case RunStatus::Failed:
    case RunStatus::Interrupted:
        return true;
    case RunStatus::Finished:
        return (run.exitCode && *run.exitCode != 0) || run.wasStopped();
    }
    return false;
}

qint64 durationOf(const JournalRun &run)
{
    if (run.durationMs > 0) {
        return run.durationMs;
    }
    return run.startedAt.isValid() && run.finishedAt.isValid() ? run.startedAt.msecsTo(run.finishedAt) : 0;
}

} // namespace

QString TrayStatus::summary(bool serving, int clients, int running)
{
    const QString runs = tr("%n running", nullptr, running);
    if (!serving) {
        return tr("MCP server stopped · %1").arg(runs);
    }
    return tr("%n client(s), %1", nullptr, clients).arg(runs);
}

QString TrayStatus::toolTip(bool serving, const QUrl &url, int clients, int running)
{
    const QString server = serving ? tr("MCP server at %1").arg(url.toString()) : QString();
    QStringList lines{tr("LLM Sandbox")};
    if (!server.isEmpty()) {
        lines << server;
    }
    lines << summary(serving, clients, running);
    return lines.join(QLatin1Char('\n'));
}

std::optional<TrayStatus::Notification> TrayStatus::notificationFor(const JournalRun &run, bool windowActive)
{
    if (windowActive || run.status == RunStatus::Running) {
        return std::nullopt;
    }
    const bool wentWrong = failed(run);
    const qint64 duration = durationOf(run);
    const bool assistants = isAssistants(run);
    if (!(assistants && wentWrong) && duration <= kLongRunMs) {
        return std::nullopt;
    }
    // In the one vocabulary of every page ("Failed (exit 1)", "Timed out after 30 s"), with what it leaves out (a
    // failed run's error line) and, where it does not say it, how long the run took.
    const QString status = runStatusText(run);
    QStringList parts{languageText(run.language)};
    if (!assistants || !wentWrong) {
        parts << runSourceText(run);
    }
    parts << status;
    if (const QString outcome = runOutcomeText(run); !outcome.isEmpty()) {
        parts << outcome;
    }
    Notification notification;
    notification.failure = wentWrong;
    if (assistants && wentWrong) {
        notification.title = plainNotificationText(tr("Run failed: %1").arg(runSourceText(run)));
        if (!status.contains(durationText(duration))) {
            parts << durationText(duration);
        }
    } else {
        notification.title = wentWrong ? tr("Run failed after %1").arg(durationText(duration))
                                       : tr("Run finished after %1").arg(durationText(duration));
    }
    notification.message = plainNotificationText(parts.join(QStringLiteral(" · ")));
    return notification;
}

TrayStatus::CloseAction TrayStatus::closeAction(bool trayAvailable, bool keepServing, bool serving, bool quitAsked)
{
    return trayAvailable && keepServing && serving && !quitAsked ? CloseAction::HideToTray : CloseAction::Quit;
}

} // namespace sandbox::gui
