// SPDX-License-Identifier: GPL-3.0-or-later
// A panel that follows the document: a summary line above one chart, both rebuilt when a part of the scenario
// they depend on changes.
#pragma once

#include "ui/document/scenariochange.h"

#include <QStringList>
#include <QWidget>

class QLabel;

namespace clusterplanner::ui {

class ChartWidget;
class ScenarioDocument;

class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    QString summaryText() const;
    /// Re-reads the document; derived panels draw their chart and summary here.
    virtual void refresh() = 0;

Q_SIGNALS:
    /// refresh() ran because the document changed (tests and the report wait on it).
    void refreshed();

protected:
    /// Takes ownership of chart. Derived constructors call refresh() once they are complete.
    ChartPanel(ScenarioDocument* document, ChartWidget* chart, QWidget* parent);
    ScenarioDocument* document() const { return m_document; }
    /// The chart passed to the constructor, as the type the derived panel created.
    template <typename Chart>
    Chart* chartAs() const
    {
        return static_cast<Chart*>(m_chart);
    }
    void setSummary(const QString& text);
    /// Nothing to draw: the summary states the heading in bold and the reason under it, and the chart is hidden, since
    /// an empty frame would draw axes scaled to nothing. showChart() brings it back with the next figures.
    void showWithoutChart(const QString& heading, const QString& reason)
    {
        showWithoutChart(heading, QStringList {reason});
    }
    /// The same, one line per reason.
    void showWithoutChart(const QString& heading, const QStringList& reasons);
    void showChart();
    /// The parts of the scenario the panel's figures depend on; others (the name, the notes) do not refresh it.
    virtual ScenarioChanges dependencies() const { return kEngineInputs; }

private:
    void onScenarioChanged(ScenarioChanges changes);

    ScenarioDocument* m_document;
    ChartWidget* m_chart;
    QLabel* m_summary;
};

} // namespace clusterplanner::ui
