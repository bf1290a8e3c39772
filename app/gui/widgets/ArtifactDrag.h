#pragma once

#include <QByteArray>
#include <QString>

class QMimeData;

namespace sandbox::gui {

struct PreviewItem;

/// An artifact dragged out of the app to another program (a file manager, a mail, an editor). The drag never names
/// the journal's or the sandbox's own file: it carries a copy, written for that drag into a folder only the user can
/// enter (0700, removed when the app ends) as a file only the user can read (0600), named after the artifact but with
/// the extension its bytes call for, as text/uri-list, and its bytes under the MIME type those bytes are. Nothing is
/// opened here: what the other program does with the copy is the user's choice.
class ArtifactDrag final
{
public:
    /// The data of a drag of `artifact` (its bytes, or its file's; its name and MIME type are what the sandbox
    /// claimed); nullptr when the copy cannot be written (no drag starts).
    static QMimeData *mimeData(const PreviewItem &artifact);
    /// The folder the copies are written to (each drag's in a folder of its own inside it).
    static QString folder();
    /// The MIME type a drag offers `data` under: a raster image's type from its bytes; CSV, TSV, JSON and Markdown
    /// as claimed; other text, and HTML and SVG (which would load what they link to wherever they are dropped), as
    /// text/plain. Empty for anything else, which goes as the file only.
    static QString offeredType(const QString &mimeType, const QByteArray &data);

    ArtifactDrag() = delete;
};

} // namespace sandbox::gui
