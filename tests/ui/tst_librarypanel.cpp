// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/comparedialog.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/keyfigures.h"
#include "ui/library/libraryservice.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/models/librarymodel.h"
#include "ui/panels/librarypanel.h"
#include "ui/settings/settings.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <sqlite3.h>

#include <algorithm>
#include <memory>

using namespace clusterplanner;
using namespace clusterplanner::ui;

namespace {

const QString kSamples = QStringLiteral(CLUSTERPLANNER_DATA_DIR "/scenarios");
constexpr int kSampleCount = 11; // data/scenarios/*.cplan.json

/// A seeded library in a temporary folder, a document and the panel on both.
struct Fixture
{
    QTemporaryDir dir;
    LibraryService library;
    ScenarioDocument document;
    std::unique_ptr<LibraryPanel> panel;

    Fixture()
    {
        QVERIFY(library.open(dir.filePath(QStringLiteral("library.sqlite")), kSamples));
        library.fillMissingResults();
        panel = std::make_unique<LibraryPanel>(&document, &library);
    }
    core::ScenarioId idOf(const std::string& name)
    {
        for (const auto& row : library.list())
            if (row.name == name)
                return row.id;
        return 0;
    }
    QList<qint64> shownIds() const
    {
        QList<qint64> ids;
        for (int r = 0; r < panel->proxy()->rowCount(); ++r)
            ids << panel->proxy()->index(r, 0).data(LibraryModel::IdRole).value<qint64>();
        return ids;
    }
    void trigger(const char* action) { panel->action(QString::fromLatin1(action))->trigger(); }
};

const std::string kH100 = "Purchase 512 GPUs: H100 SXM 80GB";
const std::string kH200 = "Purchase 512 GPUs: H200 SXM 141GB";

} // namespace

class TestLibraryPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsTheSeededSamplesWithCachedFigures()
    {
        Fixture f;
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount);
        QVERIFY(f.panel->statusText().isEmpty());
        QVERIFY(f.library.defaultScenarioId().has_value());
        int withFigures = 0;
        for (const auto& row : f.library.list()) {
            // Cached exactly when the engine can evaluate the scenario, with the engine's own figures.
            std::optional<core::CachedResult> expected;
            try {
                expected = computeKeyFigures(f.library.load(row.id)->scenario);
            } catch (const std::exception&) { }
            QCOMPARE(row.figures.has_value(), expected.has_value());
            if (expected) {
                QCOMPARE(row.figures->tokensPerS, expected->figures.tokensPerS);
                QVERIFY(row.figures->tokensPerS > 0);
                ++withFigures;
            }
        }
        QVERIFY(withFigures >= kSampleCount - 1);
    }

    void fillsMissingFiguresAtMostLimitAtATime()
    {
        QTemporaryDir dir;
        LibraryService library;
        QVERIFY(library.open(dir.filePath(QStringLiteral("library.sqlite")), kSamples));
        const auto withFigures = [&library] {
            const auto rows = library.list();
            return std::count_if(rows.begin(), rows.end(), [](const auto& row) { return row.figures.has_value(); });
        };
        QCOMPARE(withFigures(), 0);
        QCOMPARE(library.fillMissingResults(3), 3);
        // At most one sample (Mixtral, refused by the engine) of the three can stay without figures.
        QVERIFY(withFigures() >= 2 && withFigures() <= 3);
    }

    void searchesNamesTagsAndNotes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("rows");
        QTest::newRow("name") << QStringLiteral("purchase 512") << 3;
        QTest::newRow("tag") << QStringLiteral("h200") << 2; // the H200 purchase and the mixed cluster
        QTest::newRow("notes") << QStringLiteral("part 2 of 3") << 1;
        QTest::newRow("nothing") << QStringLiteral("no such scenario") << 0;
        QTest::newRow("cleared") << QString() << kSampleCount;
    }
    void searchesNamesTagsAndNotes()
    {
        QFETCH(QString, text);
        QFETCH(int, rows);
        Fixture f;
        f.panel->setSearchText(text);
        QCOMPARE(f.panel->proxy()->rowCount(), rows);
    }

    void sortsByGpuCountAndThroughput()
    {
        Fixture f;
        f.panel->view()->sortByColumn(LibraryModel::GpuCount, Qt::DescendingOrder);
        const auto biggest = f.library.load(f.shownIds().front());
        QCOMPARE(biggest->scenario.cluster.gpuCount, 16384); // Llama 3 405B on 16,384 H100
        for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            f.panel->view()->sortByColumn(LibraryModel::TokensPerS, order);
            std::optional<double> previous;
            bool missingSeen = false;
            for (const qint64 id : f.shownIds()) {
                const auto record = f.library.load(id);
                if (!record->result) { // rows without figures come last either way
                    missingSeen = true;
                    continue;
                }
                QVERIFY(!missingSeen);
                const double tokens = record->result->figures.tokensPerS;
                if (previous)
                    QVERIFY(order == Qt::DescendingOrder ? tokens <= *previous : tokens >= *previous);
                previous = tokens;
            }
        }
    }

    void opensIntoTheDocument()
    {
        Fixture f;
        const core::ScenarioId id = f.idOf(kH200);
        f.panel->selectIds({id});
        f.trigger("library.open");
        QCOMPARE(f.document.scenario(), f.library.load(id)->scenario);
        QCOMPARE(f.document.libraryId(), std::optional<std::int64_t>(id));
        QVERIFY(!f.document.isModified());
        QCOMPARE(f.document.displayName(), QString::fromStdString(kH200));
    }

    void refusedGuardKeepsTheDocument()
    {
        Fixture f;
        f.library.setReplaceGuard([] { return false; });
        f.panel->selectIds({f.idOf(kH200)});
        f.trigger("library.open");
        QCOMPARE(f.document.scenario(), core::defaultScenario());
    }

    void savingKeepsTheOldStateAsAVersion()
    {
        Fixture f;
        const core::ScenarioId id = f.idOf(kH100);
        QVERIFY(f.library.openInDocument(f.document, id).isEmpty());
        const core::Scenario before = f.document.scenario();
        core::Scenario after = before;
        after.training.globalBatch = 1024;
        f.document.edit(after, QStringLiteral("batch"));
        QVERIFY(f.document.isModified());
        f.trigger("library.save");
        QVERIFY(!f.document.isModified());
        const auto versions = f.library.versions(id);
        QCOMPARE(int(versions.size()), 1);
        QCOMPARE(f.library.load(id)->scenario.training.globalBatch, 1024);
        QCOMPARE(f.library.store()->loadVersion(id, versions.front().version), before);
        QVERIFY(f.library.load(id)->result.has_value()); // recomputed for the new inputs

        QVERIFY(f.library.restoreVersion(id, versions.front().version).isEmpty());
        QCOMPARE(f.library.load(id)->scenario, before);
    }

    void saveAsNewAddsAScenario()
    {
        Fixture f;
        f.trigger("library.saveNew");
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount + 1);
        QVERIFY(f.document.libraryId().has_value());
        QCOMPARE(f.library.load(*f.document.libraryId())->scenario, core::defaultScenario());
    }

    void deleteMovesToTrashAndRestoreBringsBack()
    {
        Fixture f;
        const core::ScenarioId id = f.idOf(kH100);
        f.panel->selectIds({id});
        f.trigger("library.delete");
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount - 1);
        QCOMPARE(f.panel->model()->rowOf(id), -1);
        f.panel->setShowTrash(true);
        QCOMPARE(f.shownIds(), QList<qint64> {id});
        QVERIFY(!f.panel->action(QStringLiteral("library.open"))->isEnabled() || f.panel->selectedIds().empty());
        f.panel->selectIds({id});
        f.trigger("library.restore");
        QCOMPARE(f.panel->model()->rowCount(), 0);
        f.panel->setShowTrash(false);
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount);
    }

    void duplicatesAndRenames()
    {
        Fixture f;
        const core::ScenarioId id = f.idOf(kH100);
        f.panel->selectIds({id});
        f.trigger("library.duplicate");
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount + 1);
        const core::ScenarioId copy = f.panel->selectedIds().front();
        QVERIFY(copy != id);
        QVERIFY(f.library.rename(copy, QStringLiteral("Option B")).isEmpty());
        QCOMPARE(f.library.load(copy)->scenario.name, std::string("Option B"));
        QVERIFY(f.library.load(copy)->result.has_value());
        QVERIFY(f.library.setTags(copy, {QStringLiteral(" q3 "), QStringLiteral("purchase")}).isEmpty());
        QCOMPARE(f.library.load(copy)->tags, (std::vector<std::string> {"purchase", "q3"}));
    }

    void exportsAndImportsFiles()
    {
        Fixture f;
        const std::vector<core::ScenarioId> ids {f.idOf(kH100), f.idOf(kH200)};
        const QString folder = f.dir.filePath(QStringLiteral("out"));
        QVERIFY(f.library.exportScenarios(ids, folder).isEmpty());
        const QStringList files = QDir(folder).entryList({QStringLiteral("*.cplan.json")}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 2);
        std::vector<core::ScenarioId> added;
        QVERIFY(f.library.importFiles({QDir(folder).filePath(files[0]), QDir(folder).filePath(files[1])}, &added)
                    .isEmpty());
        QCOMPARE(int(added.size()), 2);
        QCOMPARE(f.library.load(added[0])->scenario, f.library.load(ids[0])->scenario);
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount + 2);
        // A bad file adds nothing and names the file.
        QFile bad(f.dir.filePath(QStringLiteral("bad.cplan.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{ not json");
        bad.close();
        const QString error = f.library.importFiles({QDir(folder).filePath(files[0]), bad.fileName()});
        QVERIFY2(error.contains(QStringLiteral("bad.cplan.json")), qPrintable(error));
        QCOMPARE(f.panel->model()->rowCount(), kSampleCount + 2);
    }

    void compareHighlightsDifferingInputs()
    {
        Fixture f;
        CompareDialog dialog(CompareDialog::entriesFor(f.library, {f.idOf(kH100), f.idOf(kH200)}));
        ComparisonModel* model = dialog.model();
        QCOMPARE(model->columnCount(), 3);
        const auto differs = [model](const char* label) {
            const int row = model->rowOf(QString::fromLatin1(label));
            return row >= 0 && model->index(row, 1).data(ComparisonModel::DiffersRole).toBool();
        };
        QVERIFY(differs("cluster.node_groups[0].gpu"));
        QVERIFY(differs("name"));
        QVERIFY(!differs("model.layers")); // the same Llama 3 70B run on both
        QVERIFY(model->rowOf(QStringLiteral("model.layers")) >= 0);
        QVERIFY(differs("Step time")); // H200's faster memory and larger capacity change the step
        QVERIFY(model->index(model->rowOf(QStringLiteral("Energy")), 2).data().toString().contains(QLatin1Char('%')));
    }

    void corruptDatabaseIsMovedAsideAndTheAppStarts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("library.sqlite"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray garbage(8192, 'x');
        file.write(garbage);
        file.close();

        LibraryService library;
        QVERIFY(library.open(path, kSamples));
        QVERIFY2(library.openMessage().contains(QStringLiteral(".corrupt-")), qPrintable(library.openMessage()));
        QVERIFY(library.openMessage().contains(QStringLiteral("new library")));
        const QStringList aside = QDir(dir.path()).entryList({QStringLiteral("library.sqlite.corrupt-*")});
        QCOMPARE(aside.size(), 1);
        QFile moved(dir.filePath(aside.front()));
        QVERIFY(moved.open(QIODevice::ReadOnly));
        QCOMPARE(moved.readAll(), garbage); // the user's file is kept as it was

        QSettings qs(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        Settings settings(qs);
        MainWindow window(settings, &library);
        QCOMPARE(library.list().size(), std::size_t(kSampleCount));
        const auto* panel = window.findChild<LibraryPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->model()->rowCount(), kSampleCount);
    }

    void newerLibraryOpensReadOnlyAndSaysSo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("library.sqlite"));
        {
            LibraryService library;
            QVERIFY(library.open(path, QString()));
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version = 999", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);

        LibraryService library;
        QVERIFY(library.open(path, QString()));
        QVERIFY(library.isReadOnly());
        QVERIFY2(library.openMessage().contains(QStringLiteral("newer")), qPrintable(library.openMessage()));
        ScenarioDocument document;
        LibraryPanel panel(&document, &library);
        QVERIFY(panel.statusText().contains(QStringLiteral("read-only")));
        QVERIFY(!panel.action(QStringLiteral("library.saveNew"))->isEnabled());
        QVERIFY(!library.saveDocument(document).isEmpty()); // refused with a message, nothing written
    }

    void withoutALibraryThePanelSaysSo()
    {
        ScenarioDocument document;
        LibraryService library;
        QVERIFY(!library.open(QString()));
        LibraryPanel panel(&document, &library);
        QVERIFY(!panel.statusText().isEmpty());
        QVERIFY(!panel.action(QStringLiteral("library.saveNew"))->isEnabled());
        LibraryPanel none(&document, nullptr);
        QVERIFY(!none.statusText().isEmpty());
    }
};

QTEST_MAIN(TestLibraryPanel)
#include "tst_librarypanel.moc"
