#include "images/ImageInventory.h"

#include "fakes/FakeBackend.h"
#include "images/ImageBuilder.h"
#include "lang/LanguageRegistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

class ImageInventoryTest : public ::testing::Test
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
        m_python = *LanguageRegistry::instance().find("python");
        // Every image python needs, as a build labels them.
        const auto images = m_catalog->imagesFor(m_python);
        ASSERT_TRUE(images.ok());
        for (const ImageDefinition &image : *images) {
            m_backend.addImage(image.reference, {{ImageCatalog::imageLabel(), image.name}});
        }
    }

    QTemporaryDir m_dir;
    std::optional<ImageCatalog> m_catalog;
    test::FakeBackend m_backend;
    Language m_python;
};

} // namespace

TEST_F(ImageInventoryTest, languagesSayWhichRunImagesArePresentWithTheirVersion)
{
    const QString runImage = *m_catalog->runImage(m_python);
    m_backend.addImage(runImage, {{ImageBuilder::versionLabel(), "3.13.5"}});
    auto languages = ImageInventory(m_backend, *m_catalog).languages();
    ASSERT_TRUE(languages.ok());
    ASSERT_EQ(languages->size(), LanguageRegistry::instance().languages().size());
    for (const LanguageImage &image : *languages) {
        EXPECT_EQ(image.present, image.language == "python") << image.language.toStdString();
        if (image.language == "python") {
            EXPECT_EQ(image.reference, runImage);
            EXPECT_EQ(image.version, "3.13.5");
            EXPECT_TRUE(image.created.isValid());
        }
    }
}

TEST_F(ImageInventoryTest, pruneRemovesOnlyOldTagsOfOurDefinitions)
{
    const QHash<QString, QString> ours{{ImageCatalog::imageLabel(), "python"}};
    m_backend.addImage("llm-sandbox/python:0123456789ab", ours);               // an older definition's
    m_backend.addImage("registry.example:5000/llm-sandbox/python:0123", ours); // pushed by the user: not ours
    m_backend.addImage("llm-sandbox/python:handmade");                         // no label: not built by us
    const ImageInventory inventory(m_backend, *m_catalog);
    auto old = inventory.superseded();
    ASSERT_TRUE(old.ok()) << old.error().message.toStdString();
    ASSERT_EQ(old->size(), 1);
    EXPECT_EQ(old->first().reference, "llm-sandbox/python:0123456789ab");

    QStringList lines;
    auto pruned = inventory.prune([&](const QString &line) { lines << line; });
    ASSERT_TRUE(pruned.ok());
    EXPECT_EQ(pruned->removed, QStringList{"llm-sandbox/python:0123456789ab"});
    EXPECT_TRUE(pruned->kept.isEmpty());
    EXPECT_EQ(lines, QStringList{"removed llm-sandbox/python:0123456789ab"});
    EXPECT_FALSE(*m_backend.hasImage("llm-sandbox/python:0123456789ab"));
    EXPECT_TRUE(*m_backend.hasImage("registry.example:5000/llm-sandbox/python:0123"));
    EXPECT_TRUE(*m_backend.hasImage("llm-sandbox/python:handmade"));
    const auto images = m_catalog->imagesFor(m_python);
    for (const ImageDefinition &image : *images) {
        EXPECT_TRUE(*m_backend.hasImage(image.reference)) << image.reference.toStdString();
    }
    EXPECT_TRUE(inventory.superseded()->isEmpty());
}
