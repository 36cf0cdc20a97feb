// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files (*.cplan.json): readScenarioFile refuses bad input only with ScenarioFormatError.
#include "core/io/scenariojson.h"
#include "fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner;
    fuzz::refusesOnlyWith<core::ScenarioFormatError>([&] { core::readScenarioFile(fuzz::textOf(data, size)); });
    return 0;
}
