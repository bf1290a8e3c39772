#include "GoBuildCache.h"

#include "Base64.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace runner {

namespace {

constexpr std::size_t kIdBytes = 32; // SHA-256, the go command's cache ids

std::string hex(const std::string &bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const unsigned char byte : bytes) {
        out += digits[byte >> 4];
        out += digits[byte & 0xf];
    }
    return out;
}

std::optional<std::string> unhex(const std::string &text)
{
    if (text.size() % 2 != 0) {
        return std::nullopt;
    }
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += 2) {
        unsigned value = 0;
        if (std::sscanf(text.c_str() + i, "%2x", &value) != 1) {
            return std::nullopt;
        }
        out += static_cast<char>(value);
    }
    return out;
}

// The go command's layout: DIR/<first byte in hex>/<id in hex>-<a|d>.
std::string fileName(const std::string &dir, const std::string &id, char kind)
{
    const std::string name = hex(id);
    return dir + '/' + name.substr(0, 2) + '/' + name + '-' + kind;
}

bool makeDirectories(const std::string &path)
{
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string prefix = slash == std::string::npos ? path : path.substr(0, slash);
        if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
            return false;
        }
        if (slash == std::string::npos) {
            return true;
        }
    }
}

// Writes `data` to `path` through a temporary file, so a reader never sees half of it.
bool writeFile(const std::string &path, const std::string &data)
{
    const std::string temporary = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file.write(data.data(), static_cast<std::streamsize>(data.size())) || !file.flush()) {
            ::unlink(temporary.c_str());
            return false;
        }
    }
    return std::rename(temporary.c_str(), path.c_str()) == 0;
}

std::optional<std::string> idFrom(const nlohmann::json &request, const char *field)
{
    const auto it = request.find(field);
    if (it == request.end() || !it->is_string()) {
        return std::nullopt;
    }
    auto id = base64Decode(it->get<std::string>());
    if (!id || id->size() != kIdBytes) {
        return std::nullopt;
    }
    return id;
}

} // namespace

GoBuildCache::GoBuildCache(std::string writable, std::vector<std::string> readOnly)
    : m_writable(std::move(writable)), m_readOnly(std::move(readOnly))
{}

std::optional<GoBuildCache::Entry> GoBuildCache::get(const std::string &actionId) const
{
    std::vector<const std::string *> dirs{&m_writable};
    for (const std::string &dir : m_readOnly) {
        dirs.push_back(&dir);
    }
    for (const std::string *dir : dirs) {
        // "v1 <action id> <output id> <size> <time>", as the go command writes it (cmd/go/internal/cache).
        std::ifstream file(fileName(*dir, actionId, 'a'));
        std::string version, action, output;
        long long size = -1, time = 0;
        if (!(file >> version >> action >> output >> size >> time) || version != "v1" || action != hex(actionId)) {
            continue;
        }
        const auto outputId = unhex(output);
        if (!outputId || outputId->size() != kIdBytes) {
            continue;
        }
        const std::string diskPath = fileName(*dir, *outputId, 'd');
        struct stat status
        {
        };
        if (::stat(diskPath.c_str(), &status) != 0 || status.st_size != size) {
            continue;
        }
        return Entry{*outputId, size, diskPath};
    }
    return std::nullopt;
}

std::optional<std::string> GoBuildCache::put(const std::string &actionId, const std::string &outputId,
                                             const std::string &body)
{
    const std::string diskPath = fileName(m_writable, outputId, 'd');
    const std::string entryPath = fileName(m_writable, actionId, 'a');
    if (!makeDirectories(diskPath.substr(0, diskPath.rfind('/'))) ||
        !makeDirectories(entryPath.substr(0, entryPath.rfind('/'))) || !writeFile(diskPath, body)) {
        return std::nullopt;
    }
    const auto now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    char entry[256];
    std::snprintf(entry, sizeof entry, "v1 %s %s %20lld %20lld\n", hex(actionId).c_str(), hex(outputId).c_str(),
                  static_cast<long long>(body.size()), static_cast<long long>(now));
    if (!writeFile(entryPath, entry)) {
        return std::nullopt;
    }
    return diskPath;
}

int GoBuildCache::serve(std::istream &in, std::ostream &out)
{
    const auto send = [&](const nlohmann::json &response) {
        out << response.dump() << '\n' << std::flush;
    };
    send({{"ID", 0}, {"KnownCommands", {"get", "put", "close"}}});
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) {
            continue;
        }
        const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
        if (!request.is_object()) {
            std::fputs("llm-sandbox go cache: a request that is not a JSON object\n", stderr);
            return 2;
        }
        nlohmann::json response{{"ID", request.value("ID", 0LL)}};
        const std::string command = request.value("Command", std::string());
        if (command == "close") {
            send(response);
            return 0;
        }
        const auto actionId = idFrom(request, "ActionID");
        if (command == "get") {
            if (const auto entry = actionId ? get(*actionId) : std::nullopt) {
                response["OutputID"] = base64Encode(entry->outputId);
                response["Size"] = entry->size;
                response["DiskPath"] = entry->diskPath;
            } else {
                response["Miss"] = true;
            }
        } else if (command == "put") {
            const long long size = request.value("BodySize", 0LL);
            std::optional<std::string> body = std::string();
            if (size > 0) {
                // The body follows as a JSON string of its base64, on a line of its own after the request's (the go
                // command writes an empty line between them).
                std::string bodyLine;
                while (std::getline(in, bodyLine) && bodyLine.empty()) {
                }
                const nlohmann::json encoded =
                    bodyLine.empty() ? nlohmann::json() : nlohmann::json::parse(bodyLine, nullptr, false);
                body = encoded.is_string() ? base64Decode(encoded.get<std::string>()) : std::nullopt;
            }
            const auto outputId = idFrom(request, "OutputID");
            if (!actionId || !outputId || !body || static_cast<long long>(body->size()) != size) {
                response["Err"] = "a put without a valid ActionID, OutputID or body";
            } else if (const auto diskPath = put(*actionId, *outputId, *body)) {
                response["DiskPath"] = *diskPath;
            } else {
                response["Err"] = "cannot write to the build cache in " + m_writable;
            }
        } else {
            response["Err"] = "unknown command " + command;
        }
        send(response);
    }
    return 0;
}

} // namespace runner
