#pragma once

#include "gui/GuiSettings.h"
#include "gui/Intent.h"
#include "journal/JournalRun.h"

#include <QIcon>
#include <QPointer>
#include <QString>
#include <QWidget>

namespace sandbox::gui {

/// A page of the main window. MainWindow makes its navigation entry, its View menu entry and its Ctrl+N shortcut
/// from title() and icon(), gives it a settings group of its own (`gui/pages/OBJECT-NAME`) to save and restore its
/// state in (splitters, filters), and tells it when it is shown. Pages ask for one another by intent (navigate):
/// the window offers the intent to each page (open) and shows the one that takes it.
class Page : public QWidget
{
    Q_OBJECT

public:
    using QWidget::QWidget;

    virtual QString title() const = 0;
    virtual QIcon icon() const = 0;
    /// The page's state, into its own settings group (already entered).
    virtual void saveState(QSettings &settings) const { (void)settings; }
    virtual void restoreState(const QSettings &settings) { (void)settings; }
    /// It became the window's current page.
    virtual void shown() {}
    /// The field Find (Ctrl+F) goes to: the page's search or filter; null when it has none.
    QWidget *findField() const { return m_findField; }
    /// Shows what `intent` asks for when it is this page's to show (a run, code, a backend); false when not.
    virtual bool open(const Intent &intent)
    {
        (void)intent;
        return false;
    }

signals:
    /// Asks the window to go where `intent` says: to the page that opens it.
    void navigate(const sandbox::gui::Intent &intent);
    /// Asks the window to stop `runs`, runs in progress of any process (the window asks the person first when one
    /// is not the Console's: an assistant or another program waits for it).
    void stopRunsRequested(const QList<sandbox::JournalRun> &runs);

protected:
    void setFindField(QWidget *field) { m_findField = field; }

private:
    QPointer<QWidget> m_findField;
};

} // namespace sandbox::gui
