#pragma once

#include "images/ImageBuilder.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QList>
#include <QMutex>
#include <QString>
#include <QTextStream>

namespace sandbox::cli {

/// Shows an `images build` as it happens: on a terminal one line per image with a progress bar, redrawn in
/// place; otherwise (a log, CI) plain lines prefixed with the image's name. Events may come from several
/// threads (languages build in parallel).
class BuildProgressView final
{
    Q_DECLARE_TR_FUNCTIONS(BuildProgressView)

public:
    BuildProgressView(QTextStream &stream, bool terminal, int width);

    void handle(const ImageBuildEvent &event);
    /// Draws the final state once more (a terminal view throttles its redraws).
    void finish();

    /// How far a build is, from its output: Dockerfile steps ("Step 2/4", Podman's "STEP 2/4:") and, within a
    /// step, apt's packages unpacked and set up. 0..1; a negative value while nothing tells.
    struct Estimate
    {
        int step = 0;
        int steps = 0;
        int packages = 0; ///< apt's "N newly installed" of the current step
        int packageLines = 0;
        double fraction() const;
        void update(const QString &line);
    };

private:
    struct Row
    {
        QString name;
        QString state; ///< waiting, building, built in 12.3 s, up to date, failed (translated)
        QString lastLine;
        Estimate estimate;
        bool active = false;
        bool complete = false; ///< built or up to date: a full bar
    };

    Row &rowFor(const ImageBuildEvent &event);
    void redraw(bool force);
    QString render(const Row &row) const;

    QTextStream &m_stream;
    const bool m_terminal;
    const int m_width;
    QMutex m_mutex;
    QList<Row> m_rows;
    int m_drawnLines = 0;
    QElapsedTimer m_sinceDraw;
};

} // namespace sandbox::cli
