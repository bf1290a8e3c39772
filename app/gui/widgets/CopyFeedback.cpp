#include "gui/widgets/CopyFeedback.h"

#include <QAbstractButton>
#include <QClipboard>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QPointer>
#include <QTimer>

namespace sandbox::gui {

namespace {
constexpr int kShownMs = 1500;
const char *const kOwnText = "llmSandboxOwnText";
} // namespace

void showCopied(QAbstractButton *button)
{
    if (button->property(kOwnText).isNull()) {
        button->setProperty(kOwnText, button->text());
    }
    const QString own = button->property(kOwnText).toString();
    button->setMinimumWidth(button->sizeHint().width());
    button->setText(QCoreApplication::translate("sandbox::gui::CopyFeedback", "Copied ✓"));
    // Each copy shows it for the whole moment again: only the last timer gives the text back.
    const int generation = button->property("llmSandboxCopyGeneration").toInt() + 1;
    button->setProperty("llmSandboxCopyGeneration", generation);
    QTimer::singleShot(kShownMs, button, [button = QPointer<QAbstractButton>(button), own, generation] {
        if (button && button->property("llmSandboxCopyGeneration").toInt() == generation) {
            button->setText(own);
        }
    });
}

void copySecret(const QString &text, std::chrono::milliseconds clearAfter)
{
    QGuiApplication::clipboard()->setText(text);
    QTimer::singleShot(clearAfter, QGuiApplication::clipboard(), [text] {
        if (QClipboard *clipboard = QGuiApplication::clipboard(); clipboard->text() == text) {
            clipboard->clear();
        }
    });
}

} // namespace sandbox::gui
