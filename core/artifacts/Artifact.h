#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sandbox {

/// A file the program produced in its output directory (a chart, an HTML page, ...).
struct Artifact
{
    QString name;     ///< file name relative to the output directory
    QString mimeType; ///< image/png, image/svg+xml, image/jpeg, image/gif, application/pdf, text/html, ...
    QByteArray data;
    QString path;  ///< where it was written on the host, when it was (run --artifacts-dir)
    int width = 0; ///< pixels, for raster images (PNG, GIF, JPEG, WebP); 0 otherwise
    int height = 0;
    /// What the chart shows, when it is one a capture hook read or a plotly or Vega-Lite JSON file (ChartData); empty
    /// otherwise.
    QJsonObject chart;
    /// What a table (a CSV or tab-separated file) holds at a glance (TableData); empty for other files.
    QJsonObject table;

    qint64 size() const { return data.size(); }
    bool hasPixelSize() const { return width > 0 && height > 0; }

    /// The artifact for a file named `name` with these bytes: MIME type, for raster images pixel size, for tables
    /// their outline, for a chart's JSON its data.
    static Artifact fromFile(QString name, QByteArray data);
};

} // namespace sandbox
