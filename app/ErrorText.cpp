#include "ErrorText.h"

#include <QCoreApplication>

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

} // namespace sandbox
