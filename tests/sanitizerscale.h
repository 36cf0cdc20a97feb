// SPDX-License-Identifier: GPL-3.0-or-later
// Timing windows of tests widen under sanitizers (ASan and UBSan slow code 2-10×) instead of failing there.
#pragma once

namespace clusterplanner::test {

#ifdef CLUSTERPLANNER_SANITIZED
/// Factor applied to every time bound and waiting window of a test.
inline constexpr int kTimingScale = 10;
#else
inline constexpr int kTimingScale = 1;
#endif

} // namespace clusterplanner::test
