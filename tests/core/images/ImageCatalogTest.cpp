#include "images/ImageCatalog.h"

#include "lang/LanguageRegistry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QString writeRunner(const QTemporaryDir &dir, const QByteArray &contents)
{
    const QString path = dir.filePath("runner");
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(contents);
    return path;
}

const Language &python()
{
    static const Language language = *LanguageRegistry::instance().find("python");
    return language;
}

} // namespace

TEST(ImageCatalog, chainGoesFromRootfsToTheRunnerLayer)
{
    QTemporaryDir dir;
    const ImageCatalog catalog(writeRunner(dir, "runner-v1"), {});
    auto chain = catalog.chainFor(python());
    ASSERT_TRUE(chain.ok()) << chain.error().message.toStdString();
    ASSERT_EQ(chain->size(), 4);
    EXPECT_EQ((*chain)[0].kind, ImageDefinition::Kind::Rootfs);
    EXPECT_EQ((*chain)[1].name, "base");
    EXPECT_EQ((*chain)[2].name, "python-runtime");
    EXPECT_EQ((*chain)[3].name, "python");
    EXPECT_TRUE((*chain)[3].reference.startsWith("llm-sandbox/python:"));
    // Each image builds FROM its parent.
    for (int i = 1; i < chain->size(); ++i) {
        EXPECT_EQ((*chain)[i].buildArgs.value("BASE"), (*chain)[i - 1].reference);
    }
}

TEST(ImageCatalog, tagsAreStableForAnUnchangedDefinition)
{
    QTemporaryDir dir;
    const QString runner = writeRunner(dir, "runner-v1");
    EXPECT_EQ(*ImageCatalog(runner, {}).runImage(python()), *ImageCatalog(runner, {}).runImage(python()));
}

TEST(ImageCatalog, aNewRunnerChangesOnlyTheRunnerLayer)
{
    QTemporaryDir first, second;
    auto before = ImageCatalog(writeRunner(first, "runner-v1"), {}).chainFor(python());
    auto after = ImageCatalog(writeRunner(second, "runner-v2"), {}).chainFor(python());
    ASSERT_TRUE(before.ok() && after.ok());
    EXPECT_EQ((*before)[2].reference, (*after)[2].reference);
    EXPECT_NE((*before)[3].reference, (*after)[3].reference);
}

TEST(ImageCatalog, languagesHaveDistinctImages)
{
    QTemporaryDir dir;
    const ImageCatalog catalog(writeRunner(dir, "runner"), {});
    QSet<QString> references;
    for (const Language &language : LanguageRegistry::instance().languages()) {
        auto image = catalog.runImage(language);
        ASSERT_TRUE(image.ok()) << language.name.toStdString();
        references.insert(*image);
    }
    EXPECT_EQ(references.size(), LanguageRegistry::instance().languages().size());
}

TEST(ImageCatalog, overriddenLanguageGetsOnlyTheRunnerLayerOnTheUsersImage)
{
    QTemporaryDir dir;
    const ImageCatalog catalog(writeRunner(dir, "runner"), {{"python", "registry.example/python:3.12"}});
    auto chain = catalog.chainFor(python());
    ASSERT_TRUE(chain.ok());
    ASSERT_EQ(chain->size(), 2);
    EXPECT_EQ((*chain)[0].kind, ImageDefinition::Kind::External);
    EXPECT_EQ((*chain)[0].reference, "registry.example/python:3.12");
    EXPECT_EQ((*chain)[1].buildArgs.value("BASE"), "registry.example/python:3.12");
    EXPECT_TRUE((*chain)[1].reference.startsWith("llm-sandbox/python-custom:"));
}

TEST(ImageCatalog, missingRunnerIsAClearError)
{
    const ImageCatalog catalog("/nonexistent/llm-sandbox-runner", {});
    auto image = catalog.runImage(python());
    ASSERT_FALSE(image.ok());
    EXPECT_TRUE(image.error().message.contains("/nonexistent/llm-sandbox-runner"));
}

TEST(ImageCatalog, runnerLayerCarriesThePythonCaptureHook)
{
    QTemporaryDir dir;
    auto chain = ImageCatalog(writeRunner(dir, "runner"), {}).chainFor(python());
    ASSERT_TRUE(chain.ok());
    QStringList paths;
    for (const FileEntry &file : chain->last().context) {
        paths << file.path;
    }
    EXPECT_TRUE(paths.contains("Dockerfile"));
    EXPECT_TRUE(paths.contains("llm-sandbox-runner"));
    EXPECT_TRUE(paths.contains("capture/python/sitecustomize.py"));
}

TEST(ImageCatalog, installsGetABuilderWithTheEcosystemsCompilersAndTheEgressProxy)
{
    QTemporaryDir dir;
    const ImageCatalog catalog(writeRunner(dir, "runner"), {});
    auto images = catalog.imagesFor(python());
    ASSERT_TRUE(images.ok()) << images.error().message.toStdString();
    QStringList names;
    for (const ImageDefinition &image : *images) {
        names << image.name;
    }
    EXPECT_EQ(names, (QStringList{"rootfs", "base", "python-runtime", "python", "python-builder", "proxy"}));
    const ImageDefinition &builder = (*images)[4];
    EXPECT_EQ(builder.buildArgs.value("BASE"), catalog.runImage(python()).value()) << "built on the run image";
    EXPECT_EQ(catalog.builderImage(python()).value(), builder.reference);
    const auto packages = std::find_if(builder.context.begin(), builder.context.end(),
                                       [](const FileEntry &file) { return file.path == "packages"; });
    ASSERT_NE(packages, builder.context.end());
    EXPECT_TRUE(packages->data.contains("build-essential"));
    EXPECT_EQ((*images)[5].buildArgs.value("BASE"), (*images)[1].reference) << "the proxy stands on the base";
    EXPECT_EQ(catalog.proxyImage().value(), (*images)[5].reference);

    // Only what an image stands on is built for it: the proxy needs no language.
    auto forProxy = catalog.imagesFor(python(), catalog.proxyImage().value());
    ASSERT_TRUE(forProxy.ok());
    ASSERT_EQ(forProxy->size(), 3);
    EXPECT_EQ(forProxy->last().name, "proxy");

    // A language whose installs compile nothing installs in its run image.
    const Language javascript = *LanguageRegistry::instance().find("javascript");
    EXPECT_EQ(catalog.builderImage(javascript).value(), catalog.runImage(javascript).value());
    // So does one on the user's image, which may not be Debian.
    const ImageCatalog custom(writeRunner(dir, "runner"), {{"python", "registry.example/python:3.12"}});
    EXPECT_EQ(custom.builderImage(python()).value(), custom.runImage(python()).value());
}

TEST(ImageCatalog, runnerIsFoundBesideTheProgramInABuildTree)
{
    QTemporaryDir dir;
    ASSERT_TRUE(QDir(dir.path()).mkpath("bin"));
    QFile runner(dir.filePath("bin/llm-sandbox-runner"));
    ASSERT_TRUE(runner.open(QIODevice::WriteOnly));

    EXPECT_EQ(ImageCatalog::runnerPathFor(dir.filePath("bin")), dir.filePath("bin/llm-sandbox-runner"));
}

TEST(ImageCatalog, runnerIsFoundInLibexecWhereTheInstallPutsIt)
{
    QTemporaryDir dir;
    ASSERT_TRUE(QDir(dir.path()).mkpath("usr/bin"));
    ASSERT_TRUE(QDir(dir.path()).mkpath("usr/libexec/llm-sandbox"));
    QFile runner(dir.filePath("usr/libexec/llm-sandbox/llm-sandbox-runner"));
    ASSERT_TRUE(runner.open(QIODevice::WriteOnly));

    EXPECT_EQ(ImageCatalog::runnerPathFor(dir.filePath("usr/bin")),
              dir.filePath("usr/libexec/llm-sandbox/llm-sandbox-runner"));
}

TEST(ImageCatalog, runnerFoundNowhereIsLookedForBesideTheProgram)
{
    QTemporaryDir dir;

    EXPECT_EQ(ImageCatalog::runnerPathFor(dir.path()), dir.filePath("llm-sandbox-runner"));
}
