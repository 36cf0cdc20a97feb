// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's workload section: JSON round trip, bad fields named, diurnal arrivals, fractional share, traces.
#include "core/io/scenariojson.h"
#include "core/sched/workloadspec.h"
#include "core/sched/workloadsummary.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <numbers>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;

namespace {

WorkloadSpec sampleSpec()
{
    WorkloadSpec spec;
    spec.synthetic.jobs = 5000;
    spec.synthetic.seed = 11;
    spec.synthetic.arrivalsPerHour = 100;
    spec.synthetic.users = 12;
    spec.synthetic.gpuMix = {{1, 3}, {8, 1}};
    spec.diurnalAmplitude = 0.8;
    spec.diurnalPeakHour = 14;
    spec.groups = 3;
    spec.fractionalShare = 0.5;
    return spec;
}

} // namespace

class TestWorkloadSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTripsThroughTheScenarioFile()
    {
        Scenario s = defaultScenario();
        QVERIFY(writeScenarioFile(s).find("\"workload\"") == std::string::npos); // optional: absent stays absent
        s.workload = sampleSpec();
        QVERIFY(readScenarioFile(writeScenarioFile(s)) == s);
        s.workload->source = WorkloadSource::Trace;
        s.workload->tracePath = "traces/a.csv";
        s.workload->traceFormat = TraceFormat::Helios;
        QVERIFY(readScenarioFile(writeScenarioFile(s)) == s);
    }

    void badFieldsAreNamed()
    {
        Scenario s = defaultScenario();
        s.workload = sampleSpec();
        auto document = nlohmann::json::parse(writeScenarioFile(s));
        document["scenario"]["workload"]["synthetic"]["diurnal_amplitude"] = 2;
        try {
            readScenarioFile(document.dump());
            QFAIL("accepted an amplitude of 2");
        } catch (const ScenarioFormatError& error) {
            QVERIFY2(std::string(error.what()).find("workload.synthetic.diurnal_amplitude") != std::string::npos,
                error.what());
        }
        document = nlohmann::json::parse(writeScenarioFile(s));
        document["scenario"]["workload"]["trace"]["format"] = "slurm";
        QVERIFY_THROWS_EXCEPTION(ScenarioFormatError, readScenarioFile(document.dump()));
    }

    void diurnalPatternFollowsTheRate()
    {
        // λ(t)/λ = 1 + a·cos(2π(t − 14 h)/day): the busiest hour is 14:00, the quietest 02:00, and the ratio of
        // their counts approaches (1 + a)/(1 − a) = 9 for a = 0.8 (a little less over a one-hour bin).
        WorkloadSpec spec = sampleSpec();
        spec.fractionalShare = 0;
        spec.synthetic.jobs = 40000;
        spec.synthetic.arrivalsPerHour = 400;
        const auto summary = summarizeWorkload(buildWorkload(spec, 0));
        const auto& byHour = summary.arrivalsByHour;
        const auto peak = std::max_element(byHour.begin(), byHour.end()) - byHour.begin();
        QVERIFY2(std::abs(peak - 14) <= 1, qPrintable(QString::number(peak)));
        const double ratio = double(byHour[14]) / std::max(1, byHour[2]);
        QVERIFY2(ratio > 6 && ratio < 12, qPrintable(QString::number(ratio)));
        // The mean rate stays: 40,000 jobs over ~100 h.
        QVERIFY(std::abs(summary.arrivalsPerHour - 400) < 20);
    }

    void fractionalShareTurnsOneGpuJobsFractional()
    {
        const Workload jobs = buildWorkload(sampleSpec(), 0);
        int single = 0, fractional = 0;
        for (const Job& job : jobs) {
            if (job.isFractional()) {
                ++fractional;
                QVERIFY(job.gpuMilli == 250 || job.gpuMilli == 500);
                QCOMPARE(job.gpuMemoryMiB, 80 * 1024 * job.gpuMilli / 1000.0);
            }
            single += job.gpus == 1 ? 1 : 0;
            QVERIFY(job.gpus != 8 || !job.isFractional());
        }
        const double share = double(fractional) / (fractional + single);
        QVERIFY2(std::abs(share - 0.5) < 0.03, qPrintable(QString::number(share)));
        QVERIFY(buildWorkload(sampleSpec(), 0).front().submitS == jobs.front().submitS); // deterministic
    }

    void tracePathsResolveBesideTheScenario()
    {
        WorkloadSpec spec;
        spec.source = WorkloadSource::Trace;
        spec.tracePath = "../traces/tiresias_60_job.csv";
        const Workload jobs = buildWorkload(spec, 16, CLUSTERPLANNER_DATA_DIR "/scenarios");
        QCOMPARE(jobs.size(), std::size_t(60));
        spec.tracePath = "missing.csv";
        QVERIFY_THROWS_EXCEPTION(TraceFormatError, buildWorkload(spec, 16, CLUSTERPLANNER_DATA_DIR));
    }

    void gpuMixTextRoundTrips()
    {
        const std::vector<std::pair<int, double>> mix {{1, 0.6}, {8, 0.25}, {64, 0.15}};
        QCOMPARE(parseGpuMix(formatGpuMix(mix)), mix);
        QCOMPARE(parseGpuMix(" 2 : 1 ,4:3"), (std::vector<std::pair<int, double>> {{2, 1}, {4, 3}}));
        for (const char* bad : {"", "8", "8:x", "0:1", "8:-1", "1:0, 2:0", "8:1 extra"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseGpuMix(bad));
    }

    void summaryCountsTheJobs()
    {
        const Workload jobs = buildWorkload(sampleSpec(), 0);
        const auto s = summarizeWorkload(jobs);
        int gpuBinJobs = 0, durationBinJobs = 0;
        for (const auto& bin : s.gpuCounts)
            gpuBinJobs += bin.jobs;
        for (const auto& bin : s.durations)
            durationBinJobs += bin.jobs;
        QCOMPARE(gpuBinJobs, s.jobs);
        QCOMPARE(durationBinJobs, s.jobs);
        QCOMPARE(s.gpuCounts.front().label, std::string("<1"));
        QCOMPARE(s.users, 12);
        double gpuSeconds = 0, gpus = 0;
        for (const Job& job : jobs) {
            gpuSeconds += job.gpuShare() * job.durationS;
            gpus += job.gpuShare();
        }
        QCOMPARE(s.gpuWeightedDurationS, gpuSeconds / gpus);
    }
};

QTEST_APPLESS_MAIN(TestWorkloadSpec)
#include "tst_workloadspec.moc"
