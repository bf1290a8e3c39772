#pragma once

#include <sys/types.h>

namespace runner {

// Removes the System V IPC objects (shared memory segments, semaphore sets, message queues) that `user` owns or
// created. Unlike files and processes they outlive every process of a run, so a pooled container would hand them,
// and what they hold, to the next run. Only for the container's own IPC namespace: outside one these would be the
// host user's objects. Returns how many could not be removed.
int removeSysvIpcObjects(uid_t user);

} // namespace runner
