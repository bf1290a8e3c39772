#include "gui/widgets/CommandPalette.h"

#include <QAction>
#include <QApplication>
#include <QFrame>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QRegularExpression>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStyledItemDelegate>
#include <QVBoxLayout>
#include <functional>

namespace sandbox::gui {

namespace {

enum Role
{
    ActionIndexRole = Qt::UserRole + 1, ///< into CommandPalette::m_actions
    ShortcutRole,
};

constexpr int kShownRows = 10;
constexpr int kMaximumWidth = 620;

/// A command's text, and its shortcut on the right, dimmed as in a menu.
class CommandDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        const QString shortcut = index.data(ShortcutRole).toString();
        const int margin = item.fontMetrics.horizontalAdvance(QLatin1Char('M'));
        const int shortcutWidth = shortcut.isEmpty() ? 0 : item.fontMetrics.horizontalAdvance(shortcut) + 2 * margin;
        QStyle *style = item.widget ? item.widget->style() : QApplication::style();
        const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, item.widget);
        item.text = item.fontMetrics.elidedText(item.text, Qt::ElideRight, textRect.width() - shortcutWidth);
        style->drawControl(QStyle::CE_ItemViewItem, &item, painter, item.widget);
        if (shortcut.isEmpty()) {
            return;
        }
        painter->save();
        const bool selected = item.state & QStyle::State_Selected;
        painter->setPen(item.palette.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText));
        painter->drawText(item.rect.adjusted(0, 0, -margin, 0), Qt::AlignRight | Qt::AlignVCenter, shortcut);
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QSize size = QStyledItemDelegate::sizeHint(option, index);
        return {size.width(), size.height() + 8};
    }
};

} // namespace

CommandPalette::CommandPalette(QWidget *parent) : QDialog(parent, Qt::Popup | Qt::FramelessWindowHint)
{
    setObjectName(QStringLiteral("commandPalette"));
    setWindowTitle(tr("Command Palette"));
    m_openAction = new QAction(tr("&Command Palette…"), this);
    m_openAction->setObjectName(QStringLiteral("commandPaletteAction"));
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));

    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("commandSearch"));
    m_search->setPlaceholderText(tr("Type a command…"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);

    m_commands = new QStandardItemModel(this);
    m_matching = new QSortFilterProxyModel(this);
    m_matching->setSourceModel(m_commands);
    m_list = new QListView;
    m_list->setObjectName(QStringLiteral("commandList"));
    m_list->setModel(m_matching);
    m_list->setItemDelegate(new CommandDelegate(m_list));
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setUniformItemSizes(true);
    m_list->setIconSize(QSize(16, 16));
    m_list->setFrameShape(QFrame::NoFrame);
    // The typing stays in the search field; Up and Down reach the list through it (eventFilter).
    m_list->setFocusPolicy(Qt::NoFocus);
    m_noMatch = new QLabel(tr("No command matches."));
    m_noMatch->setObjectName(QStringLiteral("commandNoMatch"));
    m_noMatch->setForegroundRole(QPalette::PlaceholderText);
    m_noMatch->setAlignment(Qt::AlignCenter);
    m_noMatch->hide();

    // Frameless: the frame inside draws its edge, in the style's colours.
    auto *frame = new QFrame;
    frame->setObjectName(QStringLiteral("commandPaletteFrame"));
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setFrameShadow(QFrame::Raised);
    frame->setAutoFillBackground(true);
    auto *inner = new QVBoxLayout(frame);
    inner->setContentsMargins(6, 6, 6, 6);
    inner->addWidget(m_search);
    inner->addWidget(m_list);
    inner->addWidget(m_noMatch);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(frame);

    connect(m_search, &QLineEdit::textChanged, this, &CommandPalette::filter);
    connect(m_list, &QListView::clicked, this, &CommandPalette::triggerCurrent);
}

QString CommandPalette::withoutMnemonic(const QString &text)
{
    // Chinese and Japanese menus put the mnemonic in brackets after the text: "设置(&S)…".
    static const QRegularExpression bracketed(QStringLiteral("\\(&[^&]\\)"));
    QString plain = text;
    plain.remove(bracketed);
    QString result;
    result.reserve(plain.size());
    for (qsizetype at = 0; at < plain.size(); ++at) {
        if (plain.at(at) == QLatin1Char('&')) {
            if (at + 1 < plain.size() && plain.at(at + 1) == QLatin1Char('&')) {
                result += QLatin1Char('&'); // "&&" is a real ampersand
                ++at;
            }
            continue;
        }
        result += plain.at(at);
    }
    return result;
}

void CommandPalette::popup(const QMenuBar *menuBar, const QList<QAction *> &more, const QRect &area)
{
    m_commands->clear();
    m_actions.clear();
    QSet<const QAction *> offered{m_openAction};
    // A command without an icon gets an empty one, so that every command's text starts in the same column.
    QPixmap blank(m_list->iconSize());
    blank.fill(Qt::transparent);
    const QIcon noIcon(blank);
    const auto offer = [&](QAction *action, const QString &menuTitle) {
        if (action->isSeparator() || !action->isEnabled() || !action->isVisible() || action->text().isEmpty() ||
            offered.contains(action)) {
            return;
        }
        offered.insert(action);
        const QVariant own = action->property(kCommandTextProperty);
        QString text = own.isValid() ? own.toString() : withoutMnemonic(action->text());
        if (!menuTitle.isEmpty()) {
            text = tr("%1: %2", "command palette: a submenu's title, the command").arg(menuTitle, text);
        }
        auto *item = new QStandardItem(action->icon().isNull() ? noIcon : action->icon(), text);
        item->setData(int(m_actions.size()), ActionIndexRole);
        item->setData(action->shortcut().toString(QKeySequence::NativeText), ShortcutRole);
        item->setToolTip(action->toolTip() != withoutMnemonic(action->text()) ? action->toolTip() : QString());
        m_commands->appendRow(item);
        m_actions.append(action);
    };
    const std::function<void(const QMenu *, const QString &)> offerMenu = [&](const QMenu *menu, const QString &title) {
        for (QAction *action : menu->actions()) {
            if (const QMenu *submenu = action->menu()) {
                if (action->isEnabled() && action->isVisible()) {
                    offerMenu(submenu, withoutMnemonic(submenu->title()));
                }
            } else {
                offer(action, title);
            }
        }
    };
    if (menuBar) {
        for (const QAction *action : menuBar->actions()) {
            if (const QMenu *menu = action->menu(); menu && action->isEnabled() && action->isVisible()) {
                offerMenu(menu, {});
            }
        }
    }
    for (QAction *action : more) {
        offer(action, {});
    }

    // As many rows as fit kShownRows, the same height however many match while one types.
    const int rowHeight = m_list->sizeHintForRow(0) > 0 ? m_list->sizeHintForRow(0) : fontMetrics().height() + 12;
    m_list->setFixedHeight(rowHeight * qBound(1, int(m_commands->rowCount()), kShownRows) + 2 * m_list->frameWidth());
    m_noMatch->setFixedHeight(m_list->height());
    m_search->clear();
    filter({});

    const int width = qMin(kMaximumWidth, area.width() - 40);
    setFixedWidth(width);
    adjustSize();
    move(area.left() + (area.width() - width) / 2, area.top() + 8);
    show();
    raise();
    activateWindow();
    m_search->setFocus(Qt::PopupFocusReason);
}

QStringList CommandPalette::shownCommands() const
{
    QStringList texts;
    for (int row = 0; row < m_matching->rowCount(); ++row) {
        texts << m_matching->index(row, 0).data().toString();
    }
    return texts;
}

void CommandPalette::filter(const QString &text)
{
    // Every word somewhere in the command, in any order: "page find" finds "Find in Page".
    QString pattern = QStringLiteral("^");
    for (const QString &word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        pattern += QStringLiteral("(?=.*%1)").arg(QRegularExpression::escape(word));
    }
    m_matching->setFilterRegularExpression(QRegularExpression(
        pattern, QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption));
    const bool any = m_matching->rowCount() > 0;
    m_list->setVisible(any);
    m_noMatch->setVisible(!any);
    m_list->setCurrentIndex(m_matching->index(0, 0));
}

void CommandPalette::triggerCurrent()
{
    const QModelIndex current = m_list->currentIndex();
    if (!current.isValid()) {
        return;
    }
    const QPointer<QAction> action = m_actions.value(current.data(ActionIndexRole).toInt());
    // Closed first: the command may open a dialog of its own.
    accept();
    if (action && action->isEnabled()) {
        action->trigger();
    }
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            QCoreApplication::sendEvent(m_list, event);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            triggerCurrent();
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace sandbox::gui
