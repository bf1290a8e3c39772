// Issue 47, on the real engines (rootful and rootless Podman, Docker; gVisor in its own stage): a folder the user
// shares is readable at /data/NAME whatever the sandbox's uid, even its 0600 files, and nothing else of the host is:
// not what a link in it points at, not a hard link's other name, not the host path; every write is refused (EROFS).
// One engine per test with the folder shared in its settings, as LLM_SANDBOX_SHARE gives it.
#include "BackendTestSupport.h"
#include "engine/ExecutionEngine.h"
#include "folders/FolderSnapshot.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

constexpr char kSecret[] = "HOST-SECRET-7d1f3a";

void write(const QString &path, const QByteArray &data, QFile::Permissions permissions)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << qPrintable(path);
    file.write(data);
    file.close();
    ASSERT_TRUE(file.setPermissions(permissions));
}

class SharedFolderTest : public ::testing::TestWithParam<std::string>
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_host.isValid());
        QDir root(m_host.path());
        ASSERT_TRUE(root.mkpath(QStringLiteral("sales/sub")) && root.mkpath(QStringLiteral("outside")));
        write(path("sales/sales.csv"), "region,total\nnorth,12\nsouth,30\n", QFile::ReadOwner | QFile::WriteOwner);
        write(path("sales/sub/more.csv"), "x\n1\n", QFile::ReadOwner | QFile::WriteOwner);
        write(path("outside/id_rsa"), kSecret, QFile::ReadOwner);
        ASSERT_TRUE(QFile::link(path("outside/id_rsa"), path("sales/id_rsa")));
        ASSERT_TRUE(QFile::link(QStringLiteral("/etc/shadow"), path("sales/shadow")));
        ASSERT_TRUE(QFile::link(QStringLiteral("../outside"), path("sales/up")));
        ASSERT_EQ(::link(QFile::encodeName(path("outside/id_rsa")).constData(),
                         QFile::encodeName(path("sales/hard")).constData()),
                  0);
        ASSERT_EQ(::mkfifo(QFile::encodeName(path("sales/pipe")).constData(), 0600), 0);
        ASSERT_EQ(::stat(QFile::encodeName(path("sales/sales.csv")).constData(), &m_before), 0);

        auto folder = SharedFolder::parse(path("sales") + QStringLiteral(":sales"));
        ASSERT_TRUE(folder) << qPrintable(folder.error().message);
        m_folder = *folder;
        SandboxSettings settings = test::settingsFor(GetParam());
        settings.sharedFolders = {m_folder};
        auto backend = test::backendFor(GetParam());
        ASSERT_TRUE(backend);
        m_engine = std::make_unique<ExecutionEngine>(backend, settings);
    }

    void TearDown() override
    {
        m_engine.reset();
        QDir(FolderSnapshot::viewOf(m_folder)).removeRecursively();
    }

    QString path(const char *relative) const { return m_host.filePath(QString::fromUtf8(relative)); }

    RunResult run(const QString &code, const QList<SharedFolder> &own = {}, const QString &session = {})
    {
        RunRequest request;
        request.code = code;
        request.timeout = 60s;
        request.sharedFolders = own;
        request.sessionId = session;
        if (!session.isEmpty()) {
            request.language.clear();
        }
        auto result = m_engine->run(request);
        EXPECT_TRUE(result) << (result ? "" : result.error().message.toStdString());
        return result ? *result : RunResult{};
    }

    QTemporaryDir m_host;
    SharedFolder m_folder;
    struct stat m_before
    {
    };
    std::unique_ptr<ExecutionEngine> m_engine;
};

constexpr char kProbe[] = R"PY(
import errno, json, os
out = {"uid": os.getuid()}
out["sales"] = open("/data/sales/sales.csv").read()
out["more"] = open("/data/sales/sub/more.csv").read()
names = []
for top, dirs, files in os.walk("/data"):
    for name in dirs + files:
        names.append(os.path.relpath(os.path.join(top, name), "/data"))
out["names"] = sorted(names)
found = []
for attempt in ["/data/sales/id_rsa", "/data/sales/shadow", "/data/sales/up/id_rsa", "/data/sales/hard",
                "/data/sales/../../etc/shadow", "/data/sales/sub/../../sales/../up/id_rsa"]:
    try:
        found.append(open(attempt, "rb").read().decode("latin-1"))
    except OSError as e:
        found.append(errno.errorcode[e.errno])
out["attempts"] = found
def error_of(action):
    try:
        action()
        return "done"
    except OSError as e:
        return errno.errorcode[e.errno]
target = "/data/sales/sales.csv"
out["writes"] = {
    "create": error_of(lambda: open("/data/sales/new.txt", "w")),
    "append": error_of(lambda: open(target, "a")),
    "chmod": error_of(lambda: os.chmod(target, 0o777)),
    "utime": error_of(lambda: os.utime(target, (0, 0))),
    "rename": error_of(lambda: os.rename(target, "/data/sales/moved.csv")),
    "unlink": error_of(lambda: os.unlink(target)),
    "mkdir": error_of(lambda: os.mkdir("/data/sales/dir")),
    "symlink": error_of(lambda: os.symlink("/etc/passwd", "/data/sales/l")),
    "rmdir": error_of(lambda: os.rmdir("/data/sales/sub")),
}
out["mounts"] = [line for line in open("/proc/self/mountinfo").read().splitlines() if " /data/" in line]
print(json.dumps(out))
)PY";

} // namespace

TEST_P(SharedFolderTest, aSharedFolderIsReadableReadOnlyAndHoldsNothingElseOfTheHost)
{
    const RunResult result = run(QString::fromLatin1(kProbe));
    ASSERT_EQ(result.exitCode, 0) << result.stderrData.toStdString();
    const QJsonObject out = QJsonDocument::fromJson(result.stdoutData).object();
    ASSERT_FALSE(out.isEmpty()) << result.stdoutData.toStdString();
    EXPECT_NE(out.value(QStringLiteral("uid")).toInt(), 0);
    EXPECT_NE(out.value(QStringLiteral("uid")).toInt(), int(::getuid())) << "the sandbox has a uid of its own";
    EXPECT_EQ(out.value(QStringLiteral("sales")).toString(), QStringLiteral("region,total\nnorth,12\nsouth,30\n"))
        << "a 0600 file of the user's is readable";
    EXPECT_EQ(out.value(QStringLiteral("more")).toString(), QStringLiteral("x\n1\n"));
    EXPECT_EQ(out.value(QStringLiteral("names")).toArray().toVariantList(),
              (QVariantList{QStringLiteral("sales"), QStringLiteral("sales/sales.csv"), QStringLiteral("sales/sub"),
                            QStringLiteral("sales/sub/more.csv")}))
        << "no link, hard link or FIFO";
    EXPECT_FALSE(result.stdoutData.contains(kSecret)) << result.stdoutData.toStdString();
    EXPECT_FALSE(result.stdoutData.contains(m_host.path().toUtf8())) << "nor the host path";
    for (const QJsonValue attempt : out.value(QStringLiteral("attempts")).toArray()) {
        EXPECT_TRUE(attempt.toString() == QLatin1String("ENOENT") || attempt.toString() == QLatin1String("EACCES"))
            << qPrintable(attempt.toString());
    }
    const QJsonObject writes = out.value(QStringLiteral("writes")).toObject();
    ASSERT_EQ(writes.size(), 9);
    for (auto it = writes.begin(); it != writes.end(); ++it) {
        // Opening a file of another uid for writing meets its mode before the read-only mount, and gVisor checks
        // permissions first for every call: a refusal all the same.
        const QString error = it.value().toString();
        const bool permissionFirst = it.key() == QLatin1String("append") || test::underGVisor();
        EXPECT_TRUE(error == QLatin1String("EROFS") ||
                    (permissionFirst && (error == QLatin1String("EACCES") || error == QLatin1String("EPERM"))))
            << qPrintable(it.key()) << ": " << qPrintable(error);
    }
    EXPECT_EQ(QDir(FolderSnapshot::viewOf(m_folder))
                  .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
              (QStringList{QStringLiteral("sales.csv"), QStringLiteral("sub")}))
        << "nothing was written to the copy";
    const QJsonArray mounts = out.value(QStringLiteral("mounts")).toArray();
    ASSERT_EQ(mounts.size(), 1) << result.stdoutData.toStdString();
    const QStringList fields = mounts.first().toString().split(QLatin1Char(' '));
    EXPECT_TRUE(fields.value(5).split(QLatin1Char(',')).contains(QStringLiteral("ro"))) << qPrintable(fields.join(' '));
    EXPECT_FALSE(fields.mid(6).contains(QStringLiteral("shared:"))) << "no propagation from the host";

    struct stat after
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(path("sales/sales.csv")).constData(), &after), 0);
    EXPECT_EQ(after.st_mode, m_before.st_mode) << "the user's file keeps its mode, owner and inode change time";
    EXPECT_EQ(after.st_uid, m_before.st_uid);
    EXPECT_EQ(after.st_ctim.tv_sec, m_before.st_ctim.tv_sec);
    EXPECT_EQ(after.st_ctim.tv_nsec, m_before.st_ctim.tv_nsec);
    ASSERT_EQ(result.sharedFolders.size(), 1);
    EXPECT_EQ(result.sharedFolders.first(), (SharedFolderUse{QStringLiteral("sales"), false, 2, 35, 5}));
}

TEST_P(SharedFolderTest, eachRunSeesTheFolderAsItIsNowAndARunsOwnFolderStaysWithIt)
{
    const QString read = QStringLiteral("import os\nprint(open('/data/sales/sales.csv').read(), end='')\n"
                                        "print(sorted(os.listdir('/data')))\n");
    EXPECT_EQ(run(read).stdoutData, "region,total\nnorth,12\nsouth,30\n['sales']\n");
    write(path("sales/sales.csv"), "region,total\neast,7\n", QFile::ReadOwner | QFile::WriteOwner);
    EXPECT_EQ(run(read).stdoutData, "region,total\neast,7\n['sales']\n") << "the change reaches the next run";

    // A session keeps the folder; a change reaches its next run too, except on Kubernetes, where the folder travels
    // into the session's pod as a copy when it starts (FolderLoader) and stays as it was then.
    SessionRequest opening;
    opening.language = QStringLiteral("python");
    auto session = m_engine->createSession(opening);
    ASSERT_TRUE(session) << qPrintable(session.error().message);
    EXPECT_EQ(run(read, {}, session->id).stdoutData, "region,total\neast,7\n['sales']\n");
    write(path("sales/sales.csv"), "region,total\nwest,9\n", QFile::ReadOwner | QFile::WriteOwner);
    EXPECT_EQ(run(read, {}, session->id).stdoutData,
              GetParam() == "kubernetes" ? "region,total\neast,7\n['sales']\n" : "region,total\nwest,9\n['sales']\n");
    ASSERT_TRUE(m_engine->closeSession(session->id));

    // A folder of the run's own: there for that run only, not in the pooled sandboxes after it.
    ASSERT_TRUE(QDir(m_host.path()).mkpath(QStringLiteral("extra")));
    write(path("extra/notes.txt"), "own", QFile::ReadOwner | QFile::WriteOwner);
    auto extra = SharedFolder::parse(path("extra"));
    ASSERT_TRUE(extra);
    const RunResult own = run(QStringLiteral("import os\nprint(sorted(os.listdir('/data')), "
                                             "open('/data/extra/notes.txt').read())\n"),
                              {*extra});
    EXPECT_EQ(own.stdoutData, "['extra', 'sales'] own\n") << own.stderrData.toStdString();
    EXPECT_EQ(run(read).stdoutData, "region,total\nwest,9\n['sales']\n");

    RunRequest clash;
    clash.code = QStringLiteral("print(1)");
    clash.sharedFolders = {SharedFolder{path("extra"), QStringLiteral("sales"), false}};
    auto refused = m_engine->run(clash);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, ErrorCode::BadRequest);
}

constexpr char kWriter[] = R"PY(
import errno, json, os
out = {"listing": sorted(os.listdir("/data/out")), "read": open("/data/out/summary.csv").read()}
def error_of(action):
    try:
        action()
        return "done"
    except OSError as e:
        return errno.errorcode[e.errno]
out["overwrite"] = error_of(lambda: open("/data/out/summary.csv", "w"))
out["subfolder"] = error_of(lambda: open("/data/out/2026/new.csv", "w"))
out["old"] = open("/data/out/2026/old.csv").read()
with open("/data/out/result.csv", "w") as f:
    f.write("a,b\n1,2\n")
os.chmod("/data/out/result.csv", 0o4755)
os.unlink("/data/out/summary.csv")
with open("/data/out/summary.csv", "w") as f:
    f.write("new")
for name in [".bashrc", "bad\nname.txt"]:
    with open("/data/out/" + name, "w") as f:
        f.write("x")
os.mkdir("/data/out/sub")
open("/data/out/sub/x.csv", "w").write("x")
os.symlink("/etc/passwd", "/data/out/link")
os.mkfifo("/data/out/pipe")
out["exec"] = error_of(lambda: os.execv("/data/out/result.csv", ["x"]))
print(json.dumps(out))
)PY";

TEST_P(SharedFolderTest, aWritableFolderGetsWhatTheRunWroteThereSavedByLlmSandboxAfterTheRun)
{
    ASSERT_TRUE(QDir(m_host.path()).mkpath(QStringLiteral("out/2026")));
    write(path("out/summary.csv"), "old", QFile::ReadOwner | QFile::WriteOwner);
    write(path("out/2026/old.csv"), "2026", QFile::ReadOwner | QFile::WriteOwner);
    auto folder = SharedFolder::parse(path("out") + QStringLiteral(":out:rw"));
    ASSERT_TRUE(folder) << qPrintable(folder.error().message);
    const RunResult result = run(QString::fromLatin1(kWriter), {*folder});
    ASSERT_EQ(result.exitCode, 0) << result.stderrData.toStdString();
    const QJsonObject out = QJsonDocument::fromJson(result.stdoutData).object();
    EXPECT_EQ(out.value(QStringLiteral("listing")).toArray().toVariantList(),
              (QVariantList{QStringLiteral("2026"), QStringLiteral("summary.csv")}));
    EXPECT_EQ(out.value(QStringLiteral("read")).toString(), QStringLiteral("old")) << "the folder's files are there";
    EXPECT_EQ(out.value(QStringLiteral("old")).toString(), QStringLiteral("2026")) << "and its subfolders'";
    for (const char *write : {"overwrite", "subfolder"}) {
        const QString error = out.value(QLatin1String(write)).toString();
        EXPECT_TRUE(error == QLatin1String("EROFS") || error == QLatin1String("EACCES") ||
                    (test::underGVisor() && error == QLatin1String("EPERM")))
            << write << ": " << qPrintable(error) << " (the folder's own files and subfolders stay read only)";
    }
    // Nothing there runs: /data/out is mounted noexec; a pod's emptyDir cannot be (a sandbox there runs what it
    // writes to /tmp as well), and the saved files never have an execute bit.
    EXPECT_EQ(out.value(QStringLiteral("exec")).toString(),
              GetParam() == "kubernetes" ? QStringLiteral("ENOEXEC") : QStringLiteral("EACCES"));

    // On the host: the new files, written by llm-sandbox as the user, 0644; the existing file kept.
    const auto contents = [this](const char *name) {
        QFile file(path(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(missing)");
    };
    EXPECT_EQ(contents("out/summary.csv"), "old");
    EXPECT_EQ(contents("out/summary (2).csv"), "new");
    EXPECT_EQ(contents("out/result.csv"), "a,b\n1,2\n");
    struct stat saved
    {
    };
    ASSERT_EQ(::lstat(QFile::encodeName(path("out/result.csv")).constData(), &saved), 0);
    EXPECT_EQ(saved.st_mode, mode_t(S_IFREG | 0644));
    EXPECT_EQ(saved.st_uid, ::getuid());
    EXPECT_EQ(QDir(path("out")).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
              (QStringList{QStringLiteral("2026"), QStringLiteral("result.csv"), QStringLiteral("summary (2).csv"),
                           QStringLiteral("summary.csv")}));
    QStringList savedPaths;
    for (const SavedResult &file : result.savedResults) {
        savedPaths << file.sandboxPath();
        EXPECT_EQ(file.folderPath, folder->path);
    }
    savedPaths.sort();
    EXPECT_EQ(savedPaths,
              (QStringList{QStringLiteral("/data/out/result.csv"), QStringLiteral("/data/out/summary (2).csv")}));
    QStringList refused;
    for (const RefusedResult &file : result.refusedResults) {
        refused << file.path;
        EXPECT_FALSE(file.reason.isEmpty());
    }
    refused.sort();
    EXPECT_EQ(refused, (QStringList{QStringLiteral("/data/out/.bashrc"), QStringLiteral("/data/out/bad\nname.txt"),
                                    QStringLiteral("/data/out/link"), QStringLiteral("/data/out/pipe"),
                                    QStringLiteral("/data/out/sub/x.csv")}));

    // A session of a folder shared with every sandbox: each run starts from the folder as it is, with what the runs
    // before it saved, and nothing else they left. (On Kubernetes: as it was when the session started.)
    SandboxSettings settings = test::settingsFor(GetParam());
    settings.sharedFolders = {*folder};
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    m_engine = std::make_unique<ExecutionEngine>(backend, settings);
    SessionRequest opening;
    opening.language = QStringLiteral("python");
    auto session = m_engine->createSession(opening);
    ASSERT_TRUE(session) << qPrintable(session.error().message);
    const RunResult first = run(QStringLiteral("open('/data/out/notes.txt', 'w').write('n')\n"
                                               "open('/data/out/.hidden', 'w').write('h')\n"),
                                {}, session->id);
    ASSERT_EQ(first.savedResults.size(), 1) << first.stderrData.toStdString();
    EXPECT_EQ(contents("out/notes.txt"), "n");
    const RunResult second =
        run(QStringLiteral("import os\nprint(sorted(os.listdir('/data/out')))\n"), {}, session->id);
    EXPECT_EQ(second.stdoutData, GetParam() == "kubernetes"
                                     ? "['2026', 'result.csv', 'summary (2).csv', 'summary.csv']\n"
                                     : "['2026', 'notes.txt', 'result.csv', 'summary (2).csv', 'summary.csv']\n")
        << second.stderrData.toStdString();
    EXPECT_TRUE(second.savedResults.isEmpty());
    ASSERT_TRUE(m_engine->closeSession(session->id));
    m_engine.reset();
    QDir(FolderSnapshot::viewOf(*folder)).removeRecursively();
}

INSTANTIATE_TEST_SUITE_P(Backends, SharedFolderTest, ::testing::ValuesIn(test::allBackendNames()),
                         test::backendTestName);
