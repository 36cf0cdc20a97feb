// SPDX-License-Identifier: GPL-3.0-or-later
// What every fuzz target shares: the input as text, and the one exception type a parser may throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace clusterplanner::fuzz {

inline std::string textOf(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// Runs `parse`; its documented error type is the expected way to refuse an input. Any other exception escapes and
/// ends the run, so libFuzzer records the input as a finding (like a crash, a leak or undefined behaviour).
template <typename Error, typename Parse>
void refusesOnlyWith(Parse parse)
{
    try {
        parse();
    } catch (const Error&) { }
}

} // namespace clusterplanner::fuzz
