#pragma once

#include "util/Result.h"

#include <QString>
#include <QStringList>

namespace sandbox {

/// How dangerous a policy finding is, in increasing order: a policy refuses code with a finding at or
/// above its threshold.
enum class Severity
{
    Safe,
    Low,
    Medium,
    High,
};

/// "safe", "low", "medium", "high".
QString severityName(Severity severity);
/// The inverse of severityName(), case-insensitive; anything else is an error listing the names.
Result<Severity> parseSeverity(const QString &name);
QStringList severityNames();

} // namespace sandbox
