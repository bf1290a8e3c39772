#include "DiagnosisText.h"

#include "engine/BackendDiagnosis.h"

#include <QCoreApplication>

namespace sandbox {

QString diagnosisSummary(const BackendDiagnosis &diagnosis)
{
    switch (diagnosis.state) {
    case BackendDiagnosis::State::Unavailable:
        return QCoreApplication::translate("DiagnosisText", "unavailable: %1").arg(diagnosis.failure.message);
    case BackendDiagnosis::State::Unreachable:
        return QCoreApplication::translate("DiagnosisText", "unreachable: %1").arg(diagnosis.failure.message);
    case BackendDiagnosis::State::Reachable:
        break;
    }
    const BackendInfo &info = diagnosis.info;
    return (info.rootless
                ? QCoreApplication::translate("DiagnosisText", "reachable: version %1, API %2, %3 at %4, rootless")
                : QCoreApplication::translate("DiagnosisText", "reachable: version %1, API %2, %3 at %4, rootful"))
        .arg(info.version, info.apiVersion, info.os, info.endpoint);
}

} // namespace sandbox
