#include "IpcCleanup.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <vector>

namespace runner {

namespace {

// One /proc/sysvipc table: every line after the header is one object, its id in the second column.
struct IpcTable final
{
    const char *path;
    std::size_t uidColumn;
    std::size_t creatorColumn;
    int (*remove)(int id);
};

int removeSharedMemory(int id)
{
    // A segment still attached is destroyed at the last detach; every process of the run is gone by now.
    return ::shmctl(id, IPC_RMID, nullptr);
}

int removeSemaphores(int id)
{
    return ::semctl(id, 0, IPC_RMID);
}

int removeMessageQueue(int id)
{
    return ::msgctl(id, IPC_RMID, nullptr);
}

std::vector<int> idsOf(const IpcTable &table, uid_t user)
{
    const std::string wanted = std::to_string(user);
    std::ifstream file(table.path);
    std::string line;
    std::getline(file, line);
    std::vector<int> ids;
    while (std::getline(file, line)) {
        std::istringstream stream(line);
        const std::vector<std::string> fields{std::istream_iterator<std::string>(stream), {}};
        if (fields.size() > table.creatorColumn &&
            (fields[table.uidColumn] == wanted || fields[table.creatorColumn] == wanted)) {
            ids.push_back(static_cast<int>(std::strtol(fields[1].c_str(), nullptr, 10)));
        }
    }
    return ids;
}

} // namespace

int removeSysvIpcObjects(uid_t user)
{
    static const IpcTable tables[] = {
        {"/proc/sysvipc/shm", 7, 9, removeSharedMemory},
        {"/proc/sysvipc/sem", 4, 6, removeSemaphores},
        {"/proc/sysvipc/msg", 7, 9, removeMessageQueue},
    };
    int failed = 0;
    for (const IpcTable &table : tables) {
        for (const int id : idsOf(table, user)) {
            // EINVAL/EIDRM: already gone.
            if (table.remove(id) != 0 && errno != EINVAL && errno != EIDRM) {
                ++failed;
            }
        }
    }
    return failed;
}

} // namespace runner
