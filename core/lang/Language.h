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
    QString description; ///< one line: what the example shows
};

/// How a language installs the libraries a run names: before the code runs, in a step that
/// may have network; the code itself then runs without network.
struct LibraryInstaller
{
    QString namePattern; ///< what a library name may look like; anything else is refused before anything runs
    QStringList command; ///< install argv; {registry} substituted, {libs} expands to one argument per library
    /// Install argv when a folder of packages is configured; {offline} is that folder inside the sandbox,
    /// {files} one argument per library: the folder's file whose name starts with the library's name.
    QStringList offlineCommand;
    QString registryDefault;
    QStringList registryVariables; ///< environment variables naming the registry/index/repository; the first set wins
    QString offlineVariable;       ///< environment variable naming a host folder of packages
    QHash<QString, QString> environment; ///< of the install step; {registry} and {offline} substituted
    /// Added to `environment` when the registry is a plain http:// address the user configured (an internal
    /// mirror), for package managers that refuse one unless told; {registryHost} is its host.
    QHash<QString, QString> plainHttpEnvironment;
    /// Everything an install writes: absolute paths, or paths relative to the working directory (besides the
    /// language's project files, which an install may change too). Where a sandbox's network cannot be taken away
    /// (every install runs in a builder sandbox of its own), these are copied from there into the one that runs the
    /// code.
    QStringList installedPaths;
    /// Hosts besides the default registry's that an install from it reaches (a CDN the index links to); the egress
    /// proxy allows them only with the default registry, on its port.
    QStringList registryHosts;
    /// Debian packages of the builder image installs run in, besides the run image's (a compiler and make for
    /// packages that build native code); empty: the run image itself is the builder.
    QStringList builderPackages;

    bool isSupported() const { return !command.isEmpty(); }
};

/// Everything the product knows about one language, described once: the engine, the MCP
/// language tools, the GUI's language picker and the docs all read this.
struct Language
{
    QString name;        ///< canonical id: python, javascript, java, cpp, go, r, ruby
    QString displayName; ///< "Python", "C++", ...
    QStringList aliases; ///< accepted case-insensitively besides `name`
    QString imageName;   ///< folder under resources/images/ and repository name of the built image
    QString defaultFile; ///< source file name when the code does not dictate one
    QStringList compile; ///< compile step argv (empty for interpreted languages); {file} {stem} {main} substituted
    QStringList run;     ///< run step argv; {file} {stem} {main} substituted
    /// The file the compile step writes ({stem} substituted): a warm container with a build cache keeps it for the
    /// same program and runs that program again without the toolchain (runner/ReusedOutputs.h). Empty: not kept.
    QString compileOutput;
    QHash<QString, QString> projectFiles; ///< written beside the source (Go's go.mod)
    /// Prints the language's version; asked once when the image is built (ImageBuilder::versionLabel()).
    QStringList versionCommand;
    /// The persistent interpreter of a session (resources/session), which keeps variables from
    /// one call to the next; empty: each call of a session runs a new process (files persist).
    QStringList sessionInterpreter;
    /// The preloaded interpreter of a warm container (resources/session/forkserver.py, forkserver.R): the runner runs
    /// every pooled run's program as a fork of it (runner/ForkServer.h); empty: every run starts the toolchain afresh.
    QStringList preloaded;
    /// Modules a second preloaded interpreter, `preloaded` with these as its arguments, imports before it forks: a
    /// program that imports one of them (its top-level package) is a fork of that one, any other program a fork of
    /// the plain one (a small process forks faster). Empty: only the one interpreter.
    QStringList preloadedModules;
    /// Put after the run step's program when the run has network (RunRequest::network), {port} substituted: how the
    /// language's HTTP clients learn of the egress proxy when they read no proxy variables (Java's properties).
    QStringList proxyArguments;
    /// Extra environment of the compile and run steps (capture hooks, caches on tmpfs).
    QHash<QString, QString> environment;
    /// A cache a pooled container keeps from run to run (runner/KeptDirectory.h): it starts as links to
    /// `buildCacheSeed`, what the image built (Go's compiled standard library, matplotlib's font cache), and holds what
    /// the compile steps added, never what a program did to it. Empty: none.
    QString buildCacheDir;
    QString buildCacheSeed;
    QString packageManager;
    LibraryInstaller libraries;
    /// What the built image offers besides the language: the names in its image definition's `libraries` file
    /// (resources/images/<imageName>/libraries), which is also what the image build installs.
    QStringList preinstalledLibraries;
    QString visualization; ///< how charts are captured, in one sentence
    QList<LanguageExample> examples;
    QStringList useCases; ///< what the language is typically used for (the Python server's "use_cases")

    bool isCompiled() const { return !compile.isEmpty(); }
    /// The file name the code must be saved under (Java: the public class's name).
    QString sourceFileName(const QString &code) const;
    /// What the run step starts (Java: the class declaring main); the file's stem otherwise.
    QString entryPoint(const QString &code) const;
    /// `argv` with {file}, {stem} and {main} filled in for `code`.
    QStringList commandFor(const QStringList &argv, const QString &code) const;
    /// The run step `argv` of a run with network: proxyArguments (for the proxy on 127.0.0.1:`port`) after its
    /// program.
    QStringList withProxyArguments(QStringList argv, int port) const;
};

} // namespace sandbox
