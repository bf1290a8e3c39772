// Issue 47: results out. llm-sandbox itself writes a run's results into the user's writable shared folders: regular
// files with safe names, mode 0644, never through a link, never replacing a file unless allowed, within limits.
#include "folders/ResultWriter.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sandbox;

namespace {

class ResultWriterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString root = QDir(m_dir.path()).canonicalPath();
        ASSERT_TRUE(QDir(root).mkpath(QStringLiteral("results")));
        ASSERT_TRUE(QDir(root).mkpath(QStringLiteral("elsewhere")));
        m_folder = SharedFolder{root + QStringLiteral("/results"), QStringLiteral("results"), true};
        m_elsewhere = root + QStringLiteral("/elsewhere");
    }

    /// Everything in the shared folder, hidden files included.
    QStringList entries() const
    {
        return QDir(m_folder.path)
            .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    }

    QByteArray read(const QString &name) const
    {
        QFile file(m_folder.path + QLatin1Char('/') + name);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }

    void write(const QString &path, const QByteArray &bytes) const
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }

    QTemporaryDir m_dir;
    SharedFolder m_folder;
    QString m_elsewhere;
};

} // namespace

TEST_F(ResultWriterTest, savesARegularFileOwnedByTheUserWithMode0644WhateverTheUmask)
{
    ResultWriter writer;
    for (const mode_t mask : {mode_t(0077), mode_t(0000)}) {
        const mode_t before = ::umask(mask);
        const QString name = QStringLiteral("summary-%1.csv").arg(mask, 0, 8);
        auto saved = writer.save(m_folder, name, QByteArray("region,total\nnorth,12\n"));
        ::umask(before);
        ASSERT_TRUE(saved) << qPrintable(saved.error().message);
        EXPECT_EQ(saved->fileName, name);
        EXPECT_EQ(saved->folderName, QStringLiteral("results"));
        EXPECT_EQ(saved->sandboxPath(), QStringLiteral("/data/results/") + name);
        EXPECT_EQ(saved->hostPath(), m_folder.path + QLatin1Char('/') + name);
        EXPECT_EQ(saved->bytes, 22);
        EXPECT_EQ(saved->sha256,
                  QString::fromLatin1(
                      QCryptographicHash::hash("region,total\nnorth,12\n", QCryptographicHash::Sha256).toHex()));
        EXPECT_TRUE(saved->savedAt.isValid());

        struct stat info
        {
        };
        ASSERT_EQ(::lstat(QFile::encodeName(saved->hostPath()).constData(), &info), 0);
        EXPECT_TRUE(S_ISREG(info.st_mode));
        EXPECT_EQ(info.st_mode & 07777, mode_t(0644));
        EXPECT_EQ(info.st_uid, ::getuid());
        EXPECT_EQ(read(name), QByteArray("region,total\nnorth,12\n"));
    }
    EXPECT_EQ(writer.files(), 2);
    EXPECT_EQ(writer.bytes(), 44);
    // The temporary files are gone.
    EXPECT_EQ(entries(), (QStringList{QStringLiteral("summary-0.csv"), QStringLiteral("summary-77.csv")}));
}

TEST_F(ResultWriterTest, streamsLargeContentFromADevice)
{
    QByteArray bytes(3 * 1024 * 1024 + 17, '\0');
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        bytes[i] = char(i * 7);
    }
    QBuffer content(&bytes);
    ASSERT_TRUE(content.open(QIODevice::ReadOnly));
    ResultWriter writer;
    auto saved = writer.save(m_folder, QStringLiteral("chart data.bin"), content, bytes.size());
    ASSERT_TRUE(saved) << qPrintable(saved.error().message);
    EXPECT_EQ(read(QStringLiteral("chart data.bin")), bytes);
    EXPECT_EQ(saved->sha256, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));

    // Content that ends early leaves nothing behind, not even the temporary file.
    QBuffer shorter;
    shorter.setData("abc");
    ASSERT_TRUE(shorter.open(QIODevice::ReadOnly));
    auto cut = writer.save(m_folder, QStringLiteral("short.txt"), shorter, 10);
    ASSERT_FALSE(cut);
    EXPECT_TRUE(cut.error().message.contains(QLatin1String("ended after 3 bytes of 10 bytes")))
        << qPrintable(cut.error().message);
    EXPECT_EQ(entries(), QStringList{QStringLiteral("chart data.bin")});
}

TEST_F(ResultWriterTest, refusesAFolderSharedReadOnly)
{
    m_folder.writable = false;
    ResultWriter writer;
    auto saved = writer.save(m_folder, QStringLiteral("summary.csv"), QByteArray("x"));
    ASSERT_FALSE(saved);
    EXPECT_EQ(saved.error().code, ErrorCode::BadRequest);
    EXPECT_EQ(saved.error().message,
              QStringLiteral("/data/results is shared read-only: results are saved only in a folder the user shared "
                             "with \"results may be saved here\"."));
    EXPECT_TRUE(entries().isEmpty());
}

TEST_F(ResultWriterTest, refusesUnsafeNames)
{
    const struct
    {
        QString name;
        const char *why;
    } refused[] = {
        {QString(), "needs a file name"},
        {QStringLiteral(".bashrc"), "may not start with '.'"},
        {QStringLiteral(".."), "may not start with '.'"},
        {QStringLiteral("."), "may not start with '.'"},
        {QStringLiteral("../x"), "without subfolders"},
        {QStringLiteral("a/b"), "a plain name such as \"b\" is fine"},
        {QStringLiteral("/etc/passwd"), "without subfolders"},
        {QStringLiteral("a\\b"), "without subfolders"},
        {QStringLiteral("two\nlines.csv"), "line breaks"},
        {QStringLiteral("carriage\r.csv"), "line breaks"},
        {QStringLiteral("tab\t.csv"), "control characters"},
        {QStringLiteral("bell\a.csv"), "control characters"},
        {QStringLiteral("line\u2028sep.csv"), "line breaks"},
        {QStringLiteral("report\u202Evsc.exe"), "text direction controls"},
        {QStringLiteral("trailing "), "start or end with a space"},
        {QStringLiteral(" leading"), "start or end with a space"},
        {QStringLiteral("trailing."), "may not end with a dot"},
        {QString(256, QLatin1Char('a')), "256 bytes long in UTF-8, and a file name may have at most 255"},
        {QString(128, QChar(0x00E9)), "256 bytes long"},
        {QStringLiteral("lone") + QChar(0xD800), "not valid Unicode"},
    };
    ResultWriter writer;
    for (const auto &name : refused) {
        auto saved = writer.save(m_folder, name.name, QByteArray("x"));
        ASSERT_FALSE(saved) << qPrintable(name.name);
        EXPECT_EQ(saved.error().code, ErrorCode::BadRequest);
        EXPECT_TRUE(saved.error().message.contains(QLatin1String(name.why))) << qPrintable(saved.error().message);
        // One sentence on one line, whatever the name held.
        EXPECT_FALSE(saved.error().message.contains(QLatin1Char('\n'))) << qPrintable(saved.error().message);
        EXPECT_TRUE(saved.error().message.endsWith(QLatin1Char('.'))) << qPrintable(saved.error().message);
    }
    EXPECT_EQ(writer.files(), 0);
    EXPECT_TRUE(entries().isEmpty()) << qPrintable(entries().join(QLatin1Char(',')));
    EXPECT_FALSE(QFileInfo::exists(m_elsewhere + QStringLiteral("/../x")));

    for (const QString &fine : {QStringLiteral("summary.csv"), QStringLiteral("résumé 2026 (final).pdf"),
                                QStringLiteral("数据.csv"), QStringLiteral("a..b"), QString(255, QLatin1Char('a'))}) {
        EXPECT_TRUE(ResultWriter::checkName(fine)) << qPrintable(fine);
    }
}

TEST_F(ResultWriterTest, neverWritesThroughASymbolicLinkAtTheName)
{
    const QString secret = m_elsewhere + QStringLiteral("/id_rsa");
    write(secret, "private key");
    ASSERT_TRUE(QFile::link(secret, m_folder.path + QStringLiteral("/out.csv")));
    ASSERT_TRUE(QFile::link(m_elsewhere + QStringLiteral("/new.txt"), m_folder.path + QStringLiteral("/dangling.txt")));

    ResultWriter writer;
    for (const bool overwrite : {false, true}) {
        auto saved = writer.save(m_folder, QStringLiteral("out.csv"), QByteArray("a,b"), overwrite);
        ASSERT_FALSE(saved);
        EXPECT_EQ(saved.error().code, ErrorCode::BadRequest);
        EXPECT_EQ(saved.error().message,
                  QStringLiteral("\"out.csv\" was not saved: /data/results/out.csv is a symbolic "
                                 "link, and results replace or sit beside regular files only."));
        auto dangling = writer.save(m_folder, QStringLiteral("dangling.txt"), QByteArray("a,b"), overwrite);
        ASSERT_FALSE(dangling);
        EXPECT_TRUE(dangling.error().message.contains(QLatin1String("is a symbolic link")));
    }
    QFile key(secret);
    ASSERT_TRUE(key.open(QIODevice::ReadOnly));
    EXPECT_EQ(key.readAll(), QByteArray("private key"));
    EXPECT_FALSE(QFileInfo::exists(m_elsewhere + QStringLiteral("/new.txt")));
    EXPECT_EQ(entries(), (QStringList{QStringLiteral("dangling.txt"), QStringLiteral("out.csv")}));
}

TEST_F(ResultWriterTest, refusesAFolderOrANamedPipeAtTheName)
{
    ASSERT_TRUE(QDir(m_folder.path).mkdir(QStringLiteral("reports")));
    ASSERT_EQ(::mkfifo(QFile::encodeName(m_folder.path + QStringLiteral("/pipe.csv")).constData(), 0600), 0);
    ResultWriter writer;
    for (const bool overwrite : {false, true}) {
        auto folder = writer.save(m_folder, QStringLiteral("reports"), QByteArray("x"), overwrite);
        ASSERT_FALSE(folder);
        EXPECT_TRUE(folder.error().message.contains(QLatin1String("/data/results/reports is a folder")))
            << qPrintable(folder.error().message);
        // Opening a FIFO for writing would block until a reader comes: it is never opened at all.
        auto pipe = writer.save(m_folder, QStringLiteral("pipe.csv"), QByteArray("x"), overwrite);
        ASSERT_FALSE(pipe);
        EXPECT_TRUE(pipe.error().message.contains(QLatin1String("/data/results/pipe.csv is a named pipe")))
            << qPrintable(pipe.error().message);
    }
    EXPECT_EQ(entries(), (QStringList{QStringLiteral("pipe.csv"), QStringLiteral("reports")}));
    EXPECT_TRUE(QDir(m_folder.path + QStringLiteral("/reports")).isEmpty());
}

TEST_F(ResultWriterTest, refusesAFolderReplacedByASymbolicLink)
{
    // The shared folder was moved away and a link to another folder put in its place after it was shared.
    ASSERT_TRUE(QDir().rename(m_folder.path, m_folder.path + QStringLiteral("-moved")));
    ASSERT_TRUE(QFile::link(m_elsewhere, m_folder.path));
    ResultWriter writer;
    auto saved = writer.save(m_folder, QStringLiteral("summary.csv"), QByteArray("x"));
    ASSERT_FALSE(saved);
    EXPECT_EQ(saved.error().code, ErrorCode::BadRequest);
    EXPECT_EQ(saved.error().message,
              QStringLiteral("\"summary.csv\" was not saved: the shared folder /data/results is no longer a folder on "
                             "the host (it or a folder above it was replaced by a symbolic link or a file)."));
    EXPECT_TRUE(QDir(m_elsewhere).isEmpty());

    // A folder above it replaced by a link is refused the same way.
    const QString root = QFileInfo(m_folder.path).absolutePath();
    ASSERT_TRUE(QDir(root).mkpath(QStringLiteral("real/inner")));
    ASSERT_TRUE(QFile::link(root + QStringLiteral("/real"), root + QStringLiteral("/linked")));
    const SharedFolder inner{root + QStringLiteral("/linked/inner"), QStringLiteral("inner"), true};
    auto above = writer.save(inner, QStringLiteral("summary.csv"), QByteArray("x"));
    ASSERT_FALSE(above);
    EXPECT_TRUE(above.error().message.contains(QLatin1String("no longer a folder")))
        << qPrintable(above.error().message);
    EXPECT_TRUE(QDir(root + QStringLiteral("/real/inner")).isEmpty());

    // And a folder that is gone says so.
    const SharedFolder gone{root + QStringLiteral("/gone"), QStringLiteral("gone"), true};
    auto missing = writer.save(gone, QStringLiteral("summary.csv"), QByteArray("x"));
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
    EXPECT_EQ(writer.files(), 0);
}

TEST_F(ResultWriterTest, keepsAnExistingFileAndSavesUnderTheNextFreeName)
{
    write(m_folder.path + QStringLiteral("/summary.csv"), "the user's own");
    write(m_folder.path + QStringLiteral("/summary (2).csv"), "an earlier result");
    ResultWriter writer;
    auto third = writer.save(m_folder, QStringLiteral("summary.csv"), QByteArray("new"));
    ASSERT_TRUE(third) << qPrintable(third.error().message);
    EXPECT_EQ(third->fileName, QStringLiteral("summary (3).csv"));
    EXPECT_EQ(third->sandboxPath(), QStringLiteral("/data/results/summary (3).csv"));
    auto fourth = writer.save(m_folder, QStringLiteral("summary.csv"), QByteArray("newer"));
    ASSERT_TRUE(fourth);
    EXPECT_EQ(fourth->fileName, QStringLiteral("summary (4).csv"));
    EXPECT_EQ(read(QStringLiteral("summary.csv")), QByteArray("the user's own"));
    EXPECT_EQ(read(QStringLiteral("summary (2).csv")), QByteArray("an earlier result"));
    EXPECT_EQ(read(QStringLiteral("summary (3).csv")), QByteArray("new"));
    EXPECT_EQ(read(QStringLiteral("summary (4).csv")), QByteArray("newer"));
    EXPECT_EQ(entries().size(), 4);

    EXPECT_EQ(ResultWriter::numberedName(QStringLiteral("archive.tar.gz"), 2), QStringLiteral("archive (2).tar.gz"));
    EXPECT_EQ(ResultWriter::numberedName(QStringLiteral("README"), 3), QStringLiteral("README (3)"));
    EXPECT_EQ(ResultWriter::numberedName(QStringLiteral("v1.2.report.csv"), 2), QStringLiteral("v1.2.report (2).csv"));
    const QString longest = QString(251, QLatin1Char('a')) + QStringLiteral(".csv");
    const QString numbered = ResultWriter::numberedName(longest, 12);
    EXPECT_EQ(numbered.toUtf8().size(), 255);
    EXPECT_TRUE(numbered.endsWith(QLatin1String("a (12).csv")));
}

TEST_F(ResultWriterTest, replacesAFileOnlyWhenOverwriteIsAllowed)
{
    const QString path = m_folder.path + QStringLiteral("/summary.csv");
    write(path, "old");
    // A hard link the user made elsewhere keeps the old content: the name is replaced, the file is not written into.
    ASSERT_EQ(::link(QFile::encodeName(path).constData(),
                     QFile::encodeName(m_elsewhere + QStringLiteral("/linked.csv")).constData()),
              0);
    ResultWriter writer;
    auto saved = writer.save(m_folder, QStringLiteral("summary.csv"), QByteArray("replaced"), true);
    ASSERT_TRUE(saved) << qPrintable(saved.error().message);
    EXPECT_EQ(saved->fileName, QStringLiteral("summary.csv"));
    EXPECT_EQ(read(QStringLiteral("summary.csv")), QByteArray("replaced"));
    QFile linked(m_elsewhere + QStringLiteral("/linked.csv"));
    ASSERT_TRUE(linked.open(QIODevice::ReadOnly));
    EXPECT_EQ(linked.readAll(), QByteArray("old"));
    EXPECT_EQ(entries(), QStringList{QStringLiteral("summary.csv")});
}

TEST_F(ResultWriterTest, limitsTheSizeOfAFileAndTheFilesAndBytesOfARun)
{
    ResultWriter writer(ResultLimits{.maxFileBytes = 3 * 1024 * 1024, .maxFiles = 3, .maxTotalBytes = 5 * 1024 * 1024});
    const QByteArray mebibyte(1024 * 1024, 'x');

    auto big = writer.save(m_folder, QStringLiteral("big.bin"), mebibyte.repeated(4));
    ASSERT_FALSE(big);
    EXPECT_EQ(big.error().code, ErrorCode::LimitReached);
    EXPECT_EQ(big.error().message, QStringLiteral("\"big.bin\" is 4 MiB, over the limit of 3 MiB per saved file."));

    ASSERT_TRUE(writer.save(m_folder, QStringLiteral("one.bin"), mebibyte.repeated(3)));
    auto total = writer.save(m_folder, QStringLiteral("two.bin"), mebibyte.repeated(3));
    ASSERT_FALSE(total);
    EXPECT_EQ(total.error().code, ErrorCode::LimitReached);
    EXPECT_EQ(total.error().message, QStringLiteral("\"two.bin\" (3 MiB) was not saved: with it this run's saved files "
                                                    "would come to 6 MiB, over the limit of 5 MiB per run."));

    ASSERT_TRUE(writer.save(m_folder, QStringLiteral("two.txt"), QByteArray("2")));
    ASSERT_TRUE(writer.save(m_folder, QStringLiteral("three.txt"), QByteArray("3")));
    auto fourth = writer.save(m_folder, QStringLiteral("four.txt"), QByteArray("4"));
    ASSERT_FALSE(fourth);
    EXPECT_EQ(fourth.error().code, ErrorCode::LimitReached);
    EXPECT_EQ(
        fourth.error().message,
        QStringLiteral("\"four.txt\" was not saved: this run has saved 3 files, the limit of files saved per run."));
    EXPECT_EQ(writer.files(), 3);
    EXPECT_EQ(entries().size(), 3);

    // What a run saved in earlier calls counts too.
    ResultWriter later(ResultLimits{.maxFileBytes = 10, .maxFiles = 2, .maxTotalBytes = 100});
    later.countEarlier(2, 20);
    EXPECT_FALSE(later.save(m_folder, QStringLiteral("five.txt"), QByteArray("5")));
}

TEST_F(ResultWriterTest, defaultLimitsAre100MiBPerFile100FilesAnd500MiBPerRun)
{
    const ResultLimits limits;
    EXPECT_EQ(limits.maxFileBytes, 100LL * 1024 * 1024);
    EXPECT_EQ(limits.maxFiles, 100);
    EXPECT_EQ(limits.maxTotalBytes, 500LL * 1024 * 1024);
}
