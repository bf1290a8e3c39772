#include "gui/RunText.h"

#include "engine/RunResult.h"
#include "lang/LanguageRegistry.h"

#include <QCoreApplication>
#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QTextDocument>
#include <algorithm>

namespace sandbox::gui {

QString runSourceText(std::optional<RunSource> source)
{
    if (!source) {
        return QCoreApplication::translate("RunText", "unknown");
    }
    switch (*source) {
    case RunSource::Gui:
        return QCoreApplication::translate("RunText", "Console");
    case RunSource::Cli:
        return QCoreApplication::translate("RunText", "Command line");
    // Both are MCP clients (the filter offers them together): the transport says which.
    case RunSource::Mcp:
        return QStringLiteral("MCP");
    case RunSource::Http:
        return QStringLiteral("MCP/HTTP");
    case RunSource::Replay:
        return QCoreApplication::translate("RunText", "Replay");
    }
    return {};
}

QString runSourceText(std::optional<RunSource> source, const QString &clientName)
{
    const QString text = runSourceText(source);
    return clientName.isEmpty() ? text : text + QStringLiteral(" · ") + clientName;
}

QString runSourceText(const JournalRun &run)
{
    return runSourceText(run.source, run.clientName);
}

QList<std::pair<QString, QString>> runSourceChoices()
{
    QList<std::pair<QString, QString>> choices;
    for (const RunSource source : kRunSources) {
        if (source == RunSource::Mcp) {
            choices.append({QCoreApplication::translate("RunText", "Any MCP client (stdio or HTTP)"),
                            toString(QList<RunSource>{RunSource::Mcp, RunSource::Http})});
        }
        choices.append({runSourceText(source), toString(source)});
    }
    return choices;
}

QString runOutcomeName(RunOutcome outcome)
{
    switch (outcome) {
    case RunOutcome::Succeeded:
        return QCoreApplication::translate("RunText", "Succeeded");
    case RunOutcome::ExitedWithError:
        return QCoreApplication::translate("RunText", "Failed");
    case RunOutcome::TimedOut:
        return QCoreApplication::translate("RunText", "Timed out");
    case RunOutcome::Stopped:
        return QCoreApplication::translate("RunText", "Stopped");
    case RunOutcome::Failed:
        return QCoreApplication::translate("RunText", "Could not run");
    case RunOutcome::Interrupted:
        return QCoreApplication::translate("RunText", "Interrupted");
    case RunOutcome::Running:
        return QCoreApplication::translate("RunText", "Running");
    }
    return {};
}

RunEnding RunEnding::of(const JournalRun &run)
{
    return {run.outcome(), run.source, run.exitCode, run.stopReason, run.errorCode, run.durationMs, run.timeoutMs};
}

RunEnding RunEnding::of(const RunResult &result, RunSource source, qint64 timeoutMs)
{
    return {runOutcomeOf(RunStatus::Finished, result.reason, result.exitCode),
            source,
            result.exitCode,
            result.reason,
            std::nullopt,
            result.durationMs,
            timeoutMs};
}

QString runStatusText(const JournalRun &run)
{
    return runStatusText(RunEnding::of(run));
}

QString runStatusText(const RunEnding &run)
{
    const QString after = durationText(run.durationMs);
    switch (run.outcome) {
    case RunOutcome::Succeeded:
    case RunOutcome::Interrupted:
    case RunOutcome::Running:
        return runOutcomeName(run.outcome);
    case RunOutcome::ExitedWithError:
        if (run.stopReason == StopReason::CompileFailed) {
            return QCoreApplication::translate("RunText", "Compile error");
        }
        return run.exitCode ? QCoreApplication::translate("RunText", "Failed (exit %1)").arg(*run.exitCode)
                            : runOutcomeName(RunOutcome::ExitedWithError);
    case RunOutcome::TimedOut:
        // The limit it reached, as it was set ("30 s"); what it ran otherwise.
        return QCoreApplication::translate("RunText", "Timed out after %1")
            .arg(run.timeoutMs > 0 && run.timeoutMs % 1000 == 0 && run.timeoutMs < 60'000
                     ? QCoreApplication::translate("RunText", "%1 s").arg(run.timeoutMs / 1000)
                     : durationText(run.timeoutMs > 0 ? run.timeoutMs : run.durationMs));
    case RunOutcome::Stopped:
        break;
    case RunOutcome::Failed:
        switch (run.errorCode.value_or(ErrorCode::Internal)) {
        case ErrorCode::EngineUnreachable:
            return QCoreApplication::translate("RunText", "Engine unreachable");
        case ErrorCode::EngineFailed:
            return QCoreApplication::translate("RunText", "Engine error");
        case ErrorCode::ImageMissing:
            return QCoreApplication::translate("RunText", "Image missing");
        case ErrorCode::PolicyRefused:
            return QCoreApplication::translate("RunText", "Refused by the code policy");
        case ErrorCode::LimitsNotEnforced:
            return QCoreApplication::translate("RunText", "Limits not enforced");
        case ErrorCode::LimitReached:
            return QCoreApplication::translate("RunText", "Limit reached");
        case ErrorCode::InstallFailed:
            return QCoreApplication::translate("RunText", "Libraries not installed");
        case ErrorCode::SandboxFailed:
            return QCoreApplication::translate("RunText", "Sandbox failed");
        case ErrorCode::Cancelled:
            return QCoreApplication::translate("RunText", "Cancelled before it ran");
        case ErrorCode::Internal:
        case ErrorCode::BadRequest:
        case ErrorCode::NotFound:
        case ErrorCode::Unavailable:
            break;
        }
        return runOutcomeName(RunOutcome::Failed);
    }
    switch (run.stopReason.value_or(StopReason::Cancelled)) {
    case StopReason::OutOfMemory:
        return QCoreApplication::translate("RunText", "Out of memory after %1").arg(after);
    case StopReason::CpuLimit:
        return QCoreApplication::translate("RunText", "CPU-time limit reached after %1").arg(after);
    case StopReason::OutputLimit:
        return QCoreApplication::translate("RunText", "Output limit reached after %1").arg(after);
    case StopReason::StoppedByUser:
        return QCoreApplication::translate("RunText", "Stopped by you after %1").arg(after);
    default:
        // An assistant's run is cancelled by its client (the source column names it); the others by the user here.
        return run.source == RunSource::Mcp || run.source == RunSource::Http
                   ? QCoreApplication::translate("RunText", "Cancelled after %1").arg(after)
                   : QCoreApplication::translate("RunText", "Stopped by you after %1").arg(after);
    }
}

QString stopReasonText(std::optional<StopReason> reason)
{
    if (!reason) {
        return {};
    }
    switch (*reason) {
    case StopReason::Exited:
        return QCoreApplication::translate("RunText", "exited");
    case StopReason::TimedOut:
        return QCoreApplication::translate("RunText", "timed out");
    case StopReason::OutOfMemory:
        return QCoreApplication::translate("RunText", "out of memory");
    case StopReason::CpuLimit:
        return QCoreApplication::translate("RunText", "CPU-time limit");
    case StopReason::OutputLimit:
        return QCoreApplication::translate("RunText", "output limit");
    case StopReason::Cancelled:
        return QCoreApplication::translate("RunText", "stopped");
    case StopReason::CompileFailed:
        return QCoreApplication::translate("RunText", "compile error");
    case StopReason::StoppedByUser:
        return QCoreApplication::translate("RunText", "stopped by you");
    }
    return {};
}

QString runOutcomeText(const JournalRun &run)
{
    QStringList parts;
    if (run.status == RunStatus::Failed) {
        parts << run.error.section(QLatin1Char('\n'), 0, 0);
    }
    if (run.outputTruncated) {
        parts << QCoreApplication::translate("RunText", "output truncated");
    }
    parts.removeAll(QString());
    return parts.join(QStringLiteral(", "));
}

QString durationText(qint64 milliseconds)
{
    if (milliseconds < 1000) {
        return QCoreApplication::translate("RunText", "%1 ms").arg(milliseconds);
    }
    if (milliseconds < 60'000) {
        return QCoreApplication::translate("RunText", "%1 s")
            .arg(double(milliseconds) / 1000.0, 0, 'f', milliseconds < 10'000 ? 2 : 1);
    }
    const qint64 seconds = milliseconds / 1000;
    return QCoreApplication::translate("RunText", "%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
}

QString dataSizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QString sharedFoldersText(const QList<SharedFolderUse> &folders)
{
    QStringList lines;
    for (const SharedFolderUse &folder : folders) {
        lines << QCoreApplication::translate("RunText", "%1 (%2, %n file(s), %3)", nullptr, int(folder.files))
                     .arg(folder.name,
                          folder.writable ? QCoreApplication::translate("RunText", "results may be saved")
                                          : QCoreApplication::translate("RunText", "read only"),
                          dataSizeText(folder.bytes));
    }
    return lines.join(QLatin1Char('\n'));
}

QString librariesText(const JournalRun &run)
{
    QString libraries = run.libraries.join(QStringLiteral(", "));
    if (libraries.isEmpty() || !run.librariesCached) {
        return libraries;
    }
    return QCoreApplication::translate("RunText", "%1 (from the cache)").arg(libraries);
}

QString networkReasonText(const QString &reason)
{
    // The sentences NetworkConnection records (core/network/NetworkConnection.cpp), each translated here.
    static const char *const known[] = {
        QT_TRANSLATE_NOOP("RunText", "not an allowed host"),
        QT_TRANSLATE_NOOP("RunText", "an IP address that is not allowed (only listed addresses are)"),
        QT_TRANSLATE_NOOP("RunText", "a private, loopback, link-local or this computer's address"),
        QT_TRANSLATE_NOOP("RunText", "its name resolves to a private, loopback, link-local or this computer's address"),
        QT_TRANSLATE_NOOP("RunText", "the name does not resolve"),
        QT_TRANSLATE_NOOP("RunText", "the host refused the connection or cannot be reached"),
        QT_TRANSLATE_NOOP("RunText", "the host did not answer in time"),
        QT_TRANSLATE_NOOP("RunText", "the sandbox closed the connection before the answer"),
        QT_TRANSLATE_NOOP("RunText", "not a request the proxy understands"),
        QT_TRANSLATE_NOOP("RunText", "the tunnel carried something else than TLS (only port 80 may carry plain HTTP)"),
    };
    for (const char *sentence : known) {
        if (reason == QLatin1String(sentence)) {
            return QCoreApplication::translate("RunText", sentence);
        }
    }
    static const QRegularExpression port(QStringLiteral("^port (\\d+) is not allowed for this host$"));
    if (const QRegularExpressionMatch match = port.match(reason); match.hasMatch()) {
        return QCoreApplication::translate("RunText", "port %1 is not allowed for this host").arg(match.captured(1));
    }
    static const QRegularExpression serverName(QStringLiteral("^its TLS handshake names another server: (.*)$"));
    if (const QRegularExpressionMatch match = serverName.match(reason); match.hasMatch()) {
        return QCoreApplication::translate("RunText", "its TLS handshake names another server: %1")
            .arg(match.captured(1));
    }
    return reason;
}

QString networkText(const JournalRun &run)
{
    if (!run.hasNetwork()) {
        return run.networkHosts.join(QStringLiteral(", "));
    }
    const QStringList allowed = run.networkAllowed();
    const QList<NetworkConnection> connections = run.networkConnections();
    const auto refused = int(std::count_if(connections.cbegin(), connections.cend(),
                                           [](const NetworkConnection &connection) { return !connection.allowed; }));
    const QString hosts =
        allowed.isEmpty() ? QCoreApplication::translate("RunText", "nothing") : allowed.join(QStringLiteral(", "));
    const QString made =
        connections.isEmpty() ? QCoreApplication::translate("RunText", "no connection")
        : refused == 0
            ? QCoreApplication::translate("RunText", "%n connection(s)", nullptr, int(connections.size()))
            : QCoreApplication::translate("RunText", "%n connection(s), %1 refused", nullptr, int(connections.size()))
                  .arg(refused);
    // The secrets the proxy added (their names), each with how many requests carried it.
    QStringList secrets;
    QList<int> carried;
    for (const NetworkConnection &connection : connections) {
        if (connection.secret.isEmpty()) {
            continue;
        }
        const qsizetype known = secrets.indexOf(connection.secret);
        if (known < 0) {
            secrets << connection.secret;
            carried << 1;
        } else {
            ++carried[known];
        }
    }
    QStringList parts{hosts, made};
    for (qsizetype i = 0; i < secrets.size(); ++i) {
        parts << QCoreApplication::translate("RunText", "%n with secret %1", nullptr, carried.at(i)).arg(secrets.at(i));
    }
    return parts.join(QStringLiteral(" · "));
}

QString savedResultsText(const QList<SavedResult> &saved)
{
    QStringList lines;
    for (const SavedResult &file : saved) {
        lines << QStringLiteral("%1 → %2 (%3)").arg(file.sandboxPath(), file.hostPath(), dataSizeText(file.bytes));
    }
    return lines.join(QLatin1Char('\n'));
}

QString htmlWithCode(const QString &text)
{
    static const QRegularExpression code(QStringLiteral("`([^`\\n]+)`"));
    QString html;
    qsizetype done = 0;
    for (auto it = code.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        html += text.mid(done, match.capturedStart() - done).toHtmlEscaped();
        html += QStringLiteral("<code>%1</code>").arg(match.captured(1).toHtmlEscaped());
        done = match.capturedEnd();
    }
    html += text.mid(done).toHtmlEscaped();
    return html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString backendText(const QString &name)
{
    // Product names, the same in every language.
    static const QHash<QString, QString> titles{{QStringLiteral("docker"), QStringLiteral("Docker")},
                                                {QStringLiteral("podman"), QStringLiteral("Podman")},
                                                {QStringLiteral("kubernetes"), QStringLiteral("Kubernetes")}};
    return titles.value(name, name);
}

QString languageText(const QString &name)
{
    auto language = LanguageRegistry::instance().find(name);
    return language ? language->displayName : name;
}

QString shortLanguageText(const QString &name)
{
    return languageText(name).section(QStringLiteral(" ("), 0, 0);
}

namespace {

/// The locale's short time with seconds: "h:mm:ss AP", "HH:mm:ss" (short formats leave the seconds out).
QString timeFormatWithSeconds(const QLocale &locale)
{
    QString format = locale.timeFormat(QLocale::ShortFormat);
    const qsizetype minutes = format.indexOf(QStringLiteral("mm"));
    if (!format.contains(u's') && minutes > 0) {
        format.insert(minutes + 2, format.at(minutes - 1) + QStringLiteral("ss"));
    }
    return format;
}

/// The locale's long date without weekday and year, months abbreviated: "MMM d", "d MMM", "M月d日", "d 'de' MMM".
QString dayFormat(const QLocale &locale)
{
    static const QRegularExpression weekday(QStringLiteral("^d{4}[^dMy]*|[\\s,]*d{4}"));
    // The year with the separators before it, or after it when it comes first, and a literal that belongs to it.
    static const QRegularExpression year(QStringLiteral("^y+[^dM']*|(\\s*'[^']*')*[^dM']*y+(\\s*'[^']*'\\.?)?"));
    QString format = locale.dateFormat(QLocale::LongFormat);
    format.remove(weekday).remove(year).replace(QStringLiteral("MMMM"), QStringLiteral("MMM"));
    return format.trimmed();
}

/// Whether `c` is CJK punctuation ("。", "？", "："), after which no space comes.
bool isWideStop(QChar c)
{
    return (c.unicode() >= 0x3000 && c.unicode() <= 0x303f) || (c.unicode() >= 0xff00 && c.unicode() <= 0xffef);
}

} // namespace

QString dateTimeText(const QDateTime &when)
{
    if (!when.isValid()) {
        return {};
    }
    const QLocale locale;
    QString format = locale.dateTimeFormat(QLocale::ShortFormat);
    format.replace(locale.timeFormat(QLocale::ShortFormat), timeFormatWithSeconds(locale));
    return locale.toString(when.toLocalTime(), format);
}

QString timeText(const QTime &time)
{
    const QLocale locale;
    return locale.toString(time, timeFormatWithSeconds(locale));
}

QString dayText(const QDate &day)
{
    const QLocale locale;
    return locale.toString(day, dayFormat(locale));
}

QString joinSentences(const QStringList &sentences)
{
    QString text;
    for (const QString &sentence : sentences) {
        if (sentence.isEmpty()) {
            continue;
        }
        if (!text.isEmpty() && !isWideStop(text.back())) {
            text += QLatin1Char(' ');
        }
        text += sentence;
    }
    return text;
}

QString plainToolTip(const QString &text)
{
    return text.isEmpty() ? text : Qt::convertFromPlainText(text, Qt::WhiteSpacePre);
}

QString plainNotificationText(const QString &text)
{
    QString plain = text;
    plain.replace(u'<', u'\u2039').replace(u'>', u'\u203A').replace(u'&', u'\uFF06');
    return plain;
}

} // namespace sandbox::gui
