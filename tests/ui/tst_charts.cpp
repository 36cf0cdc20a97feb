// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartexport.h"
#include "ui/charts/ganttchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/charts/linechart.h"
#include "ui/charts/numberformat.h"
#include "ui/charts/pipelinebars.h"
#include "ui/charts/scatterchart.h"
#include "ui/charts/stackedbarchart.h"

#include <QFontMetrics>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace clusterplanner;
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

    void heatmapLabelsNeverRunIntoEachOther()
    {
        // Twelve powers of two on a narrow chart: side by side, "64128256512…" would overlap.
        QStringList labels;
        for (int i = 0; i < 12; ++i)
            labels << QString::number(1 << (i + 6));
        HeatmapChart chart;
        chart.resize(360, 300);
        chart.setGrid(labels, {QStringLiteral("1")}, QVector<HeatmapCell>(labels.size(), HeatmapCell {1.0, {}}));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replot();
        QCPAxis* x = chart.plot()->xAxis;
        const QFontMetrics metrics(x->tickLabelFont());
        const double cellPx = x->coordToPixel(1) - x->coordToPixel(0);
        const double labelPx
            = x->tickLabelRotation() == 0 ? metrics.horizontalAdvance(QStringLiteral("131072")) : metrics.height();
        // Labels drawn every xLabelStep() cells: each has room for itself and a gap.
        QVERIFY2(labelPx < chart.xLabelStep() * cellPx,
            qPrintable(QStringLiteral("%1 px label, %2 px per label").arg(labelPx).arg(chart.xLabelStep() * cellPx)));
        // Wide enough, every label is shown, side by side.
        chart.resize(1400, 300);
        QTRY_COMPARE(chart.xLabelStep(), 1);
    }

    void pipelineBarsTellOpKindsApartAndNumberFromOne()
    {
        using core::perf::PipelineOp;
        using core::perf::PipelineOpKind;
        const std::vector<PipelineOp> ops {{0, 0, 0, PipelineOpKind::Forward, 0, 1},
            {1, 1, 2, PipelineOpKind::Backward, 3, 5}, {1, 1, 2, PipelineOpKind::WeightGrad, 5, 6}};
        const auto bars = pipelineBars(ops, 2);
        QCOMPARE(bars.size(), 3);
        QCOMPARE(bars[0].label, QStringLiteral("F1.1"));
        QCOMPARE(bars[1].label, QStringLiteral("B3.2"));
        QVERIFY(bars[1].tooltip.startsWith(QStringLiteral("Backward · stage 2 · micro-batch 3 · chunk 2 of 2")));
        QVERIFY(bars[2].tooltip.startsWith(QStringLiteral("Weight gradient")));
        // Three hue families: forward blue, backward orange, weight gradient green.
        QVERIFY(std::abs(bars[0].color.hslHue() - bars[1].color.hslHue()) > 60);
        QVERIFY(std::abs(bars[1].color.hslHue() - bars[2].color.hslHue()) > 60);
        QCOMPARE(pipelineStageRows(2), QStringList({QStringLiteral("stage 1"), QStringLiteral("stage 2")}));
        QCOMPARE(pipelineLegend(true).size(), 3);
        QCOMPARE(pipelineLegend(false).size(), 2);
        // Interleaved: a third entry explains the lighter shade and the chunk in a label.
        const auto interleaved = pipelineLegend(false, 4);
        QCOMPARE(interleaved.size(), 3);
        QVERIFY(interleaved.last().text.contains(QStringLiteral("4 per stage")));
    }

    void ganttLegendSitsAboveThePlot()
    {
        GanttChart chart;
        chart.setRows({QStringLiteral("stage 1")});
        chart.setLegend(pipelineLegend(true));
        chart.setBars({{0, 0, 1, QStringLiteral("F1"), Qt::blue, {}}});
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        QCOMPARE(chart.plot()->legend->itemCount(), 3);
        QVERIFY(chart.plot()->legend->outerRect().bottom() <= chart.plot()->axisRect()->outerRect().top());
        QCOMPARE(chart.barAt(0.5, 0), std::optional<int>(0)); // the swatches added no bars
    }

    void largeCountsReadAsWords()
    {
        QLocale::setDefault(QLocale::c());
        QCOMPARE(formatCount(2e12, QStringLiteral("tokens")), QStringLiteral("2.0 T tokens"));
        QCOMPARE(formatCount(15.6e12, QStringLiteral("tokens")), QStringLiteral("15.6 T tokens"));
        QCOMPARE(formatCount(405e9), QStringLiteral("405 B"));
        QCOMPARE(formatCount(16.8e6, QStringLiteral("tokens/s")), QStringLiteral("16.8 M tokens/s"));
        QCOMPARE(formatCount(999'960), QStringLiteral("1.0 M"));
        QCOMPARE(formatCount(512), QStringLiteral("512"));
    }

    void scalingAxesCanBothBeLogarithmic()
    {
        LineChart chart;
        chart.setLogX(true);
        chart.setLogY(true);
        chart.setSeries({{QStringLiteral("linear"), Qt::blue, {8, 16, 32}, {1, 2, 4}, false, false}});
        QCOMPARE(chart.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart.plot()->yAxis->range().lower > 0); // a log axis cannot start at zero
        // Linear scaling is a straight line: equal steps in pixels for each doubling.
        chart.resize(600, 400);
        chart.plot()->replot();
        QCPAxis* y = chart.plot()->yAxis;
        QVERIFY(qAbs((y->coordToPixel(1) - y->coordToPixel(2)) - (y->coordToPixel(2) - y->coordToPixel(4))) < 0.5);
    }

    void logAxesTickInDecadesBelowOne()
    {
        // Counts double (8, 16, 32 GPUs); hours below one would print as 2^-10 = "0.000976563".
        LineChart counts;
        counts.setLogX(true);
        counts.setSeries({{QStringLiteral("gpus"), Qt::blue, {8, 16, 32}, {1, 2, 3}, false, false}});
        auto base = [](const QCPAxis* axis) { return axis->ticker().dynamicCast<QCPAxisTickerLog>()->logBase(); };
        QCOMPARE(base(counts.plot()->xAxis), 2.0);
        LineChart hours;
        hours.setLogX(true);
        hours.setSeries({{QStringLiteral("jct"), Qt::blue, {0.001, 0.5, 40}, {0, 50, 100}, false, false}});
        QCOMPARE(base(hours.plot()->xAxis), 10.0);
        hours.resize(600, 400);
        hours.plot()->replot();
        const QVector<QString> labels = hours.plot()->xAxis->tickVectorLabels();
        QVERIFY2(labels.contains(QStringLiteral("0.01")) && labels.contains(QStringLiteral("10")),
            qPrintable(QStringList(labels.begin(), labels.end()).join(QLatin1Char(' '))));
        for (const QString& label : labels)
            QVERIFY2(label.size() <= 5, qPrintable(label));
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
