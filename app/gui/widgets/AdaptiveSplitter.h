#pragma once

#include <QSplitter>
#include <array>

namespace sandbox::gui {

/// A splitter whose second pane goes beside the first where the page has room and under it where it has not (as mail
/// readers do), and that keeps the split the user chose for each orientation: moving between a 1024 px and a 1920 px
/// window, or turning when a rarer status widens a table's columns, gives back the user's split for the orientation it
/// turns to. The splits are kept as shares of the splitter, so a window opened at another size keeps their proportion.
class AdaptiveSplitter : public QSplitter
{
    Q_OBJECT

public:
    explicit AdaptiveSplitter(QWidget *parent = nullptr);

    /// Turns to `orientation`. Until the user moves the split in that orientation, the panes get `first` and `second`
    /// (in pixels, or any two numbers in the proportion wanted) each time; after, the user's split where it turned or
    /// was first placed, and otherwise the sizes stay and the stretch factors share a resize. Returns whether it
    /// turned.
    bool place(Qt::Orientation orientation, int first, int second);

    /// Whether the user moved the split in the orientation shown (or it was restored for it).
    [[nodiscard]] bool placedByUser() const;

    /// The user's splits, to restore in another window.
    [[nodiscard]] QByteArray saveSplits() const;
    /// Restores what saveSplits() returned; anything else (an older QSplitter state) is ignored: returns false.
    bool restoreSplits(const QByteArray &state);

private:
    static std::size_t slot(Qt::Orientation orientation);

    std::array<double, 2> m_userShare{-1.0, -1.0}; ///< the first pane's share, by orientation; negative: not chosen
    bool m_placed = false;
};

} // namespace sandbox::gui
