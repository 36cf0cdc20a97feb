// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the job resource string parser (docs/methods-scheduling.md §7 table and grammar) and the demand vector.
#include "core/model/gpucatalog.h"
#include "core/queue/demandvector.h"
#include "core/queue/resourcerequest.h"

#include <QTest>

using namespace clusterplanner::core;
using namespace clusterplanner::core::queue;

class TestResourceRequest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesValidRequests_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("fractional");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("milli");
        QTest::addColumn<qlonglong>("memoryMiB");
        QTest::addColumn<QString>("vendor");
        QTest::addColumn<QString>("type");
        // The six rows of the docs/methods-scheduling.md §7 table.
        QTest::newRow("2") << "2" << false << 2 << 1000 << 0LL << ""
                           << "";
        QTest::newRow("0.5") << "0.5" << true << 1 << 500 << 0LL << ""
                             << "";
        QTest::newRow("2(V100)") << "2(V100)" << false << 2 << 1000 << 0LL << ""
                                 << "V100";
        QTest::newRow("1(nvidia,V100)") << "1(nvidia,V100)" << false << 1 << 1000 << 0LL << "nvidia"
                                        << "V100";
        QTest::newRow("8G,0.5") << "8G,0.5" << true << 1 << 500 << 8192LL << ""
                                << "";
        QTest::newRow("16G,0.75") << "16G,0.75" << true << 1 << 750 << 16384LL << ""
                                  << "";
        // Edges of the grammar.
        QTest::newRow("share 0.001") << "0.001" << true << 1 << 1 << 0LL << ""
                                     << "";
        QTest::newRow("share 0.999") << "0.999" << true << 1 << 999 << 0LL << ""
                                     << "";
        QTest::newRow("typed share") << "0.25(H100-SXM-80GB)" << true << 1 << 250 << 0LL << ""
                                     << "H100-SXM-80GB";
        QTest::newRow("frac 1") << "40G,1" << true << 1 << 1000 << 40960LL << ""
                                << "";
        QTest::newRow("lower-case g") << "8g,0.5" << true << 1 << 500 << 8192LL << ""
                                      << "";
        QTest::newRow("spaces around") << "  64  " << false << 64 << 1000 << 0LL << ""
                                       << "";
    }

    void parsesValidRequests()
    {
        QFETCH(QString, text);
        QFETCH(bool, fractional);
        QFETCH(int, gpus);
        QFETCH(int, milli);
        QFETCH(qlonglong, memoryMiB);
        QFETCH(QString, vendor);
        QFETCH(QString, type);
        const ResourceRequest r = parseResourceRequest(text.toStdString());
        QCOMPARE(r.mode == ShareMode::Fractional, fractional);
        QCOMPARE(r.gpuCount, gpus);
        QCOMPARE(r.milliGpu, milli);
        QCOMPARE(r.memoryMiB, memoryMiB);
        QCOMPARE(QString::fromStdString(r.vendor), vendor);
        QCOMPARE(QString::fromStdString(r.gpuType), type);
        QCOMPARE(r.totalMilliGpu(), static_cast<long long>(gpus) * milli);
    }

    void rejectsMalformedRequests_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("position");
        QTest::addColumn<QString>("problem");
        QTest::newRow("zero") << "0" << 0 << "GPU count must be at least 1, or a share in (0, 1)";
        QTest::newRow("zero share") << "0.0" << 0 << "GPU share must be greater than 0";
        QTest::newRow("negative") << "-1" << 0 << "negative numbers are not allowed";
        QTest::newRow("negative share") << "8G,-0.5" << 3 << "negative numbers are not allowed";
        QTest::newRow("1.5") << "1.5" << 0
                             << "a fractional GPU count must be below 1 (use a whole number for several GPUs)";
        QTest::newRow("8G,1.5") << "8G,1.5" << 3 << "compute share must be in (0, 1]";
        QTest::newRow("8G,0") << "8G,0" << 3 << "compute share must be in (0, 1]";
        QTest::newRow("8G alone") << "8G" << 2 << "expected \",<compute share>\" after the memory, as in \"8G,0.5\"";
        QTest::newRow("0G") << "0G,0.5" << 0 << "memory must be a whole number of GiB from 1 to 1000000";
        QTest::newRow("empty") << "" << 0 << "empty request (expected e.g. \"2\", \"0.5\", \"2(V100)\" or \"8G,0.5\")";
        QTest::newRow("blank") << "   " << 0
                               << "empty request (expected e.g. \"2\", \"0.5\", \"2(V100)\" or \"8G,0.5\")";
        QTest::newRow("garbage") << "abc" << 0 << "expected a GPU count or a memory size such as \"8G,0.5\"";
        QTest::newRow("trailing") << "2x" << 1 << "unexpected 'x'";
        QTest::newRow("four decimals") << "0.1234" << 5 << "more than 3 decimals (shares are whole milli-GPU)";
        QTest::newRow("unclosed type") << "2(V100" << 6 << "expected ')' after the GPU type";
        QTest::newRow("empty type") << "2()" << 2 << "expected a GPU type";
        QTest::newRow("empty type after vendor") << "1(nvidia,)" << 9 << "expected a GPU type after the vendor";
        QTest::newRow("type after memory") << "8G,0.5(V100)" << 6 << "unexpected '('";
        QTest::newRow("huge count") << "5000000" << 0 << "GPU count is larger than 1000000";
    }

    void rejectsMalformedRequests()
    {
        QFETCH(QString, text);
        QFETCH(int, position);
        QFETCH(QString, problem);
        try {
            parseResourceRequest(text.toStdString());
            QFAIL("accepted a malformed request");
        } catch (const ResourceParseError& error) {
            QCOMPARE(static_cast<int>(error.position()), position);
            const QString expected
                = QStringLiteral("resource \"%1\" at position %2: %3").arg(text).arg(position).arg(problem);
            QCOMPARE(QString::fromUtf8(error.what()), expected);
        }
    }

    void messageMatchesTheBriefExample()
    {
        try {
            parseResourceRequest("8G,1.5");
            QFAIL("accepted 8G,1.5");
        } catch (const std::invalid_argument& error) {
            QCOMPARE(QString::fromUtf8(error.what()),
                QStringLiteral("resource \"8G,1.5\" at position 3: compute share must be in (0, 1]"));
        }
    }

    void memoryIsCheckedAgainstTheDevice()
    {
        const ResourceRequest capped = parseResourceRequest("16G,0.75");
        checkDeviceMemory(capped, 16384); // exactly fits
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkDeviceMemory(capped, 16383));
        try {
            checkDeviceMemory(parseResourceRequest("96G,0.5"), 81920);
            QFAIL("96 GiB accepted on an 80 GiB device");
        } catch (const std::invalid_argument& error) {
            QCOMPARE(QString::fromUtf8(error.what()),
                QStringLiteral("resource asks for 98304 MiB per GPU but the device has 81920 MiB"));
        }
        checkDeviceMemory(parseResourceRequest("0.5"), 1); // proportional: always fits
    }

    void memoryOnDeviceIsProportionalByDefault()
    {
        QCOMPARE(parseResourceRequest("0.5").memoryMiBOn(81920), 40960LL);
        QCOMPARE(parseResourceRequest("0.25").memoryMiBOn(81920), 20480LL);
        QCOMPARE(parseResourceRequest("2").memoryMiBOn(81920), 81920LL);
        QCOMPARE(parseResourceRequest("8G,0.5").memoryMiBOn(81920), 8192LL);
    }

    void gpuTypesMatchTheCatalog()
    {
        const GpuCatalog& catalog = GpuCatalog::builtin();
        const GpuSpec* v100 = catalog.find("V100-SXM-32GB");
        const GpuSpec* h100 = catalog.find("H100-SXM-80GB");
        const GpuSpec* mi300 = catalog.find("MI300X");
        QVERIFY(v100 && h100 && mi300);
        QVERIFY(acceptsGpu(parseResourceRequest("2(V100)"), *v100));
        QVERIFY(acceptsGpu(parseResourceRequest("1(nvidia,v100)"), *v100));
        QVERIFY(!acceptsGpu(parseResourceRequest("1(amd,V100)"), *v100));
        QVERIFY(!acceptsGpu(parseResourceRequest("2(V100)"), *h100));
        QVERIFY(acceptsGpu(parseResourceRequest("2(H100)"), *h100));
        QVERIFY(!acceptsGpu(parseResourceRequest("2(H10)"), *h100)); // prefix must end at a '-'
        QVERIFY(acceptsGpu(parseResourceRequest("2(MI300X)"), *mi300));
        QVERIFY(acceptsGpu(parseResourceRequest("2"), *mi300));
        checkKnownGpuType(parseResourceRequest("1(nvidia,V100)"), catalog);
        try {
            checkKnownGpuType(parseResourceRequest("1(nvidia,K80)"), catalog);
            QFAIL("accepted an unknown type");
        } catch (const std::invalid_argument& error) {
            QCOMPARE(
                QString::fromUtf8(error.what()), QStringLiteral("resource asks for unknown GPU type \"nvidia,K80\""));
        }
    }

    void demandVectorArithmetic()
    {
        const DemandVector job {0.5, 40, 8, 12.5};
        const DemandVector node {8, 640, 112, 400};
        const DemandVector two = job + job;
        QCOMPARE(two, (DemandVector {1, 80, 16, 25}));
        QVERIFY(two.fitsWithin(node));
        QVERIFY(!(DemandVector {8, 641, 0, 0}).fitsWithin(node));
        // DRF: shares 0.0625, 0.0625, 0.0714, 0.03125 → CPU dominates at 8/112.
        QCOMPARE(job.dominantShare(node), 8.0 / 112);
        QCOMPARE(job.dominantShare(DemandVector {}), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestResourceRequest)
#include "tst_resourcerequest.moc"
