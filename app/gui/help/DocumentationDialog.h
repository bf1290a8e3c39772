#pragma once

#include <QDialog>
#include <QUrl>

class QTextBrowser;
class QToolButton;

namespace sandbox::gui {

/// Help → Documentation (F1): the user guide (docs/user) shown inside the app, opened at the section about the page
/// on screen. Only the guide that came with the app is read (as the package installs it, else the sources' for a
/// build run in place): its links go from page to page of it, web links open in the browser, and nothing else is
/// opened or handed to the desktop.
class DocumentationDialog final : public QDialog
{
    Q_OBJECT

public:
    /// The folder of the guide: the installed one, else the sources'; empty when neither is there.
    static QString guideFolder();
    /// GitHub's anchor for a heading ("Live log" -> "live-log"): what the guide's links name sections by.
    static QString slug(const QString &heading);

    /// Shows `page` of the guide in `folder` (a file name, "desktop-app.md"), at the heading `section` (its text or
    /// slug; empty: the top). In Chinese, the page of the zh_CN subfolder where there is one.
    DocumentationDialog(const QString &folder, const QString &page, const QString &section = {},
                        QWidget *parent = nullptr);

    /// The page on show.
    QUrl source() const;

private:
    void open(const QUrl &url);
    void scrollToSection(const QString &section);
    void updateButtons();

    const QString m_folder;
    QTextBrowser *m_browser = nullptr;
    QToolButton *m_back = nullptr;
    QToolButton *m_forward = nullptr;
};

} // namespace sandbox::gui
