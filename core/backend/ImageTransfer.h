#pragma once

#include "backend/ContainerBackend.h"
#include "util/Result.h"

#include <QStringList>
#include <atomic>

namespace sandbox {

/// Copies images between two engines, e.g. from Docker into Podman: far faster than building
/// them again (about a minute for the Python chain instead of several).
namespace ImageTransfer {

/// Streams `references` out of `from` and into `to` as one archive, never held in memory here;
/// layers shared by the images travel once. `progress` gets a line every few hundred MB. The
/// images end up under the requested names even where the source's archive qualifies them.
/// When `cancelled` (may be null) turns true the transfer stops and what it brought into `to` is removed again (the
/// names it loaded and the requested ones `to` lacked before), so no half-copied image keeps a name; the call
/// returns ErrorCode::Cancelled.
Result<void> copy(ImageStore &from, ImageStore &to, const QStringList &references, const ProgressCallback &progress,
                  const std::atomic_bool *cancelled = nullptr);

} // namespace ImageTransfer

} // namespace sandbox
