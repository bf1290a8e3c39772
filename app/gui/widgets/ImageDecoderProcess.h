#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <chrono>

namespace sandbox::gui {

/// Decodes an image a sandbox wrote in a helper process: `llm-sandbox --decode-image WIDTH HEIGHT MIME` reads the bytes
/// on its standard input and answers the decoded pixels (SafeImage::decodeHere) on its standard output. The helper
/// limits itself before it reads a byte: its address space (kMemoryBudget beyond what Qt's libraries, plugins and fonts
/// took while it warmed up), its CPU time, and no file it could open, no program it could start, no socket (a seccomp
/// filter: such calls fail with EACCES). The app kills it after kTimeout. A hostile image therefore costs one helper:
/// not the app's memory, not a thread held for good, not a file of the host drawn into a thumbnail.
class ImageDecoderProcess final
{
public:
    /// The wall-clock limit of one decode; a 32-megapixel PNG takes about a second on a slow machine.
    static constexpr std::chrono::milliseconds kTimeout{10000};
    /// The memory a decode may use beyond the helper's own: a decoded image of SafeImage::kMaxPixels (128 MiB), its
    /// scaled copy and the decoder's buffers.
    static constexpr qint64 kMemoryBudget = 640LL * 1024 * 1024;
    /// The CPU seconds a helper may use.
    static constexpr int kCpuSeconds = 8;

    /// The image in `data`, decoded by a helper (SafeImage::decode's contract), or a null image and `*why`.
    static QImage decode(const QByteArray &data, const QString &mimeType, QSize box, QString *why);

    /// Ends every helper now running (within one poll, 50 ms) and makes later decodes fail at once, or (false) lets
    /// decodes run again: the app is quitting, and a decode must not hold it (ThumbnailProvider's workers and the
    /// journal's thread wait for theirs).
    static void setStopping(bool stopping);
    /// How many helpers are decoding now (started, not yet ended).
    static int decodesUnderWay();

    /// The helper's side, from main(): `arguments` are argv after `--decode-image`. With `--probe-open PATH` instead,
    /// it sets up its limits and says whether it could open PATH (the tests' proof, from inside, that it cannot).
    static int runHelper(int argc, char **argv);

    /// The program that decodes: this one when it is llm-sandbox, else $LLM_SANDBOX_BIN (the tests' executables).
    static QString helperProgram();
};

} // namespace sandbox::gui
