// SPDX-License-Identifier: GPL-3.0-or-later
// The application started on a global batch of 10^8 stays up: every engine panel draws it (an uncaught exception
// from the pipeline summary used to end the process).
#include "core/io/scenariojson.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace clusterplanner;

class TestLargeBatch : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString scenarioFile()
    {
        core::Scenario s = core::defaultScenario();
        s.training.globalBatch = 100'000'000; // the file format's largest global batch
        const QString path = m_dir.filePath(QStringLiteral("large.cplan.json"));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(QByteArray::fromStdString(core::writeScenarioFile(s)));
        return path;
    }

private Q_SLOTS:
    void panelsDrawAGlobalBatchOf10To8_data()
    {
        QTest::addColumn<QString>("panel");
        for (const char* panel : {"steptime", "pipeline", "memory", "scaling", "grid"})
            QTest::newRow(panel) << QString::fromLatin1(panel);
    }

    void panelsDrawAGlobalBatchOf10To8()
    {
        QFETCH(QString, panel);
        const QString png = m_dir.filePath(panel + QStringLiteral(".png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(CLUSTERPLANNER_APP_PATH),
            {QStringLiteral("--settings"), m_dir.filePath(QStringLiteral("settings.ini")), QStringLiteral("--library"),
                m_dir.filePath(QStringLiteral("library.sqlite")), QStringLiteral("--panel"), panel,
                QStringLiteral("--screenshot"), png, scenarioFile()});
        QVERIFY2(process.waitForFinished(120'000), "the application hangs");
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(QFile(png).size() > 1000);
    }
};

QTEST_GUILESS_MAIN(TestLargeBatch)
#include "tst_largebatch.moc"
