#include "gui/widgets/SelectionKeeper.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>
#include <memory>

namespace sandbox::gui {

void setModelKeepingSelection(QAbstractItemView *view, QAbstractItemModel *model)
{
    // Connected before the view's own handlers (setModel), which move the selection off rows about to go.
    auto selectedGoes = std::make_shared<bool>(false);
    QObject::connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, view,
                     [view, selectedGoes](const QModelIndex &parent, int first, int last) {
                         if (view->selectionMode() != QAbstractItemView::SingleSelection) {
                             return; // the others stay selected; none passes to another row
                         }
                         const QModelIndexList selected = view->selectionModel()->selectedIndexes();
                         *selectedGoes = std::any_of(selected.cbegin(), selected.cend(), [&](const QModelIndex &index) {
                             return index.parent() == parent && index.row() >= first && index.row() <= last;
                         });
                     });
    QObject::connect(model, &QAbstractItemModel::rowsRemoved, view, [view, selectedGoes] {
        if (*selectedGoes) {
            *selectedGoes = false;
            view->selectionModel()->clear();
        }
    });
    view->setModel(model);
}

} // namespace sandbox::gui
