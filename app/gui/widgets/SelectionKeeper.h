#pragma once

class QAbstractItemModel;
class QAbstractItemView;

namespace sandbox::gui {

/// Gives `view` its `model` with the selection kept with its item while the model refreshes: rows inserted or removed
/// around the item shift the selection with it (persistent indexes), and when the item itself goes, the selection and
/// the current index go too, instead of passing to the row that took its place (what QAbstractItemView does in
/// single-selection mode), next to buttons that would then act on another item. A view that selects several items
/// keeps those that stay: only the selection of the items that went goes (what QAbstractItemView does then).
void setModelKeepingSelection(QAbstractItemView *view, QAbstractItemModel *model);

} // namespace sandbox::gui
