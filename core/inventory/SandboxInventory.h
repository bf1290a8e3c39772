#pragma once

#include "backend/ContainerBackend.h"
#include "images/ImageCatalog.h"
#include "util/Result.h"

#include <QList>
#include <QString>
#include <optional>

namespace sandbox {

/// One sandbox container of some llm-sandbox process, as `llm-sandbox ps` and the Backends page show it.
struct SandboxEntry
{
    ContainerSummary container;
    QString language;     ///< empty when neither the catalog nor the image's name says
    QString owner;        ///< the owner's identity label, "host:pid:start time"
    qint64 ownerPid = -1; ///< -1: the label names no owner
    QString ownerHost;
    /// The owner's command line, shortened ("llm-sandbox --mcp"), while it runs on this host; else empty.
    QString ownerName;
    QString session; ///< the session it belongs to; empty: a warm or one-shot sandbox
    /// Whether its owner is a process of this host that has ended (OrphanReaper removes those).
    bool orphaned = false;
    Result<ContainerStats> stats = Error{QStringLiteral("not read")};

    /// "host:pid" of the owner (the start time only tells a reused pid apart).
    QString ownerText() const;
};

/// The sandboxes every llm-sandbox process runs on one backend: every process labels its containers with its
/// identity, so listing that label finds them all, not only ours.
class SandboxInventory final
{
public:
    SandboxInventory(ContainerBackend &backend, const ImageCatalog &catalog);

    /// The running sandboxes, oldest first; with `withStats` each with a resource sample (taken in parallel: an
    /// engine takes about a second per sample). Blocking.
    Result<QList<SandboxEntry>> list(bool withStats = true) const;
    /// The containers (in any state) of llm-sandbox processes of this host that ended without removing them:
    /// what OrphanReaper::removeOrphans() removes.
    Result<QList<SandboxEntry>> leftovers() const;

    /// The language whose run image `image` is: the catalog's reference (also behind a registry prefix, as a cluster
    /// pulls it), else the product's naming (llm-sandbox/LANG:TAG); empty when neither says.
    static QString languageOf(const QString &image, const ImageCatalog &catalog);
    /// The command line of process `pid` of this host as people read it: the program's file name and its arguments
    /// ("llm-sandbox serve --http"), on one line, at most 48 characters; empty when it cannot be read (ended, another
    /// platform).
    static QString processName(qint64 pid);

private:
    /// Every labelled container, in any state.
    Result<QList<SandboxEntry>> all() const;

    ContainerBackend &m_backend;
    const ImageCatalog &m_catalog;
};

} // namespace sandbox
