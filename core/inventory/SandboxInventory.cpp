#include "inventory/SandboxInventory.h"

#include "engine/ContainerSpecFactory.h"
#include "engine/OrphanReaper.h"
#include "lang/LanguageRegistry.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <future>
#include <vector>

namespace sandbox {

QString SandboxEntry::ownerText() const
{
    return ownerPid >= 0 ? ownerHost + u':' + QString::number(ownerPid) : owner;
}

SandboxInventory::SandboxInventory(ContainerBackend &backend, const ImageCatalog &catalog)
    : m_backend(backend), m_catalog(catalog)
{}

QString SandboxInventory::languageOf(const QString &image, const ImageCatalog &catalog)
{
    for (const Language &language : LanguageRegistry::instance().languages()) {
        const auto reference = catalog.runImage(language);
        if (reference && (image == *reference || image.endsWith(u'/' + *reference))) {
            return language.name;
        }
    }
    static const QRegularExpression named(QStringLiteral("(?:^|/)llm-sandbox/([a-z]+)[:@]"));
    const QRegularExpressionMatch match = named.match(image);
    if (match.hasMatch() && LanguageRegistry::instance().find(match.captured(1))) {
        return match.captured(1);
    }
    return {};
}

QString SandboxInventory::processName(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (pid <= 0 || !file.open(QIODevice::ReadOnly)) {
        return {};
    }
    QStringList arguments = QString::fromLocal8Bit(file.read(4096)).split(QChar(u'\0'), Qt::SkipEmptyParts);
    if (arguments.isEmpty()) {
        return {};
    }
    arguments.first() = QFileInfo(arguments.first()).fileName();
    // One line: an argument may hold line breaks (code given with -c).
    const QString name = arguments.join(u' ').simplified();
    constexpr qsizetype kLongest = 48;
    return name.size() <= kLongest ? name : name.left(kLongest - 1) + QChar(0x2026);
}

Result<QList<SandboxEntry>> SandboxInventory::all() const
{
    auto containers = m_backend.listContainerSummaries(ContainerSpecFactory::ownerLabel());
    if (!containers) {
        return containers.error();
    }
    QList<SandboxEntry> entries;
    for (const ContainerSummary &container : *containers) {
        SandboxEntry entry{.container = container, .language = languageOf(container.image, m_catalog)};
        entry.owner = container.labels.value(ContainerSpecFactory::ownerLabel());
        entry.session = container.labels.value(ContainerSpecFactory::sessionLabel());
        if (const auto owner = OrphanReaper::Owner::parse(entry.owner)) {
            entry.ownerPid = owner->pid.toLongLong();
            entry.ownerHost = owner->host;
            entry.orphaned = OrphanReaper::ownerEnded(*owner);
            if (owner->isLocal() && !entry.orphaned) {
                entry.ownerName = processName(entry.ownerPid);
            }
        }
        entries.append(entry);
    }
    return entries;
}

Result<QList<SandboxEntry>> SandboxInventory::leftovers() const
{
    auto entries = all();
    if (!entries) {
        return entries.error();
    }
    entries->removeIf([](const SandboxEntry &entry) { return !entry.orphaned; });
    return *entries;
}

Result<QList<SandboxEntry>> SandboxInventory::list(bool withStats) const
{
    auto entries = all();
    if (!entries) {
        return entries.error();
    }
    QList<SandboxEntry> sandboxes = *entries;
    sandboxes.removeIf([](const SandboxEntry &entry) { return entry.container.state != QLatin1String("running"); });
    std::sort(sandboxes.begin(), sandboxes.end(),
              [](const SandboxEntry &a, const SandboxEntry &b) { return a.container.created < b.container.created; });
    if (!withStats) {
        return sandboxes;
    }
    std::vector<std::future<Result<ContainerStats>>> samples;
    for (const SandboxEntry &sandbox : sandboxes) {
        samples.push_back(std::async(std::launch::async, [backend = &m_backend, id = sandbox.container.id] {
            return backend->containerStats(id);
        }));
    }
    for (qsizetype index = 0; index < sandboxes.size(); ++index) {
        sandboxes[index].stats = samples[size_t(index)].get();
    }
    return sandboxes;
}

} // namespace sandbox
