#pragma once

#include <QByteArrayView>
#include <QStringList>
#include <QStringView>

namespace sandbox::mcp {

/// Which browsers' pages and which Host names may reach the server: the defence against DNS rebinding, where a web
/// page makes its own domain resolve to 127.0.0.1 and then talks to local servers as if they were same-origin.
class OriginPolicy final
{
public:
    /// `extraOrigins` are allowed besides loopback ones (exact "scheme://host[:port]" strings). With `checkHost`,
    /// the Host header must name a loopback host too (right for a server bound to loopback only).
    explicit OriginPolicy(QStringList extraOrigins = {}, bool checkHost = true);

    /// An absent Origin (every non-browser client) is allowed; "null" and non-loopback origins are not.
    bool allowsOrigin(QByteArrayView origin) const;
    bool allowsHost(QByteArrayView host) const;

    /// localhost (and *.localhost), 127.0.0.0/8 and ::1, with or without IPv6 brackets.
    static bool isLoopbackHost(QStringView host);

private:
    QStringList m_extraOrigins;
    bool m_checkHost;
};

} // namespace sandbox::mcp
