// The preview's polish (issue 37, item 16): a CSV as a table, Fit and 100% only for images, Copy says it copied.
#include "gui/widgets/ArtifactPreviewDialog.h"

#include "TestImages.h"
#include "artifacts/ChartData.h"
#include "gui/widgets/CopyFeedback.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QFileDialog>
#include <QHeaderView>
#include <QImage>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>
#include <gtest/gtest.h>

using namespace sandbox::gui;

namespace {

QByteArray png()
{
    return guitest::png(Qt::darkGreen, {40, 30});
}

template <typename T>
T *child(QWidget &parent, const char *name)
{
    T *widget = parent.findChild<T *>(QLatin1String(name));
    EXPECT_NE(widget, nullptr) << name;
    return widget;
}

} // namespace

TEST(ArtifactPreviewDialogTest, aCsvIsATableAndZoomIsOnlyForImages)
{
    const QByteArray csv = "city,people\n\"Paris, France\",2100000\n\"He said \"\"hi\"\"\",3\n";
    ArtifactPreviewDialog dialog({PreviewItem{QStringLiteral("data.csv"), QStringLiteral("text/csv"), csv, {}, {}},
                                  PreviewItem{QStringLiteral("plot.png"), QStringLiteral("image/png"), png(), {}, {}}},
                                 0);
    auto *table = child<QTableView>(dialog, "previewTable");
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->isVisibleTo(&dialog));
    const QAbstractItemModel *model = table->model();
    ASSERT_EQ(model->columnCount(), 2);
    ASSERT_EQ(model->rowCount(), 2);
    EXPECT_EQ(model->headerData(0, Qt::Horizontal).toString(), QStringLiteral("city"));
    EXPECT_EQ(model->index(0, 0).data().toString(), QStringLiteral("Paris, France"));
    EXPECT_EQ(model->index(0, 1).data().toString(), QStringLiteral("2100000"));
    EXPECT_EQ(model->index(1, 0).data().toString(), QStringLiteral("He said \"hi\""));
    EXPECT_FALSE(child<QPushButton>(dialog, "fitImage")->isEnabled());
    EXPECT_FALSE(child<QPushButton>(dialog, "actualSize")->isEnabled());

    dialog.setCurrent(1);
    dialog.waitForDecoded();
    EXPECT_TRUE(child<QPushButton>(dialog, "fitImage")->isEnabled());
    EXPECT_TRUE(child<QPushButton>(dialog, "actualSize")->isEnabled());

    // Copy says so for a moment, then is Copy again.
    auto *copy = child<QPushButton>(dialog, "copyImage");
    const QString own = copy->text();
    QTest::mouseClick(copy, Qt::LeftButton);
    EXPECT_TRUE(copy->text().startsWith(QLatin1String("Copied"))) << qPrintable(copy->text());
    EXPECT_TRUE(QTest::qWaitFor([&] { return copy->text() == own; }, 5000));
}

TEST(ArtifactPreviewDialogTest, copiedTwiceShowsItForTheWholeMomentAgain)
{
    QPushButton button(QStringLiteral("Copy"));
    showCopied(&button);
    QTest::qWait(1000);
    showCopied(&button);
    QTest::qWait(800); // the first one's moment is over, the second's is not
    EXPECT_TRUE(button.text().startsWith(QLatin1String("Copied")));
    EXPECT_TRUE(QTest::qWaitFor([&] { return button.text() == QLatin1String("Copy"); }, 5000));
}

TEST(ArtifactPreviewDialogTest, aFailedSaveIsWarnedOfUnderATitleOfItsOwn)
{
    // Issue 37, item 16: the warning was titled like the Save dialog it followed.
    QTemporaryDir folder;
    QWidget parent;
    QString saveTitle;
    QString warningTitle;
    QString warningText;
    QTimer answering; // the Save dialog and the warning are modal: answered as a user would
    answering.setInterval(20);
    QObject::connect(&answering, &QTimer::timeout, [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *files = qobject_cast<QFileDialog *>(modal); files && saveTitle.isEmpty()) {
            saveTitle = files->windowTitle();
            files->selectFile(folder.filePath(QStringLiteral("saved.png")));
            static_cast<QDialog *>(files)->accept(); // QFileDialog::accept(), which checks the name first
        } else if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            warningTitle = box->windowTitle();
            warningText = box->text();
            box->done(QMessageBox::Ok);
        }
    });
    answering.start();
    // Its file is gone (the journal's copy was removed): it cannot be saved.
    ArtifactPreviewDialog::saveArtifact(&parent, PreviewItem{QStringLiteral("chart.png"),
                                                             QStringLiteral("image/png"),
                                                             {},
                                                             folder.filePath(QStringLiteral("gone.png")),
                                                             {}});
    answering.stop();
    ASSERT_FALSE(saveTitle.isEmpty()) << "no Save dialog";
    ASSERT_FALSE(warningTitle.isEmpty()) << "no warning";
    EXPECT_NE(warningTitle, saveTitle);
    EXPECT_FALSE(warningTitle.startsWith(saveTitle.section(QLatin1Char(' '), 0, 0)))
        << "a title that says what happened, not the Save dialog's: " << qPrintable(warningTitle);
    // Which path it names depends on whether the dialog took the selected name before it was accepted (in a long
    // run of tests it keeps the folder it was last in): that it names the file it could not save is what matters.
    EXPECT_TRUE(warningText.contains(QStringLiteral(".png"))) << qPrintable(warningText);
    EXPECT_FALSE(QFile::exists(folder.filePath(QStringLiteral("saved.png"))));
}

TEST(ArtifactPreviewDialogTest, saveAsNeverSuggestsADotFileOrAPath)
{
    // Issue 44, item 14: a sandbox names its files; a tired Enter in Save As must not write ~/.bashrc.
    for (const auto &[name, suggested] :
         std::initializer_list<std::pair<const char *, const char *>>{{".bashrc", "artifact.bashrc"},
                                                                      {"../../.profile", "artifact.profile"},
                                                                      {"chart\n\x1b[31m.png", "chart[31m.png"},
                                                                      {"\u202egnp.exe", "gnp.exe"},
                                                                      {"", "artifact"},
                                                                      {"report.csv", "report.csv"}}) {
        EXPECT_EQ(ArtifactPreviewDialog::suggestedFileName(QString::fromUtf8(name)), QString::fromUtf8(suggested))
            << name;
    }
    // And it is what the Save dialog offers.
    QWidget parent;
    QString offered;
    QTimer answering;
    answering.setInterval(20);
    QObject::connect(&answering, &QTimer::timeout, [&] {
        if (auto *files = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
            offered = files->selectedFiles().value(0);
            files->reject();
        }
    });
    answering.start();
    ArtifactPreviewDialog::saveArtifact(
        &parent, PreviewItem{QStringLiteral(".bashrc"), QStringLiteral("text/plain"), "echo owned", {}, {}});
    answering.stop();
    EXPECT_EQ(QFileInfo(offered).fileName(), QStringLiteral("artifact.bashrc")) << qPrintable(offered);
}

TEST(ArtifactPreviewDialogTest, aLargeTableAndAVeryLongLineAreShownWithoutLayingOutEverything)
{
    // Issue 44, item 12: 5,000 rows of 200 columns took 6.6 s of the GUI thread as items, one 2 MiB line 8.6 s.
    // (Text beyond 2 MiB shows cut anyway, so the line here is 1 MiB.)
    QByteArray csv;
    for (int row = 0; row <= 5000; ++row) {
        csv += QByteArray("7,").repeated(199) + QByteArray::number(row) + '\n';
    }
    const QByteArray line = QByteArray(1024 * 1024, 'x') + "\nend\n";
    ArtifactPreviewDialog dialog({PreviewItem{QStringLiteral("big.csv"), QStringLiteral("text/csv"), csv, {}, {}},
                                  PreviewItem{QStringLiteral("line.txt"), QStringLiteral("text/plain"), line, {}, {}}},
                                 0);
    auto *table = child<QTableView>(dialog, "previewTable");
    ASSERT_NE(table, nullptr);
    // A model the view asks as it draws (no item per cell), widths measured on the first rows.
    EXPECT_EQ(table->model()->rowCount(), 5000);
    EXPECT_EQ(table->model()->columnCount(), 200);
    EXPECT_EQ(table->model()->index(4999, 199).data().toString(), QStringLiteral("5000"));
    EXPECT_LE(table->horizontalHeader()->resizeContentsPrecision(), 100);
    EXPECT_TRUE(qobject_cast<const QStandardItemModel *>(table->model()) == nullptr);

    dialog.setCurrent(1);
    auto *text = child<QPlainTextEdit>(dialog, "previewText");
    ASSERT_NE(text, nullptr);
    const QString shown = text->toPlainText();
    const QString first = shown.section(QLatin1Char('\n'), 0, 0);
    EXPECT_LT(first.size(), 10200) << "the 2 MiB line is cut";
    EXPECT_TRUE(first.startsWith(QString(10000, QLatin1Char('x'))));
    EXPECT_TRUE(first.contains(QStringLiteral("not shown"))) << qPrintable(first.right(120));
    EXPECT_EQ(shown.section(QLatin1Char('\n'), 1, 1), QStringLiteral("end")) << "the lines after it are all there";
}

TEST(ArtifactPreviewDialogTest, zoomHasButtonsAPercentageAndCtrlWheelAndFitEnlargesASmallChart)
{
    // Zoom was only Ctrl+= (no button, no figure shown), and Fit only ever shrank: a small chart stayed small.
    ArtifactPreviewDialog dialog({PreviewItem{QStringLiteral("plot.png"), QStringLiteral("image/png"), png(), {}, {}}},
                                 0);
    dialog.resize(800, 600);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    dialog.waitForDecoded();
    auto *percent = child<QLabel>(dialog, "zoomPercent");
    auto *zoomIn = child<QPushButton>(dialog, "zoomIn");
    auto *zoomOut = child<QPushButton>(dialog, "zoomOut");
    ASSERT_TRUE(percent && zoomIn && zoomOut);
    EXPECT_TRUE(zoomIn->isEnabled());
    EXPECT_TRUE(zoomOut->isEnabled());
    // The 40 × 30 chart fills the window.
    EXPECT_GT(dialog.scale(), 10.0);
    EXPECT_EQ(percent->text(), QStringLiteral("%1%").arg(qRound(dialog.scale() * 100)));

    QTest::mouseClick(child<QPushButton>(dialog, "actualSize"), Qt::LeftButton);
    EXPECT_DOUBLE_EQ(dialog.scale(), 1.0);
    EXPECT_EQ(percent->text(), QStringLiteral("100%"));
    QTest::mouseClick(zoomIn, Qt::LeftButton);
    EXPECT_DOUBLE_EQ(dialog.scale(), 1.25);
    EXPECT_EQ(percent->text(), QStringLiteral("125%"));
    QTest::mouseClick(zoomOut, Qt::LeftButton);
    QTest::mouseClick(zoomOut, Qt::LeftButton);
    EXPECT_DOUBLE_EQ(dialog.scale(), 0.8);

    // Ctrl and the wheel zoom; the wheel alone scrolls.
    QWidget *viewport = child<QScrollArea>(dialog, "previewImageView")->viewport();
    const QPointF at(viewport->width() / 2.0, viewport->height() / 2.0);
    const auto wheel = [&](int delta, Qt::KeyboardModifiers modifiers) {
        QWheelEvent event(at, viewport->mapToGlobal(at), {}, {0, delta}, Qt::NoButton, modifiers, Qt::NoScrollPhase,
                          false);
        QApplication::sendEvent(viewport, &event);
    };
    wheel(120, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(dialog.scale(), 1.0);
    wheel(-120, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(dialog.scale(), 0.8);
    wheel(120, Qt::NoModifier);
    EXPECT_DOUBLE_EQ(dialog.scale(), 0.8);

    QTest::mouseClick(child<QPushButton>(dialog, "fitImage"), Qt::LeftButton);
    EXPECT_GT(dialog.scale(), 10.0);
}

TEST(ArtifactPreviewDialogTest, aWebPageIsShownAsItsSourceSayingWhyAndOffersSaveAs)
{
    // An HTML file showed as source with nothing said, and the console called it "double-click to open".
    const QByteArray html = "<html><body><script>fetch('https://example.com')</script>map</body></html>";
    ArtifactPreviewDialog dialog({PreviewItem{QStringLiteral("map.html"), QStringLiteral("text/html"), html, {}, {}},
                                  PreviewItem{QStringLiteral("notes.txt"), QStringLiteral("text/plain"), "hi", {}, {}}},
                                 0);
    auto *text = child<QPlainTextEdit>(dialog, "previewText");
    auto *notice = child<QLabel>(dialog, "previewNotice");
    auto *save = child<QPushButton>(dialog, "saveArtifact");
    ASSERT_TRUE(text && notice && save);
    EXPECT_TRUE(text->isVisibleTo(&dialog));
    EXPECT_EQ(text->toPlainText(), QString::fromUtf8(html));
    EXPECT_TRUE(notice->isVisibleTo(&dialog));
    EXPECT_TRUE(notice->text().contains(QLatin1String("browser"))) << qPrintable(notice->text());
    EXPECT_TRUE(notice->text().contains(QLatin1String("Save As"))) << qPrintable(notice->text());
    EXPECT_TRUE(save->isVisibleTo(&dialog) && save->isEnabled());

    dialog.setCurrent(1); // plain text needs no word on why
    EXPECT_FALSE(notice->isVisibleTo(&dialog));
}

TEST(ArtifactPreviewDialogTest, saveAsOffersTheArtifactsOwnTypeAndSaysWhereItSaved)
{
    // Save As offered "All Files (*)" only, and said nothing once it had saved.
    QTemporaryDir folder;
    ArtifactPreviewDialog dialog({PreviewItem{QStringLiteral("plot.png"), QStringLiteral("image/png"), png(), {}, {}}},
                                 0);
    dialog.show();
    dialog.waitForDecoded();
    QStringList filters;
    QTimer answering;
    answering.setInterval(20);
    QObject::connect(&answering, &QTimer::timeout, [&] {
        if (auto *files = qobject_cast<QFileDialog *>(QApplication::activeModalWidget()); files && filters.isEmpty()) {
            filters = files->nameFilters();
            files->selectFile(folder.filePath(QStringLiteral("saved.png")));
            static_cast<QDialog *>(files)->accept();
        }
    });
    answering.start();
    QTest::mouseClick(child<QPushButton>(dialog, "saveArtifact"), Qt::LeftButton);
    answering.stop();
    ASSERT_FALSE(filters.isEmpty()) << "no Save dialog";
    EXPECT_TRUE(filters.first().contains(QLatin1String("*.png"))) << qPrintable(filters.join(QLatin1String(" | ")));
    // (Where it went depends on the folder the dialog took, as above: that it names a file it saved matters.)
    const QString said = child<QLabel>(dialog, "previewCaption")->text();
    EXPECT_TRUE(said.contains(QLatin1String("Saved to")) && said.contains(QLatin1String(".png"))) << qPrintable(said);
}

// Issue 50: a chart with data has a Data tab beside its picture: the series as a table, Copy and Save as CSV. Data the
// item does not carry (the Gallery's) comes from the chart loader, when the chart is shown.
TEST(ArtifactPreviewDialogTest, aChartsDataIsATabBesideItsPictureWithCopyAsCsv)
{
    const QJsonObject chart = QJsonDocument::fromJson(R"({"kind": "line", "title": "Sales", "axes": [{"series": [
        {"name": "EU", "kind": "line", "x": [1, 2, 3], "y": [10, 20, 15]}]}]})")
                                  .object();
    PreviewItem withData{QStringLiteral("figure_1.png"), QStringLiteral("image/png"), png(), {}, {}};
    withData.chart = chart;
    const PreviewItem plain{QStringLiteral("photo.png"), QStringLiteral("image/png"), png(), {}, {}};
    const PreviewItem later{
        QStringLiteral("figure_2.png"), QStringLiteral("image/png"), png(), {}, QStringLiteral("run-2")};
    ArtifactPreviewDialog dialog({withData, plain, later}, 0);
    dialog.waitForDecoded();
    auto *modes = child<QTabBar>(dialog, "previewModes");
    EXPECT_TRUE(modes->isVisibleTo(&dialog));
    EXPECT_FALSE(dialog.showingData()) << "the picture first";
    EXPECT_FALSE(child<QPushButton>(dialog, "copyCsv")->isVisibleTo(&dialog));

    dialog.show();
    QTest::qWait(50);
    const QSize shown = dialog.size();
    modes->setCurrentIndex(1);
    QTest::qWait(50);
    EXPECT_EQ(dialog.size(), shown) << "the window keeps its size from tab to tab";
    EXPECT_TRUE(dialog.showingData());
    auto *table = child<QTableView>(dialog, "previewTable");
    EXPECT_TRUE(table->isVisibleTo(&dialog));
    ASSERT_EQ(table->model()->rowCount(), 3);
    EXPECT_EQ(table->model()->headerData(3, Qt::Horizontal).toString(), QStringLiteral("y"));
    EXPECT_EQ(table->model()->index(1, 3).data().toString(), QStringLiteral("20"));
    EXPECT_FALSE(child<QPushButton>(dialog, "copyImage")->isVisibleTo(&dialog));
    QTest::mouseClick(child<QPushButton>(dialog, "copyCsv"), Qt::LeftButton);
    EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("series,kind,x,y\r\nEU,line,1,10\r\nEU,line,2,20\r\n"
                                                                "EU,line,3,15\r\n"));

    // A picture without data has no tabs.
    dialog.setCurrent(1);
    dialog.waitForDecoded();
    EXPECT_FALSE(modes->isVisibleTo(&dialog));
    EXPECT_TRUE(child<QPushButton>(dialog, "copyImage")->isVisibleTo(&dialog));

    // The loader's data arrives after the picture: the tabs appear then, once asked for each chart.
    QStringList asked;
    dialog.setChartLoader([&](const PreviewItem &item, const std::function<void(QJsonObject)> &deliver) {
        asked << item.name;
        const QJsonObject found = item.name == QLatin1String("figure_2.png") ? chart : QJsonObject();
        QTimer::singleShot(10, &dialog, [deliver, found] { deliver(found); });
    });
    dialog.setCurrent(2);
    dialog.waitForDecoded();
    EXPECT_TRUE(QTest::qWaitFor([&] { return modes->isVisibleTo(&dialog); }, 5000));
    EXPECT_TRUE(dialog.showingData()) << "the Data tab stays chosen from one chart to the next";
    dialog.setCurrent(1);
    dialog.setCurrent(2);
    EXPECT_EQ(asked, QStringList({QStringLiteral("photo.png"), QStringLiteral("figure_2.png")}));
}

// A chart a program wrote as JSON (a plotly figure, a Vega-Lite specification) has the Data tab beside its text.
TEST(ArtifactPreviewDialogTest, aChartWrittenAsJsonHasItsDataBesideItsText)
{
    const QByteArray json = R"({"mark": "point", "data": {"values": [{"t": 1, "v": 2}, {"t": 2, "v": 4}]},
        "encoding": {"x": {"field": "t"}, "y": {"field": "v"}}})";
    ArtifactPreviewDialog dialog(
        {{QStringLiteral("growth.vl.json"), QStringLiteral("application/json"), json, {}, QStringLiteral("run-1")}}, 0);
    dialog.setChartLoader([&](const PreviewItem &, const std::function<void(QJsonObject)> &deliver) {
        deliver(sandbox::ChartData::ofSpecification(json));
    });
    auto *modes = child<QTabBar>(dialog, "previewModes");
    ASSERT_TRUE(modes->isVisibleTo(&dialog));
    EXPECT_EQ(modes->tabText(0), QStringLiteral("File"));
    auto *text = child<QPlainTextEdit>(dialog, "previewText");
    EXPECT_TRUE(text->isVisibleTo(&dialog));
    dialog.showData(true);
    auto *table = child<QTableView>(dialog, "previewTable");
    ASSERT_TRUE(table->isVisibleTo(&dialog));
    EXPECT_EQ(table->model()->index(1, 3).data().toString(), QStringLiteral("4"));
    dialog.showData(false);
    EXPECT_TRUE(text->isVisibleTo(&dialog)) << "back to the file's text";
    EXPECT_TRUE(text->toPlainText().contains(QLatin1String("\"mark\"")));
}
