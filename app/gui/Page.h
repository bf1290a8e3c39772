#pragma once

#include <QIcon>
#include <QPointer>
#include <QSettings>
#include <QString>
#include <QVariant>
#include <QWidget>

namespace sandbox::gui {

/// One setting of a page's state, with its type and default: `key.read(settings)`, `key.write(settings, value)`.
template <typename T>
struct SettingsKey
{
    const char *name;
    T defaultValue = T();

    T read(const QSettings &settings) const
    {
        const QVariant value = settings.value(QLatin1String(name));
        return value.isValid() && value.canConvert<T>() ? value.value<T>() : defaultValue;
    }
    void write(QSettings &settings, const T &value) const { settings.setValue(QLatin1String(name), value); }
};

/// A page of the main window. MainWindow makes its navigation entry, its View menu entry and its Ctrl+N shortcut
/// from title() and icon(), gives it a settings group of its own (`gui/pages/OBJECT-NAME`) to save and restore its
/// state in (splitters, filters), and tells it when it is shown.
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

protected:
    void setFindField(QWidget *field) { m_findField = field; }

private:
    QPointer<QWidget> m_findField;
};

} // namespace sandbox::gui
