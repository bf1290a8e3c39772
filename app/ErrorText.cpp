#include "ErrorText.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace sandbox {

namespace {

/// The untranslated headline of `code`.
const char *headlineSource(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Internal:
        break;
    case ErrorCode::BadRequest:
        return QT_TRANSLATE_NOOP("ErrorText", "The request is not valid.");
    case ErrorCode::NotFound:
        return QT_TRANSLATE_NOOP("ErrorText", "It does not exist (any more).");
    case ErrorCode::EngineUnreachable:
        return QT_TRANSLATE_NOOP("ErrorText", "The container engine does not answer. Is it running?");
    case ErrorCode::EngineFailed:
        return QT_TRANSLATE_NOOP("ErrorText", "The container engine refused.");
    case ErrorCode::ImageMissing:
        return QT_TRANSLATE_NOOP("ErrorText", "The sandbox image is missing and could not be built.");
    case ErrorCode::PolicyRefused:
        return QT_TRANSLATE_NOOP("ErrorText", "The code policy refused this code before it ran.");
    case ErrorCode::LimitsNotEnforced:
        return QT_TRANSLATE_NOOP("ErrorText", "The container engine did not enforce a sandbox limit.");
    case ErrorCode::LimitReached:
        return QT_TRANSLATE_NOOP("ErrorText", "A configured limit was reached.");
    case ErrorCode::InstallFailed:
        return QT_TRANSLATE_NOOP("ErrorText", "The libraries could not be installed.");
    case ErrorCode::SandboxFailed:
        return QT_TRANSLATE_NOOP("ErrorText", "The sandbox stopped unexpectedly.");
    case ErrorCode::Cancelled:
        return QT_TRANSLATE_NOOP("ErrorText", "Cancelled.");
    case ErrorCode::Unavailable:
        return QT_TRANSLATE_NOOP("ErrorText", "This is not available in this build or configuration.");
    }
    return QT_TRANSLATE_NOOP("ErrorText", "Something went wrong inside LLM Sandbox.");
}

} // namespace

QString errorHeadline(ErrorCode code)
{
    return QCoreApplication::translate("ErrorText", headlineSource(code));
}

QString errorText(const Error &error)
{
    const QString headline = errorHeadline(error.code);
    return error.message.isEmpty() ? headline : headline + QLatin1Char('\n') + error.message;
}

QString errorLine(const Error &error)
{
    const char *source = headlineSource(error.code);
    const QString headline = QCoreApplication::translate("ErrorText", source);
    if (error.message.isEmpty()) {
        return headline;
    }
    return headline == QLatin1String(source) ? error.message : headline + QLatin1Char(' ') + error.message;
}

ErrorSummary summarised(const Error &error)
{
    const QString headline = errorHeadline(error.code);
    if (error.code != ErrorCode::InstallFailed) {
        return {error.message.isEmpty() ? headline : headline + QStringLiteral(": ") + error.message.simplified(), {}};
    }
    // "Installing x with pip failed (exit code 1); the code was not run. <the installer's output>"
    static const QRegularExpression sentenceEnd(
        QStringLiteral("(the code was not run|the session was not created)\\."));
    const QRegularExpressionMatch end = sentenceEnd.match(error.message);
    const qsizetype cut = end.hasMatch() ? end.capturedEnd() : error.message.indexOf(u'\n');
    const QString what = cut < 0 ? error.message : error.message.left(cut);
    const QString log = cut < 0 ? QString() : error.message.mid(cut).trimmed();
    // Why: the installer's last error line (pip's and npm's "ERROR:", apt's "E:", cargo's and go's "error:"), else its
    // last line.
    static const QRegularExpression installerError(
        QStringLiteral("^\\s*(?:(?:ERROR|E|error|Error|fatal)\\b:?|npm ERR!)\\s*"));
    const QStringList lines = log.split(u'\n', Qt::SkipEmptyParts);
    QString why;
    for (auto line = lines.crbegin(); line != lines.crend() && why.isEmpty(); ++line) {
        if (const QRegularExpressionMatch match = installerError.match(*line); match.hasMatch()) {
            why = line->mid(match.capturedEnd()).trimmed();
        }
    }
    if (why.isEmpty() && !lines.isEmpty()) {
        why = lines.last().trimmed();
    }
    constexpr qsizetype kLongestReason = 300;
    if (why.size() > kLongestReason) {
        why = why.left(kLongestReason - 1) + QChar(0x2026);
    }
    QString sentence = headline + QStringLiteral(": ") + what.simplified();
    if (!why.isEmpty()) {
        sentence += u' ' + QCoreApplication::translate("ErrorText", "The installer said: %1").arg(why);
    }
    return {sentence, log};
}

} // namespace sandbox
