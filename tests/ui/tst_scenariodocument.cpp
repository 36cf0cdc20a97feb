// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioDocument: undoable edits, merging, modified state, revisions, load and save.
#include "core/cluster/trainingview.h"
#include "core/io/scenariojson.h"
#include "core/model/gpucatalog.h"
#include "ui/document/editid.h"
#include "ui/document/scenariodocument.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace clusterplanner;
using ui::ScenarioDocument;

class TestScenarioDocument : public QObject
{
    Q_OBJECT

private:
    static core::Scenario withLayers(int layers)
    {
        core::Scenario s = core::defaultScenario();
        s.model.layers = layers;
        return s;
    }

    static void writeText(const QString& path, const QByteArray& text)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

private Q_SLOTS:
    void startsOnDefaultScenarioUnmodified()
    {
        ScenarioDocument doc;
        QVERIFY(doc.scenario() == core::defaultScenario());
        QVERIFY(!doc.isModified());
        QVERIFY(doc.fileName().isEmpty());
        QCOMPARE(doc.displayName(), QStringLiteral("Untitled"));
    }

    void editUndoRedo()
    {
        ScenarioDocument doc;
        QSignalSpy changed(&doc, &ScenarioDocument::scenarioChanged);
        doc.edit(withLayers(96), QStringLiteral("Change Layers"));
        QCOMPARE(doc.scenario().model.layers, 96);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Change Layers"));
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().model.layers, 80); // the default scenario is Llama 3 70B
        doc.undoStack()->redo();
        QCOMPARE(doc.scenario().model.layers, 96);
        QCOMPARE(changed.count(), 3);
    }

    void editWithoutChangeIsIgnored()
    {
        ScenarioDocument doc;
        QSignalSpy changed(&doc, &ScenarioDocument::scenarioChanged);
        doc.edit(doc.scenario(), QStringLiteral("Nothing"));
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(changed.count(), 0);
        QVERIFY(!doc.isModified());
    }

    void editsWithSameMergeIdAreOneStep()
    {
        ScenarioDocument doc;
        const int id = ui::formFieldEditId(3);
        doc.edit(withLayers(8), QStringLiteral("Change Layers"), id); // typing "8", then "81"
        doc.edit(withLayers(81), QStringLiteral("Change Layers"), id);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.scenario().model.layers, 81);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().model.layers, 80);
    }

    void editsWithDifferentOrNoMergeIdAreSeparateSteps()
    {
        ScenarioDocument doc;
        doc.edit(withLayers(81), QStringLiteral("a"), ui::formFieldEditId(1));
        doc.edit(withLayers(82), QStringLiteral("b"), ui::formFieldEditId(2));
        doc.edit(withLayers(83), QStringLiteral("c"));
        doc.edit(withLayers(84), QStringLiteral("d"));
        QCOMPARE(doc.undoStack()->count(), 4);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().model.layers, 83);
    }

    void mergingBackToTheStartLeavesNothingToUndo()
    {
        ScenarioDocument doc;
        const int id = ui::formFieldEditId(0);
        doc.edit(withLayers(8), QStringLiteral("Change Layers"), id);
        doc.edit(withLayers(80), QStringLiteral("Change Layers"), id);
        QCOMPARE(doc.undoStack()->count(), 0);
        QVERIFY(!doc.isModified());
        QVERIFY(doc.scenario() == core::defaultScenario());
    }

    void modifiedFollowsCleanState()
    {
        ScenarioDocument doc;
        QSignalSpy modified(&doc, &ScenarioDocument::modifiedChanged);
        doc.edit(withLayers(96), QStringLiteral("x"));
        QVERIFY(doc.isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().at(0).toBool(), true);
        doc.undoStack()->undo();
        QVERIFY(!doc.isModified());
        QCOMPARE(modified.last().at(0).toBool(), false);
        doc.undoStack()->redo();
        QVERIFY(doc.isModified());
    }

    void revisionGrowsOnEveryChange()
    {
        ScenarioDocument doc;
        const quint64 start = doc.revision();
        doc.edit(withLayers(96), QStringLiteral("x"));
        doc.undoStack()->undo();
        doc.undoStack()->redo();
        doc.newDocument();
        QCOMPARE(doc.revision(), start + 4);
    }

    void saveLoadRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.cplan.json"));
        ScenarioDocument doc;
        core::Scenario s = core::defaultScenario();
        s.model.moe = core::MoeConfig {16, 4, 2048, 1, 40, 1.5};
        s.cluster.gpuId = "H200-SXM-141GB";
        s.training.layout.dp = 16;
        s.notes = "round trip";
        core::cluster::writeViewIntoTopology(s, core::GpuCatalog::builtin()); // as the scenario form does
        doc.edit(s, QStringLiteral("x"));
        QSignalSpy fileName(&doc, &ScenarioDocument::fileNameChanged);
        QCOMPARE(doc.save(path), QString());
        QCOMPARE(fileName.count(), 1);
        QCOMPARE(doc.fileName(), path);
        QCOMPARE(doc.displayName(), QStringLiteral("run.cplan.json"));
        QVERIFY(!doc.isModified());

        ScenarioDocument other;
        QCOMPARE(other.load(path), QString());
        QVERIFY(other.scenario() == s);
        QVERIFY(!other.isModified());
        QCOMPARE(other.undoStack()->count(), 0);
        QCOMPARE(other.fileName(), path);
    }

    void loadBadFileLeavesDocumentUntouched_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QByteArray text = QByteArray::fromStdString(core::writeScenarioFile(core::defaultScenario()));
        QTest::newRow("negative layers") << QByteArray(text).replace("\"layers\": 80", "\"layers\": -3")
                                         << QStringLiteral("model.layers: must be at least 1 (got -3)");
        QTest::newRow("truncated") << text.left(text.size() / 2) << QStringLiteral("not valid JSON");
        QTest::newRow("wrong format") << QByteArray("{\"format\": \"other\", \"version\": 1}")
                                      << QStringLiteral("format");
        QTest::newRow("missing file") << QByteArray() << QStringLiteral("Cannot open");
    }

    void loadBadFileLeavesDocumentUntouched()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.cplan.json"));
        if (!content.isEmpty())
            writeText(path, content);
        ScenarioDocument doc;
        doc.edit(withLayers(96), QStringLiteral("x"));
        const core::Scenario before = doc.scenario();
        QSignalSpy changed(&doc, &ScenarioDocument::scenarioChanged);
        const QString error = doc.load(path);
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(error.contains(QStringLiteral("bad.cplan.json")));
        QVERIFY(doc.scenario() == before);
        QVERIFY(doc.isModified());
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(doc.fileName().isEmpty());
        QCOMPARE(changed.count(), 0);
    }

    void saveRefusesScenarioThatCouldNotBeOpenedAgain()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("invalid.cplan.json"));
        ScenarioDocument doc;
        core::Scenario s = core::defaultScenario();
        s.model.hidden = 8100; // not a multiple of 64 heads (8100 / 64 = 126.6)
        doc.edit(s, QStringLiteral("x"));
        const QString error = doc.save(path);
        QVERIFY2(error.contains(QStringLiteral("model.hidden")), qPrintable(error));
        QVERIFY(!QFile::exists(path));
        QVERIFY(doc.isModified());
    }

    void saveCopyKeepsNameAndModifiedState()
    {
        QTemporaryDir dir;
        ScenarioDocument doc;
        doc.edit(withLayers(96), QStringLiteral("x"));
        QCOMPARE(doc.saveCopy(dir.filePath(QStringLiteral("copy.cplan.json"))), QString());
        QVERIFY(doc.isModified());
        QVERIFY(doc.fileName().isEmpty());
        ScenarioDocument other;
        QCOMPARE(other.load(dir.filePath(QStringLiteral("copy.cplan.json"))), QString());
        QCOMPARE(other.scenario().model.layers, 96);
    }

    void newDocumentClearsHistoryAndName()
    {
        QTemporaryDir dir;
        ScenarioDocument doc;
        doc.edit(withLayers(96), QStringLiteral("x"));
        QCOMPARE(doc.save(dir.filePath(QStringLiteral("a.cplan.json"))), QString());
        doc.edit(withLayers(97), QStringLiteral("y"));
        doc.newDocument();
        QVERIFY(doc.scenario() == core::defaultScenario());
        QVERIFY(doc.fileName().isEmpty());
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.undoStack()->count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestScenarioDocument)
#include "tst_scenariodocument.moc"
