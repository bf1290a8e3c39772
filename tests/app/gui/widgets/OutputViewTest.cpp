#include "gui/widgets/OutputView.h"

#include "gui/AppTheme.h"

#include <QApplication>
#include <QTextBlock>
#include <QTextCursor>
#include <QWidget>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

QTextCharFormat formatAt(const OutputView &view, int position)
{
    QTextCursor cursor(view.document());
    cursor.setPosition(position + 1); // the format of the character before the cursor
    return cursor.charFormat();
}

/// The colour the character at `position` of the view is drawn in.
QColor colorAt(const OutputView &view, int position)
{
    return formatAt(view, position).foreground().color();
}

class OutputViewTest : public ::testing::Test
{
protected:
    void TearDown() override { AppTheme::apply(AppTheme::Mode::System); }
};

// A theme switch recolours what is already shown: stderr kept light mode's dark red on a dark base (2.1:1) before.
TEST_F(OutputViewTest, switchingThemeRecoloursOutputAlreadyShown)
{
    AppTheme::apply(AppTheme::Mode::Light);
    QWidget window; // shown in a window, as on a page
    auto &view = *new OutputView(&window);
    window.show();
    view.appendOutput(OutputStream::Stdout, "out\n");
    view.appendOutput(OutputStream::Stderr, "err\n");
    view.appendNote(QStringLiteral("note"));
    const QColor lightError = colorAt(view, 4);
    const QColor lightNote = colorAt(view, 8);

    AppTheme::apply(AppTheme::Mode::Dark);
    QCoreApplication::processEvents(); // the widgets are told of the new palette by a posted event
    OutputView fresh;
    fresh.appendOutput(OutputStream::Stdout, "out\n");
    fresh.appendOutput(OutputStream::Stderr, "err\n");
    fresh.appendNote(QStringLiteral("note"));
    ASSERT_NE(colorAt(fresh, 4), lightError);
    ASSERT_NE(colorAt(fresh, 8), lightNote);

    EXPECT_EQ(colorAt(view, 4), colorAt(fresh, 4));
    EXPECT_EQ(colorAt(view, 8), colorAt(fresh, 8));
    EXPECT_EQ(view.toPlainText(), fresh.toPlainText());
    // stdout keeps the palette's own text colour (no format of its own).
    EXPECT_FALSE(formatAt(view, 0).hasProperty(QTextFormat::ForegroundBrush));
}

} // namespace
