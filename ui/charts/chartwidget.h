// SPDX-License-Identifier: GPL-3.0-or-later
// Base of every chart: a QCustomPlot with palette styling and the Export… / Copy image context menu.
#pragma once

#include "ui/charts/chartexport.h"
#include "ui/charts/exportablechart.h"

#include <QWidget>

class QCustomPlot;
class QMenu;

namespace clusterplanner::ui {

class ChartWidget : public QWidget, public ExportableChart
{
    Q_OBJECT
public:
    explicit ChartWidget(QWidget* parent = nullptr);
    ~ChartWidget() override;

    QCustomPlot* plot() const { return m_plot; }
    /// The chart's objectName doubles as its export title (e.g. "memory-breakdown").
    QString chartTitle() const override;
    /// Writes the chart with its title and caption (see decoration()).
    QString exportChart(const QString& path, const QSize& sizePx) const override;
    /// The title shown above an exported chart: the one set, else the objectName in words ("Memory breakdown").
    QString displayTitle() const;
    void setDisplayTitle(const QString& title) { m_displayTitle = title; }
    /// The line below an exported chart (scenario, layout, date); the owner of the scenario keeps it current.
    QString exportCaption() const { return m_caption; }
    void setExportCaption(const QString& caption) { m_caption = caption; }
    /// Title, caption (today's date when none was set) and resolution of an export.
    ChartDecoration decoration(int dpi = 96) const;
    /// Asks for a file and size and exports; errors are shown in a message box.
    void exportWithDialog();
    void copyImage();
    /// Rebuilds the plot's content; subclasses draw their data here (also called on palette changes).
    virtual void replot() = 0;

protected:
    void changeEvent(QEvent* event) override;
    /// Subclasses may add their own entries after Export… and Copy image.
    virtual void extendContextMenu(QMenu&) { }

private:
    void showContextMenu(const QPoint& position);

    QCustomPlot* m_plot;
    QString m_displayTitle;
    QString m_caption;
};

} // namespace clusterplanner::ui
