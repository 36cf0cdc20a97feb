// SPDX-License-Identifier: GPL-3.0-or-later
// Validation cases and truths (data/validation): refused only with std::runtime_error naming the case and field.
#include "core/io/validationcase.h"
#include "fuzz/fuzzinput.h"

#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner;
    const std::string text = fuzz::textOf(data, size);
    fuzz::refusesOnlyWith<std::runtime_error>([&] { core::readValidationCases(text); });
    fuzz::refusesOnlyWith<std::runtime_error>([&] { core::readValidationTruths(text); });
    return 0;
}
