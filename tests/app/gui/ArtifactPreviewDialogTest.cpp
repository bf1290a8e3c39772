// The preview's polish (issue 37, item 16): a CSV as a table, Fit and 100% only for images, Copy says it copied.
#include "gui/widgets/ArtifactPreviewDialog.h"

#include "TestImages.h"
#include "gui/widgets/CopyFeedback.h"

#include <QApplication>
#include <QBuffer>
#include <QFileDialog>
#include <QHeaderView>
#include <QImage>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
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
    auto *table = child<QTableWidget>(dialog, "previewTable");
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->isVisibleTo(&dialog));
    ASSERT_EQ(table->columnCount(), 2);
    ASSERT_EQ(table->rowCount(), 2);
    EXPECT_EQ(table->horizontalHeaderItem(0)->text(), QStringLiteral("city"));
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("Paris, France"));
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("2100000"));
    EXPECT_EQ(table->item(1, 0)->text(), QStringLiteral("He said \"hi\""));
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
