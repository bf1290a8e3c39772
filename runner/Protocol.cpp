#include "Protocol.h"

#include "Base64.h"
#include "ReusedOutputs.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace runner {

using nlohmann::json;

ProtocolError::ProtocolError(std::string id, bool isRun, const std::string &message)
    : std::runtime_error(message), m_id(std::move(id)), m_isRun(isRun)
{}

namespace {

// Validation failures inside a run request; converted to ProtocolError with the run's id by the caller.
class FieldError final : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

bool containsNul(std::string_view text)
{
    return text.find('\0') != std::string_view::npos;
}

// Absolute, not the root, without empty, "." or ".." components and without a trailing slash.
bool isCleanAbsolutePath(std::string_view path)
{
    if (path.size() < 2 || path.front() != '/' || path.back() == '/' || containsNul(path)) {
        return false;
    }
    for (std::size_t start = 1; start <= path.size();) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view component = path.substr(start, end - start);
        if (component.empty() || component == "." || component == "..") {
            return false;
        }
        start = end + 1;
    }
    return true;
}

const json *findField(const json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return nullptr;
    }
    return &*it;
}

std::string requireString(const json &object, const char *key, const std::string &context)
{
    const json *value = findField(object, key);
    if (!value || !value->is_string()) {
        throw FieldError(context + "'" + key + "' must be a string");
    }
    std::string text = value->get<std::string>();
    if (containsNul(text)) {
        throw FieldError(context + "'" + key + "' must not contain NUL characters");
    }
    return text;
}

// Hosts serialise integers through JSON libraries that may use doubles, so integral floats are accepted too.
std::uint64_t optionalUnsigned(const json &object, const char *key, std::uint64_t fallback)
{
    const json *value = findField(object, key);
    if (!value) {
        return fallback;
    }
    if (value->is_number_unsigned()) {
        return value->get<std::uint64_t>();
    }
    if (value->is_number_float()) {
        const double number = value->get<double>();
        if (number >= 0 && number < 9.2e18 && std::floor(number) == number) {
            return static_cast<std::uint64_t>(number);
        }
    }
    throw FieldError(std::string("'") + key + "' must be a non-negative integer");
}

bool optionalBool(const json &object, const char *key, bool fallback)
{
    const json *value = findField(object, key);
    if (!value) {
        return fallback;
    }
    if (!value->is_boolean()) {
        throw FieldError(std::string("'") + key + "' must be a boolean");
    }
    return value->get<bool>();
}

std::string requireSafePath(const json &entry, const std::string &context)
{
    std::string path = requireString(entry, "path", context);
    if (!isSafeRelativePath(path)) {
        throw FieldError("refusing file path '" + path +
                         "': it must be relative to the workdir and must not contain '..'");
    }
    return path;
}

FileSpec parseFile(const json &entry)
{
    FileSpec file;
    file.path = requireSafePath(entry, "file ");
    const std::optional<std::string> data = base64Decode(requireString(entry, "data", "file "));
    if (!data) {
        throw FieldError("file '" + file.path + "': 'data' is not valid base64");
    }
    file.data = *data;
    const std::uint64_t mode = optionalUnsigned(entry, "mode", 0644);
    if (mode > 07777) {
        throw FieldError("file '" + file.path + "': 'mode' must be at most 07777");
    }
    file.mode = static_cast<unsigned>(mode);
    return file;
}

std::vector<FileSpec> parseFiles(const json &request)
{
    std::vector<FileSpec> files;
    const json *array = findField(request, "files");
    if (!array) {
        return files;
    }
    if (!array->is_array()) {
        throw FieldError("'files' must be an array");
    }
    for (const json &entry : *array) {
        if (!entry.is_object()) {
            throw FieldError("every entry of 'files' must be an object");
        }
        files.push_back(parseFile(entry));
    }
    return files;
}

std::vector<StepSpec> parseSteps(const json &request)
{
    const json *array = findField(request, "steps");
    if (!array || !array->is_array()) {
        throw FieldError("'steps' must be an array");
    }
    std::vector<StepSpec> steps;
    for (const json &entry : *array) {
        if (!entry.is_object()) {
            throw FieldError("every entry of 'steps' must be an object");
        }
        StepSpec step;
        step.name = requireString(entry, "name", "step ");
        const json *argv = findField(entry, "argv");
        if (!argv || !argv->is_array() || argv->empty()) {
            throw FieldError("step '" + step.name + "': 'argv' must be a non-empty array of strings");
        }
        for (const json &argument : *argv) {
            if (!argument.is_string() || containsNul(argument.get_ref<const std::string &>())) {
                throw FieldError("step '" + step.name + "': 'argv' must contain strings without NUL characters");
            }
            step.argv.push_back(argument.get<std::string>());
        }
        if (step.argv.front().empty()) {
            throw FieldError("step '" + step.name + "': argv[0] must not be empty");
        }
        if (const json *preload = findField(entry, "preload")) {
            if (!preload->is_array()) {
                throw FieldError("step '" + step.name + "': 'preload' must be an array of strings");
            }
            for (const json &argument : *preload) {
                if (!argument.is_string() || containsNul(argument.get_ref<const std::string &>())) {
                    throw FieldError("step '" + step.name + "': 'preload' must contain strings without NUL characters");
                }
                step.preload.push_back(argument.get<std::string>());
            }
        }
        if (const json *reuse = findField(entry, "reuse_output")) {
            if (!reuse->is_object()) {
                throw FieldError("step '" + step.name + "': 'reuse_output' must be an object");
            }
            step.reuseKey = requireString(*reuse, "key", "reuse_output: ");
            step.reuseFile = requireString(*reuse, "file", "reuse_output: ");
            if (!ReusedOutputs::validKey(step.reuseKey) || !ReusedOutputs::validFile(step.reuseFile)) {
                throw FieldError("step '" + step.name +
                                 "': 'reuse_output' needs a key of 64 lowercase hex digits and a plain file name");
            }
        }
        steps.push_back(std::move(step));
    }
    return steps;
}

void parseEnvironment(const json &request, RunRequest &run)
{
    const json *object = findField(request, "env");
    if (!object) {
        return;
    }
    if (!object->is_object()) {
        throw FieldError("'env' must be an object of strings");
    }
    for (const auto &[key, value] : object->items()) {
        if (key.empty() || key.find('=') != std::string::npos || containsNul(key)) {
            throw FieldError("invalid environment variable name '" + key + "'");
        }
        if (!value.is_string() || containsNul(value.get_ref<const std::string &>())) {
            throw FieldError("environment variable '" + key + "' must be a string without NUL characters");
        }
        if (key == "PATH") {
            run.pathVariable = value.get<std::string>();
            run.hasPathVariable = true;
        }
        run.env.push_back(key + "=" + value.get<std::string>());
    }
}

std::string parseWorkdir(const json &request)
{
    std::string workdir = requireString(request, "workdir", "");
    if (workdir.empty() || workdir.front() != '/') {
        throw FieldError("'workdir' must be an absolute path");
    }
    // The workdir is emptied before every run; a mistaken "/" would wipe the whole container, runner included.
    if (workdir.find_first_not_of('/') == std::string::npos) {
        throw FieldError("'workdir' must not be the root directory");
    }
    return workdir;
}

FileRequest parseFileRequest(const json &request, Operation operation)
{
    FileRequest file;
    file.workdir = parseWorkdir(request);
    if (operation == Operation::PutFile) {
        file.file = parseFile(request);
    } else {
        file.file.path = requireSafePath(request, "");
        file.maxBytes = optionalUnsigned(request, "max_bytes", file.maxBytes);
    }
    return file;
}

RunRequest parseRun(const json &request, const std::string &id)
{
    RunRequest run;
    run.id = id;
    run.workdir = parseWorkdir(request);
    run.files = parseFiles(request);
    run.steps = parseSteps(request);
    parseEnvironment(request, run);
    run.timeoutMs = optionalUnsigned(request, "timeout_ms", run.timeoutMs);
    run.cpuLimitMs = optionalUnsigned(request, "cpu_limit_ms", run.cpuLimitMs);
    run.maxOutputBytes = optionalUnsigned(request, "max_output_bytes", run.maxOutputBytes);
    if (findField(request, "output_dir")) {
        run.outputDir = requireString(request, "output_dir", "");
    }
    run.maxArtifactBytes = optionalUnsigned(request, "max_artifact_bytes", run.maxArtifactBytes);
    run.maxArtifacts = optionalUnsigned(request, "max_artifacts", run.maxArtifacts);
    run.keepFiles = optionalBool(request, "keep_files", run.keepFiles);
    run.keepProcesses = optionalBool(request, "keep_processes", run.keepProcesses);
    if (const json *scratch = findField(request, "scratch_dirs")) {
        if (!scratch->is_array()) {
            throw FieldError("'scratch_dirs' must be an array of absolute paths");
        }
        for (const json &dir : *scratch) {
            if (!dir.is_string() || !dir.get_ref<const std::string &>().starts_with('/') ||
                dir.get_ref<const std::string &>().find_first_not_of('/') == std::string::npos ||
                containsNul(dir.get_ref<const std::string &>())) {
                throw FieldError("'scratch_dirs' entries must be absolute paths other than /");
            }
            run.scratchDirs.push_back(dir.get<std::string>());
        }
    }
    if (const json *kept = findField(request, "kept_dirs")) {
        if (!kept->is_array()) {
            throw FieldError("'kept_dirs' must be an array of objects");
        }
        for (const json &dir : *kept) {
            if (!dir.is_object()) {
                throw FieldError("'kept_dirs' entries must be objects");
            }
            KeptDirSpec spec{requireString(dir, "path", "kept_dirs: "),
                             findField(dir, "seed") ? requireString(dir, "seed", "kept_dirs: ") : std::string()};
            if (!isCleanAbsolutePath(spec.path) || (!spec.seed.empty() && !isCleanAbsolutePath(spec.seed))) {
                throw FieldError("'kept_dirs' paths must be absolute, other than /, without '.', '..' or empty "
                                 "components");
            }
            run.keptDirs.push_back(std::move(spec));
        }
    }
    if (const json *results = findField(request, "result_dirs")) {
        if (!results->is_array()) {
            throw FieldError("'result_dirs' must be an array of objects");
        }
        for (const json &dir : *results) {
            if (!dir.is_object()) {
                throw FieldError("'result_dirs' entries must be objects");
            }
            ResultDirSpec spec{requireString(dir, "path", "result_dirs: "),
                               requireString(dir, "seed", "result_dirs: ")};
            if (!isCleanAbsolutePath(spec.path) || !isCleanAbsolutePath(spec.seed)) {
                throw FieldError("'result_dirs' paths must be absolute, other than /, without '.', '..' or empty "
                                 "components");
            }
            run.resultDirs.push_back(std::move(spec));
        }
    }
    run.maxResultFiles = optionalUnsigned(request, "max_result_files", run.maxResultFiles);
    run.maxResultBytes = optionalUnsigned(request, "max_result_bytes", run.maxResultBytes);
    return run;
}

} // namespace

Request parseRequest(std::string_view line)
{
    const json document = json::parse(line, nullptr, false);
    if (document.is_discarded()) {
        throw ProtocolError({}, false, "malformed request: not valid JSON");
    }
    if (!document.is_object()) {
        throw ProtocolError({}, false, "malformed request: not a JSON object");
    }

    std::string id;
    if (const json *value = findField(document, "id"); value && value->is_string()) {
        id = value->get<std::string>();
    }
    const json *op = findField(document, "op");
    if (!op || !op->is_string()) {
        throw ProtocolError(id, false, "malformed request: 'op' must be a string");
    }

    Request request;
    request.id = id;
    const std::string &name = op->get_ref<const std::string &>();
    if (name == "ping") {
        request.operation = Operation::Ping;
    } else if (name == "cancel") {
        if (id.empty()) {
            throw ProtocolError(id, false, "cancel request without an 'id'");
        }
        request.operation = Operation::Cancel;
    } else if (name == "run") {
        if (id.empty()) {
            throw ProtocolError(id, false, "run request without an 'id'");
        }
        request.operation = Operation::Run;
        try {
            request.run = parseRun(document, id);
        } catch (const FieldError &error) {
            throw ProtocolError(id, true, error.what());
        }
    } else if (name == "put_file" || name == "get_file") {
        if (id.empty()) {
            throw ProtocolError(id, false, name + " request without an 'id'");
        }
        request.operation = name == "put_file" ? Operation::PutFile : Operation::GetFile;
        try {
            request.file = parseFileRequest(document, request.operation);
        } catch (const FieldError &error) {
            throw ProtocolError(id, false, error.what());
        }
    } else {
        throw ProtocolError(id, false, "unknown op '" + name + "'");
    }
    return request;
}

bool isSafeRelativePath(std::string_view path)
{
    if (path.empty() || path.front() == '/' || containsNul(path)) {
        return false;
    }
    bool hasName = false;
    std::string_view component;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        component = path.substr(start, end - start);
        if (component == "..") {
            return false;
        }
        if (!component.empty() && component != ".") {
            hasName = true;
        }
        start = end + 1;
    }
    // The last component must be a name: "dir/" or "dir/." would designate a directory, not a file.
    return hasName && !component.empty() && component != ".";
}

} // namespace runner
