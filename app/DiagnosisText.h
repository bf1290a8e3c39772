#pragma once

#include <QString>

namespace sandbox {

struct BackendDiagnosis;

/// A backend's diagnosis in one line, translated: "reachable: version …, API …, linux/amd64 at …, rootful",
/// "unreachable: …" or "unavailable: …" (the failure's own message stays English). doctor prints it after the backend's
/// name; the backends page shows it when the test fails, so both say the same.
QString diagnosisSummary(const BackendDiagnosis &diagnosis);

} // namespace sandbox
