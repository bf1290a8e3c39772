#pragma once

#include "folders/SharedFolder.h"

#include <QList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableView;

namespace sandbox::gui {

class SharedFolderModel;

/// Settings → Folders: the folders of the user's that the app's sandboxes read at /data/NAME. Add… asks for a folder
/// (named after it; the name can be edited in place), Remove stops sharing it, and "Results may be saved here" lets a
/// run's results be written into it. A folder that cannot be shared is said in one sentence. Nothing is shared unless
/// added here; the settings dialog saves the list on OK.
class FoldersPage final : public QWidget
{
    Q_OBJECT

public:
    explicit FoldersPage(QWidget *parent = nullptr);

    void setFolders(const QList<SharedFolder> &folders);
    QList<SharedFolder> folders() const;

    /// Shares the folder at `path` (Add… calls it with the folder chosen) and starts editing its name; false, with the
    /// reason shown, when it cannot be shared.
    bool addFolder(const QString &path);
    /// Why the last folder or name was refused, in one sentence; empty when nothing was.
    QString problem() const;

    /// Why the folder at `path` cannot be shared with sandboxes, in one sentence of the user's language; empty when it
    /// can. `shared`: the folder as it would be shared (its canonical path, a free default name).
    static QString refusal(const QString &path, const QList<SharedFolder> &others, SharedFolder *shared);

private:
    void chooseFolder();
    void removeCurrent();
    void showProblem(const QString &problem);
    void updateButtons();

    SharedFolderModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QCheckBox *m_writable = nullptr;
    QLabel *m_problem = nullptr;
};

} // namespace sandbox::gui
