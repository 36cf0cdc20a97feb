// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

nlohmann::json optionalJson(const std::optional<double>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

int runCatalog(const Args& args, std::ostream& out, std::ostream&)
{
    bool asJson = false;
    auto app = makeCommandApp("catalog",
        "The GPU catalog (data/gpus.json; every row cites its source): memory, BF16 TFLOP/s and TDP per GPU.",
        {"clusterplanner catalog", "clusterplanner catalog --json"});
    app->add_flag("--json", asJson, "every field of every GPU as JSON");
    parseCommand(*app, args, out);
    const auto& catalog = GpuCatalog::builtin();
    if (asJson) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& gpu : catalog.gpus())
            list.push_back({{"id", gpu.id}, {"name", gpu.name}, {"memory_gb", gpu.memoryGB}, {"hbm_tb_s", gpu.hbmTBs},
                {"bf16_tflops", optionalJson(gpu.bf16Tflops)}, {"tdp_w", gpu.tdpW},
                {"scaleup_domain_gpus", gpu.scaleupDomainGpus}, {"memory_total_gib", gpu.memoryBytes() / (1u << 30)},
                {"scaleout_gbps_per_gpu", gpu.scaleoutGbpsPerGpu}});
        out << list.dump(2) << "\n";
        return 0;
    }
    // The id column is as wide as the longest id, so no id runs into the memory column.
    std::size_t idWidth = 2;
    for (const auto& gpu : catalog.gpus())
        idWidth = std::max(idWidth, gpu.id.size());
    out << std::left << std::setw(int(idWidth)) << "id" << std::right << std::setw(12) << "memory (GB)" << std::setw(16)
        << "BF16 (TFLOP/s)" << std::setw(10) << "TDP (W)"
        << "\n";
    for (const auto& gpu : catalog.gpus())
        out << std::left << std::setw(int(idWidth)) << gpu.id << std::right << std::setw(12) << gpu.memoryGB
            << std::setw(16) << gpu.peakFlops(Precision::AmpBf16) / 1e12 << std::setw(10) << gpu.tdpW << "\n";
    return 0;
}

} // namespace clusterplanner::cli
