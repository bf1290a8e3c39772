#pragma once

#include "util/Result.h"

#include <QString>

namespace sandbox {

/// What an error means for a person, translated: a headline chosen by the error's code.
QString errorHeadline(ErrorCode code);
/// The headline followed by the error's own (English) details on the next line: the desktop app's wording.
QString errorText(const Error &error);
/// The error's own (English) message on one line, after its headline only where a translation gives one (in English
/// the headline would only repeat the message): the command line's wording.
QString errorLine(const Error &error);

/// An error in one sentence, with what explains it at length apart.
struct ErrorSummary
{
    QString sentence; ///< what failed and why
    QString details;  ///< a failed install's log; empty when there is none
};
/// A failed install (ErrorCode::InstallFailed) in one sentence: what failed (its message's first sentence) and why (the
/// installer's last error line, at most a few hundred characters), with the installer's log as the details. Any other
/// error: errorText() on one line.
ErrorSummary summarised(const Error &error);

} // namespace sandbox
