#pragma once

#include "security/Severity.h"

#include <QString>

namespace sandbox {

/// One match of a policy rule in a piece of code.
struct PolicyFinding
{
    QString ruleId;
    QString description;
    Severity severity = Severity::Safe;
    int line = 0;    ///< 1-based
    int column = 0;  ///< 1-based, in UTF-16 code units
    QString excerpt; ///< the matched text as written (first line of it, shortened when long)
};

} // namespace sandbox
