#pragma once

#include "security/PolicyRule.h"

#include <QList>

namespace sandbox {

/// The rules every preset starts from, for the seven languages. Severities carry the presets:
/// high — starting other programs or loading native code (refused by `default`); medium — network,
/// paths outside the working directory, code built at run time, creating processes, other ways
/// around the checks (refused by `strict`); low — worth a note only.
QList<PolicyRule> builtinPolicyRules();

} // namespace sandbox
