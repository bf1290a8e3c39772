#include "backend/ContainerBackend.h"

#include <QFileInfo>

namespace sandbox {

Result<OciRuntime> ContainerBackend::findRuntime(const QString &wanted)
{
    auto offered = runtimes();
    if (!offered) {
        return offered.error();
    }
    return findRuntime(wanted, *offered);
}

Result<OciRuntime> ContainerBackend::findRuntime(const QString &wanted, const QList<OciRuntime> &offered) const
{
    for (const OciRuntime &runtime : offered) {
        if (wanted.isEmpty() ? runtime.isDefault : runtime.name == wanted) {
            return runtime;
        }
    }
    // By its program: a runtime registered under another name ("gvisor" for runsc) is the same runtime.
    for (const OciRuntime &runtime : offered) {
        if (!wanted.isEmpty() && QFileInfo(runtime.handler).fileName() == wanted) {
            return runtime;
        }
    }
    if (wanted.isEmpty()) {
        return OciRuntime{};
    }
    QStringList names;
    for (const OciRuntime &runtime : offered) {
        names << runtime.name;
    }
    const QString registration = runtimeRegistration(wanted);
    return Error{QStringLiteral("The %1 engine has no OCI runtime \"%2\" (it has %3).%4")
                     .arg(name(), wanted, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")),
                          registration.isEmpty() ? QString() : QLatin1Char(' ') + registration),
                 ErrorCode::BadRequest};
}

} // namespace sandbox
