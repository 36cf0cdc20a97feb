// SPDX-License-Identifier: GPL-3.0-or-later
// Optional-field helpers shared by the config.json family readers.
#pragma once

#include "core/io/jsonfields.h"

namespace clusterplanner::core::hf {

inline constexpr long long kMaxDimension = 1LL << 30;

/// A positive whole number; fails naming the field when missing or out of range.
inline int positive(const JsonFields& f, const char* key)
{
    return f.integer(key, 1, kMaxDimension);
}

/// The field when present and not null, else the transformers class default.
inline int positiveOr(const JsonFields& f, const char* key, int fallback)
{
    return f.has(key) && !f.isNull(key) ? positive(f, key) : fallback;
}

inline int countOr(const JsonFields& f, const char* key, int fallback)
{
    return f.has(key) && !f.isNull(key) ? f.integer(key, 0, kMaxDimension) : fallback;
}

inline bool flagOr(const JsonFields& f, const char* key, bool fallback)
{
    return f.has(key) && !f.isNull(key) ? f.boolean(key) : fallback;
}

} // namespace clusterplanner::core::hf
