#include "lang/Language.h"

#include <QRegularExpression>

namespace sandbox {

QString Language::sourceFileName(const QString &code) const
{
    if (name == QLatin1String("java")) {
        // javac insists that a public class lives in a file of its own name.
        static const QRegularExpression publicClass(QStringLiteral(R"(\bpublic\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][A-Za-z0-9_$]*))"));
        const auto match = publicClass.match(code);
        if (match.hasMatch()) {
            return match.captured(1) + QStringLiteral(".java");
        }
    }
    return defaultFile;
}

} // namespace sandbox
