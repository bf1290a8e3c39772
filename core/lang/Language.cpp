#include "lang/Language.h"

#include <QRegularExpression>

namespace sandbox {

QString Language::sourceFileName(const QString &code) const
{
    if (name == QLatin1String("java")) {
        // javac insists that a public class lives in a file of its own name.
        static const QRegularExpression publicClass(
            QStringLiteral(R"(\bpublic\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][A-Za-z0-9_$]*))"));
        const auto match = publicClass.match(code);
        if (match.hasMatch()) {
            return match.captured(1) + QStringLiteral(".java");
        }
    }
    return defaultFile;
}

QString Language::entryPoint(const QString &code) const
{
    const QString file = sourceFileName(code);
    const QString stem = file.left(file.lastIndexOf(QLatin1Char('.')));
    if (name != QLatin1String("java")) {
        return stem;
    }
    // The class whose body holds `static void main(`: the last class declared before it.
    static const QRegularExpression mainMethod(QStringLiteral(R"(\bstatic\s+(?:final\s+)?void\s+main\s*\()"));
    static const QRegularExpression classDeclaration(
        QStringLiteral(R"(\b(?:class|record|enum|interface)\s+([A-Za-z_$][A-Za-z0-9_$]*))"));
    const auto mainMatch = mainMethod.match(code);
    if (!mainMatch.hasMatch()) {
        return stem;
    }
    QString owner = stem;
    auto classes = classDeclaration.globalMatch(code.left(mainMatch.capturedStart()));
    while (classes.hasNext()) {
        owner = classes.next().captured(1);
    }
    return owner;
}

QStringList Language::commandFor(const QStringList &argv, const QString &code) const
{
    const QString file = sourceFileName(code);
    const QString stem = file.left(file.lastIndexOf(QLatin1Char('.')));
    const QString main = entryPoint(code);
    QStringList out;
    for (QString arg : argv) {
        out << arg.replace(QStringLiteral("{file}"), file)
                   .replace(QStringLiteral("{stem}"), stem)
                   .replace(QStringLiteral("{main}"), main);
    }
    return out;
}

} // namespace sandbox
