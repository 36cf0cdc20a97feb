// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartexport.h"
#include "ui/charts/chartwidget.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <QXmlStreamReader>

#include <qcustomplot.h>

using namespace clusterplanner::ui;

namespace {

/// The smallest ChartWidget: a line, so that the export has something to draw.
class LineTestChart : public ChartWidget
{
public:
    void replot() override { plot()->replot(); }
};

bool isInk(QRgb pixel)
{
    return qGray(pixel) < 128;
}

bool rowHasInk(const QImage& image, int y)
{
    for (int x = 0; x < image.width(); ++x)
        if (isInk(image.pixel(x, y)))
            return true;
    return false;
}

/// Height in pixels of the first run of rows with dark pixels from the top: the title's ink.
int titleInkHeight(const QImage& image)
{
    int y = 0;
    while (y < image.height() && !rowHasInk(image, y))
        ++y;
    const int top = y;
    while (y < image.height() && rowHasInk(image, y))
        ++y;
    return y - top;
}

/// Text of the first element named `name` in an SVG file, or a null string.
QString svgElementText(const QString& path, const QString& name)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == name)
            return xml.readElementText();
    }
    return {};
}

} // namespace

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

    void decoratedPngKeepsPixelSizeAndRecordsDpi()
    {
        QCustomPlot plot;
        fill(plot);
        const QString path = m_dir.filePath(QStringLiteral("decorated.png"));
        const ChartDecoration decoration {QStringLiteral("Title"), QStringLiteral("caption"), 300};
        QCOMPARE(exportPlot(plot, path, QSize(1200, 750), decoration), QString());
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1200, 750));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
    }

    void svgCarriesTitleAndCaption()
    {
        QCustomPlot plot;
        fill(plot);
        const QString path = m_dir.filePath(QStringLiteral("titled.svg"));
        const ChartDecoration decoration {QStringLiteral("Memory per GPU"), QStringLiteral("GPT-3 · DP 16"), 96};
        QCOMPARE(exportPlot(plot, path, QSize(960, 600), decoration), QString());
        QVERIFY(QSvgRenderer(path).isValid());
        QCOMPARE(svgElementText(path, QStringLiteral("title")), decoration.title);
        QCOMPARE(svgElementText(path, QStringLiteral("desc")), decoration.caption);
    }

    void fontsScaleWithOutputSize()
    {
        QCustomPlot plot;
        fill(plot);
        const ChartDecoration decoration {QStringLiteral("Scaling title"), QStringLiteral("caption"), 96};
        const QString small = m_dir.filePath(QStringLiteral("small.png"));
        const QString large = m_dir.filePath(QStringLiteral("large.png"));
        QCOMPARE(exportPlot(plot, small, QSize(960, 600), decoration), QString());
        QCOMPARE(exportPlot(plot, large, QSize(1920, 1200), decoration), QString());
        const int smallInk = titleInkHeight(QImage(small));
        const int largeInk = titleInkHeight(QImage(large));
        QVERIFY2(smallInk >= 8, qPrintable(QString::number(smallInk)));
        const double ratio = double(largeInk) / smallInk;
        QVERIFY2(ratio > 1.7 && ratio < 2.3, qPrintable(QString::number(ratio))); // twice the size, twice the text
    }

    void clickingAChartFocusesIt()
    {
        QWidget window;
        auto* edit = new QLineEdit(&window);
        auto* chart = new LineTestChart;
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(edit);
        layout->addWidget(chart);
        window.resize(400, 300);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        edit->setFocus();
        QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, QPoint(100, 100));
        QCOMPARE(exportableChartAt(QApplication::focusWidget()), static_cast<ExportableChart*>(chart));
    }

    void chartWidgetExportCarriesItsTitle()
    {
        LineTestChart chart;
        chart.setObjectName(QStringLiteral("memory-breakdown"));
        QCOMPARE(chart.displayTitle(), QStringLiteral("Memory breakdown"));
        chart.setExportCaption(QStringLiteral("scenario · layout · date"));
        const QString path = m_dir.filePath(QStringLiteral("widget.svg"));
        QCOMPARE(chart.exportChart(path, QSize(800, 500)), QString());
        QCOMPARE(svgElementText(path, QStringLiteral("title")), QStringLiteral("Memory breakdown"));
        QCOMPARE(svgElementText(path, QStringLiteral("desc")), QStringLiteral("scenario · layout · date"));
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
        const ChartDecoration lowDpi {QString(), QString(), 5};
        QVERIFY(exportPlot(plot, m_dir.filePath(QStringLiteral("x.png")), QSize(100, 100), lowDpi)
                    .contains(QLatin1String("dpi")));
    }
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"
