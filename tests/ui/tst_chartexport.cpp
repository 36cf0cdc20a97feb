// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartexport.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace clusterplanner::ui;

class TestChartExport : public QObject
{
    Q_OBJECT

private:
    static void fill(QCustomPlot& plot)
    {
        auto* graph = plot.addGraph();
        for (int i = 0; i < 50; ++i)
            graph->addData(i, i * i);
        plot.rescaleAxes();
        plot.xAxis->setLabel(QStringLiteral("GPUs"));
        plot.resize(640, 400);
    }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void pngHasRequestedSize()
    {
        QCustomPlot plot;
        fill(plot);
        const QString path = m_dir.filePath(QStringLiteral("chart.png"));
        QCOMPARE(exportPlot(plot, path, QSize(800, 500)), QString());
        const QImage image(path);
        QCOMPARE(image.size(), QSize(800, 500));
    }

    void svgIsValidVectorOfRequestedSize()
    {
        QCustomPlot plot;
        fill(plot);
        const QString path = m_dir.filePath(QStringLiteral("chart.svg"));
        QCOMPARE(exportPlot(plot, path, QSize(1000, 600)), QString());
        QSvgRenderer renderer(path);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox().size(), QSize(1000, 600));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray svg = file.readAll();
        QVERIFY(svg.contains("<polyline") || svg.contains("<path")); // vector lines, not a raster
    }

    void pdfIsValidOfRequestedSize()
    {
        QCustomPlot plot;
        fill(plot);
        const QString path = m_dir.filePath(QStringLiteral("chart.pdf"));
        QCOMPARE(exportPlot(plot, path, QSize(960, 600)), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        // The page's MediaBox is the requested size in points (QCustomPlot writes at 1 unit per pixel).
        const auto match = QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"))
                               .match(QString::fromLatin1(bytes));
        QVERIFY(match.hasMatch());
        QVERIFY(qAbs(match.captured(1).toDouble() / match.captured(2).toDouble() - 960.0 / 600.0) < 0.01);
    }

    void badRequestsAreRefusedWithAMessage()
    {
        QCustomPlot plot;
        fill(plot);
        QVERIFY(exportPlot(plot, m_dir.filePath(QStringLiteral("x.bmp2")), QSize(100, 100))
                    .contains(QLatin1String("format")));
        QVERIFY(
            exportPlot(plot, m_dir.filePath(QStringLiteral("x.png")), QSize(0, 100)).contains(QLatin1String("size")));
        QVERIFY(!exportPlot(plot, QStringLiteral("/nonexistent-dir/x.png"), QSize(100, 100)).isEmpty());
    }
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"
