#include "images/ImageBuilder.h"

#include "fakes/FakeBackend.h"
#include "lang/LanguageRegistry.h"

#include <QFile>
#include <QMutex>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

/// A catalog on a stand-in base image (no debootstrap) and a runner file, with an engine that has only that base.
class ImageBuilderTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QFile runner(m_dir.filePath("runner"));
        ASSERT_TRUE(runner.open(QIODevice::WriteOnly));
        runner.write("runner");
        runner.close();
        m_catalog.emplace(runner.fileName(), QHash<QString, QString>{}, QStringLiteral("debian:trixie"));
        m_backend.setEveryImagePresent(false);
        m_backend.addImage(QStringLiteral("debian:trixie"));
        // The version probe's container does not start here: the images are built without the label.
        m_backend.setStartError(Error{QStringLiteral("no containers in this test")});
    }

    QList<ImageBuildEvent> buildAll(const QStringList &names, int jobs,
                                    ImageBuilder::Scope scope = ImageBuilder::Scope::Everything)
    {
        QList<Language> languages;
        for (const QString &name : names) {
            languages << *LanguageRegistry::instance().find(name);
        }
        QMutex mutex;
        QList<ImageBuildEvent> events;
        ImageBuilder builder(m_backend, *m_catalog);
        const auto built = builder.ensureAll(
            languages, jobs,
            [&](const ImageBuildEvent &event) {
                QMutexLocker lock(&mutex);
                events.append(event);
            },
            scope);
        EXPECT_TRUE(built.ok()) << built.error().message.toStdString();
        return events;
    }

    static QStringList started(const QList<ImageBuildEvent> &events)
    {
        QStringList names;
        for (const ImageBuildEvent &event : events) {
            if (event.kind == ImageBuildEvent::Kind::Started) {
                names << event.name;
            }
        }
        return names;
    }

    QTemporaryDir m_dir;
    std::optional<ImageCatalog> m_catalog;
    test::FakeBackend m_backend;
};

} // namespace

TEST_F(ImageBuilderTest, sharedBaseIsBuiltOnceBeforeAnyLanguage)
{
    const QStringList names = started(buildAll({"python", "r", "ruby"}, 3));
    EXPECT_EQ(names.count("base"), 1);
    EXPECT_EQ(names.first(), "base");
    for (const QString image : {"python-runtime", "python", "r-runtime", "r", "ruby-runtime", "ruby"}) {
        EXPECT_EQ(names.count(image), 1) << image.toStdString();
    }
    // Within a language, the runtime comes before the runner layer on it.
    EXPECT_LT(names.indexOf("r-runtime"), names.indexOf("r"));
}

TEST_F(ImageBuilderTest, runChainScopeLeavesTheBuilderAndProxyToTheFirstLibraryInstall)
{
    const QStringList runOnly = started(buildAll({"python"}, 1, ImageBuilder::Scope::RunChain));
    EXPECT_EQ(runOnly, (QStringList{"base", "python-runtime", "python"}));
    // The whole build afterwards adds just what the run chain left out.
    const QStringList rest = started(buildAll({"python"}, 1));
    EXPECT_EQ(rest.size(), 2) << rest.join(' ').toStdString();
    EXPECT_TRUE(rest.contains("python-builder")) << rest.join(' ').toStdString();
    EXPECT_TRUE(rest.contains("proxy")) << rest.join(' ').toStdString();
}

TEST_F(ImageBuilderTest, aSecondBuildFindsEverythingUpToDate)
{
    buildAll({"go", "cpp"}, 2);
    const QList<ImageBuildEvent> again = buildAll({"go", "cpp"}, 2);
    EXPECT_TRUE(started(again).isEmpty());
    int upToDate = 0;
    for (const ImageBuildEvent &event : again) {
        upToDate += event.kind == ImageBuildEvent::Kind::UpToDate ? 1 : 0;
    }
    // The stand-in base image, base, two runtimes, two runner layers, the egress proxy (neither language compiles
    // its libraries: no builder).
    EXPECT_EQ(upToDate, 1 + 1 + 2 + 2 + 1);
}

TEST_F(ImageBuilderTest, versionThatCannotBeAskedLeavesTheLabelOutAndSaysWhy)
{
    const QList<ImageBuildEvent> events = buildAll({"ruby"}, 1);
    const Language ruby = *LanguageRegistry::instance().find("ruby");
    auto version = ImageBuilder::builtVersion(m_backend, *m_catalog, ruby);
    ASSERT_TRUE(version.ok());
    EXPECT_EQ(*version, "");
    bool said = false;
    for (const ImageBuildEvent &event : events) {
        said = said || event.line.contains("could not ask the Ruby version");
    }
    EXPECT_TRUE(said);
}

TEST_F(ImageBuilderTest, cancelStopsTheBuildAndRemovesWhatItMade)
{
    const Language python = *LanguageRegistry::instance().find("python");
    ImageBuilder builder(m_backend, *m_catalog);
    int finished = 0;
    const auto built = builder.ensureAll({python}, 1, [&](const ImageBuildEvent &event) {
        if (event.kind == ImageBuildEvent::Kind::Finished && ++finished == 2) {
            builder.cancel(); // as the Backends page's Cancel does, from another thread
        }
    });
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.error().code, ErrorCode::Cancelled);
    EXPECT_EQ(finished, 2) << "the build went on after the cancel";
    // The two images finished before the cancel are gone again; only the stand-in base is left.
    auto images = m_catalog->imagesFor(python);
    ASSERT_TRUE(images.ok());
    for (const ImageDefinition &image : *images) {
        if (image.reference != "debian:trixie") {
            EXPECT_FALSE(*m_backend.hasImage(image.reference)) << image.reference.toStdString();
        }
    }
    EXPECT_TRUE(*m_backend.hasImage("debian:trixie"));
}

namespace {

/// The id each image of `language` has now, by its definition's name.
QHash<QString, QString> idsOf(ImageStore &backend, const ImageCatalog &catalog, const Language &language)
{
    QHash<QString, QString> ids;
    const auto images = backend.listImages(ImageCatalog::imageLabel());
    const auto chain = catalog.imagesFor(language);
    for (const ImageDefinition &image : *chain) {
        for (const ImageInfo &info : *images) {
            if (info.reference == image.reference) {
                ids.insert(image.name, info.id);
            }
        }
    }
    return ids;
}

} // namespace

TEST_F(ImageBuilderTest, rebuildBuildsTheLanguagesOwnImagesAgainAndKeepsTheShared)
{
    buildAll({"ruby"}, 1);
    const Language ruby = *LanguageRegistry::instance().find("ruby");
    const QHash<QString, QString> before = idsOf(m_backend, *m_catalog, ruby);
    ASSERT_TRUE(before.contains("ruby-runtime") && before.contains("ruby") && before.contains("base"));

    QStringList started;
    ImageBuilder builder(m_backend, *m_catalog);
    const auto rebuilt = builder.rebuild(ruby, [&](const ImageBuildEvent &event) {
        if (event.kind == ImageBuildEvent::Kind::Started) {
            started << event.name;
        }
    });
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message.toStdString();
    // Ruby's own images, parents first; base and the egress proxy serve every language and stay.
    EXPECT_EQ(started.join(' ').toStdString(), "ruby-runtime ruby ruby-builder");
    const QHash<QString, QString> after = idsOf(m_backend, *m_catalog, ruby);
    EXPECT_NE(after.value("ruby-runtime"), before.value("ruby-runtime"));
    EXPECT_NE(after.value("ruby"), before.value("ruby"));
    EXPECT_EQ(after.value("base"), before.value("base"));
    // The images the names left are removed: a tag can no longer name them.
    EXPECT_FALSE(m_backend.tagImage(before.value("ruby"), "llm-sandbox-test/old:1").ok());
}

TEST_F(ImageBuilderTest, cancellingARebuildGivesTheNamesBackToThePreviousImages)
{
    buildAll({"ruby"}, 1);
    const Language ruby = *LanguageRegistry::instance().find("ruby");
    const QHash<QString, QString> before = idsOf(m_backend, *m_catalog, ruby);
    ImageBuilder builder(m_backend, *m_catalog);
    int finished = 0;
    QString rebuiltRuntime;
    const auto rebuilt = builder.rebuild(ruby, [&](const ImageBuildEvent &event) {
        if (event.kind == ImageBuildEvent::Kind::Finished && ++finished == 1) {
            rebuiltRuntime = idsOf(m_backend, *m_catalog, ruby).value("ruby-runtime");
            builder.cancel(); // the runtime is rebuilt (its name moved), the run image not yet
        }
    });
    ASSERT_FALSE(rebuilt.ok());
    EXPECT_EQ(rebuilt.error().code, ErrorCode::Cancelled);
    EXPECT_EQ(finished, 1);
    EXPECT_EQ(idsOf(m_backend, *m_catalog, ruby), before);
    ASSERT_FALSE(rebuiltRuntime.isEmpty());
    EXPECT_NE(rebuiltRuntime, before.value("ruby-runtime"));
    EXPECT_FALSE(m_backend.tagImage(rebuiltRuntime, "llm-sandbox-test/new:1").ok()) << "the rebuilt runtime stayed";
}
