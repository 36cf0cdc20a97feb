// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartexport.h"
#include "ui/charts/ganttchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/charts/linechart.h"
#include "ui/charts/scatterchart.h"
#include "ui/charts/stackedbarchart.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace clusterplanner::ui;

namespace {

/// A rendered chart must show more than one colour, or nothing was drawn.
int distinctColors(const QImage& image)
{
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colors.insert(image.pixel(x, y));
    return colors.size();
}

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ganttFindsTheBarUnderThePointer()
    {
        GanttChart chart;
        chart.setRows({QStringLiteral("stage 0"), QStringLiteral("stage 1")});
        chart.setBars({{0, 0, 1, QStringLiteral("F1"), Qt::blue, {}}, {0, 2, 3, QStringLiteral("B1"), Qt::red, {}},
            {1, 1, 2, QStringLiteral("F1"), Qt::blue, {}}});
        QCOMPARE(chart.barAt(0.5, 0), std::optional<int>(0));
        QCOMPARE(chart.barAt(2.5, 0.2), std::optional<int>(1));
        QCOMPARE(chart.barAt(1.5, 0), std::nullopt); // the gap between two ops is the bubble
        QCOMPARE(chart.barAt(1.5, 1), std::optional<int>(2));
        QCOMPARE(chart.barAt(1.5, 0.5), std::nullopt); // between rows
        QCOMPARE(chart.barAt(9, 1), std::nullopt);
    }

    void heatmapMapsPixelsToCellsAndEmitsClicks()
    {
        HeatmapChart chart;
        chart.resize(600, 400);
        chart.setGrid({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4")},
            {QStringLiteral("1"), QStringLiteral("8")},
            {{1.0, {}}, {2.0, {}}, {std::nullopt, QStringLiteral("does not fit")}, {4.0, {}}, {5.0, {}}, {6.0, {}}});
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        const QPoint center(int(chart.plot()->xAxis->coordToPixel(2)), int(chart.plot()->yAxis->coordToPixel(1)));
        QCOMPARE(chart.cellAt(center), std::optional<QPoint>(QPoint(2, 1)));
        QSignalSpy clicks(&chart, &HeatmapChart::cellClicked);
        QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, center);
        QCOMPARE(clicks.count(), 1);
        QCOMPARE(clicks.first().at(0).toInt(), 2);
        QCOMPARE(clicks.first().at(1).toInt(), 1);
        QCOMPARE(chart.cellAt(QPoint(1, 1)), std::nullopt); // the margin is outside the grid
    }

    void paretoFrontKeepsOnlyUndominatedPoints()
    {
        const QVector<ScatterPoint> points {{1, 5, {}}, {2, 4, {}}, {2, 3, {}}, {3, 1, {}}, {0.5, 4, {}}, {3, 0.5, {}}};
        auto front = ScatterChart::paretoFront(points);
        std::sort(front.begin(), front.end());
        QCOMPARE(front, QVector<int>({0, 1, 3}));
    }

    void stackedBarsAddUp()
    {
        StackedBarChart chart;
        chart.setData({QStringLiteral("stage 0"), QStringLiteral("stage 1")},
            {{QStringLiteral("weights"), Qt::blue, {10, 8}}, {QStringLiteral("activations"), Qt::red, {30, 5}}});
        chart.setLimit(80, QStringLiteral("80 GiB"));
        QCOMPARE(chart.stackTotal(0), 40.0);
        QCOMPARE(chart.stackTotal(1), 13.0);
    }

    void everyChartRendersAndExports()
    {
        QTemporaryDir dir;
        GanttChart gantt;
        gantt.setRows({QStringLiteral("a")});
        gantt.setBars({{0, 0, 1, QStringLiteral("x"), Qt::darkGreen, {}}});
        LineChart line;
        line.setSeries({{QStringLiteral("tokens/s"), Qt::blue, {1, 2, 4}, {1, 1.9, 3.5}, false, false}});
        ScatterChart scatter;
        scatter.setPoints({{1, 2, {}}, {2, 1, {}}});
        const QList<ChartWidget*> charts {&gantt, &line, &scatter};
        for (ChartWidget* chart : charts) {
            const QString path = dir.filePath(QStringLiteral("c%1.png").arg(charts.indexOf(chart)));
            QCOMPARE(exportPlot(*chart->plot(), path, QSize(400, 300)), QString());
            const QImage image(path);
            QCOMPARE(image.size(), QSize(400, 300));
            QVERIFY(distinctColors(image) > 3);
        }
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
