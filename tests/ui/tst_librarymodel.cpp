// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cluster/trainingview.h"
#include "core/model/gpucatalog.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/librarymodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace clusterplanner;
using namespace clusterplanner::ui;

namespace {

core::ListRow row(core::ScenarioId id, const char* name, int gpus, std::optional<double> tokensPerS)
{
    core::ListRow r;
    r.id = id;
    r.name = name;
    r.gpuId = gpus > 1000 ? "H100-SXM-80GB" : "A100-SXM-80GB";
    r.gpuCount = gpus;
    r.tags = {"sample"};
    r.modified = "2025-01-0" + std::to_string(id) + "T12:00:00.000Z";
    if (tokensPerS)
        r.figures = core::ResultFigures {gpus, *tokensPerS, 1000.0 * id, 0.4, 2.0};
    return r;
}

std::vector<core::ListRow> rows()
{
    // Tokens/s chosen so that text order ("9" > "12") and numeric order disagree.
    return {row(1, "beta", 256, 9.0e5), row(2, "Alpha", 16384, 1.2e7), row(3, "gamma", 64, std::nullopt)};
}

QSortFilterProxyModel* sorted(LibraryModel& model, int column, Qt::SortOrder order, QObject* parent)
{
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(&model);
    proxy->setSortRole(LibraryModel::SortRole);
    proxy->sort(column, order);
    return proxy;
}

} // namespace

class TestLibraryModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passesTheModelTester()
    {
        LibraryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(rows());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(LibraryModel::ColumnCount));
        QCOMPARE(model.rowOf(2), 1);
        QCOMPARE(model.rowOf(99), -1);
        QCOMPARE(model.index(1, 0).data(LibraryModel::IdRole).value<qint64>(), 2);
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void showsFiguresAndADashWithoutAResult()
    {
        LibraryModel model;
        model.setRows(rows());
        QCOMPARE(model.index(1, LibraryModel::TokensPerS).data().toString(), QStringLiteral("12.00 M"));
        QCOMPARE(model.index(0, LibraryModel::TokensPerS).data().toString(), QStringLiteral("900.00 k"));
        QCOMPARE(model.index(0, LibraryModel::Mfu).data().toString(), QStringLiteral("40.0 %"));
        QCOMPARE(model.index(2, LibraryModel::TokensPerS).data().toString(), QStringLiteral("–"));
        QVERIFY(!model.index(2, LibraryModel::TokensPerS).data(LibraryModel::SortRole).isValid());
    }

    void sortsByRawValues_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        QTest::addColumn<QList<qint64>>("ids");
        QTest::newRow("name ascending, case-insensitive")
            << int(LibraryModel::Name) << int(Qt::AscendingOrder) << QList<qint64> {2, 1, 3};
        QTest::newRow("GPUs descending") << int(LibraryModel::GpuCount) << int(Qt::DescendingOrder)
                                         << QList<qint64> {2, 1, 3};
        QTest::newRow("GPU type") << int(LibraryModel::GpuType) << int(Qt::AscendingOrder) << QList<qint64> {1, 3, 2};
        // 1.2e7 > 9e5 as numbers; the row without a result sorts last when ascending.
        QTest::newRow("tokens/s ascending")
            << int(LibraryModel::TokensPerS) << int(Qt::AscendingOrder) << QList<qint64> {1, 2, 3};
        QTest::newRow("modified descending")
            << int(LibraryModel::Modified) << int(Qt::DescendingOrder) << QList<qint64> {3, 2, 1};
    }
    void sortsByRawValues()
    {
        QFETCH(int, column);
        QFETCH(int, order);
        QFETCH(QList<qint64>, ids);
        LibraryModel model;
        model.setRows(rows());
        QSortFilterProxyModel* proxy = sorted(model, column, Qt::SortOrder(order), this);
        QAbstractItemModelTester tester(proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<qint64> actual;
        for (int r = 0; r < proxy->rowCount(); ++r)
            actual << proxy->index(r, 0).data(LibraryModel::IdRole).value<qint64>();
        QCOMPARE(actual, ids);
    }

    void comparisonMarksOnlyDifferingRows()
    {
        core::Scenario a = core::defaultScenario();
        core::Scenario b = a;
        b.cluster.gpuId = "H200-SXM-141GB";
        core::cluster::writeViewIntoTopology(b, core::GpuCatalog::builtin()); // as the scenario form does
        core::CachedResult ra, rb;
        ra.figures.stepTimeS = 10.0;
        rb.figures.stepTimeS = 8.0;
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setEntries({{QStringLiteral("A"), a, ra}, {QStringLiteral("B"), b, rb}});
        QCOMPARE(model.columnCount(), 3);
        const int gpu = model.rowOf(QStringLiteral("cluster.node_groups[0].gpu"));
        QVERIFY(gpu >= 0);
        QVERIFY(model.index(gpu, 1).data(ComparisonModel::DiffersRole).toBool());
        QVERIFY(model.index(gpu, 1).data(Qt::BackgroundRole).isValid());
        const int layers = model.rowOf(QStringLiteral("model.layers"));
        QVERIFY(!model.index(layers, 1).data(ComparisonModel::DiffersRole).toBool());
        QVERIFY(!model.index(layers, 1).data(Qt::BackgroundRole).isValid());
        // 8 s against 10 s: 20 % less.
        const int step = model.rowOf(QStringLiteral("Step time"));
        QCOMPARE(model.index(step, 2).data().toString(), QStringLiteral("8.00 s (-20.0 %)"));
        QVERIFY(model.index(step, 0).data(ComparisonModel::IsResultRole).toBool());

        model.setOnlyDifferences(true);
        QCOMPARE(model.rowOf(QStringLiteral("model.layers")), -1);
        QVERIFY(model.rowOf(QStringLiteral("cluster.node_groups[0].gpu")) >= 0);
    }
};

QTEST_MAIN(TestLibraryModel)
#include "tst_librarymodel.moc"
