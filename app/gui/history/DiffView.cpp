#include "gui/history/DiffView.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/history/ImageComparisonView.h"

#include <QFontDatabase>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

QString exitCodeText(std::optional<int> code)
{
    return code ? QString::number(*code) : QStringLiteral("—");
}

QString sizeText(qint64 bytes)
{
    return dataSizeText(bytes);
}

QString artifactText(const RunDiff::ArtifactChange &change, DiffView::Sides sides)
{
    using Kind = RunDiff::ArtifactChange::Kind;
    const QString name = change.name.toHtmlEscaped();
    const bool replay = sides == DiffView::Sides::Replay;
    switch (change.kind) {
    case Kind::Same:
        return {};
    case Kind::Added:
        return (replay ? DiffView::tr("<b>%1</b> only in the replay (%2, %3)")
                       : DiffView::tr("<b>%1</b> only in run B (%2, %3)"))
            .arg(name, change.replay.mimeType, sizeText(change.replay.size));
    case Kind::Removed:
        return (replay ? DiffView::tr("<b>%1</b> only in the original (%2, %3)")
                       : DiffView::tr("<b>%1</b> only in run A (%2, %3)"))
            .arg(name, change.original.mimeType, sizeText(change.original.size));
    case Kind::Changed:
        break;
    }
    QStringList what;
    if (change.mimeTypeChanged) {
        what << DiffView::tr("type %1 → %2").arg(change.original.mimeType, change.replay.mimeType);
    }
    if (change.sizeChanged) {
        what << DiffView::tr("size %1 → %2").arg(sizeText(change.original.size), sizeText(change.replay.size));
    }
    if (change.dimensionsChanged) {
        what << DiffView::tr("%1 × %2 → %3 × %4 pixels")
                    .arg(change.original.width)
                    .arg(change.original.height)
                    .arg(change.replay.width)
                    .arg(change.replay.height);
    }
    if (change.pixelsEqual) {
        what << (*change.pixelsEqual ? DiffView::tr("pixels equal") : DiffView::tr("pixels differ"));
    } else if (change.bytesEqual == std::optional<bool>(false)) {
        what << DiffView::tr("contents differ");
    }
    return DiffView::tr("<b>%1</b> changed: %2").arg(name, what.join(QStringLiteral(", ")));
}

QString linesDiffer(int count)
{
    return count == 1 ? DiffView::tr("1 line differs") : DiffView::tr("%1 lines differ").arg(count);
}

} // namespace

DiffView::DiffView(QWidget *parent) : QWidget(parent)
{
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("diffBanner"));
    m_banner->setAlignment(Qt::AlignCenter);
    m_banner->setMargin(10);
    QFont bannerFont = m_banner->font();
    bannerFont.setPointSizeF(bannerFont.pointSizeF() * 1.6);
    bannerFont.setBold(true);
    m_banner->setFont(bannerFont);
    m_banner->setAutoFillBackground(true);

    m_runs = new QLabel(this);
    m_runs->setObjectName(QStringLiteral("diffRuns"));
    m_runs->setWordWrap(true);
    m_runs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_lines = new QPlainTextEdit(this);
    m_lines->setObjectName(QStringLiteral("diffLines"));
    m_lines->setReadOnly(true);
    m_lines->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_lines->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Scrolled with the rest: tall enough for a screenful of changes, never squeezed to a few lines by the pictures.
    m_lines->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_lines->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);

    m_images = new QWidget(this);
    m_images->setObjectName(QStringLiteral("diffImages"));
    m_imagesLayout = new QVBoxLayout(m_images);
    m_imagesLayout->setContentsMargins(0, 0, 0, 0);

    auto *content = new QWidget;
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(m_banner);
    contentLayout->addWidget(m_runs);
    contentLayout->addWidget(m_summary);
    contentLayout->addWidget(m_images);
    contentLayout->addWidget(m_lines);
    contentLayout->addStretch(1); // what the parts do not need stays below them, not between them
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("diffScroll"));
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

QStringList DiffView::inputSummary(const RunDiff &diff)
{
    const auto change = [](const QString &before, const QString &after) {
        return QStringLiteral("<b>%1 → %2</b>").arg(before.toHtmlEscaped(), after.toHtmlEscaped());
    };
    const auto orNone = [](const QString &text) {
        return text.isEmpty() ? tr("none") : text;
    };
    QStringList summary;
    if (diff.languageDiffers()) {
        summary << tr("Language: %1")
                       .arg(change(languageText(diff.originalLanguage()), languageText(diff.replayLanguage())));
    }
    if (diff.codeDiffers()) {
        summary << tr("Code: %1").arg(linesDiffer(RunDiff::changedLineCount(diff.codeDiff())));
    }
    if (diff.librariesDiffer()) {
        summary << tr("Libraries: %1")
                       .arg(change(orNone(diff.originalLibraries().join(QStringLiteral(", "))),
                                   orNone(diff.replayLibraries().join(QStringLiteral(", ")))));
    }
    if (diff.networkDiffers()) {
        // What each run was allowed to reach: part of what went in, as its libraries are.
        summary << tr("Network: %1")
                       .arg(change(orNone(diff.originalNetwork().join(QStringLiteral(", "))),
                                   orNone(diff.replayNetwork().join(QStringLiteral(", ")))));
    }
    if (diff.backendDiffers()) {
        summary << tr("Backend: %1")
                       .arg(change(orNone(backendText(diff.originalBackend())),
                                   orNone(backendText(diff.replayBackend()))));
    }
    if (diff.imageDiffers()) {
        summary << tr("Image: %1").arg(change(orNone(diff.originalImage()), orNone(diff.replayImage())));
    }
    return summary;
}

void DiffView::setDiff(const RunDiff &diff, const JournalRun &original, const JournalRun &replay, Sides sides,
                       const QList<PixelComparison> &images)
{
    const bool identical = diff.identical();
    const bool isReplay = sides == Sides::Replay;
    m_banner->setText(identical ? tr("No difference") : isReplay ? tr("The replay differs") : tr("The runs differ"));
    const StateColors colors = StateColors::of(this->palette());
    QPalette palette = m_banner->palette();
    palette.setColor(QPalette::Window, identical ? colors.added : colors.removed);
    palette.setColor(QPalette::WindowText, identical ? colors.succeeded : colors.timedOut);
    m_banner->setPalette(palette);

    const QString firstBackend = original.backend.isEmpty() ? tr("unknown backend") : backendText(original.backend);
    const QString secondBackend = replay.backend.isEmpty() ? tr("unknown backend") : backendText(replay.backend);
    m_runs->setText(isReplay ? tr("Original: run %1 on %2 · Replay: run %3 on %4")
                                   .arg(original.id, firstBackend, replay.id, secondBackend)
                             : tr("Run A: %1 on %2, %3\nRun B: %4 on %5, %6")
                                   .arg(original.id, firstBackend,
                                        QLocale().toString(original.startedAt.toLocalTime(), QLocale::ShortFormat),
                                        replay.id, secondBackend,
                                        QLocale().toString(replay.startedAt.toLocalTime(), QLocale::ShortFormat)));

    // What went in first, then what came out.
    QStringList summary = inputSummary(diff);
    if (diff.exitCodeDiffers()) {
        summary << tr("Exit code: <b>%1 → %2</b>")
                       .arg(exitCodeText(diff.originalExitCode()), exitCodeText(diff.replayExitCode()));
    }
    if (diff.stopReasonDiffers()) {
        summary << tr("Stop reason: <b>%1 → %2</b>")
                       .arg(stopReasonText(diff.originalStopReason()).toHtmlEscaped(),
                            stopReasonText(diff.replayStopReason()).toHtmlEscaped());
    }
    if (diff.stdoutDiffers()) {
        summary << tr("Standard output: %1").arg(linesDiffer(RunDiff::changedLineCount(diff.stdoutDiff())));
    }
    if (diff.stderrDiffers()) {
        summary << tr("Standard error: %1").arg(linesDiffer(RunDiff::changedLineCount(diff.stderrDiff())));
    }
    for (const RunDiff::ArtifactChange &change : diff.artifacts()) {
        const QString text = artifactText(change, sides);
        if (!text.isEmpty()) {
            summary << tr("Artifact %1").arg(text);
        }
    }
    if (identical) {
        summary << tr("Same language (%1), code and libraries; same exit code (%2), stop reason (%3), standard output "
                      "and error, and artifacts (%4).")
                       .arg(languageText(diff.originalLanguage()).toHtmlEscaped(),
                            exitCodeText(diff.originalExitCode()),
                            stopReasonText(diff.originalStopReason()).toHtmlEscaped())
                       .arg(diff.artifacts().size());
    }
    m_summary->setText(QStringLiteral("<ul style=\"margin-left:-20px\"><li>%1</li></ul>")
                           .arg(summary.join(QStringLiteral("</li><li>"))));

    while (QLayoutItem *item = m_imagesLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const QString first = isReplay ? tr("Original") : tr("Run A");
    const QString second = isReplay ? tr("Replay") : tr("Run B");
    for (const PixelComparison &image : images) {
        m_imagesLayout->addWidget(new ImageComparisonView(image, first, second, m_images));
    }
    m_images->setVisible(!images.isEmpty());

    m_lines->clear();
    // The runs' ids for two runs: "original" and "replay" need no introduction.
    const QString firstSide = isReplay ? QStringLiteral("original") : original.id;
    const QString secondSide = isReplay ? QStringLiteral("replay") : replay.id;
    if (diff.codeDiffers()) {
        appendLineDiff(tr("code"), diff.codeDiff(), firstSide, secondSide);
    }
    if (diff.stdoutDiffers()) {
        appendLineDiff(tr("standard output"), diff.stdoutDiff(), firstSide, secondSide);
    }
    if (diff.stderrDiffers()) {
        appendLineDiff(tr("standard error"), diff.stderrDiff(), firstSide, secondSide);
    }
    const bool hasLines = diff.codeDiffers() || diff.stdoutDiffers() || diff.stderrDiffers();
    m_lines->setVisible(hasLines);
    if (hasLines) {
        const int rows = std::min(m_lines->document()->blockCount(), 60);
        const QFontMetrics metrics(m_lines->font());
        m_lines->setFixedHeight(rows * metrics.lineSpacing() + 2 * m_lines->frameWidth() +
                                int(2 * m_lines->document()->documentMargin()) + metrics.descent() +
                                m_lines->horizontalScrollBar()->sizeHint().height());
        m_lines->setVerticalScrollBarPolicy(rows < m_lines->document()->blockCount() ? Qt::ScrollBarAsNeeded
                                                                                     : Qt::ScrollBarAlwaysOff);
    }
    m_lines->moveCursor(QTextCursor::Start);
}

void DiffView::appendLineDiff(const QString &title, const QList<RunDiff::Line> &lines, const QString &first,
                              const QString &second)
{
    using Kind = RunDiff::Line::Kind;
    const StateColors colors = StateColors::of(palette());
    QTextCharFormat header;
    header.setFontWeight(QFont::Bold);
    QTextCharFormat hunk;
    hunk.setForeground(this->palette().color(QPalette::PlaceholderText));
    QTextCharFormat removed;
    removed.setBackground(colors.removed);
    removed.setForeground(colors.failed);
    QTextCharFormat added;
    added.setBackground(colors.added);
    added.setForeground(colors.succeeded);
    QTextCharFormat same;
    // Whole lines coloured, as diff tools show them, not only the characters.
    QTextBlockFormat plainBlock;
    QTextBlockFormat removedBlock;
    removedBlock.setBackground(removed.background());
    QTextBlockFormat addedBlock;
    addedBlock.setBackground(added.background());

    QTextCursor cursor(m_lines->document());
    cursor.movePosition(QTextCursor::End);
    auto append = [&](const QString &text, const QTextCharFormat &format) {
        const QTextBlockFormat &block = &format == &removed ? removedBlock
                                        : &format == &added ? addedBlock
                                                            : plainBlock;
        if (cursor.document()->isEmpty()) {
            cursor.setBlockFormat(block);
        } else {
            cursor.insertBlock(block);
        }
        cursor.insertText(text, format);
    };
    append(QStringLiteral("--- %1 (%2)").arg(title, first), header);
    append(QStringLiteral("+++ %1 (%2)").arg(title, second), header);

    // Only the changes and a few lines around them, as `diff -u` shows them.
    QList<bool> shown(lines.size(), false);
    for (int i = 0; i < lines.size(); ++i) {
        if (lines.at(i).kind != Kind::Same) {
            for (int j = std::max(0, i - ContextLines); j <= std::min(int(lines.size()) - 1, i + ContextLines); ++j) {
                shown[j] = true;
            }
        }
    }
    bool inHunk = false;
    for (int i = 0; i < lines.size(); ++i) {
        if (!shown.at(i)) {
            inHunk = false;
            continue;
        }
        const RunDiff::Line &line = lines.at(i);
        if (!inHunk) {
            int originalLine = 1;
            int replayLine = 1;
            for (int j = i; j < lines.size(); ++j) {
                if (lines.at(j).originalLine > 0) {
                    originalLine = lines.at(j).originalLine;
                    break;
                }
            }
            for (int j = i; j < lines.size(); ++j) {
                if (lines.at(j).replayLine > 0) {
                    replayLine = lines.at(j).replayLine;
                    break;
                }
            }
            append(QStringLiteral("@@ line %1 → line %2 @@").arg(originalLine).arg(replayLine), hunk);
            inHunk = true;
        }
        switch (line.kind) {
        case Kind::Same:
            append(QStringLiteral("  ") + line.text, same);
            break;
        case Kind::Removed:
            append(QStringLiteral("- ") + line.text, removed);
            break;
        case Kind::Added:
            append(QStringLiteral("+ ") + line.text, added);
            break;
        }
    }
    append(QString(), same);
}

} // namespace sandbox::gui
