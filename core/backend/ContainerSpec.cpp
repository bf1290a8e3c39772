#include "backend/ContainerSpec.h"

namespace sandbox {

ContainerNetwork ContainerNetwork::named(const QString &name)
{
    if (name.isEmpty() || name == QLatin1String("none")) {
        return none();
    }
    return {Kind::Named, name};
}

QString ContainerNetwork::text() const
{
    switch (kind) {
    case Kind::None:
        return QStringLiteral("none");
    case Kind::Named:
        return name;
    case Kind::EgressProxyClient:
        return QStringLiteral("egress-proxy-client");
    }
    return {};
}

QStringList Tmpfs::mountOptions() const
{
    QStringList options{readOnly ? QStringLiteral("ro") : QStringLiteral("rw"),
                        executable ? QStringLiteral("exec") : QStringLiteral("noexec"), QStringLiteral("nosuid"),
                        QStringLiteral("nodev")};
    if (sizeBytes > 0) {
        options << QStringLiteral("size=%1").arg(sizeBytes);
    }
    if (mode) {
        options << QStringLiteral("mode=%1").arg(*mode, 4, 8, QLatin1Char('0'));
    }
    return options;
}

const Tmpfs *ContainerSpec::tmpfsAt(const QString &path) const
{
    for (const Tmpfs &mount : tmpfs) {
        if (mount.path == path) {
            return &mount;
        }
    }
    return nullptr;
}

} // namespace sandbox
