#pragma once

#include <QDialog>
#include <QList>
#include <QPointer>

class QAction;
class QLabel;
class QLineEdit;
class QListView;
class QMenuBar;
class QSortFilterProxyModel;
class QStandardItemModel;

namespace sandbox::gui {

/// The command palette (Ctrl+K): a search field over every enabled action of the window's menus, filtered as one
/// types (each word, in any order, anywhere in the command), Up and Down to choose, Enter to run it, Escape to close.
/// A popup: a click elsewhere closes it too.
class CommandPalette final : public QDialog
{
    Q_OBJECT

public:
    /// The dynamic property an action may have to be offered under another text than its menu's ("Go to History"
    /// rather than "3 History").
    static constexpr const char *kCommandTextProperty = "commandText";

    explicit CommandPalette(QWidget *parent = nullptr);

    /// "Command Palette…" (Ctrl+K), for the window's menu; the window shows the palette when it is triggered. It is
    /// never offered in the palette itself.
    QAction *openAction() const { return m_openAction; }

    /// Offers the enabled actions of `menuBar`'s menus (a submenu's under its title: "Theme: Dark"), then those of
    /// `more` that are not in a menu, each once; shows the palette centred at the top of `area` (global
    /// coordinates), its search field empty and focused.
    void popup(const QMenuBar *menuBar, const QList<QAction *> &more, const QRect &area);

    /// The command texts offered now (filtered), in their order.
    QStringList shownCommands() const;
    QLineEdit *searchField() const { return m_search; }

    /// `text` of a menu without its mnemonic: "&Settings…" and "设置(&S)…" become "Settings…" and "设置…".
    static QString withoutMnemonic(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void filter(const QString &text);
    void triggerCurrent();

    QAction *m_openAction = nullptr;
    QLineEdit *m_search = nullptr;
    QListView *m_list = nullptr;
    QStandardItemModel *m_commands = nullptr;
    QSortFilterProxyModel *m_matching = nullptr;
    QLabel *m_noMatch = nullptr;
    QList<QPointer<QAction>> m_actions; ///< offered now; the model's rows hold their index here
};

} // namespace sandbox::gui
