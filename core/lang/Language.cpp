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
    // The class whose body holds `static void main(`: the innermost type still open there. Types declared
    // before main inside it (Java 21 records of a sealed interface, say) are closed by then.
    static const QRegularExpression mainMethod(QStringLiteral(R"(\bstatic\s+(?:final\s+)?void\s+main\s*\()"));
    static const QRegularExpression token(
        QStringLiteral(
            R"(//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\b(?:class|record|enum|interface)\s+([A-Za-z_$][A-Za-z0-9_$]*)|[{}])"),
        QRegularExpression::DotMatchesEverythingOption);
    const auto mainMatch = mainMethod.match(code);
    if (!mainMatch.hasMatch()) {
        return stem;
    }
    struct OpenType
    {
        QString name;
        int depth;
    };
    QList<OpenType> open;
    QString declared; // a type whose body has not started yet
    int depth = 0;
    auto tokens = token.globalMatch(code.left(mainMatch.capturedStart()));
    while (tokens.hasNext()) {
        const auto match = tokens.next();
        const QString text = match.captured(0);
        if (!match.captured(1).isEmpty()) {
            declared = match.captured(1);
        } else if (text == QLatin1String("{")) {
            ++depth;
            if (!declared.isEmpty()) {
                open.append(OpenType{declared, depth});
                declared.clear();
            }
        } else if (text == QLatin1String("}")) {
            if (!open.isEmpty() && open.last().depth == depth) {
                open.removeLast();
            }
            --depth;
        }
    }
    return open.isEmpty() ? stem : open.last().name;
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

QStringList Language::withProxyArguments(QStringList argv, int port) const
{
    QStringList arguments;
    for (const QString &argument : proxyArguments) {
        arguments << QString(argument).replace(QLatin1String("{port}"), QString::number(port));
    }
    if (!argv.isEmpty()) {
        argv = QStringList{argv.first()} + arguments + argv.mid(1);
    }
    return argv;
}

} // namespace sandbox
