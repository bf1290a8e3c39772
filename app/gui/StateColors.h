#pragma once

#include "journal/JournalRun.h"

#include <QColor>
#include <QPalette>

namespace sandbox::gui {

/// The colours of run states and of a diff's sides, one set for a light and one for a dark palette: every page takes
/// them from here (StateColors::of(palette())), so they follow the theme.
struct StateColors
{
    QColor succeeded;
    QColor failed; ///< exited with an error
    QColor timedOut;
    QColor stopped; ///< cancelled or stopped by a limit
    QColor running;
    QColor added;       ///< a diff's new lines (background)
    QColor removed;     ///< a diff's old lines (background)
    QColor couldNotRun; ///< the engine or the sandbox failed: the program did not run
    QColor interrupted; ///< the process recording it ended first

    static bool isDark(const QPalette &palette) { return palette.color(QPalette::Window).lightnessF() < 0.5; }
    static StateColors of(const QPalette &palette)
    {
        if (isDark(palette)) {
            return {QColor(0x4c, 0xc3, 0x6a), QColor(0xf0, 0x5d, 0x5d), QColor(0xf0, 0xa8, 0x3a),
                    QColor(0xa0, 0x8c, 0xe8), QColor(0x5a, 0xa9, 0xf0), QColor(0x1f, 0x4a, 0x2c),
                    QColor(0x5a, 0x22, 0x26), QColor(0xe8, 0x6f, 0xb5), QColor(0x8b, 0x94, 0x9e)};
        }
        return {QColor(0x2e, 0x9d, 0x4a), QColor(0xd0, 0x31, 0x2d), QColor(0xd9, 0x82, 0x0b),
                QColor(0x7a, 0x5c, 0xc9), QColor(0x1f, 0x6f, 0xc5), QColor(0xdd, 0xf4, 0xe1),
                QColor(0xfb, 0xe0, 0xe0), QColor(0xb0, 0x30, 0x7a), QColor(0x80, 0x86, 0x8e)};
    }

    /// The one colour of `outcome` on every page, beside runStatusText().
    QColor forOutcome(RunOutcome outcome) const
    {
        switch (outcome) {
        case RunOutcome::Succeeded:
            return succeeded;
        case RunOutcome::ExitedWithError:
            return failed;
        case RunOutcome::TimedOut:
            return timedOut;
        case RunOutcome::Stopped:
            return stopped;
        case RunOutcome::Failed:
            return couldNotRun;
        case RunOutcome::Interrupted:
            return interrupted;
        case RunOutcome::Running:
            return running;
        }
        return {};
    }
};

} // namespace sandbox::gui
