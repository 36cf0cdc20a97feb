// SPDX-License-Identifier: GPL-3.0-or-later
// The topology editor builds a two-group heterogeneous cluster through its widgets; every step is one undo step that
// undoes and redoes exactly, and the result saves and reopens as the same document. The diagram draws each issue
// the core reports once, stays a handful of items for 2,000 nodes, and exports like every chart.
#include "core/evaluation/purchasefigures.h"
#include "core/io/scenariojson.h"
#include "core/model/gpucatalog.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/figurelist.h"
#include "ui/panels/topologyform.h"
#include "ui/panels/topologypanel.h"
#include "ui/panels/topologyscene.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace clusterplanner;

namespace {

/// A scenario whose cluster has no node group yet: the editor builds it from nothing.
core::Scenario emptyCluster()
{
    core::Scenario s = core::defaultScenario();
    s.topology.groups.clear();
    s.trainingGroup.clear();
    return s;
}

template <typename T>
T* child(QWidget& panel, const char* name)
{
    T* widget = panel.findChild<T*>(QLatin1String(name));
    if (!widget)
        qFatal("no widget %s", name);
    return widget;
}

/// Types `text` into a spin box or line edit as a user would (select all, type, Enter).
void type(QWidget* widget, const QString& text)
{
    widget->setFocus();
    QTest::keyClick(widget, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(widget, text);
    QTest::keyClick(widget, Qt::Key_Return);
}

/// Picks the item with `data` as a user would from the popup (the form listens to activated()).
void choose(QComboBox* combo, const QString& data)
{
    const int index = combo->findData(data);
    if (index < 0)
        qFatal("no item %s", qPrintable(data));
    combo->setCurrentIndex(index);
    Q_EMIT combo->activated(index);
}

} // namespace

class TestTopologyEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildsTwoGroupClusterThroughWidgetsUndoRedoSaveOpen()
    {
        ui::ScenarioDocument doc;
        doc.newDocument(emptyCluster());
        ui::TopologyPanel panel(&doc);
        panel.resize(1400, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QUndoStack* stack = doc.undoStack();
        const std::size_t tiersBefore = doc.scenario().topology.fabric.tiers.size();
        std::vector<core::Scenario> states {doc.scenario()};
        const auto step = [&](const char* what) {
            QVERIFY2(stack->count() == int(states.size()), what); // exactly one new undo step per action
            QVERIFY2(doc.scenario() != states.back(), what);
            states.push_back(doc.scenario());
        };

        child<QPushButton>(panel, "topology.addGroup")->click();
        step("add first group");
        QCOMPARE(doc.scenario().trainingGroup, doc.scenario().topology.groups.at(0).name);
        // The default run (256 GPUs) cannot use more GPUs than its new 8-node group: it shrank with it, same step.
        QCOMPARE(doc.scenario().cluster.gpuCount, int(doc.scenario().topology.groups[0].gpuCount()));
        QCOMPARE(doc.scenario().training.layout.gpuCount(), doc.scenario().cluster.gpuCount);
        type(child<QSpinBox>(panel, "topology.group.nodes"), QStringLiteral("16"));
        step("16 nodes");
        child<QPushButton>(panel, "topology.addGroup")->click();
        step("add second group");
        QCOMPARE(panel.form()->currentGroup(), 1);
        type(child<QLineEdit>(panel, "topology.group.name"), QStringLiteral("mi300x"));
        step("rename");
        choose(child<QComboBox>(panel, "topology.group.gpu"), QStringLiteral("MI300X"));
        step("GPU type");
        type(child<QSpinBox>(panel, "topology.group.nodes"), QStringLiteral("4"));
        step("4 nodes");
        type(child<QSpinBox>(panel, "topology.group.nodes_per_rack"), QStringLiteral("2"));
        step("2 nodes per rack");
        type(child<QDoubleSpinBox>(panel, "topology.group.gpu_power_limit_w"), QStringLiteral("600"));
        step("power limit");
        child<QPushButton>(panel, "topology.addTier")->click();
        step("add core tier");
        type(child<QSpinBox>(panel, "topology.tier.switch_radix"), QStringLiteral("128"));
        step("radix");

        const core::Scenario built = doc.scenario();
        QCOMPARE(built.topology.groups.size(), std::size_t(2));
        const auto& first = built.topology.groups[0];
        const auto& second = built.topology.groups[1];
        QCOMPARE(first.nodeCount, 16);
        QCOMPARE(second.name, std::string("mi300x"));
        QCOMPARE(second.gpuId, std::string("MI300X"));
        QCOMPARE(second.nodeCount, 4);
        QCOMPARE(second.nodesPerRack, 2);
        QCOMPARE(second.gpuPowerLimitW.value_or(0), 600.0);
        QCOMPARE(built.topology.fabric.tiers.size(), tiersBefore + 1);
        QCOMPARE(built.topology.fabric.tiers.back().switchRadix, 128);
        QCOMPARE(built.topology.gpuCount(), 16LL * first.gpusPerNode + 4LL * second.gpusPerNode);

        // The diagram draws both groups; the figures are the core's.
        const auto figures = core::evaluation::purchaseFigures(built);
        QVERIFY(figures);
        QCOMPARE(panel.figures()->valueText(QStringLiteral("cluster.gpus")), QLocale().toString(figures->cluster.gpus));
        int groupItems = 0;
        for (auto* item : panel.scene()->items())
            groupItems += item->data(0).toInt() == int(ui::TopologyElement::Group);
        QCOMPARE(groupItems, 2);

        for (int i = int(states.size()) - 2; i >= 0; --i) {
            stack->undo();
            QVERIFY2(doc.scenario() == states[std::size_t(i)], qPrintable(QString::number(i)));
        }
        for (std::size_t i = 1; i < states.size(); ++i) {
            stack->redo();
            QVERIFY2(doc.scenario() == states[i], qPrintable(QString::number(i)));
        }
        QCOMPARE(doc.scenario(), built);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mixed.cplan.json"));
        QCOMPARE(doc.save(path), QString());
        ui::ScenarioDocument reopened;
        QCOMPARE(reopened.load(path), QString());
        // The file text first, so that a difference shows where it is; then the values themselves.
        QCOMPARE(QString::fromStdString(core::writeScenarioFile(reopened.scenario())),
            QString::fromStdString(core::writeScenarioFile(built)));
        QVERIFY(reopened.scenario() == built);
    }

    void trainingGroupFollowsRenameAndRemove()
    {
        ui::ScenarioDocument doc;
        doc.newDocument(emptyCluster());
        ui::TopologyPanel panel(&doc);
        child<QPushButton>(panel, "topology.addGroup")->click();
        child<QPushButton>(panel, "topology.duplicateGroup")->click();
        QCOMPARE(doc.scenario().topology.groups.size(), std::size_t(2));
        panel.form()->setCurrentGroup(0);
        type(child<QLineEdit>(panel, "topology.group.name"), QStringLiteral("old-pod"));
        QCOMPARE(doc.scenario().trainingGroup, std::string("old-pod"));
        // A name another group has is refused and the field shows the stored name again.
        type(child<QLineEdit>(panel, "topology.group.name"),
            QString::fromStdString(doc.scenario().topology.groups[1].name));
        QCOMPARE(doc.scenario().topology.groups[0].name, std::string("old-pod"));
        QCOMPARE(child<QLineEdit>(panel, "topology.group.name")->text(), QStringLiteral("old-pod"));
        child<QPushButton>(panel, "topology.removeGroup")->click();
        QCOMPARE(doc.scenario().topology.groups.size(), std::size_t(1));
        QCOMPARE(doc.scenario().trainingGroup, doc.scenario().topology.groups[0].name);
        // The last fabric tier cannot be removed.
        auto* removeTier = child<QPushButton>(panel, "topology.removeTier");
        while (removeTier->isEnabled())
            removeTier->click();
        QCOMPARE(doc.scenario().topology.fabric.tiers.size(), std::size_t(1));
    }

    /// A training setting the engine refuses (FP8 on an A100) leaves the cluster's figures standing: the price, power
    /// and fabric do not depend on it; the summary gives the run's refusal instead of its time to train.
    void refusedTrainingKeepsTheClusterFigures()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = core::defaultScenario();
        s.topology.groups.at(0).gpuId = "A100-SXM-80GB";
        s.cluster.gpuId = "A100-SXM-80GB";
        s.training.precision = core::Precision::Fp8;
        doc.newDocument(s);
        ui::TopologyPanel panel(&doc);
        QVERIFY(!panel.figures()->valueText(QStringLiteral("cluster.gpus")).isEmpty());
        QVERIFY2(panel.summaryText().contains(QLatin1String("no training run: training.precision: fp8 needs")),
            qPrintable(panel.summaryText()));
        const auto figures = core::evaluation::purchaseFigures(doc.scenario());
        QVERIFY(figures && !figures->run.fits && figures->cluster.gpus > 0);
    }

    /// A group whose GPU id the catalog lacks (a typo in a file) shows that id in the GPU box, marked, rather than a
    /// blank box; choosing a catalog GPU replaces it and the marked item goes.
    void unknownGpuIdIsShownAsItIs()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = core::defaultScenario();
        s.topology.groups.at(0).gpuId = "A100-SXM-80G";
        doc.newDocument(s);
        ui::TopologyPanel panel(&doc);
        auto* gpu = child<QComboBox>(panel, "topology.group.gpu");
        const int catalogItems = int(core::GpuCatalog::builtin().gpus().size());
        QCOMPARE(gpu->count(), catalogItems + 1);
        QVERIFY2(gpu->currentText().contains(QLatin1String("A100-SXM-80G (not in the catalog)")),
            qPrintable(gpu->currentText()));
        choose(gpu, QStringLiteral("A100-SXM-80GB"));
        QCOMPARE(doc.scenario().topology.groups.at(0).gpuId, std::string("A100-SXM-80GB"));
        QCOMPARE(gpu->count(), catalogItems);
    }

    /// A cluster the engine cannot read (a node group whose GPU id the catalog lacks) shows its whole error in place
    /// of the figures, wrapped to the list's width and over its whole viewport, where one row cut it at the column's
    /// edge; mended, the figures and their header come back.
    void unreadableClusterShowsItsWholeErrorWrapped()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = core::defaultScenario();
        QVERIFY(!s.topology.groups.empty());
        core::cluster::NodeGroup spare = s.topology.groups.front();
        spare.name = "spare";
        s.topology.groups.push_back(spare);
        doc.newDocument(s);
        ui::TopologyPanel panel(&doc);
        panel.resize(1600, 1000);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        ui::FigureList* list = panel.figures();
        auto* label = list->findChild<QLabel*>(QStringLiteral("figures.error"));
        QVERIFY(label);
        QVERIFY(!label->isVisible() && !list->header()->isHidden());
        QVERIFY(!list->valueText(QStringLiteral("cluster.gpus")).isEmpty());

        core::Scenario broken = doc.scenario();
        broken.topology.groups.back().gpuId = "A100-SXM-80G";
        doc.edit(broken, QStringLiteral("mistype"));
        const auto result = core::evaluation::purchaseFigures(doc.scenario());
        QVERIFY(!result);
        const QString expected = QStringLiteral("No figures: ") + QString::fromStdString(result.error().text());
        QCOMPARE(list->errorText(), expected);
        QVERIFY(label->isVisible() && label->wordWrap() && list->header()->isHidden());
        QCOMPARE(list->topLevelItemCount(), 0);
        // The viewport grows when the header goes: the message follows it, and all of it fits.
        QTRY_COMPARE(label->geometry(), list->viewport()->rect());
        QVERIFY2(label->heightForWidth(label->width()) <= label->height(),
            qPrintable(
                QStringLiteral("%1 high in %2").arg(label->heightForWidth(label->width())).arg(label->height())));

        core::Scenario mended = doc.scenario();
        mended.topology.groups.back().gpuId = "A100-SXM-80GB";
        doc.edit(mended, QStringLiteral("mend"));
        QVERIFY(list->errorText().isEmpty());
        QVERIFY(!label->isVisible() && !list->header()->isHidden());
        QVERIFY(!list->valueText(QStringLiteral("cluster.gpus")).isEmpty());
    }

    void formFitsItsPaneAtTheScreenshotSize()
    {
        // At 1600 x 1000 the form's right edge (the Remove button, the GPU name) was cut off: the side pane was
        // narrower than the form and has no horizontal scroll bar.
        ui::ScenarioDocument doc;
        doc.newDocument(emptyCluster());
        ui::TopologyPanel panel(&doc);
        child<QPushButton>(panel, "topology.addGroup")->click();
        panel.resize(1600, 960);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* scroll = qobject_cast<QScrollArea*>(panel.form()->parentWidget()->parentWidget());
        QVERIFY(scroll);
        const int visibleWidth = scroll->viewport()->width();
        for (const char* name : {"topology.removeGroup", "topology.group.gpu", "topology.group.name"}) {
            auto* widget = panel.form()->findChild<QWidget*>(QLatin1String(name));
            QVERIFY2(widget, name);
            const int right = widget->mapTo(panel.form(), QPoint(widget->width(), 0)).x();
            QVERIFY2(right <= visibleWidth,
                qPrintable(
                    QStringLiteral("%1 ends at %2 of %3").arg(QLatin1String(name)).arg(right).arg(visibleWidth)));
        }
    }

    void everyCoreIssueIsDrawnOnce()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = emptyCluster();
        core::cluster::NodeGroup hot;
        hot.name = "hot";
        hot.nodeCount = 6;
        hot.nodesPerRack = 8; // eight 8-GPU nodes in one rack: far over 40 kW
        hot.scaleUpDomainGpus = 32; // 4 nodes per domain, which does not divide 6 nodes
        s.topology.groups = {hot};
        s.trainingGroup = "hot";
        s.topology.fabric.tiers = {core::cluster::FabricTier {"leaf", 1.0, 8, 400, {}, {}}};
        doc.newDocument(s);
        ui::TopologyPanel panel(&doc);
        const auto figures = core::evaluation::purchaseFigures(doc.scenario());
        QVERIFY(figures);
        QVERIFY2(!figures->cluster.issues.empty(), "this cluster must have problems");
        const QStringList drawn = panel.scene()->drawnIssues();
        QCOMPARE(drawn.size(), qsizetype(figures->cluster.issues.size()));
        for (const auto& issue : figures->cluster.issues)
            QVERIFY(drawn.contains(QString::fromStdString(issue.where + ": " + issue.reason)));
        QVERIFY(panel.summaryText().contains(QStringLiteral("problem")));
    }

    void twoThousandNodesStayAFewItems()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = emptyCluster();
        core::cluster::NodeGroup big;
        big.name = "big";
        big.nodeCount = 2048;
        s.topology.groups = {big};
        s.trainingGroup = "big";
        doc.newDocument(s);
        ui::TopologyPanel panel(&doc);
        QVERIFY2(panel.scene()->itemCount() < 80, qPrintable(QString::number(panel.scene()->itemCount())));
        QVERIFY(panel.figures()->valueText(QStringLiteral("cluster.gpus")) == QLocale().toString(16384));
    }

    void exportsPngSvgPdf()
    {
        ui::ScenarioDocument doc;
        ui::TopologyPanel panel(&doc);
        QTemporaryDir dir;
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path = dir.filePath(QStringLiteral("topology.") + QLatin1String(suffix));
            QCOMPARE(panel.exportChart(path, QSize(1200, 800)), QString());
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QCOMPARE(QImage(dir.filePath(QStringLiteral("topology.png"))).size(), QSize(1200, 800));
        QVERIFY(!panel.exportChart(dir.filePath(QStringLiteral("topology.bmp")), QSize(100, 100)).isEmpty());
    }
};

QTEST_MAIN(TestTopologyEditor)
#include "tst_topologyeditor.moc"
