// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/traces.h"
#include "core/sched/workloadgenerator.h"

#include <QTest>

#include <cmath>
#include <map>
#include <sstream>

using namespace clusterplanner::core::sched;

namespace {

TraceOptions options(int clusterGpus = 0)
{
    TraceOptions o;
    o.source = "t.csv";
    o.clusterGpus = clusterGpus;
    return o;
}

/// The message of the TraceFormatError thrown by reading `text` with `read`, or "" if none was thrown.
template <typename Read>
std::string errorOf(Read read)
{
    try {
        read();
    } catch (const TraceFormatError& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestTraces : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tiresiasSampleHasTheDocumentedJobs()
    {
        // docs/methods-test-values.md §11 item 28: 60 jobs (30 × 1 GPU, 10 × 2, 10 × 4, 10 × 8), Σ duration 10,705 s.
        const Workload jobs
            = readTraceFile(CLUSTERPLANNER_DATA_DIR "/traces/tiresias_60_job.csv", TraceFormat::Tiresias, 0);
        QCOMPARE(jobs.size(), std::size_t(60));
        std::map<int, int> byGpus;
        double total = 0;
        for (const Job& job : jobs) {
            ++byGpus[job.gpus];
            total += job.durationS;
        }
        QCOMPARE(byGpus, (std::map<int, int> {{1, 30}, {2, 10}, {4, 10}, {8, 10}}));
        QCOMPARE(total, 10705.0);
        QCOMPARE(jobs[1].submitS, 30.0);
        QCOMPARE(jobs[1].gpus, 8);
    }

    void badTiresiasRowsNameRowAndColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("clusterGpus");
        QTest::addColumn<QString>("expected");
        const QString header = "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n";
        QTest::newRow("missing column") << "job_id,num_gpu,submit_time\n0,1,0\n"
                                        << 0 << "row 1 (the header) has no column \"duration\"";
        QTest::newRow("non-number") << header + "0,1,0,5,vgg,10,1\n1,x,5,5,vgg,10,1\n"
                                    << 0 << "row 3, column num_gpu: \"x\" is not a number";
        QTest::newRow("negative time") << header + "0,1,-5,5,vgg,10,1\n"
                                       << 0 << "row 2, column submit_time: must not be negative";
        QTest::newRow("too many GPUs") << header + "0,1,0,5,vgg,10,1\n1,64,5,5,vgg,10,1\n"
                                       << 32 << "row 3, column num_gpu: job asks for 64 GPUs, the cluster has 32";
        QTest::newRow("short row") << header + "0,1,0\n" << 0 << "row 2 has 3 columns, expected 7";
        QTest::newRow("fraction") << header + "0,1.5,0,5,vgg,10,1\n" << 0 << "row 2, column num_gpu: must be a whole";
    }

    void badTiresiasRowsNameRowAndColumn()
    {
        QFETCH(QString, text);
        QFETCH(int, clusterGpus);
        QFETCH(QString, expected);
        std::istringstream in(text.toStdString());
        const std::string message = errorOf([&] { readTiresiasTrace(in, options(clusterGpus)); });
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
    }

    void heliosReadsDateTimesAndSkipsCpuJobs()
    {
        std::istringstream in("job_id,user,vc,jobname,gpu_num,cpu_num,node_num,state,submit_time,start_time,"
                              "end_time,duration,queue\n"
                              "1,alice,vc1,a,8,48,1,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:01:00,"
                              "2020-04-01 01:01:00,3600,60\n"
                              "2,bob,vc1,b,0,4,1,COMPLETED,2020-04-01 00:00:30,x,x,10,0\n"
                              "3,bob,vc2,c,2,12,1,FAILED,2020-04-01 00:02:00,2020-04-01 00:02:00,"
                              "2020-04-01 00:03:40,100,0\n");
        const Workload jobs = readHeliosTrace(in, options());
        QCOMPARE(jobs.size(), std::size_t(2));
        QCOMPARE(jobs[0].submitS, 0.0);
        QCOMPARE(jobs[1].submitS, 120.0);
        QCOMPARE(jobs[1].durationS, 100.0);
        QCOMPARE(jobs[1].gpus, 2);
        QCOMPARE(jobs[0].user, 0);
        QCOMPARE(jobs[1].user, 1);
        QCOMPARE(jobs[0].cpuCores, 48.0);
    }

    void heliosBadTimeNamesRow()
    {
        std::istringstream in("job_id,user,gpu_num,submit_time,duration\n1,a,1,yesterday,10\n");
        const std::string message = errorOf([&] { readHeliosTrace(in, options()); });
        QVERIFY2(message.find("row 2, column submit_time") != std::string::npos, message.c_str());
    }

    void phillyJobUsesAttemptsAndGpuLists()
    {
        std::istringstream in(R"([
          {"jobid": "application_1", "user": "u1", "vc": "v", "status": "Pass",
           "submitted_time": "2017-10-03 02:00:00",
           "attempts": [{"start_time": "2017-10-03 02:00:10", "end_time": "2017-10-03 02:05:00",
                          "detail": [{"ip": "m1", "gpus": ["gpu0"]}]},
                        {"start_time": "2017-10-03 02:10:00", "end_time": "2017-10-03 03:00:10",
                         "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1"]}, {"ip": "m2", "gpus": ["gpu3", "gpu4"]}]}]},
          {"jobid": "application_2", "user": "u2", "submitted_time": "2017-10-03 02:30:00", "attempts": []},
          {"jobid": "application_3", "user": "u1", "submitted_time": "2017-10-03 02:40:00",
           "attempts": [{"start_time": "2017-10-03 02:41:00", "end_time": "None", "detail": []}]}
        ])");
        const Workload jobs = readPhillyTrace(in, options());
        QCOMPARE(jobs.size(), std::size_t(1));
        QCOMPARE(jobs[0].gpus, 4);
        QCOMPARE(jobs[0].durationS, 3600.0);
        QCOMPARE(jobs[0].submitS, 0.0);
    }

    void phillyBadTimeNamesJobAndField()
    {
        std::istringstream in(R"([{"jobid": "application_9", "submitted_time": "03/10/2017", "attempts": []}])");
        const std::string message = errorOf([&] { readPhillyTrace(in, options()); });
        QVERIFY2(message.find("job 1 (application_9), field submitted_time") != std::string::npos, message.c_str());
    }

    void paiJoinsTasksAndMakesFractionalJobs()
    {
        std::istringstream jobsTable("j1,i1,userA,Terminated,1000,5000\n"
                                     "j2,i2,userB,Terminated,1100,1300\n"
                                     "j3,i3,userA,Running,1200,\n"
                                     "j4,i4,userB,Terminated,1300,1400\n");
        std::istringstream tasks("j1,worker,4,Terminated,1010,4000,600,29.3,100,V100\n"
                                 "j1,ps,1,Terminated,1010,4010,400,10,,\n"
                                 "j2,worker,1,Terminated,1100,1300,600,10,50,T4\n"
                                 "j3,worker,1,Running,1200,,600,10,100,V100\n"
                                 "j4,tensorflow,1,Terminated,1300,1400,600,10,,\n");
        const Workload jobs = readPaiTrace(jobsTable, tasks, options());
        QCOMPARE(jobs.size(), std::size_t(2)); // j3 has no end time, j4 no GPU task
        QCOMPARE(jobs[0].gpus, 4);
        QCOMPARE(jobs[0].durationS, 2990.0);
        QCOMPARE(jobs[0].cpuCores, 24.0);
        QCOMPARE(jobs[1].gpus, 0);
        QCOMPARE(jobs[1].gpuMilli, 500);
        QCOMPARE(jobs[1].submitS, 100.0);
        QCOMPARE(jobs[1].user, 1);
    }

    void paiBadNumberNamesTableRowAndColumn()
    {
        std::istringstream jobsTable("j1,i1,u,Terminated,1000,5000\n");
        std::istringstream tasks("j1,worker,1,Terminated,1010,4000,600,29.3,100,V100\n"
                                 "j1,worker,two,Terminated,1010,4000,600,29.3,100,V100\n");
        const std::string message = errorOf([&] { readPaiTrace(jobsTable, tasks, options()); });
        QVERIFY2(message.find("pai_task_table): row 2, column inst_num") != std::string::npos, message.c_str());
    }

    void unreadableFileIsAnError()
    {
        const std::string message = errorOf([&] { readTraceFile("/nonexistent/trace.csv", TraceFormat::Helios, 0); });
        QVERIFY(message.find("cannot open") != std::string::npos);
    }

    void syntheticWorkloadIsDeterministic()
    {
        SyntheticWorkloadSpec spec;
        spec.jobs = 2000;
        spec.seed = 42;
        spec.arrivalsPerHour = 120;
        const Workload a = generateWorkload(spec);
        const Workload b = generateWorkload(spec);
        spec.seed = 43;
        const Workload c = generateWorkload(spec);
        QCOMPARE(a.size(), std::size_t(2000));
        bool allSame = true, anyDifferent = false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            allSame = allSame && a[i].submitS == b[i].submitS && a[i].durationS == b[i].durationS
                && a[i].gpus == b[i].gpus && a[i].user == b[i].user;
            anyDifferent = anyDifferent || a[i].durationS != c[i].durationS;
            QVERIFY(a[i].estimateS >= a[i].durationS);
        }
        QVERIFY(allSame);
        QVERIFY(anyDifferent);
        // Poisson arrivals: mean gap 30 s (±10 % for 2,000 draws); lognormal fallback median e^6.8457 ≈ 940 s.
        QVERIFY(std::abs(a.back().submitS / 2000 - 30.0) < 3.0);
        std::vector<double> durations;
        for (const Job& job : a)
            durations.push_back(job.durationS);
        std::nth_element(durations.begin(), durations.begin() + 1000, durations.end());
        QVERIFY(durations[1000] > 700 && durations[1000] < 1250);
    }

    void syntheticWorkloadSamplesPhillyRuntimes()
    {
        SyntheticWorkloadSpec spec;
        spec.jobs = 4000;
        spec.runtimeCsvPath = CLUSTERPLANNER_DATA_DIR "/traces/philly_runtime.csv";
        const Workload jobs = generateWorkload(spec);
        std::vector<double> durations;
        for (const Job& job : jobs)
            durations.push_back(job.durationS);
        std::nth_element(durations.begin(), durations.begin() + 2000, durations.end());
        // The data's median is 1,186 s; a 4,000-draw sample median lands within ±20 %.
        QVERIFY2(durations[2000] > 950 && durations[2000] < 1450, std::to_string(durations[2000]).c_str());
        QCOMPARE(readRuntimeSamples(spec.runtimeCsvPath).size(), std::size_t(83154));
    }
};

QTEST_GUILESS_MAIN(TestTraces)
#include "tst_traces.moc"
