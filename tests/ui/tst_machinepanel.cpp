// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the "This machine" panel over the fake NVML / CUDA libraries: cards, planning with the probed GPUs as
// one undo step, benchmarks off the GUI thread with the override saved and reverted, the local catalog, no GPU.
#include "tests/core/probetesthelpers.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/machinebenchrunner.h"
#include "ui/panels/machinegpucard.h"
#include "ui/panels/machinepanel.h"
#include "ui/panels/machinetopologyview.h"
#include "ui/settings/localcatalogfile.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace clusterplanner::ui;
using probetest::fakeMachine;

namespace {

struct Fixture
{
    explicit Fixture(const std::string& machine)
    {
        fakeMachine(machine);
        panel = std::make_unique<MachinePanel>(&document);
        panel->setStorageFolder(folder.path());
        panel->probe();
    }
    QTemporaryDir folder;
    ScenarioDocument document;
    std::unique_ptr<MachinePanel> panel;

    QList<MachineGpuCard*> cards() const { return panel->findChildren<MachineGpuCard*>(); }
    QPushButton* button(const char* name) const { return panel->findChild<QPushButton*>(QLatin1String(name)); }
};

bool anyLabelContains(const QWidget* widget, const QString& text)
{
    for (const auto* label : widget->findChildren<QLabel*>())
        if (label->text().contains(text))
            return true;
    return false;
}

} // namespace

class TestMachinePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void h100NodeShowsEightCardsAndTheTopology()
    {
        Fixture f("h100x8.json");
        QCOMPARE(f.cards().size(), 8);
        QVERIFY(anyLabelContains(f.panel.get(), QStringLiteral("8 NVIDIA GPU(s) · driver 580.159.04 · CUDA 13.0")));
        QVERIFY(anyLabelContains(f.cards().front(), QStringLiteral("Catalog: H100-SXM-80GB")));
        QVERIFY(anyLabelContains(f.cards().front(), QStringLiteral("reserves 480 MiB")));
        const auto* topology = f.panel->findChild<MachineTopologyView*>();
        QCOMPARE(topology->summary(), QStringLiteral("28 pair(s): NVLink 4 via NVSwitch"));
    }

    void useGpusIsOneUndoStep()
    {
        Fixture f("h100x8.json");
        const auto before = f.document.scenario();
        QVERIFY(f.button("useGpus")->isEnabled());
        f.button("useGpus")->click();
        const auto& cluster = f.document.scenario().cluster;
        QCOMPARE(cluster.gpuId, std::string("H100-SXM-80GB"));
        QCOMPARE(cluster.gpuCount, 8);
        QCOMPARE(cluster.gpusPerNode, 8);
        QCOMPARE(f.document.scenario().training.layout.gpuCount(), 8);
        QCOMPARE(f.document.undoStack()->count(), 1);
        f.document.undoStack()->undo();
        QVERIFY(f.document.scenario() == before);
    }

    void scenarioForMachineKeepsTheLayoutConsistent()
    {
        auto before = clusterplanner::core::defaultScenario();
        before.training.layout = {};
        before.training.layout.tp = 8;
        before.training.layout.pp = 4;
        const auto after = scenarioForMachine(before, "RTX-4090", 2);
        QCOMPARE(after.training.layout.tp, 2);
        QCOMPARE(after.training.layout.dp, 1);
        QCOMPARE(after.training.layout.pp, 1);
        QCOMPARE(scenarioForMachine(before, "A100-SXM-80GB", 12).training.layout.tp, 4);
    }

    void benchmarksRunOffTheGuiThreadAndFeedTheOverride()
    {
        Fixture f("h100x8.json");
        QSignalSpy finished(f.panel->benchRunner(), &MachineBenchRunner::finished);
        f.button("runBenchmarks")->click();
        QVERIFY(finished.wait(20000));
        QVERIFY(anyLabelContains(f.panel.get(), QStringLiteral("d2d_memcpy: 3021.")));
        auto* save = f.panel->findChild<QPushButton*>();
        for (auto* b : f.panel->findChildren<QPushButton*>())
            if (b->text().contains(QStringLiteral("measured efficiencies")))
                save = b;
        QVERIFY(save->isEnabled());
        save->click();
        LocalCatalogFile storage(f.folder.path());
        QVERIFY(storage.readOverrides().contains(QStringLiteral("hbm_fraction")));
        QVERIFY(anyLabelContains(f.panel.get(), QStringLiteral("Override saved")));
        QVERIFY(anyLabelContains(f.panel.get(), QStringLiteral("large-GEMM efficiency")));
        QVERIFY(!anyLabelContains(f.panel.get(), QStringLiteral("matmul_reference_fraction"))); // bookkeeping only
        for (auto* b : f.panel->findChildren<QPushButton*>())
            if (b->text().contains(QStringLiteral("Revert")))
                b->click();
        QVERIFY(!storage.readOverrides().contains(QStringLiteral("hbm_fraction")));
    }

    void cancelStopsBeforeTheNextBenchmark()
    {
        Fixture f("h100x8.json");
        QSignalSpy finished(f.panel->benchRunner(), &MachineBenchRunner::finished);
        f.panel->runBenchmarks();
        f.panel->benchRunner()->cancel();
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.at(0).at(1).toBool(), true); // whether it stopped early depends on the worker's pace
        QVERIFY(finished.at(0).at(0).value<BenchResults>().size() <= 6);
        QVERIFY(f.button("runBenchmarks")->isEnabled());
    }

    void unknownGpuGoesToTheLocalCatalog()
    {
        Fixture f("workstation.json");
        QCOMPARE(f.cards().size(), 2);
        auto* add = f.cards().at(1)->findChild<QPushButton*>(QStringLiteral("addLocal"));
        QVERIFY(add);
        add->click();
        QTRY_VERIFY(
            LocalCatalogFile(f.folder.path()).readCatalog().contains(QStringLiteral("local-nvidia-geforce-rtx-3090")));
        QTRY_VERIFY(f.cards().size() == 2
            && anyLabelContains(f.cards().at(1), QStringLiteral("local-nvidia-geforce-rtx-3090 — local")));
    }

    void withoutGpuItSaysSoAndHelps()
    {
        probetest::noDriver();
        ScenarioDocument document;
        MachinePanel panel(&document);
        panel.probe();
        QVERIFY(anyLabelContains(&panel, QStringLiteral("No NVIDIA GPU found on this machine: no NVIDIA driver")));
        QVERIFY(anyLabelContains(&panel, QStringLiteral("Install the NVIDIA driver")));
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("useGpus"))->isEnabled());
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("runBenchmarks"))->isEnabled());
        QVERIFY(panel.findChildren<MachineGpuCard*>().isEmpty());
    }
};

QTEST_MAIN(TestMachinePanel)
#include "tst_machinepanel.moc"
