// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration report: step-time model vs the development set (shared/validation), per case and summarised.
// Layouts are chosen exactly as `clusterplanner validate` chooses them (predictCase: the sweep for null fields).
// Usage: bench_calibrate [efficiency.json]   (default: the built-in data/efficiency.json)
#include "core/cli/casepredictor.h"
#include "core/io/validationcase.h"
#include "core/model/enumnames.h"
#include "core/model/gpucatalog.h"
#include "core/perf/steptime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Errors
{
    std::vector<double> values;
    void add(double predicted, double truth) { values.push_back(std::abs(predicted / truth - 1)); }
    double quantile(double q) const
    {
        if (values.empty())
            return NAN;
        auto sorted = values;
        std::sort(sorted.begin(), sorted.end());
        const double pos = q * (sorted.size() - 1);
        const auto lo = std::size_t(std::floor(pos));
        const auto hi = std::min(sorted.size() - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }
};

} // namespace

int main(int argc, char** argv)
{
    const std::string dir = std::string(CLUSTERPLANNER_SHARED_DIR) + "/validation/";
    auto cases = readValidationCases(readFile(dir + "dev_cases.json"));
    std::map<std::string, ValidationTruth> truths;
    for (auto& t : readValidationTruths(readFile(dir + "dev_truth.json")))
        truths[t.id] = t;
    const EfficiencyTable table = argc > 1 ? EfficiencyTable::fromJson(readFile(argv[1])) : EfficiencyTable::builtin();
    Errors tokens, step, mfu, all;
    std::printf("%-48s %16s %5s %2s %9s %9s %7s %6s %6s %7s\n", "case", "tp.pp.cp.dp/b.v", "rc", "z", "tok/s/gpu",
        "truth", "err", "mfu", "truth", "err");
    for (auto& c : cases) {
        const auto p = cli::predictCase(c, &table);
        const auto& r = p.time;
        const auto& t = truths[c.id];
        const auto& l = p.chosen.layout;
        char layout[48];
        std::snprintf(
            layout, sizeof layout, "%dx%dx%dx%d/%dv%d", l.tp, l.pp, l.cp, l.dp, p.chosen.microBatch, l.virtualStages);
        if (!p.ok || !r.valid) {
            std::printf("%-52s %s invalid: %s %s\n", c.id.c_str(), layout, p.error.c_str(), r.error);
            continue;
        }
        const double tokTruth = t.tokensPerSPerGpu.value_or(NAN);
        const double mfuTruth = t.mfu.value_or(NAN);
        if (t.tokensPerSPerGpu) {
            tokens.add(r.tokensPerSPerGpu, tokTruth);
            all.add(r.tokensPerSPerGpu, tokTruth);
        } else if (t.mfu) {
            all.add(r.mfu, mfuTruth); // no throughput published: MFU stands in for it
        }
        if (t.stepTimeS)
            step.add(r.stepTimeS, *t.stepTimeS);
        if (t.mfu)
            mfu.add(r.mfu, mfuTruth);
        std::printf("%-48s %16s %5s z%d %9.1f %9.1f %+6.1f%% %6.3f %6.3f %+6.1f%%\n", c.id.substr(0, 48).c_str(),
            layout, std::string(toString(p.chosen.recompute)).substr(0, 5).c_str(), p.chosen.zeroStage,
            r.tokensPerSPerGpu, tokTruth, 100 * (r.tokensPerSPerGpu / tokTruth - 1), r.mfu, mfuTruth,
            100 * (r.mfu / mfuTruth - 1));
    }
    auto line = [](const char* name, const Errors& e) {
        std::printf("%-34s n=%2zu  median %5.1f %%  p90 %5.1f %%  max %5.1f %%\n", name, e.values.size(),
            100 * e.quantile(0.5), 100 * e.quantile(0.9), 100 * e.quantile(1.0));
    };
    std::printf("\nsummary (absolute relative error)\n");
    line("tokens/s per GPU", tokens);
    line("step time", step);
    line("MFU", mfu);
    line("throughput (tokens/s, else MFU)", all);
    return 0;
}
