#pragma once

#include <QDialog>

namespace sandbox::gui {

/// One chart shown large, scaled to fit the dialog.
class ArtifactPreviewDialog final : public QDialog
{
    Q_OBJECT

public:
    ArtifactPreviewDialog(const QString &name, const QString &mimeType, const QByteArray &data,
                          QWidget *parent = nullptr);
};

} // namespace sandbox::gui
