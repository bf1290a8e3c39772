#include "security/BuiltinPolicyRules.h"

#include <initializer_list>

namespace sandbox {

namespace {

struct Literal
{
    const char *before;
    const char *content;
};

QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items) {
        out << QString::fromUtf8(item);
    }
    return out;
}

PolicyRule rule(const char *id, Severity severity, const char *description, std::initializer_list<const char *> modules,
                std::initializer_list<const char *> patterns = {}, std::initializer_list<Literal> literals = {},
                std::initializer_list<const char *> rawPatterns = {})
{
    PolicyRule out;
    out.id = QString::fromUtf8(id);
    out.language = out.id.section(u'.', 0, 0);
    out.severity = severity;
    out.description = QString::fromUtf8(description);
    out.modules = list(modules);
    out.patterns = list(patterns);
    out.rawPatterns = list(rawPatterns);
    for (const Literal &literal : literals) {
        out.literals.append(LiteralPattern{QString::fromUtf8(literal.before), QString::fromUtf8(literal.content)});
    }
    return out;
}

/// A literal naming a path outside the working directory: absolute (but /sandbox, /tmp and the
/// harmless devices), in the home directory, or going up with "..".
constexpr const char *outsidePath =
    R"re(^/(?!(?:sandbox|tmp)(?:/|$)|dev/(?:null|zero|u?random|std(?:in|out|err))$)[^/\s]|^~/|(?:^|/)\.\.(?:/|$))re";

PolicyRule filesystemRule(const char *language)
{
    return rule(
        QByteArray(QByteArray(language) + ".filesystem").constData(), Severity::Medium,
        "paths outside the working directory are refused: read and write files in the current directory, /tmp or "
        "$LLM_SANDBOX_OUTPUT_DIR",
        {}, {}, {{"", outsidePath}});
}

constexpr const char *noNetwork = "the sandbox has no network, and this policy refuses network libraries: work with "
                                  "data that is in the code or in local files";
constexpr const char *runtimeCode = "code built at run time cannot be checked by this policy: write the code out";

void python(QList<PolicyRule> &rules)
{
    constexpr const char *getattrOs = R"re(\bgetattr\s*\(\s*(?:os|posix)\s*,\s*)re";
    rules << rule("python.subprocess", Severity::High,
                  "subprocess starts other programs, which the code policy refuses: do the work in Python itself",
                  {"subprocess", "_posixsubprocess", "pexpect", "plumbum", "sh"},
                  {R"re(\bcreate_subprocess_(?:exec|shell)\b)re"});
    rules << rule("python.os_system", Severity::High,
                  "os.system runs a shell command, which the code policy refuses: do the work in Python itself",
                  {"os.system", "posix.system"}, {R"re(\b(?:os|posix)\s*\.\s*system\b)re"}, {{getattrOs, "^system$"}});
    rules << rule("python.os_popen", Severity::High,
                  "os.popen runs a shell command, which the code policy refuses: do the work in Python itself",
                  {"os.popen", "posix.popen"}, {R"re(\b(?:os|posix)\s*\.\s*popen\b)re"}, {{getattrOs, "^popen$"}});
    rules << rule("python.os_exec", Severity::High,
                  "os.exec*, os.spawn* and os.posix_spawn start other programs, which the code policy refuses: "
                  "do the work in Python itself",
                  {"os.exec*", "os.spawn*", "os.posix_spawn*", "posix.exec*", "posix.posix_spawn*"},
                  {R"re(\b(?:os|posix)\s*\.\s*(?:exec|spawn|posix_spawn)\w*+)re"},
                  {{getattrOs, "^(?:exec|spawn|posix_spawn)"}});
    rules << rule("python.pty", Severity::High,
                  "pty starts programs on a pseudo-terminal, which the code policy refuses", {"pty"});
    rules << rule("python.ctypes", Severity::High,
                  "ctypes and cffi call native code directly (libc's system, for one), which the code policy "
                  "refuses: use Python libraries",
                  {"ctypes", "_ctypes", "cffi"});
    rules << rule("python.os_fork", Severity::Medium,
                  "os.fork creates processes: use multiprocessing or concurrent.futures for parallel work",
                  {"os.fork*", "posix.fork*"}, {R"re(\b(?:os|posix)\s*\.\s*fork(?:pty)?\b)re"}, {{getattrOs, "^fork"}});
    rules << rule("python.network", Severity::Medium, noNetwork,
                  {"socket",  "_socket",   "ssl",    "socketserver", "http.client", "http.server", "urllib.request",
                   "urllib3", "requests",  "httpx",  "aiohttp",      "ftplib",      "smtplib",     "poplib",
                   "imaplib", "telnetlib", "xmlrpc", "websocket",    "websockets",  "paramiko"},
                  {R"re(\burllib\s*\.\s*request\b)re", R"re(\basyncio\s*\.\s*open_(?:unix_)?connection\b)re"});
    rules << rule("python.eval", Severity::Medium, runtimeCode, {"code", "codeop"},
                  {R"re((?<![\w.])(?:eval|exec|compile)\s*\()re"});
    rules << rule("python.dynamic_import", Severity::Medium,
                  "__import__, importlib and builtins load what is chosen at run time, which this policy cannot "
                  "check: use import statements",
                  {"importlib", "builtins", "runpy"}, {R"re(\b__import__\b)re", R"re(\b__builtins__\b)re"});
    rules << filesystemRule("python");
    rules << rule("python.multiprocessing", Severity::Low,
                  "multiprocessing starts worker processes, bounded by the sandbox's process limit",
                  {"multiprocessing"}, {R"re(\bProcessPoolExecutor\b)re"});
}

void javascript(QList<PolicyRule> &rules)
{
    rules << rule("javascript.child_process", Severity::High,
                  "child_process starts other programs, which the code policy refuses: do the work in JavaScript "
                  "itself",
                  {"child_process"});
    rules << rule("javascript.process_binding", Severity::High,
                  "process.binding reaches Node's internals (process spawning among them), which the code policy "
                  "refuses",
                  {}, {R"re(\bprocess\s*\.\s*(?:binding|_linkedBinding)\b)re"},
                  {{R"re(\bprocess\s*\[\s*)re", "^(?:binding|_linkedBinding)$"}});
    rules << rule("javascript.native", Severity::High,
                  "process.dlopen and FFI modules load native code, which the code policy refuses",
                  {"ffi", "ffi-napi", "node-ffi", "koffi"}, {R"re(\bprocess\s*\.\s*dlopen\b)re"},
                  {{R"re(\bprocess\s*\[\s*)re", "^dlopen$"}});
    rules << rule("javascript.network", Severity::Medium, noNetwork,
                  {"net", "http", "https", "http2", "dgram", "dns", "tls", "undici", "axios", "node-fetch", "ws", "got",
                   "request"},
                  {R"re((?<![\w.$])fetch\s*\()re", R"re(\bXMLHttpRequest\b)re", R"re(\bWebSocket\b)re"});
    rules << rule("javascript.eval", Severity::Medium, runtimeCode, {"vm"},
                  {R"re((?<![\w.$])eval\s*\()re", R"re((?<![\w.$])Function\s*\()re", R"re(\bnew\s+Function\b)re"});
    rules << rule("javascript.dynamic_require", Severity::Medium,
                  "require() and import() of a computed name load modules this policy cannot check: name the module "
                  "in one string literal",
                  {},
                  {R"re(\b(?:require|import)\s*\(\s*+[^\s"'`)])re",
                   R"re(\b(?:require|import)\s*\(\s*+["'`][^"'`\n]*+["'`]\s*+\+)re"});
    rules << filesystemRule("javascript");
}

void java(QList<PolicyRule> &rules)
{
    rules << rule("java.runtime_exec", Severity::High,
                  "Runtime.exec starts other programs, which the code policy refuses: do the work in Java itself", {},
                  {R"re(\.\s*exec\s*\()re"});
    rules << rule("java.process_builder", Severity::High,
                  "ProcessBuilder starts other programs, which the code policy refuses: do the work in Java itself",
                  {"java.lang.ProcessBuilder", "java.lang.ProcessImpl", "java.lang.UNIXProcess"},
                  {R"re(\bProcessBuilder\b)re"});
    rules << rule("java.native", Severity::High,
                  "System.load and System.loadLibrary load native code, which the code policy refuses",
                  {"java.lang.foreign", "sun.misc.Unsafe", "jdk.internal"},
                  {R"re(\b(?:System|getRuntime\s*\(\s*\))\s*\.\s*load(?:Library)?\s*\()re"});
    // Java turns \u escapes into characters before it lexes: these would end a string or comment
    // where SourceLexer does not.
    rules << rule("java.unicode_escape", Severity::High,
                  "a \\u escape of a quote, star, backslash or line break changes where Java strings and comments "
                  "end: write the character itself",
                  {}, {}, {}, {R"re(\\u++00(?:0[aAdD]|2[27aA]|5[cC]))re"});
    rules << rule("java.network", Severity::Medium, noNetwork,
                  {"java.net", "javax.net", "java.nio.channels.SocketChannel", "java.nio.channels.ServerSocketChannel",
                   "java.nio.channels.DatagramChannel"},
                  {R"re(\bjava\s*\.\s*net\b)re", R"re(\bnew\s+(?:Server|Datagram)?Socket\b)re", R"re(\bHttpClient\b)re",
                   R"re(\bnew\s+URL\b)re", R"re(\.\s*open(?:Connection|Stream)\s*\()re"});
    rules << rule("java.reflection", Severity::Medium,
                  "reflection, method handles, script engines and the compiler API run code chosen at run time, "
                  "which this policy cannot check: call the code directly",
                  {"java.lang.reflect", "java.lang.invoke", "javax.script", "javax.tools"},
                  {R"re(\bClass\s*\.\s*forName\b)re",
                   R"re(\.\s*(?:getDeclaredMethods?|getMethods?|getDeclaredConstructors?|getDeclaredFields?|)re"
                   R"re(setAccessible|loadClass)\s*\()re",
                   R"re(\bScriptEngine(?:Manager)?\b)re", R"re(\bToolProvider\b)re"});
    rules << filesystemRule("java");
}

void cpp(QList<PolicyRule> &rules)
{
    // Not a member (x.system(), x->system()): the C library functions, also as std::system.
    rules << rule("cpp.system", Severity::High,
                  "system() runs a shell command, which the code policy refuses: do the work in C++ itself", {},
                  {R"re((?<![\w.])(?<!->)system\s*\()re"});
    rules << rule("cpp.popen", Severity::High,
                  "popen() runs a shell command, which the code policy refuses: do the work in C++ itself", {},
                  {R"re((?<![\w.])(?<!->)_?popen\s*\()re"});
    rules << rule("cpp.exec", Severity::High,
                  "the exec*() and posix_spawn() calls start other programs, which the code policy refuses",
                  {"spawn.h"}, {R"re((?<![\w.])(?<!->)(?:exec(?:l|lp|le|v|vp|ve|vpe)|fexecve|posix_spawnp?)\s*\()re"});
    rules << rule("cpp.raw_syscall", Severity::High,
                  "syscall() makes raw system calls (execve among them) around the calls this policy checks, which "
                  "the code policy refuses",
                  {}, {R"re((?<![\w.])(?<!->)syscall\s*\()re"});
    rules << rule("cpp.fork", Severity::Medium,
                  "fork(), vfork() and clone() create processes: use std::thread for parallel work", {},
                  {R"re((?<![\w.])(?<!->)(?:v?fork|clone3?)\s*\()re"});
    rules << rule("cpp.inline_asm", Severity::Medium,
                  "inline assembly can make system calls this policy cannot check: write it in C++", {},
                  {R"re(\b(?:asm|__asm|__asm__)\b)re"});
    rules << rule("cpp.dynamic_loading", Severity::Medium,
                  "dlopen() loads native code at run time, which this policy cannot check", {"dlfcn.h"},
                  {R"re(\b(?:dlopen|dlmopen|dlsym)\s*\()re"});
    rules << rule("cpp.network", Severity::Medium, noNetwork,
                  {"sys/socket.h", "netinet", "arpa/inet.h", "netdb.h", "curl", "boost/asio"},
                  {R"re((?<![\w.])(?<!->)(?:socket|getaddrinfo|gethostbyname)\s*\()re"});
    rules << filesystemRule("cpp");
}

void go(QList<PolicyRule> &rules)
{
    rules << rule("go.os_exec", Severity::High,
                  "os/exec starts other programs, which the code policy refuses: do the work in Go itself",
                  {"os/exec", "golang.org/x/sys/execabs"});
    rules << rule("go.syscall_exec", Severity::High,
                  "syscall.Exec, ForkExec and raw system calls start programs around the packages this policy "
                  "checks, which the code policy refuses",
                  {}, {R"re(\b(?:syscall|unix)\s*\.\s*(?:Exec|ForkExec|StartProcess|(?:Raw)?Syscall\w*+)\b)re"});
    rules << rule("go.start_process", Severity::High,
                  "os.StartProcess starts other programs, which the code policy refuses: do the work in Go itself", {},
                  {R"re(\bos\s*\.\s*StartProcess\b)re"});
    rules << rule("go.cgo", Severity::High,
                  "cgo (import \"C\") runs C code this policy cannot check, which the code policy refuses", {"C"});
    rules << rule("go.network", Severity::Medium, noNetwork,
                  {"net", "crypto/tls", "golang.org/x/net", "google.golang.org/grpc", "github.com/gorilla/websocket"});
    rules << rule("go.plugin", Severity::Medium,
                  "plugin loads compiled code at run time, which this policy cannot check", {"plugin"});
    rules << filesystemRule("go");
}

void ruby(QList<PolicyRule> &rules)
{
    // Kernel methods, callable without parentheses: any use of the name but @x, $x, x?, x!, x: (a hash
    // key) and x = (an assignment).
    const auto kernel = [](const char *names) -> QByteArray {
        return QByteArray(R"re((?<![\w@$])(?:)re") + names + R"re()\b(?![?!:]|\s*=[^=~>]))re";
    };
    const QByteArray system = kernel("system");
    const QByteArray exec = kernel("exec");
    const QByteArray spawn = kernel("spawn");
    const QByteArray fork = kernel("fork");
    const QByteArray eval = kernel("eval");
    // send("system", ...) and method("system") call them by name.
    constexpr const char *byName = R"re(\b(?:__send__|public_send|send|method)\b[ \t]*+\(?[ \t]*+)re";
    rules << rule("ruby.system", Severity::High,
                  "system runs a shell command, which the code policy refuses: do the work in Ruby itself", {},
                  {system.constData()}, {{byName, "^system$"}});
    rules << rule("ruby.backticks", Severity::High,
                  "backticks and %x() run shell commands, which the code policy refuses: do the work in Ruby itself",
                  {}, {R"re(`[^`\n]*+`?)re", R"re(%x[^\w\s])re"});
    rules << rule("ruby.exec", Severity::High,
                  "exec replaces the program with another one, which the code policy refuses", {}, {exec.constData()},
                  {{byName, "^exec$"}});
    rules << rule("ruby.io_popen", Severity::High,
                  "IO.popen and open(\"|command\") run shell commands, which the code policy refuses", {},
                  {R"re((?<![\w@$])popen\b)re"},
                  {{R"re((?<![\w@$])(?:open|read|readlines|write|foreach|binread)[ \t]*+\(?\s*+)re", R"re(^\s*\|)re"}});
    rules << rule("ruby.open3", Severity::High,
                  "Open3 runs other programs, which the code policy refuses: do the work in Ruby itself", {"open3"},
                  {R"re(\bOpen3\b)re"});
    rules << rule("ruby.spawn", Severity::High,
                  "spawn starts other programs, which the code policy refuses: do the work in Ruby itself", {"pty"},
                  {spawn.constData()}, {{byName, "^spawn$"}});
    rules << rule("ruby.native", Severity::High,
                  "Fiddle and FFI call native code directly, which the code policy refuses", {"fiddle", "ffi"},
                  {R"re(\bFiddle\b)re"});
    rules << rule("ruby.fork", Severity::Medium, "fork creates processes: use threads for parallel work", {},
                  {fork.constData()});
    rules << rule("ruby.network", Severity::Medium, noNetwork,
                  {"socket", "net/http", "net/https", "net/ftp", "net/smtp", "net/telnet", "open-uri", "httparty",
                   "faraday", "rest-client", "excon", "typhoeus"},
                  {R"re(\b(?:(?:TCP|UDP|UNIX)(?:Socket|Server)|Socket)\b)re",
                   R"re(\bNet\s*::\s*(?:HTTP|FTP|SMTP|Telnet)\b)re", R"re(\bURI\s*\.\s*open\b)re"});
    rules << rule("ruby.eval", Severity::Medium, runtimeCode, {},
                  {eval.constData(), R"re(\b(?:instance|class|module)_(?:eval|exec)\b)re"});
    rules << filesystemRule("ruby");
}

void r(QList<PolicyRule> &rules)
{
    // R finds functions by name too: do.call("system", ...), match.fun("system"), get("system").
    constexpr const char *byName = R"re(\b(?:do\.call|match\.fun|get0?|getFunction|mget)\s*\(\s*)re";
    rules << rule("r.system", Severity::High,
                  "system, system2 and packages such as processx run shell commands, which the code policy "
                  "refuses: do the work in R itself",
                  {"processx", "sys", "callr"}, {R"re((?<![\w.])system2?["'`]?\s*\()re"}, {{byName, "^system2?$"}});
    rules << rule("r.shell", Severity::High,
                  "shell runs a shell command, which the code policy refuses: do the work in R itself", {},
                  {R"re((?<![\w.])shell(?:\.exec)?["'`]?\s*\()re"}, {{byName, R"re(^shell(?:\.exec)?$)re"}});
    rules << rule("r.pipe", Severity::High,
                  "pipe() runs a shell command, which the code policy refuses: read local files instead", {},
                  {R"re((?<![\w.])pipe["'`]?\s*\()re"}, {{byName, "^pipe$"}});
    rules << rule("r.native", Severity::High,
                  "dyn.load, .C and .Call run native code directly, which the code policy refuses", {},
                  {R"re((?<![\w.])(?:dyn\.load|\.C|\.Call|\.External2?|\.Fortran)\s*\()re"});
    rules << rule("r.network", Severity::Medium, noNetwork, {"httr", "httr2", "curl", "RCurl"},
                  {R"re((?<![\w.])(?:url|download\.file|socketConnection|make\.socket|curlGetHeaders)\s*\()re"});
    rules << rule("r.eval", Severity::Medium, runtimeCode, {},
                  {R"re((?<![\w.])(?:eval|evalq|parse|str2lang|str2expression|source|sys\.source)\s*\()re"});
    rules << filesystemRule("r");
}

} // namespace

QList<PolicyRule> builtinPolicyRules()
{
    QList<PolicyRule> rules;
    python(rules);
    javascript(rules);
    java(rules);
    cpp(rules);
    go(rules);
    ruby(rules);
    r(rules);
    return rules;
}

} // namespace sandbox
