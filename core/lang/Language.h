#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace sandbox {

/// A worked example shown in the language details (MCP, GUI, docs).
struct LanguageExample
{
    QString title;
    QString code;
};

/// Everything the product knows about one language, described once: the engine, the MCP
/// language tools, the GUI's language picker and the docs all read this.
struct Language
{
    QString name;          ///< canonical id: python, javascript, java, cpp, go, r, ruby
    QString displayName;   ///< "Python", "C++", ...
    QStringList aliases;   ///< accepted case-insensitively besides `name`
    QString imageName;     ///< folder under resources/images/ and repository name of the built image
    QString defaultFile;   ///< source file name when the code does not dictate one
    QStringList compile;   ///< compile step argv (empty for interpreted languages); {file} {stem} {main} substituted
    QStringList run;       ///< run step argv; {file} {stem} {main} substituted
    QHash<QString, QString> projectFiles; ///< written beside the source (Go's go.mod)
    QString version;       ///< the version in the built image (Debian 12's package); user images may differ
    QStringList versionCommand;
    /// Extra environment of the compile and run steps (capture hooks, caches on tmpfs).
    QHash<QString, QString> environment;
    QString packageManager;
    QStringList preinstalledLibraries;
    QString visualization; ///< how charts are captured, in one sentence
    QList<LanguageExample> examples;

    bool isCompiled() const { return !compile.isEmpty(); }
    /// The file name the code must be saved under (Java: the public class's name).
    QString sourceFileName(const QString &code) const;
    /// What the run step starts (Java: the class declaring main); the file's stem otherwise.
    QString entryPoint(const QString &code) const;
    /// `argv` with {file}, {stem} and {main} filled in for `code`.
    QStringList commandFor(const QStringList &argv, const QString &code) const;
};

} // namespace sandbox
