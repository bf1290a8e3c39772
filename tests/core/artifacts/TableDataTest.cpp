// A table a run wrote, at a glance: its shape, its columns' types and ranges, its first rows, and one line for the
// model.
#include "artifacts/TableData.h"

#include "artifacts/Artifact.h"

#include <QJsonArray>
#include <gtest/gtest.h>

using namespace sandbox;

TEST(TableData, outlinesACsvByItsColumnsAndFirstRows)
{
    const Artifact sales = Artifact::fromFile(
        QStringLiteral("sales.csv"),
        "\xEF\xBB\xBF"
        "city,price,sold,note,ok\r\n\"Paris, FR\",12,3,,true\nOslo,0.5,97,late,false\nRome,7,,x,TRUE\n");
    const QJsonObject table = sales.table;
    ASSERT_FALSE(table.isEmpty());
    EXPECT_EQ(table.value("rows").toInteger(), 3);
    const QJsonArray columns = table.value("columns").toArray();
    ASSERT_EQ(columns.size(), 5);
    EXPECT_EQ(columns.at(0).toObject().value("name").toString(), "city") << "the byte order mark is no part of it";
    EXPECT_EQ(columns.at(0).toObject().value("type").toString(), "text");
    EXPECT_EQ(columns.at(0).toObject().value("distinct").toInteger(), 3);
    const QJsonObject price = columns.at(1).toObject();
    EXPECT_EQ(price.value("type").toString(), "number");
    EXPECT_DOUBLE_EQ(price.value("min").toDouble(), 0.5);
    EXPECT_DOUBLE_EQ(price.value("max").toDouble(), 12);
    EXPECT_DOUBLE_EQ(price.value("mean").toDouble(), 6.5);
    EXPECT_EQ(columns.at(2).toObject().value("missing").toInteger(), 1);
    EXPECT_EQ(columns.at(4).toObject().value("type").toString(), "boolean");
    const QJsonArray first = table.value("head").toArray().at(0).toArray();
    EXPECT_EQ(first.at(0).toString(), "Paris, FR");
    EXPECT_DOUBLE_EQ(first.at(1).toDouble(), 12) << "numbers as numbers";
    EXPECT_EQ(TableData::summary(sales.name, table).toStdString(),
              std::string("sales.csv: table 3 rows × 5 columns — city (text, 3 distinct), price (number 0.5–12), "
                          "sold (number 3–97, 1 missing), note (text, 2 distinct, 1 missing), ok (boolean)"));
}

TEST(TableData, onlyCsvAndTabSeparatedFilesWithRowsAreTables)
{
    EXPECT_TRUE(Artifact::fromFile(QStringLiteral("notes.txt"), "a,b\n1,2\n").table.isEmpty());
    EXPECT_TRUE(Artifact::fromFile(QStringLiteral("empty.csv"), "a,b\n").table.isEmpty()) << "a header alone";
    const QJsonObject tsv = Artifact::fromFile(QStringLiteral("t.tsv"), "x\ty\n1\t2\n").table;
    EXPECT_EQ(tsv.value("columns").toArray().size(), 2);
    EXPECT_LE(TableData::read(QByteArray("n\n") + QByteArray("1\n").repeated(100), ',').value("head").toArray().size(),
              TableData::kHeadRows);
}
