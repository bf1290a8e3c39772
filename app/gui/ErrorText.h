#pragma once

#include "util/Result.h"

#include <QString>

namespace sandbox::gui {

/// What an error means for the person at the desktop, translated: a headline chosen by the error's code.
QString errorHeadline(ErrorCode code);
/// The headline followed by the error's own (English) details.
QString errorText(const Error &error);

} // namespace sandbox::gui
