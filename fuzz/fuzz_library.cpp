// SPDX-License-Identifier: GPL-3.0-or-later
// Library import (scenario files with tags): refused only with ScenarioFormatError.
#include "core/io/scenariojson.h"
#include "core/store/libraryfile.h"
#include "fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner;
    fuzz::refusesOnlyWith<core::ScenarioFormatError>([&] { core::readLibraryFile(fuzz::textOf(data, size)); });
    return 0;
}
