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

} // namespace sandbox
