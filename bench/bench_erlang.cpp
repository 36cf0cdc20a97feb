// SPDX-License-Identifier: GPL-3.0-or-later
// Times one Erlang C evaluation (O(c) Erlang-B recurrence) at c = 100,000 and prints µs per evaluation.
#include "core/queue/erlang.h"

#include <chrono>
#include <iostream>

int main()
{
    using namespace clusterplanner::core::queue;
    constexpr long long servers = 100'000;
    constexpr int repetitions = 2'000;
    volatile double sink = 0; // keeps the loop from being optimised away
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repetitions; ++i)
        sink = sink + erlangC(99'000.0 + i * 0.25, servers);
    const std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - start;
    std::cout << "erlang C, c = " << servers << ": " << elapsed.count() / repetitions << " us per evaluation ("
              << repetitions << " evaluations, checksum " << sink << ")\n";
    const auto staffStart = std::chrono::steady_clock::now();
    const long long c = serversForWaitProbability(99'000, 1, 0.2);
    const std::chrono::duration<double, std::micro> staffing = std::chrono::steady_clock::now() - staffStart;
    std::cout << "staffing a = 99,000, P(wait) <= 0.2: c = " << c << " in " << staffing.count() << " us\n";
    return 0;
}
