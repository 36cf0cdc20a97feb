// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/chartpanel.h"

#include "ui/charts/chartwidget.h"
#include "ui/document/scenariodocument.h"

#include <QLabel>
#include <QVBoxLayout>

namespace clusterplanner::ui {

ChartPanel::ChartPanel(ScenarioDocument* document, ChartWidget* chart, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_chart(chart)
    , m_summary(new QLabel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(chart, 1);
    layout->addStretch(0); // where a panel hides its chart (nothing to draw), the summary stays at the top
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &ChartPanel::onScenarioChanged);
}

void ChartPanel::onScenarioChanged(ScenarioChanges changes)
{
    if (!(changes & dependencies()))
        return;
    refresh();
    Q_EMIT refreshed();
}

QString ChartPanel::summaryText() const
{
    return m_summary->text();
}

void ChartPanel::setSummary(const QString& text)
{
    m_summary->setText(text);
}

void ChartPanel::showWithoutChart(const QString& heading, const QStringList& reasons)
{
    QStringList lines;
    for (const QString& reason : reasons)
        lines << reason.toHtmlEscaped();
    setSummary(tr("<b>%1</b><br>%2").arg(heading.toHtmlEscaped(), lines.join(QStringLiteral("<br>"))));
    m_chart->setVisible(false);
}

void ChartPanel::showChart()
{
    m_chart->setVisible(true);
}

} // namespace clusterplanner::ui
