#include "images/ImagePusher.h"

namespace sandbox {

ImagePusher::ImagePusher(ImageStore &backend, const ImageCatalog &catalog) : m_backend(backend), m_catalog(catalog) {}

QString ImagePusher::registryFrom(const QString &option)
{
    QString registry =
        option.trimmed().isEmpty() ? qEnvironmentVariable("LLM_SANDBOX_REGISTRY").trimmed() : option.trimmed();
    while (registry.endsWith(QLatin1Char('/'))) {
        registry.chop(1);
    }
    return registry;
}

QString ImagePusher::targetFor(const QString &registry, const QString &reference)
{
    return registry + u'/' + reference;
}

Result<QStringList> ImagePusher::push(const QList<Language> &languages, const QString &registry,
                                      const RegistryCredentials &credentials, const ProgressCallback &progress)
{
    const auto report = [&](const QString &line) {
        if (progress) {
            progress(line);
        }
    };
    QStringList pushed;
    for (const Language &language : languages) {
        if (m_cancelled) {
            return Error{QStringLiteral("The push to %1 was cancelled.").arg(registry), ErrorCode::Cancelled};
        }
        auto image = m_catalog.runImage(language);
        if (!image) {
            return image.error();
        }
        // Said before anything is tagged: the engine's own words for a missing source ("No such image") do not
        // say what to do.
        auto present = m_backend.hasImage(*image);
        if (!present) {
            return present.error();
        }
        if (!*present) {
            return Error{QStringLiteral("%1 has no image %2 for %3 to push: build it there first, then push.")
                             .arg(m_backend.name(), *image, language.name),
                         ErrorCode::ImageMissing};
        }
        const QString target = targetFor(registry, *image);
        auto tagged = m_backend.hasImage(target);
        if (!tagged) {
            return tagged.error();
        }
        const bool taggedBefore = *tagged;
        report(QStringLiteral("Pushing %1 as %2").arg(*image, target));
        if (auto made = m_backend.tagImage(*image, target); !made) {
            return made.error();
        }
        auto sent = m_backend.pushImage(
            target, credentials, [&](const QString &line) { report(QStringLiteral("  ") + line); }, &m_cancelled);
        if (!sent) {
            if (!taggedBefore) {
                (void)m_backend.removeImage(target); // only the name: the image keeps its own
            }
            if (m_cancelled) {
                return Error{QStringLiteral("The push of %1 to %2 was cancelled; the registry did not get its tag.")
                                 .arg(*image, registry),
                             ErrorCode::Cancelled};
            }
            return sent.error();
        }
        pushed << target;
    }
    return pushed;
}

} // namespace sandbox
