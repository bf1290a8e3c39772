#include "backend/TarArchive.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

/// name -> (mode, contents) of every entry, read back with libarchive.
QMap<QString, QPair<int, QByteArray>> readTar(const QByteArray &tar)
{
    QMap<QString, QPair<int, QByteArray>> entries;
    archive *reader = archive_read_new();
    archive_read_support_format_tar(reader);
    EXPECT_EQ(archive_read_open_memory(reader, tar.constData(), size_t(tar.size())), ARCHIVE_OK);
    archive_entry *entry = nullptr;
    while (archive_read_next_header(reader, &entry) == ARCHIVE_OK) {
        QByteArray data(qsizetype(archive_entry_size(entry)), '\0');
        archive_read_data(reader, data.data(), size_t(data.size()));
        entries.insert(QString::fromUtf8(archive_entry_pathname(entry)),
                       {int(archive_entry_filetype(entry) | archive_entry_perm(entry)), data});
    }
    archive_read_free(reader);
    return entries;
}

} // namespace

TEST(TarArchive, filesComeBackWithTheirModesAndParentDirectories)
{
    auto tar = TarArchive::fromFiles({{"bin/tool", "#!/bin/sh\n", 0755}, {"README", "hi", 0644}});
    ASSERT_TRUE(tar.ok()) << tar.error().message.toStdString();
    const auto entries = readTar(*tar);
    ASSERT_TRUE(entries.contains("bin/")) << entries.keys().join(",").toStdString();
    EXPECT_EQ(entries["bin/"].first, AE_IFDIR | 0755);
    EXPECT_EQ(entries["bin/tool"].first, AE_IFREG | 0755);
    EXPECT_EQ(entries["bin/tool"].second, "#!/bin/sh\n");
    EXPECT_EQ(entries["README"].second, "hi");
}

TEST(TarArchive, refusesPathsThatEscape)
{
    EXPECT_FALSE(TarArchive::fromFiles({{"../etc/passwd", "x", 0644}}).ok());
    EXPECT_FALSE(TarArchive::fromFiles({{"/etc/passwd", "x", 0644}}).ok());
    EXPECT_FALSE(TarArchive::fromFiles({{"a//b", "x", 0644}}).ok());
}

TEST(TarArchive, directoryTreeKeepsSymlinksAsLinks)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QDir(dir.path()).mkpath("usr/bin");
    QFile file(dir.filePath("usr/bin/tool"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("binary");
    file.close();
    ASSERT_TRUE(QFile::link("usr/bin", dir.filePath("bin")));
    QTemporaryDir outDir;
    const QString tarPath = outDir.filePath("rootfs.tar");
    auto written = TarArchive::writeDirectory(dir.path(), tarPath);
    ASSERT_TRUE(written.ok()) << written.error().message.toStdString();
    QFile tarFile(tarPath);
    ASSERT_TRUE(tarFile.open(QIODevice::ReadOnly));
    const auto entries = readTar(tarFile.readAll());
    ASSERT_TRUE(entries.contains("./usr/bin/tool"));
    EXPECT_EQ(entries["./usr/bin/tool"].second, "binary");
    ASSERT_TRUE(entries.contains("./bin"));
    EXPECT_EQ(entries["./bin"].first & AE_IFMT, AE_IFLNK);
}
