#pragma once

#include <QDialog>

namespace sandbox::gui {

/// One chart shown large, scaled to fit the dialog.
class ArtifactPreviewDialog final : public QDialog
{
    Q_OBJECT

public:
    /// Shows an artifact the way every page does: an image in this dialog; anything else (HTML, PDF, a script) only
    /// saved where the user chooses, as a private file. A file a sandbox wrote is never handed to the desktop's
    /// default program, which would run or render it outside the sandbox.
    static void showArtifact(QWidget *parent, const QString &name, const QString &mimeType, const QByteArray &data);

    ArtifactPreviewDialog(const QString &name, const QString &mimeType, const QByteArray &data,
                          QWidget *parent = nullptr);
};

} // namespace sandbox::gui
