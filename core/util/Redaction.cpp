#include "util/Redaction.h"

#include <QRegularExpression>

namespace sandbox {

QString redactCredentials(QString text)
{
    // scheme://userinfo@ — userinfo holds no '/', '?', '#', '@' or whitespace (RFC 3986).
    static const QRegularExpression userInfo(QStringLiteral(R"(([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#@\s]+@)"));
    static const QRegularExpression secretParameter(
        QStringLiteral(R"(([?&](?:access_token|token|auth|password|passwd|secret|api_key|apikey|key)=)[^&#\s]+)"),
        QRegularExpression::CaseInsensitiveOption);
    text.replace(userInfo, QStringLiteral("\\1***@"));
    text.replace(secretParameter, QStringLiteral("\\1***"));
    return text;
}

} // namespace sandbox
