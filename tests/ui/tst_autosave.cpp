// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cluster/trainingview.h"
#include "core/model/gpucatalog.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/autosavecontroller.h"
#include "ui/library/libraryservice.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace clusterplanner;
using namespace clusterplanner::ui;

namespace {

/// One "run" of the application on a library file: service, document and autosave, as the main window has them.
struct Session
{
    LibraryService library;
    ScenarioDocument document;
    std::unique_ptr<AutosaveController> autosave;

    explicit Session(const QString& path)
    {
        QVERIFY(library.open(path, QString()));
        autosave = std::make_unique<AutosaveController>(library, document);
    }
};

core::Scenario edited(core::Scenario scenario, int gpus)
{
    scenario.cluster.gpuCount = gpus;
    scenario.training.layout.dp = gpus / (scenario.training.layout.tp * scenario.training.layout.pp);
    core::cluster::writeViewIntoTopology(scenario, core::GpuCatalog::builtin()); // as the scenario form does
    return scenario;
}

} // namespace

class TestAutosave : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsToThirtySeconds()
    {
        QTemporaryDir dir;
        Session run(dir.filePath(QStringLiteral("l.sqlite")));
        QCOMPARE(run.autosave->intervalMs(), 30000);
    }

    void writesOnlyModifiedUnsavedChanges()
    {
        QTemporaryDir dir;
        Session run(dir.filePath(QStringLiteral("l.sqlite")));
        QVERIFY(!run.autosave->autosaveNow()); // nothing edited
        run.document.edit(edited(run.document.scenario(), 128), QStringLiteral("gpus"));
        QVERIFY(run.autosave->autosaveNow());
        QVERIFY(!run.autosave->autosaveNow()); // unchanged since the last autosave
        QVERIFY(run.autosave->pendingRecovery().has_value());
        run.document.undoStack()->undo(); // back to the clean state: nothing left to recover
        QVERIFY(!run.autosave->pendingRecovery().has_value());
    }

    void timerAutosavesAndRestartOffersRecovery()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("l.sqlite"));
        core::ScenarioId id = 0;
        const core::Scenario changed = edited(core::defaultScenario(), 128);
        {
            Session run(path);
            QVERIFY(run.library.saveDocument(run.document).isEmpty());
            id = *run.document.libraryId();
            run.autosave->setIntervalMs(10);
            QSignalSpy spy(run.autosave.get(), &AutosaveController::autosaved);
            run.document.edit(changed, QStringLiteral("gpus"));
            QVERIFY(spy.wait(2000));
            // The "crash": the objects go away without saving or clearing.
        }
        Session next(path);
        const auto entry = next.autosave->pendingRecovery();
        QVERIFY(entry.has_value());
        QCOMPARE(entry->scenario, changed);
        QCOMPARE(entry->scenarioId, std::optional<core::ScenarioId>(id));

        next.autosave->recover(*entry);
        QCOMPARE(next.document.scenario(), changed);
        QVERIFY(next.document.isModified());
        QCOMPARE(next.document.libraryId(), std::optional<std::int64_t>(id));
        next.document.undoStack()->undo(); // the recovered edits sit on top of the library state
        QCOMPARE(next.document.scenario(), next.library.load(id)->scenario);
    }

    void savingClearsTheAutosave()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("l.sqlite"));
        {
            Session run(path);
            run.document.edit(edited(run.document.scenario(), 32), QStringLiteral("gpus"));
            QVERIFY(run.autosave->autosaveNow());
            QVERIFY(run.library.saveDocument(run.document).isEmpty());
            QVERIFY(!run.document.isModified());
        }
        Session next(path);
        QVERIFY(!next.autosave->pendingRecovery().has_value());
    }

    void recoveryWithoutLibraryScenarioStartsFromTheDefault()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("l.sqlite"));
        const core::Scenario changed = edited(core::defaultScenario(), 512);
        {
            Session run(path);
            run.document.edit(changed, QStringLiteral("gpus"));
            QVERIFY(run.autosave->autosaveNow());
        }
        Session next(path);
        const auto entry = next.autosave->pendingRecovery();
        QVERIFY(entry.has_value());
        QVERIFY(!entry->scenarioId.has_value());
        next.autosave->recover(*entry);
        QCOMPARE(next.document.scenario(), changed);
        QVERIFY(!next.document.libraryId().has_value());
        next.autosave->clear();
        QVERIFY(!next.autosave->pendingRecovery().has_value());
    }
};

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
