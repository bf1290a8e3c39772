#include "gui/widgets/ImageDecoderProcess.h"

#include "gui/widgets/SafeImage.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageReader>
#include <QPainter>
#include <QProcess>
#include <QScopeGuard>
#include <QSvgRenderer>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace sandbox::gui {

namespace {

/// Set by setStopping(): the app is quitting.
std::atomic_bool g_stopping{false};
/// The helpers started and not yet ended (decodesUnderWay).
std::atomic_int g_underWay{0};

/// More input than any decode takes (ThumbnailProvider reads at most 64 MiB of a file).
constexpr qint64 kMaxInputBytes = 64LL * 1024 * 1024;

// --- the helper's side ---

#if defined(__x86_64__)
constexpr quint32 kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr quint32 kAuditArch = AUDIT_ARCH_AARCH64;
#else
#error "ImageDecoderProcess: no seccomp architecture for this processor"
#endif

/// Makes every later open, exec and socket of every thread of this process fail with EACCES (a seccomp filter; calls
/// of another architecture's ABI end the process). False when the kernel refused it.
bool refuseFilesProgramsAndSockets()
{
    const std::vector<long> refused = {
#ifdef SYS_open
        SYS_open,
#endif
#ifdef SYS_creat
        SYS_creat,
#endif
        SYS_openat,
#ifdef SYS_openat2
        SYS_openat2,
#endif
        SYS_open_by_handle_at,
        SYS_execve,
        SYS_execveat,
        SYS_socket,
    };
    std::vector<sock_filter> filter;
    filter.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
    filter.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0));
    filter.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    filter.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
    // The x32 ABI's numbers are the same calls with a high bit set.
    filter.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, quint8(refused.size() + 1), 0));
#endif
    for (std::size_t i = 0; i < refused.size(); ++i) {
        // To the refusal after the other checks and the allowing return.
        filter.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, quint32(refused[i]), quint8(refused.size() - i), 0));
    }
    filter.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    filter.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)));
    const sock_fprog program{quint16(filter.size()), filter.data()};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return false;
    }
    // Every thread: Qt's may already run.
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) == 0;
}

/// Loads what decoding needs from files while the helper may still open them: the image format plugins and the fonts
/// charts name.
void warmUp()
{
    for (const QByteArray &format : QImageReader::supportedImageFormats()) {
        QBuffer empty;
        empty.open(QIODevice::ReadOnly);
        QImageReader(&empty, format).canRead();
    }
    QSvgRenderer renderer(QByteArrayLiteral(
        "<svg xmlns='http://www.w3.org/2000/svg' width='40' height='40'>"
        "<text y='10' font-family='sans-serif'>Ag</text><text y='20' font-family='serif'>Ag</text>"
        "<text y='30' font-family='monospace'>Ag</text><text y='40' font-family='DejaVu Sans'>Ag</text></svg>"));
    QImage image(40, 40, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
}

/// The address space this process has mapped now, in bytes (/proc/self/statm's first field).
qint64 mappedBytes()
{
    long pages = 0;
    if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld", &pages) != 1) {
            pages = 0;
        }
        std::fclose(statm);
    }
    return qint64(pages) * sysconf(_SC_PAGESIZE);
}

bool writeAll(const char *data, qint64 size)
{
    while (size > 0) {
        const ssize_t written = ::write(STDOUT_FILENO, data, std::size_t(size));
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return false;
        }
        data += written;
        size -= written;
    }
    return true;
}

int answerRefusal(const QString &why)
{
    const QByteArray line = "NO " + why.toUtf8().replace('\n', ' ') + '\n';
    return writeAll(line.constData(), line.size()) ? 0 : 1;
}

} // namespace

int ImageDecoderProcess::runHelper(int argc, char **argv)
{
    const rlimit cpu{rlim_t(kCpuSeconds), rlim_t(kCpuSeconds + 1)};
    setrlimit(RLIMIT_CPU, &cpu);
    // No core file of a process that held a sandbox's bytes.
    const rlimit noCore{0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    const bool probe = argc >= 4 && std::strcmp(argv[2], "--probe-open") == 0;
    if (!probe && argc < 5) {
        std::fputs("usage: llm-sandbox --decode-image WIDTH HEIGHT svg|raster < IMAGE\n", stderr);
        return 2;
    }
    // No argument reaches Qt (its -platform options and the like): only the program's name.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    QGuiApplication app(qtArgc, argv);
    warmUp();
    const rlim_t memoryLimit = rlim_t(mappedBytes() + kMemoryBudget);
    const rlimit memory{memoryLimit, memoryLimit};
    if (setrlimit(RLIMIT_AS, &memory) != 0 || !refuseFilesProgramsAndSockets()) {
        return answerRefusal(QStringLiteral("The image decoder could not limit itself (%1); nothing was decoded.")
                                 .arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    if (probe) {
        const int fd = ::open(argv[3], O_RDONLY | O_CLOEXEC);
        const QByteArray line = fd >= 0 ? QByteArray("opened\n") : "refused " + QByteArray::number(errno) + '\n';
        return writeAll(line.constData(), line.size()) ? 0 : 1;
    }
    const QSize box(QByteArray(argv[2]).toInt(), QByteArray(argv[3]).toInt());
    const bool svg = std::strcmp(argv[4], "svg") == 0;

    QByteArray data;
    char chunk[65536];
    for (;;) {
        const ssize_t got = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        if (data.size() + got > kMaxInputBytes) {
            return answerRefusal(QCoreApplication::translate("SafeImage", "The file is too large for a preview."));
        }
        data.append(chunk, got);
    }
    QString why;
    const QImage image = SafeImage::decodeHere(data, svg ? QStringLiteral("image/svg+xml") : QString(), box, &why)
                             .convertToFormat(QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        return answerRefusal(why.isEmpty() ? QCoreApplication::translate("SafeImage", "The image cannot be read.")
                                           : why);
    }
    const QByteArray header =
        "OK " + QByteArray::number(image.width()) + ' ' + QByteArray::number(image.height()) + '\n';
    if (!writeAll(header.constData(), header.size())) {
        return 1;
    }
    for (int y = 0; y < image.height(); ++y) {
        if (!writeAll(reinterpret_cast<const char *>(image.constScanLine(y)), qint64(image.width()) * 4)) {
            return 1;
        }
    }
    return 0;
}

// --- the app's side ---

QString ImageDecoderProcess::helperProgram()
{
    const QString self = QCoreApplication::applicationFilePath();
    if (QFileInfo(self).fileName() == QLatin1String("llm-sandbox")) {
        return self;
    }
    return qEnvironmentVariable("LLM_SANDBOX_BIN");
}

void ImageDecoderProcess::setStopping(bool stopping)
{
    g_stopping = stopping;
}

int ImageDecoderProcess::decodesUnderWay()
{
    return g_underWay;
}

QImage ImageDecoderProcess::decode(const QByteArray &data, const QString &mimeType, QSize box, QString *why)
{
    const auto refuse = [why](const QString &reason) {
        *why = reason;
        return QImage();
    };
    if (g_stopping) {
        return refuse(QCoreApplication::translate("SafeImage", "Not decoded: the app is quitting."));
    }
    const QString program = helperProgram();
    if (program.isEmpty()) {
        return refuse(QCoreApplication::translate("SafeImage", "The image decoder (llm-sandbox) was not found."));
    }
    QProcess process;
    process.setProgram(program);
    const bool svg = SafeImage::kindOf(data, mimeType) == SafeImage::Kind::Svg;
    process.setArguments({QStringLiteral("--decode-image"), QString::number(std::max(0, box.width())),
                          QString::number(std::max(0, box.height())),
                          svg ? QStringLiteral("svg") : QStringLiteral("raster")});
    process.setStandardErrorFile(QProcess::nullDevice());
    process.start();
    if (!process.waitForStarted(int(kTimeout.count()))) {
        return refuse(QCoreApplication::translate("SafeImage", "The image decoder could not start: %1")
                          .arg(process.errorString()));
    }
    ++g_underWay;
    const auto ended = qScopeGuard([] { --g_underWay; });
    process.write(data);
    process.closeWriteChannel();
    QElapsedTimer clock;
    clock.start();
    while (!process.waitForFinished(50)) {
        if (process.state() == QProcess::NotRunning) {
            break;
        }
        if (g_stopping || clock.elapsed() > kTimeout.count()) {
            process.kill();
            process.waitForFinished(1000);
            return refuse(g_stopping ? QCoreApplication::translate("SafeImage", "Not decoded: the app is quitting.")
                                     : QCoreApplication::translate("SafeImage",
                                                                   "Decoding the image took longer than %1 s; it is "
                                                                   "not shown.")
                                           .arg(kTimeout.count() / 1000));
        }
    }
    const QByteArray answer = process.readAllStandardOutput();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        return refuse(QCoreApplication::translate("SafeImage", "Decoding the image needed more memory or processor "
                                                               "time than allowed; it is not shown."));
    }
    const qsizetype end = answer.indexOf('\n');
    const QList<QByteArray> header = answer.left(end).split(' ');
    if (header.value(0) == "NO") {
        return refuse(QString::fromUtf8(answer.mid(3, end - 3)));
    }
    const int width = header.value(1).toInt();
    const int height = header.value(2).toInt();
    if (header.value(0) != "OK" || width <= 0 || height <= 0 || qint64(width) * height > SafeImage::kMaxPixels ||
        answer.size() - end - 1 != qint64(width) * height * 4) {
        return refuse(QCoreApplication::translate("SafeImage", "The image decoder answered something unreadable."));
    }
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < height; ++y) {
        std::memcpy(image.scanLine(y), answer.constData() + end + 1 + qint64(y) * width * 4, std::size_t(width) * 4);
    }
    return image;
}

} // namespace sandbox::gui
