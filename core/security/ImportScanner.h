#pragma once

#include "security/LexedSource.h"

#include <QList>
#include <QString>

namespace sandbox {

/// A module the code imports, and where.
struct ImportReference
{
    /// As the language names it: "subprocess", "os.system" (from os import system), "os.*"
    /// (from os import *), "child_process" (node: prefix dropped), "os/exec", "java.net.Socket",
    /// "sys/socket.h", "open3", "processx".
    QString module;
    qsizetype start = 0; ///< the import statement or call
    qsizetype end = 0;
};

/// Finds the imports of a piece of code, per language, in the lexed code: `import x` and
/// `from x import y`, `__import__("x")` and `importlib.import_module("x")` (Python, also
/// `alias.name` after `import x as alias`); `require("x")`, `import ... from "x"`, `import("x")`
/// (JavaScript); `import x.y;` and `Class.forName("x")` (Java); `#include` (C++); `import "x"` and
/// import blocks (Go); `require "x"` (Ruby); `library(x)`, `requireNamespace("x")` and `x::f` (R).
/// Module names inside string literals are read from the literal, so a string elsewhere never counts.
class ImportScanner final
{
public:
    static QList<ImportReference> imports(const QString &language, const LexedSource &source);
};

} // namespace sandbox
