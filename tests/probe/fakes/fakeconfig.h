// SPDX-License-Identifier: GPL-3.0-or-later
// The machine the fake NVML / CUDA libraries pretend to be: a JSON file named by CLUSTERPLANNER_FAKE_GPU_CONFIG,
// read again at each init. Shared by fakenvml.cpp and fakecuda.cpp (each library gets its own copy).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

namespace fakegpu {

/// "replicate": N copies gpus[0] N times with the bus ids of "bus_ids" and the index appended to the UUID,
/// so an 8-GPU node is written once.
inline nlohmann::json expand(nlohmann::json config)
{
    const int copies = config.value("replicate", 0);
    if (copies <= 0)
        return config;
    const auto prototype = config.at("gpus").at(0);
    config["gpus"] = nlohmann::json::array();
    for (int i = 0; i < copies; ++i) {
        auto gpu = prototype;
        gpu["bus_id"] = config.at("bus_ids").at(std::size_t(i));
        gpu["uuid"] = prototype.value("uuid", std::string("GPU-fake")) + "-" + std::to_string(i);
        config["gpus"].push_back(gpu);
    }
    return config;
}

/// The current machine description. A test process probes several machines, and a library may stay mapped after
/// dlclose(), so the file is read again on every nvmlInit_v2 / cuInit (reload()) rather than once.
inline nlohmann::json& config()
{
    static nlohmann::json document = nlohmann::json::object({{"gpus", nlohmann::json::array()}});
    return document;
}

inline void reload()
{
    const char* path = std::getenv("CLUSTERPLANNER_FAKE_GPU_CONFIG");
    std::ifstream in(path ? path : "");
    config() = in ? expand(nlohmann::json::parse(in)) : nlohmann::json::object({{"gpus", nlohmann::json::array()}});
}

inline const nlohmann::json& gpus()
{
    return config().at("gpus");
}

inline int gpuCount()
{
    return int(gpus().size());
}

inline const nlohmann::json* gpu(long index)
{
    return index >= 0 && index < gpuCount() ? &gpus()[std::size_t(index)] : nullptr;
}

} // namespace fakegpu
