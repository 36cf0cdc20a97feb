// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow and Settings: persisted window state, dock toggles, title and modified marker, recent files.
#include "core/io/scenariojson.h"
#include "tests/projectversion.h"
#include "ui/charts/exportablechart.h"
#include "ui/dialogs/aboutdialog.h"
#include "ui/document/scenariodocument.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/mainwindow/panelregistry.h"
#include "ui/settings/settings.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace clusterplanner;
using ui::MainWindow;
using ui::Settings;

namespace {

/// A stand-in for a future chart panel.
class FakeChart : public QLineEdit, public ui::ExportableChart
{
public:
    QString chartTitle() const override { return QStringLiteral("fake"); }
    QString exportChart(const QString&, const QSize&) const override { return {}; }
};

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString iniPath(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    QString writeScenario(const char* name, int layers) const
    {
        core::Scenario s = core::defaultScenario();
        s.model.layers = layers;
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(QByteArray::fromStdString(core::writeScenarioFile(s)));
        return path;
    }

private Q_SLOTS:
    void settingsRoundTripThroughIniFile()
    {
        const QString path = iniPath("roundtrip.ini");
        {
            QSettings qs(path, QSettings::IniFormat);
            Settings settings(qs);
            settings.setWindowGeometry(QByteArray("geometry"));
            settings.setWindowState(QByteArray("state"));
            settings.setLastDirectory(QStringLiteral("/data/scenarios"));
            for (int i = 0; i < 10; ++i)
                settings.addRecentFile(QStringLiteral("/f%1.cplan.json").arg(i));
            settings.addRecentFile(QStringLiteral("/f5.cplan.json")); // moves to the front, no duplicate
        }
        QSettings qs(path, QSettings::IniFormat);
        Settings settings(qs);
        QCOMPARE(settings.windowGeometry(), QByteArray("geometry"));
        QCOMPARE(settings.windowState(), QByteArray("state"));
        QCOMPARE(settings.lastDirectory(), QStringLiteral("/data/scenarios"));
        const QStringList recent = settings.recentFiles();
        QCOMPARE(recent.size(), 8);
        QCOMPARE(recent.front(), QStringLiteral("/f5.cplan.json"));
        QCOMPARE(recent.at(1), QStringLiteral("/f9.cplan.json"));
        QCOMPARE(recent.count(QStringLiteral("/f5.cplan.json")), 1);
        QVERIFY(!recent.contains(QStringLiteral("/f0.cplan.json")));
        settings.removeRecentFile(QStringLiteral("/f9.cplan.json"));
        QCOMPARE(settings.recentFiles().size(), 7);
    }

    void windowStateOfAnotherVersionIsIgnored()
    {
        QSettings qs(iniPath("version.ini"), QSettings::IniFormat);
        Settings settings(qs);
        settings.setWindowState(QByteArray("state"));
        qs.setValue(ui::SettingsKey::WindowStateVersion, Settings::kWindowStateVersion + 1);
        QVERIFY(settings.windowState().isEmpty());
    }

    void dockLayoutIsSavedAndRestored()
    {
        const QString path = iniPath("window.ini");
        {
            QSettings qs(path, QSettings::IniFormat);
            Settings settings(qs);
            MainWindow window(settings);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(1000, 700);
            window.dock(QStringLiteral("scenario"))->hide();
            window.close(); // unmodified: closes without asking and saves the layout
        }
        QSettings qs(path, QSettings::IniFormat);
        Settings settings(qs);
        QVERIFY(!settings.windowState().isEmpty());
        MainWindow window(settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), QSize(1000, 700));
        QVERIFY(!window.dock(QStringLiteral("scenario"))->isVisible());
        window.resetLayout();
        QVERIFY(window.dock(QStringLiteral("scenario"))->isVisible());
    }

    void everyPanelHasADockAndAToggle()
    {
        QSettings qs(iniPath("docks.ini"), QSettings::IniFormat);
        Settings settings(qs);
        MainWindow window(settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!ui::panelNames().isEmpty());
        for (const QString& name : ui::panelNames()) {
            QDockWidget* dock = window.dock(name);
            QVERIFY2(dock, qPrintable(name));
            QAction* toggle = window.action(QStringLiteral("action.toggle.") + name);
            QVERIFY2(toggle, qPrintable(name));
            QVERIFY(toggle->isChecked());
            toggle->trigger();
            QVERIFY(!dock->isVisible());
            QVERIFY(!toggle->isChecked());
            toggle->trigger();
            QVERIFY(dock->isVisible());
        }
        QVERIFY(!window.showPanel(QStringLiteral("no-such-panel")));
    }

    void titleShowsFileNameAndModifiedMarker()
    {
        QSettings qs(iniPath("title.ini"), QSettings::IniFormat);
        Settings settings(qs);
        MainWindow window(settings);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Untitled[*]")));
        QVERIFY(!window.isWindowModified());
        core::Scenario s = window.document()->scenario();
        s.model.layers = 96;
        window.document()->edit(s, QStringLiteral("Change Layers"));
        QVERIFY(window.isWindowModified());
        QCOMPARE(window.action(QStringLiteral("action.undo"))->text(), QStringLiteral("&Undo Change Layers"));
        QVERIFY(window.action(QStringLiteral("action.undo"))->isEnabled());
        QVERIFY(!window.action(QStringLiteral("action.redo"))->isEnabled());

        const QString path = m_dir.filePath(QStringLiteral("titled.cplan.json"));
        QCOMPARE(window.document()->save(path), QString());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("titled.cplan.json[*]")));
        QVERIFY(!window.isWindowModified());
        window.document()->undoStack()->undo();
        QVERIFY(window.isWindowModified()); // back before the saved state
    }

    void openFileUpdatesRecentFilesAndReportsErrors()
    {
        QSettings qs(iniPath("recent.ini"), QSettings::IniFormat);
        Settings settings(qs);
        MainWindow window(settings);
        const QString good = writeScenario("good.cplan.json", 40);
        QCOMPARE(window.openFile(good), QString());
        QCOMPARE(window.document()->scenario().model.layers, 40);
        QCOMPARE(settings.recentFiles().value(0), good);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("good.cplan.json")));

        const QString bad = writeScenario("bad.cplan.json", -3);
        const QString error = window.openFile(bad);
        QVERIFY2(error.contains(QStringLiteral("model.layers")), qPrintable(error));
        QCOMPARE(window.document()->scenario().model.layers, 40);
        QCOMPARE(settings.recentFiles().size(), 1);
    }

    void exportChartActionFollowsFocus()
    {
        QSettings qs(iniPath("export.ini"), QSettings::IniFormat);
        Settings settings(qs);
        MainWindow window(settings);
        auto* chartDock = new QDockWidget(QStringLiteral("Chart"), &window);
        auto* chart = new FakeChart;
        chartDock->setWidget(chart);
        window.addDockWidget(Qt::RightDockWidgetArea, chartDock);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QAction* exportChart = window.action(QStringLiteral("action.exportChart"));
        QVERIFY(exportChart);
        window.findChild<QWidget*>(QStringLiteral("model.name"))->setFocus();
        QVERIFY(!exportChart->isEnabled());
        chart->setFocus();
        QTRY_VERIFY(exportChart->isEnabled());
        window.findChild<QWidget*>(QStringLiteral("model.layers"))->setFocus();
        QTRY_VERIFY(!exportChart->isEnabled());
    }

    void aboutNamesTheVersions()
    {
        const QString text = ui::AboutDialog::aboutText();
        QVERIFY(text.contains(projectVersion()));
        QVERIFY(text.contains(QString::fromLatin1(qVersion())));
        QVERIFY(text.contains(QStringLiteral("QCustomPlot 2.")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
