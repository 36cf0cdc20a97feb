// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/topologypanel.h"

#include "core/evaluation/purchasefigures.h"
#include "ui/charts/sceneexport.h"
#include "ui/dialogs/exportdialog.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/figurelist.h"
#include "ui/panels/panelwidgets.h"
#include "ui/panels/topologyform.h"
#include "ui/panels/topologyscene.h"

#include <QDate>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr double kSmallestFitScale = 0.5; ///< below this text is unreadable: scroll instead
constexpr double kLargestFitScale = 1.25; ///< a small cluster grows a little into a large window, no more

/// Shows the whole diagram width when it fits at a readable scale; never enlarges.
class TopologyView : public QGraphicsView
{
public:
    explicit TopologyView(QGraphicsScene* scene, QWidget* parent)
        : QGraphicsView(scene, parent)
    {
        setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        setDragMode(QGraphicsView::NoDrag);
        setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        setFocusPolicy(Qt::ClickFocus); // a click makes the diagram the "current chart" for File ▸ Export
        connect(scene, &QGraphicsScene::sceneRectChanged, this, [this] { fit(); });
    }

    void fit()
    {
        const QRectF rect = sceneRect();
        if (rect.isEmpty())
            return;
        const double byWidth = (viewport()->width() - 4) / rect.width();
        const double byHeight = (viewport()->height() - 4) / rect.height();
        // Fit the whole diagram when that stays readable, else fit the width and scroll down.
        double scale = std::min({kLargestFitScale, byWidth, byHeight});
        if (scale < kSmallestFitScale)
            scale = std::clamp(std::min(1.0, byWidth), kSmallestFitScale, 1.0);
        setTransform(QTransform::fromScale(scale, scale));
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QGraphicsView::resizeEvent(event);
        fit();
    }
};

} // namespace

TopologyPanel::TopologyPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_scene(new TopologyScene(this))
    , m_view(new TopologyView(m_scene, this))
    , m_form(new TopologyForm(document, this))
    , m_figures(new FigureList(this))
    , m_summary(new QLabel(this))
    , m_export(new QPushButton(tr("Export diagram…"), this))
{
    setObjectName(QStringLiteral("topologyPanel"));
    m_view->setObjectName(QStringLiteral("topology.diagram"));
    m_figures->setObjectName(QStringLiteral("topology.figures"));
    m_export->setObjectName(QStringLiteral("topology.export"));
    createLayout();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &TopologyPanel::onScenarioChanged);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &TopologyPanel::onDiagramSelection);
    connect(m_form, &TopologyForm::currentGroupChanged, this, [this] {
        m_selectedKind = TopologyElement::Group;
        selectInDiagram();
    });
    connect(m_form, &TopologyForm::currentTierChanged, this, [this] {
        m_selectedKind = TopologyElement::Tier;
        selectInDiagram();
    });
    connect(m_export, &QPushButton::clicked, this, &TopologyPanel::exportWithDialog);
    refresh();
}

void TopologyPanel::createLayout()
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_export);
    auto* formScroll = new QScrollArea(this);
    formScroll->setWidgetResizable(true);
    formScroll->setWidget(m_form);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Without a horizontal scroll bar the pane must be at least as wide as the form, or its right edge is cut off.
    formScroll->setMinimumWidth(m_form->minimumSizeHint().width() + formScroll->verticalScrollBar()->sizeHint().width()
        + 2 * formScroll->frameWidth());
    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_figures);
    side->addWidget(formScroll);
    side->setStretchFactor(0, 3); // the live figures first; the form scrolls
    side->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 360});
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    setScrollingBody(this, content);
}

void TopologyPanel::onScenarioChanged(ScenarioChanges changes)
{
    if (!(changes & kEngineInputs))
        return;
    refresh();
    Q_EMIT refreshed();
}

// The scene is a child, deleted by ~QObject after this class's part is gone; clearing its items emits
// selectionChanged, which must not reach onDiagramSelection on a half-destroyed panel (UBSan found the call).
TopologyPanel::~TopologyPanel()
{
    disconnect(m_scene, nullptr, this, nullptr);
}

void TopologyPanel::refresh()
{
    const core::Scenario& scenario = m_document->scenario();
    m_form->refresh();
    const auto result = core::evaluation::purchaseFigures(scenario);
    if (!result) {
        const QString error = QString::fromStdString(result.error().text());
        m_scene->setCluster(scenario.topology, scenario.trainingGroup, nullptr, error);
        m_figures->showError(tr("No figures: %1").arg(error));
        m_summary->setText(tr("No figures: %1").arg(error));
    } else {
        m_scene->setCluster(scenario.topology, scenario.trainingGroup, &result->cluster);
        m_figures->setRows(purchaseRows(*result));
        const auto& c = result->cluster;
        const int issues = int(c.issues.size());
        const auto& run = result->run;
        const QString training = run.fits ? tr(" · the run trains in %1 days at %2 per M tokens")
                                                .arg(run.timeToTrainDays, 0, 'f', 1)
                                                .arg(formatUsd(run.ownedUsdPerMillionTokens))
                                          : tr(" · no training run: %1").arg(QString::fromStdString(run.whyNot));
        const QString problems = issues == 0 ? tr("buildable as drawn")
                                             : tr("<span style='color:#d03030'><b>%1</b> marked in red</span>")
                                                   .arg(issues == 1 ? tr("1 problem") : tr("%1 problems").arg(issues));
        m_summary->setText(
            tr("<b>%1 GPUs</b> in %2 · %3 MW facility · TCO %4")
                .arg(QLocale().toString(c.gpus))
                .arg(scenario.topology.groups.size() == 1 ? tr("1 node group")
                                                          : tr("%1 node groups").arg(scenario.topology.groups.size()))
                .arg(c.facilityPowerKw / 1000, 0, 'f', 2)
                .arg(formatUsd(c.tcoUsd))
            + training.toHtmlEscaped() + QStringLiteral(" · ") + problems);
    }
    selectInDiagram();
}

QString TopologyPanel::summaryText() const
{
    return m_summary->text();
}

void TopologyPanel::onDiagramSelection()
{
    const auto [kind, index] = m_scene->selectedElement();
    if (kind != TopologyElement::None)
        m_selectedKind = kind;
    if (kind == TopologyElement::Group)
        m_form->setCurrentGroup(index);
    else if (kind == TopologyElement::Tier)
        m_form->setCurrentTier(index);
}

void TopologyPanel::selectInDiagram()
{
    const bool tier = m_selectedKind == TopologyElement::Tier;
    m_scene->selectElement(m_selectedKind, tier ? m_form->currentTier() : m_form->currentGroup());
}

QString TopologyPanel::exportChart(const QString& path, const QSize& sizePx) const
{
    const auto& scenario = m_document->scenario();
    const QString caption = tr("%1 · %2 GPUs · ClusterPlanner · %3")
                                .arg(QString::fromStdString(scenario.name))
                                .arg(QLocale().toString(scenario.topology.gpuCount()))
                                .arg(QDate::currentDate().toString(Qt::ISODate));
    return exportScene(*m_scene, path, sizePx, {tr("Cluster topology"), caption, 96});
}

void TopologyPanel::exportWithDialog()
{
    ExportDialog dialog(chartTitle(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString error = exportChart(dialog.path(), dialog.size());
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace clusterplanner::ui
