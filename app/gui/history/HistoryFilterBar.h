#pragma once

#include "journal/JournalRun.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QDateEdit;
class QLineEdit;

namespace sandbox::gui {

/// The History page's filters: language, status, source, date range and a text search in code and output.
/// Every change emits the whole RunFilter; typing is debounced so a word is one query, not one per key.
class HistoryFilterBar final : public QWidget
{
    Q_OBJECT

public:
    explicit HistoryFilterBar(QWidget *parent = nullptr);

    /// The filter the controls describe now.
    RunFilter filter() const;
    /// The field of the text filter (code and output).
    QLineEdit *textField() const { return m_text; }
    /// How long typing must pause before the text filter applies.
    static constexpr int TextDebounceMs = 250;

signals:
    void filterChanged(const sandbox::RunFilter &filter);

private:
    void emitFilter();
    void updateDateRangeVisibility();

    QComboBox *m_language = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_source = nullptr;
    QComboBox *m_period = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QLineEdit *m_text = nullptr;
    QTimer m_textDebounce;
};

} // namespace sandbox::gui
