// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartwidget.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/chartstyle.h"
#include "ui/dialogs/exportdialog.h"

#include <QDate>
#include <QMenu>
#include <QMessageBox>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace clusterplanner::ui {

ChartWidget::ChartWidget(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    // A click focuses the chart, so that File ▸ Export ▸ Current chart… knows which one is meant.
    m_plot->setFocusPolicy(Qt::ClickFocus);
    setFocusProxy(m_plot);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ChartWidget::showContextMenu);
    applyChartStyle(*m_plot, palette());
}

ChartWidget::~ChartWidget() = default;

void ChartWidget::exportWithDialog()
{
    ExportDialog dialog(objectName(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString error = exportPlot(*m_plot, dialog.path(), dialog.size(), decoration());
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

QString ChartWidget::chartTitle() const
{
    return objectName().isEmpty() ? QStringLiteral("chart") : objectName();
}

QString ChartWidget::exportChart(const QString& path, const QSize& sizePx) const
{
    return exportPlot(*m_plot, path, sizePx, decoration());
}

QString ChartWidget::displayTitle() const
{
    if (!m_displayTitle.isEmpty())
        return m_displayTitle;
    QString words = chartTitle();
    words.replace(QLatin1Char('-'), QLatin1Char(' '));
    return words.left(1).toUpper() + words.mid(1);
}

ChartDecoration ChartWidget::decoration(int dpi) const
{
    const QString date = QDate::currentDate().toString(Qt::ISODate);
    return {displayTitle(), m_caption.isEmpty() ? tr("ClusterPlanner · %1").arg(date) : m_caption, dpi};
}

void ChartWidget::copyImage()
{
    copyPlotImage(*m_plot, m_plot->size());
}

void ChartWidget::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyChartStyle(*m_plot, palette());
        replot();
    }
}

void ChartWidget::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    menu.addAction(tr("Export…"), this, &ChartWidget::exportWithDialog);
    menu.addAction(tr("Copy image"), this, &ChartWidget::copyImage);
    extendContextMenu(menu);
    menu.exec(m_plot->mapToGlobal(position));
}

} // namespace clusterplanner::ui
