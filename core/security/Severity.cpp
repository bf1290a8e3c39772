#include "security/Severity.h"

namespace sandbox {

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Safe:
        return QStringLiteral("safe");
    case Severity::Low:
        return QStringLiteral("low");
    case Severity::Medium:
        return QStringLiteral("medium");
    case Severity::High:
        return QStringLiteral("high");
    }
    return {};
}

QStringList severityNames()
{
    return {severityName(Severity::Safe), severityName(Severity::Low), severityName(Severity::Medium),
            severityName(Severity::High)};
}

Result<Severity> parseSeverity(const QString &name)
{
    const QString wanted = name.trimmed().toLower();
    for (Severity severity : {Severity::Safe, Severity::Low, Severity::Medium, Severity::High}) {
        if (severityName(severity) == wanted) {
            return severity;
        }
    }
    return Error{QStringLiteral("\"%1\" is not a severity (use one of %2)").arg(name, severityNames().join(u", "))};
}

} // namespace sandbox
