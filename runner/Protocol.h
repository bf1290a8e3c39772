#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace runner {

// Version announced in the `ready` message; see PROTOCOL.md.
inline constexpr int protocolVersion = 1;

struct FileSpec final
{
    std::string path; // relative to the workdir, already checked by isSafeRelativePath()
    std::string data; // decoded bytes
    unsigned mode = 0644;
};

struct StepSpec final
{
    std::string name;
    std::vector<std::string> argv;
    // The language's preloaded interpreter (ForkServer) that may run this step as a fork of itself; empty: none.
    std::vector<std::string> preload;
    // A compile step's output (a file of the working directory) that a warm container keeps under `reuseKey`
    // (ReusedOutputs.h); empty: none.
    std::string reuseKey;
    std::string reuseFile;
};

// A directory the runner keeps from run to run instead of emptying it (KeptDirectory.h).
struct KeptDirSpec final
{
    std::string path; // absolute
    std::string seed; // absolute or empty: a read-only directory whose files it starts out linking to
};

// A writable shared folder's directory (/data/NAME): at the start of each run it is made the seed's links again
// (ResultDirectory), and after the run what the run added is sent for llm-sandbox to save.
struct ResultDirSpec final
{
    std::string path; // absolute
    std::string seed; // absolute: the folder's read-only copy
};

struct RunRequest final
{
    std::string id;
    std::string workdir;
    std::vector<FileSpec> files;
    std::vector<StepSpec> steps;
    std::vector<std::string> env; // "KEY=VALUE", ready for execve()
    std::string pathVariable;     // the request's own PATH, used to look up argv[0]
    bool hasPathVariable = false;
    std::uint64_t timeoutMs = 30000;
    std::uint64_t cpuLimitMs = 0; // CPU time each step's process may use (RLIMIT_CPU); 0: no limit
    std::uint64_t maxOutputBytes = 1024 * 1024;
    std::string outputDir; // empty: no artifacts are collected
    std::uint64_t maxArtifactBytes = 10 * 1024 * 1024;
    std::uint64_t maxArtifacts = 32;
    bool keepFiles = false;
    std::vector<std::string> scratchDirs; // absolute; emptied with the workdir (unless keepFiles)
    std::vector<KeptDirSpec> keptDirs;
    std::vector<ResultDirSpec> resultDirs;
    std::uint64_t maxResultFiles = 100;
    std::uint64_t maxResultBytes = 100 * 1024 * 1024;
    // Processes the run starts in their own session (a session's persistent interpreter) outlive it; after a run
    // that did not end by itself they get SIGINT, so an interpreter abandons the code but keeps its state.
    bool keepProcesses = false;
};

// `put_file` and `get_file`: one file below a workdir, outside of any run (a session's files).
struct FileRequest final
{
    std::string workdir;
    FileSpec file;                             // for get_file only the path is set
    std::uint64_t maxBytes = 10 * 1024 * 1024; // get_file: larger files are refused
};

enum class Operation
{
    Run,
    Cancel,
    Ping,
    PutFile,
    GetFile,
};

struct Request final
{
    Operation operation = Operation::Ping;
    std::string id;
    RunRequest run;   // only filled for Operation::Run
    FileRequest file; // only filled for Operation::PutFile and Operation::GetFile
};

// A request that cannot be carried out. Carries the request's id when one could be read so the error reaches the
// right run, and whether it was a `run`, because then the host also waits for a `done`.
class ProtocolError final : public std::runtime_error
{
public:
    ProtocolError(std::string id, bool isRun, const std::string &message);

    const std::string &id() const { return m_id; }
    bool isRun() const { return m_isRun; }

private:
    std::string m_id;
    bool m_isRun;
};

// Parses and validates one request line completely, so that a run is refused before it touches the workdir.
// Throws ProtocolError.
Request parseRequest(std::string_view line);

// True for a non-empty relative path without `..` components that names something below the directory.
bool isSafeRelativePath(std::string_view path);

} // namespace runner
