#include "artifacts/Artifact.h"

#include "artifacts/ChartData.h"
#include "artifacts/MimeTypes.h"
#include "artifacts/RasterImageSize.h"
#include "artifacts/TableData.h"

namespace sandbox {

Artifact Artifact::fromFile(QString name, QByteArray data)
{
    Artifact artifact;
    artifact.mimeType = mimeTypeForContent(name, data);
    if (const auto size = rasterImageSize(data)) {
        artifact.width = size->width();
        artifact.height = size->height();
    }
    artifact.table = TableData::ofArtifact(artifact.mimeType, data);
    if (artifact.mimeType == QLatin1String("application/json")) {
        artifact.chart = ChartData::ofSpecification(data);
    }
    artifact.name = std::move(name);
    artifact.data = std::move(data);
    return artifact;
}

} // namespace sandbox
