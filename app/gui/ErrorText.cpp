#include "gui/ErrorText.h"

#include <QCoreApplication>

namespace sandbox::gui {

QString errorHeadline(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Internal:
        return QCoreApplication::translate("ErrorText", "Something went wrong inside LLM Sandbox.");
    case ErrorCode::BadRequest:
        return QCoreApplication::translate("ErrorText", "The request is not valid.");
    case ErrorCode::NotFound:
        return QCoreApplication::translate("ErrorText", "It does not exist (any more).");
    case ErrorCode::EngineUnreachable:
        return QCoreApplication::translate("ErrorText", "The container engine does not answer. Is it running?");
    case ErrorCode::EngineFailed:
        return QCoreApplication::translate("ErrorText", "The container engine refused.");
    case ErrorCode::ImageMissing:
        return QCoreApplication::translate("ErrorText", "The sandbox image is missing and could not be built.");
    case ErrorCode::PolicyRefused:
        return QCoreApplication::translate("ErrorText", "The code policy refused this code before it ran.");
    case ErrorCode::LimitsNotEnforced:
        return QCoreApplication::translate("ErrorText", "The container engine did not enforce a sandbox limit.");
    case ErrorCode::LimitReached:
        return QCoreApplication::translate("ErrorText", "A configured limit was reached.");
    case ErrorCode::InstallFailed:
        return QCoreApplication::translate("ErrorText", "The libraries could not be installed.");
    case ErrorCode::SandboxFailed:
        return QCoreApplication::translate("ErrorText", "The sandbox stopped unexpectedly.");
    case ErrorCode::Cancelled:
        return QCoreApplication::translate("ErrorText", "Cancelled.");
    case ErrorCode::Unavailable:
        return QCoreApplication::translate("ErrorText", "This is not available in this build or configuration.");
    }
    return QCoreApplication::translate("ErrorText", "Something went wrong inside LLM Sandbox.");
}

QString errorText(const Error &error)
{
    const QString headline = errorHeadline(error.code);
    return error.message.isEmpty() ? headline : headline + QLatin1Char('\n') + error.message;
}

} // namespace sandbox::gui
