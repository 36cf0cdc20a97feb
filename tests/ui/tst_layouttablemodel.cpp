// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/layouttablemodel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace clusterplanner;
using namespace clusterplanner::ui;

namespace {

core::LayoutResult result(int tp, double tokens, bool fits)
{
    core::LayoutResult r;
    r.candidate.layout.tp = tp;
    r.valid = true;
    r.fits = fits;
    r.capacityGiB = 80;
    r.peakMemoryGiB = 60 + tp;
    r.tokensPerSPerGpu = tokens;
    r.mfu = tokens / 10000;
    return r;
}

} // namespace

class TestLayoutTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passesTheModelTester()
    {
        LayoutTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResults({result(1, 900, true), result(2, 1200, true), result(8, 400, false)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(LayoutTableModel::ColumnCount));
        model.setResults({});
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsByRawValuesNotText()
    {
        LayoutTableModel model;
        model.setResults({result(1, 900, true), result(2, 12000, true), result(8, 400, false)});
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(LayoutTableModel::SortRole);
        proxy.sort(LayoutTableModel::TokensPerGpu, Qt::DescendingOrder);
        // As text "900" > "400" > "12000"; as numbers 12000 comes first.
        QCOMPARE(proxy.index(0, LayoutTableModel::Tp).data().toInt(), 2);
        QCOMPARE(proxy.index(2, LayoutTableModel::Tp).data().toInt(), 8);
        QCOMPARE(proxy.index(0, LayoutTableModel::Mfu).data().toString(), QStringLiteral("120.0"));
        QCOMPARE(proxy.index(2, LayoutTableModel::Fits).data().toString(), QStringLiteral("no"));
    }

    /// A fit with less than a tenth of the usable memory to spare reads "tight": within the memory model's error band.
    void tightFitsSaySo()
    {
        LayoutTableModel model;
        auto roomy = result(1, 900, true), tight = result(2, 1000, true);
        roomy.capacityGiB = tight.capacityGiB = 80;
        roomy.peakMemoryGiB = 60;
        tight.peakMemoryGiB = 77.9;
        model.setResults({roomy, tight, result(8, 400, false)});
        QCOMPARE(model.index(0, LayoutTableModel::Fits).data().toString(), QStringLiteral("yes"));
        QCOMPARE(model.index(1, LayoutTableModel::Fits).data().toString(), QStringLiteral("tight"));
        QCOMPARE(model.index(2, LayoutTableModel::Fits).data().toString(), QStringLiteral("no"));
        QVERIFY(model.headerData(LayoutTableModel::Fits, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("10 %")));
    }

    /// The second column names the layout in a few characters, so that rows differ without scrolling to the degrees.
    void layoutColumnComesSecond()
    {
        LayoutTableModel model;
        auto r = result(2, 900, true);
        r.candidate.layout.virtualStages = 6;
        r.candidate.microBatch = 1;
        model.setResults({r});
        QCOMPARE(int(LayoutTableModel::Layout), 1);
        const auto& l = r.candidate.layout;
        QCOMPARE(model.index(0, LayoutTableModel::Layout).data().toString(),
            QStringLiteral("%1·%2·%3·%4 v6 mb1").arg(l.dp).arg(l.tp).arg(l.pp).arg(l.cp));
        QCOMPARE(model.headerData(LayoutTableModel::Layout, Qt::Horizontal).toString(), QStringLiteral("Layout"));
        QVERIFY(model.headerData(LayoutTableModel::Layout, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("DP·TP·PP·CP")));
    }

    /// A layout that fits only by offloading activations says so beside its recompute mode (sorting keeps the mode).
    void offloadShowsBesideRecompute()
    {
        LayoutTableModel model;
        core::LayoutResult offloading = result(1, 900, true);
        offloading.candidate.recompute = core::Recompute::None;
        offloading.offloadedLayers = 22;
        core::LayoutResult plain = result(2, 800, true);
        plain.candidate.recompute = core::Recompute::Full;
        model.setResults({offloading, plain});
        QCOMPARE(
            model.index(0, LayoutTableModel::Recompute).data().toString(), QStringLiteral("none + offload 22 layers"));
        QCOMPARE(model.index(1, LayoutTableModel::Recompute).data().toString(), QStringLiteral("full"));
        QCOMPARE(model.index(0, LayoutTableModel::Recompute).data(LayoutTableModel::SortRole).toString(),
            QStringLiteral("none"));
    }

    void resultsShowWithoutScrollingSideways()
    {
        // The explorer's table is about 500 px wide in a 1600 px window; the results must not hide behind the layout.
        LayoutTableModel model;
        model.setResults({result(1, 900, true), result(2, 12000, true)});
        QTableView view;
        view.setModel(&model);
        view.horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        view.resize(500, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int column : {LayoutTableModel::Fits, LayoutTableModel::PeakMemory, LayoutTableModel::StepTime,
                 LayoutTableModel::TokensPerGpu, LayoutTableModel::Mfu, LayoutTableModel::CostPerMTokens}) {
            const int right = view.columnViewportPosition(column) + view.columnWidth(column);
            QVERIFY2(
                right <= view.viewport()->width(), qPrintable(model.headerData(column, Qt::Horizontal).toString()));
        }
    }
};

QTEST_MAIN(TestLayoutTableModel)
#include "tst_layouttablemodel.moc"
