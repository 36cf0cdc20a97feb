// SPDX-License-Identifier: GPL-3.0-or-later
// One-dimensional bin packing of fractional GPU shares in integer milli-GPU (first-fit, best-fit, FFD).
#include "core/queue/packing.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace clusterplanner::core::queue {

namespace {

void validate(const std::vector<int>& itemsMilli, int capacityMilli)
{
    if (capacityMilli < 1)
        throw std::invalid_argument(
            "packing: bin capacity must be at least 1 milli-GPU (got " + std::to_string(capacityMilli) + ")");
    for (std::size_t i = 0; i < itemsMilli.size(); ++i)
        if (itemsMilli[i] < 1 || itemsMilli[i] > capacityMilli)
            throw std::invalid_argument("packing: item " + std::to_string(i) + " is " + std::to_string(itemsMilli[i])
                + " milli-GPU; items must be in 1.." + std::to_string(capacityMilli));
}

/// Index of the bin the rule chooses for an item, or -1 when no open bin has room.
int chooseBin(const std::vector<int>& fill, int item, int capacity, bool bestFit)
{
    int chosen = -1;
    for (int b = 0; b < static_cast<int>(fill.size()); ++b) {
        if (fill[b] + item > capacity)
            continue;
        if (!bestFit)
            return b;
        if (chosen < 0 || fill[b] > fill[chosen])
            chosen = b; // strictly fuller only, so ties keep the lowest index
    }
    return chosen;
}

/// Order in which items are offered: input order, or by decreasing size for FFD.
std::vector<std::size_t> offerOrder(const std::vector<int>& itemsMilli, PackingRule rule)
{
    std::vector<std::size_t> order(itemsMilli.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    if (rule == PackingRule::FirstFitDecreasing)
        std::stable_sort(
            order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return itemsMilli[a] > itemsMilli[b]; });
    return order;
}

} // namespace

Packing packShares(const std::vector<int>& itemsMilli, PackingRule rule, int capacityMilli)
{
    validate(itemsMilli, capacityMilli);
    Packing packing;
    packing.binOfItem.assign(itemsMilli.size(), -1);
    for (std::size_t i : offerOrder(itemsMilli, rule)) {
        int bin = chooseBin(packing.binFillMilli, itemsMilli[i], capacityMilli, rule == PackingRule::BestFit);
        if (bin < 0) {
            bin = packing.binCount();
            packing.binFillMilli.push_back(0);
        }
        packing.binFillMilli[bin] += itemsMilli[i];
        packing.binOfItem[i] = bin;
    }
    return packing;
}

} // namespace clusterplanner::core::queue
