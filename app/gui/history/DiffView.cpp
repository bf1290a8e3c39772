#include "gui/history/DiffView.h"

#include "gui/RunText.h"
#include "gui/StateColors.h"

#include <QFontDatabase>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
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
    return QLocale().formattedDataSize(bytes);
}

QString artifactText(const RunDiff::ArtifactChange &change)
{
    using Kind = RunDiff::ArtifactChange::Kind;
    const QString name = change.name.toHtmlEscaped();
    switch (change.kind) {
    case Kind::Same:
        return {};
    case Kind::Added:
        return DiffView::tr("<b>%1</b> only in the replay (%2, %3)")
            .arg(name, change.replay.mimeType, sizeText(change.replay.size));
    case Kind::Removed:
        return DiffView::tr("<b>%1</b> only in the original (%2, %3)")
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

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(m_runs);
    layout->addWidget(m_summary);
    layout->addWidget(m_lines, 1);
}

void DiffView::setDiff(const RunDiff &diff, const JournalRun &original, const JournalRun &replay)
{
    const bool identical = diff.identical();
    m_banner->setText(identical ? tr("No difference") : tr("The replay differs"));
    const StateColors colors = StateColors::of(this->palette());
    QPalette palette = m_banner->palette();
    palette.setColor(QPalette::Window, identical ? colors.added : colors.removed);
    palette.setColor(QPalette::WindowText, identical ? colors.succeeded : colors.timedOut);
    m_banner->setPalette(palette);

    m_runs->setText(
        tr("Original: run %1 on %2 · Replay: run %3 on %4")
            .arg(original.id, original.backend.isEmpty() ? tr("unknown backend") : backendText(original.backend),
                 replay.id, replay.backend.isEmpty() ? tr("unknown backend") : backendText(replay.backend)));

    QStringList summary;
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
        const QString text = artifactText(change);
        if (!text.isEmpty()) {
            summary << tr("Artifact %1").arg(text);
        }
    }
    if (identical) {
        summary << tr("Same exit code (%1), stop reason (%2), standard output and error, and artifacts (%3).")
                       .arg(exitCodeText(diff.originalExitCode()),
                            stopReasonText(diff.originalStopReason()).toHtmlEscaped())
                       .arg(diff.artifacts().size());
    }
    m_summary->setText(QStringLiteral("<ul style=\"margin-left:-20px\"><li>%1</li></ul>")
                           .arg(summary.join(QStringLiteral("</li><li>"))));

    m_lines->clear();
    if (diff.stdoutDiffers()) {
        appendLineDiff(tr("standard output"), diff.stdoutDiff());
    }
    if (diff.stderrDiffers()) {
        appendLineDiff(tr("standard error"), diff.stderrDiff());
    }
    m_lines->setVisible(diff.stdoutDiffers() || diff.stderrDiffers());
    m_lines->moveCursor(QTextCursor::Start);
}

void DiffView::appendLineDiff(const QString &title, const QList<RunDiff::Line> &lines)
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
    append(QStringLiteral("--- %1 (original)").arg(title), header);
    append(QStringLiteral("+++ %1 (replay)").arg(title), header);

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
