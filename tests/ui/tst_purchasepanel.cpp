// SPDX-License-Identifier: GPL-3.0-or-later
// The purchase comparison opens on the three purchase512 samples, shows the core's figures for each (differences
// against the first), draws them as bars, moves the way the sensitivity cases say, and exports its charts.
#include "core/evaluation/purchasefigures.h"
#include "ui/charts/stackedbarchart.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/purchasepanel.h"
#include "ui/panels/purchaserows.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace clusterplanner;

namespace {

/// The row of the comparison table whose key is `key`, or -1.
int rowOf(const QTableWidget& table, const QString& key)
{
    for (int r = 0; r < table.rowCount(); ++r)
        if (table.verticalHeaderItem(r) && table.verticalHeaderItem(r)->data(Qt::UserRole).toString() == key)
            return r;
    return -1;
}

} // namespace

class TestPurchasePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void opensOnTheThreeSamples()
    {
        ui::ScenarioDocument doc;
        ui::PurchasePanel panel(&doc, nullptr);
        QCOMPARE(ui::PurchasePanel::sampleFiles().size(), 3);
        QCOMPARE(panel.entries().size(), std::size_t(3));
        for (const auto& entry : panel.entries())
            QVERIFY2(entry.figures, qPrintable(entry.error));
        QCOMPARE(panel.table()->columnCount(), 3);
    }

    void tableRowsAreTheCoresFigures()
    {
        ui::ScenarioDocument doc;
        ui::PurchasePanel panel(&doc, nullptr);
        const QTableWidget& table = *panel.table();
        for (int c = 0; c < 3; ++c) {
            const auto figures = core::evaluation::purchaseFigures(panel.entries()[std::size_t(c)].scenario);
            QVERIFY(figures);
            const auto rows = ui::purchaseRows(*figures);
            for (const char* key : {"cluster.gpus", "cluster.tco_usd", "cluster.facility_power_mw",
                     "run.time_to_train_days", "run.owned_usd_per_m_tokens"}) {
                const int r = rowOf(table, QLatin1String(key));
                QVERIFY2(r >= 0, key);
                const auto* row = ui::findRow(rows, QLatin1String(key));
                QVERIFY(row);
                QVERIFY2(table.item(r, c)->text().startsWith(ui::formatFigure(*row)),
                    qPrintable(table.item(r, c)->text() + QStringLiteral(" vs ") + ui::formatFigure(*row)));
            }
            QCOMPARE(figures->cluster.gpus, 512LL); // all three buy 512 GPUs
        }
        // Differences are against the first column.
        const auto first = core::evaluation::purchaseFigures(panel.entries()[0].scenario);
        const auto second = core::evaluation::purchaseFigures(panel.entries()[1].scenario);
        const auto firstRows = ui::purchaseRows(*first);
        const auto* tcoFirst = ui::findRow(firstRows, QStringLiteral("cluster.tco_usd"));
        const auto secondRows = ui::purchaseRows(*second);
        const auto* tcoSecond = ui::findRow(secondRows, QStringLiteral("cluster.tco_usd"));
        const QString diff = ui::formatDifference(*tcoSecond, *tcoFirst);
        QVERIFY(!diff.isEmpty());
        QVERIFY(table.item(rowOf(table, QStringLiteral("cluster.tco_usd")), 1)->text().contains(diff));
    }

    void chartsShowTheSameValues()
    {
        ui::ScenarioDocument doc;
        ui::PurchasePanel panel(&doc, nullptr);
        const auto charts = panel.charts();
        QCOMPARE(charts.size(), std::size_t(4));
        for (int c = 0; c < 3; ++c) {
            const auto& f = *panel.entries()[std::size_t(c)].figures;
            QCOMPARE(charts[0]->stackTotal(c), f.cluster.tcoUsd / 1e6);
            QCOMPARE(charts[2]->stackTotal(c), f.cluster.facilityPowerKw / 1000);
            if (f.run.fits)
                QCOMPARE(charts[1]->stackTotal(c), f.run.timeToTrainDays);
        }
    }

    void sensitivityMovesTheRightWay()
    {
        ui::ScenarioDocument doc;
        ui::PurchasePanel panel(&doc, nullptr);
        QCOMPARE(panel.sensitivityTable()->rowCount(), 3);
        QCOMPARE(panel.sensitivityTable()->columnCount(), 6);
        for (const auto& entry : panel.entries()) {
            const double base = entry.figures->cluster.tcoUsd;
            for (const auto& c : entry.sensitivity) {
                QVERIFY2(c.figures, c.error.c_str());
                const double tco = c.figures->cluster.tcoUsd;
                const std::string what = c.assumption + " " + c.change;
                if (c.assumption == "utilisation") { // same cluster, fewer useful hours: dearer tokens
                    QCOMPARE(tco, base);
                    if (entry.figures->run.fits)
                        QVERIFY2(c.figures->run.ownedUsdPerMillionTokens > entry.figures->run.ownedUsdPerMillionTokens,
                            what.c_str());
                    continue;
                }
                const bool up = c.change.front() == '+';
                QVERIFY2(up ? tco > base : tco < base, what.c_str());
            }
        }
    }

    void limitsAndBadFiles()
    {
        ui::ScenarioDocument doc;
        ui::PurchasePanel panel(&doc, nullptr);
        QVERIFY(panel.addFile(QStringLiteral("/nonexistent/x.cplan.json")).contains(QStringLiteral("x.cplan.json")));
        QCOMPARE(panel.entries().size(), std::size_t(3));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(panel.addScenario(doc.scenario(), QStringLiteral("test")), QString());
        QVERIFY(!panel.addScenario(doc.scenario(), QStringLiteral("test")).isEmpty()); // the seventh is refused
        QCOMPARE(panel.entries().size(), std::size_t(ui::PurchasePanel::kMaxEntries));
        panel.removeEntry(0);
        QCOMPARE(panel.table()->columnCount(), ui::PurchasePanel::kMaxEntries - 1);
        panel.clearEntries();
        QCOMPARE(panel.table()->columnCount(), 0);
    }

    void chartsExport()
    {
        ui::ScenarioDocument doc;
        ui::PurchasePanel panel(&doc, nullptr);
        QTemporaryDir dir;
        for (auto* chart : panel.charts())
            for (const char* suffix : {"png", "svg", "pdf"}) {
                const QString path = dir.filePath(chart->chartTitle() + QLatin1Char('.') + QLatin1String(suffix));
                QCOMPARE(chart->exportChart(path, QSize(960, 600)), QString());
                QVERIFY(QFileInfo(path).size() > 1000);
            }
        QCOMPARE(QImage(dir.filePath(QStringLiteral("purchase-tco.png"))).size(), QSize(960, 600));
    }
};

QTEST_MAIN(TestPurchasePanel)
#include "tst_purchasepanel.moc"
