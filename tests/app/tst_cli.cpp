// SPDX-License-Identifier: GPL-3.0-or-later
// Smoke tests of the built clusterplanner binary: --version, --help, --screenshot and clean failures.
#include "core/io/scenariojson.h"
#include "tests/projectversion.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace clusterplanner;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs the app; `display` false removes every way to reach a display, so only headless paths can succeed.
Run runApp(const QStringList& arguments, bool display = true)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    if (display)
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    else
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(CLUSTERPLANNER_APP_PATH), arguments);
    Run run;
    if (!process.waitForFinished(60'000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("timed out");
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

/// Width and height from a PNG's IHDR chunk (bytes 16-23), or (0, 0) when the file is no PNG.
QSize pngSize(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = file.read(24);
    if (head.size() < 24 || !head.startsWith("\x89PNG\r\n\x1a\n") || head.mid(12, 4) != "IHDR")
        return {};
    return {int(qFromBigEndian<quint32>(head.constData() + 16)), int(qFromBigEndian<quint32>(head.constData() + 20))};
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeFile(const char* name, const QByteArray& content)
    {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(content);
        return path;
    }

    QStringList screenshotArgs(const QString& png) const
    {
        // Never the user's library: each run uses (and on the first run seeds) one in the test's folder.
        return {QStringLiteral("--settings"), m_dir.filePath(QStringLiteral("settings.ini")),
            QStringLiteral("--library"), m_dir.filePath(QStringLiteral("library.sqlite")),
            QStringLiteral("--screenshot"), png};
    }

private Q_SLOTS:
    void versionNeedsNoDisplay()
    {
        const Run run = runApp({QStringLiteral("--version")}, false);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.trimmed(), QStringLiteral("clusterplanner ") + projectVersion());
    }

    void helpListsOptionsCommandsAndPanels()
    {
        const Run run = runApp({QStringLiteral("--help")}, false);
        QCOMPARE(run.exitCode, 0);
        for (const char* expected : {"--version", "--screenshot", "--panel", "--settings", "--library",
                 "FILE.cplan.json", "catalog", "scenario", "\n  chart ", "\n  report ", "\n  export-config  launch"})
            QVERIFY2(run.out.contains(QLatin1String(expected)), expected);
    }

    void subcommandsStillRunHeadless()
    {
        const Run run = runApp({QStringLiteral("catalog")}, false);
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QStringLiteral("H100-SXM-80GB")));
        // A header names the columns and units, and every id stands apart from its memory figure (the longest id,
        // H100-SXM-96GB-HBM3, once ran into it).
        const QStringList lines = run.out.trimmed().split(QLatin1Char('\n'));
        QVERIFY2(lines.first().startsWith(QStringLiteral("id")) && lines.first().contains(QStringLiteral("(GB)")),
            qPrintable(lines.first()));
        for (const QString& line : lines.mid(1)) {
            const QStringList fields = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            QCOMPARE(fields.size(), 4);
            bool number = false;
            QVERIFY2(fields[1].toDouble(&number) > 0 && number, qPrintable(line));
        }
    }

    void unknownOptionsFailCleanly_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("option") << QStringList {QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate");
        QTest::newRow("mistyped command") << QStringList {QStringLiteral("catalgo")} << QStringLiteral("catalgo");
        QTest::newRow("panel") << QStringList {QStringLiteral("--panel"), QStringLiteral("nope")}
                               << QStringLiteral("known: scenario");
        QTest::newRow("compare one id") << QStringList {QStringLiteral("--compare"), QStringLiteral("5")}
                                        << QStringLiteral("two or more");
        QTest::newRow("two files") << QStringList {QStringLiteral("a.json"), QStringLiteral("b.json")}
                                   << QStringLiteral("only one");
    }

    void unknownOptionsFailCleanly()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const Run run = runApp(arguments, false); // must fail before needing a display
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    }

    void screenshotWritesPng()
    {
        const QString png = m_dir.filePath(QStringLiteral("shot.png"));
        const Run run = runApp(screenshotArgs(png) << QStringLiteral("--panel") << QStringLiteral("scenario"));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(pngSize(png), QSize(1600, 1000));
        QVERIFY(QFileInfo(png).size() > 20'000); // a blank image compresses to a few kB
    }

    void corruptLibraryStillStarts()
    {
        const QString library = writeFile("broken.sqlite", QByteArray(4096, 'x'));
        const QString png = m_dir.filePath(QStringLiteral("library.png"));
        const Run run = runApp(
            {QStringLiteral("--settings"), m_dir.filePath(QStringLiteral("settings.ini")), QStringLiteral("--library"),
                library, QStringLiteral("--panel"), QStringLiteral("library"), QStringLiteral("--screenshot"), png});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("moved to")), qPrintable(run.err));
        QVERIFY(pngSize(png).width() > 0);
        QVERIFY(!QDir(m_dir.path()).entryList({QStringLiteral("broken.sqlite.corrupt-*")}).isEmpty());
    }

    void screenshotOfGivenFile()
    {
        core::Scenario s = core::defaultScenario();
        s.name = "from a file";
        const QString file = writeFile("good.cplan.json", QByteArray::fromStdString(core::writeScenarioFile(s)));
        const QString png = m_dir.filePath(QStringLiteral("good.png"));
        const Run run = runApp(screenshotArgs(png) << file);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(pngSize(png).width() > 0);
    }

    void corruptFileWithScreenshotFails_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        const QByteArray text = QByteArray::fromStdString(core::writeScenarioFile(core::defaultScenario()));
        QTest::newRow("bad field") << QByteArray(text).replace("\"gpu_count\": 256", "\"gpu_count\": 0")
                                   << QStringLiteral("training.gpu_count: must be at least 1 (got 0)");
        QTest::newRow("truncated") << text.left(100) << QStringLiteral("not valid JSON");
    }

    void corruptFileWithScreenshotFails()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString file = writeFile("corrupt.cplan.json", content);
        const QString png = m_dir.filePath(QStringLiteral("corrupt.png"));
        const Run run = runApp(screenshotArgs(png) << file);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        QVERIFY(run.err.contains(QStringLiteral("corrupt.cplan.json")));
        QVERIFY(!QFile::exists(png));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
