// SPDX-License-Identifier: GPL-3.0-or-later
// Capex, opex, TCO, cloud comparison and energy of a GPU cluster (docs/methods-cost.md §8).
#include "core/cost/costmodel.h"

#include "core/model/gpucatalog.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace clusterplanner::core::cost {

namespace {

void require(bool ok, const char* field, const char* rule, double value)
{
    if (ok)
        return;
    std::ostringstream text;
    text << "cost model: " << field << " must be " << rule << " (got " << value << ")";
    throw std::invalid_argument(text.str());
}

bool nonNegative(double value)
{
    return std::isfinite(value) && value >= 0;
}

void validate(const CostAssumptions& a)
{
    require(a.gpuCount >= 1, "gpuCount", "at least 1", a.gpuCount);
    require(a.gpusPerNode >= 1, "gpusPerNode", "at least 1", a.gpusPerNode);
    require(nonNegative(a.gpuPriceUsd), "gpuPriceUsd", "≥ 0", a.gpuPriceUsd);
    require(nonNegative(a.nodeOverheadUsd), "nodeOverheadUsd", "≥ 0", a.nodeOverheadUsd);
    require(nonNegative(a.networkUsdPerGpu), "networkUsdPerGpu", "≥ 0", a.networkUsdPerGpu);
    require(nonNegative(a.gpuTdpW), "gpuTdpW", "≥ 0", a.gpuTdpW);
    require(nonNegative(a.gpuIdleW) && a.gpuIdleW <= a.gpuTdpW, "gpuIdleW", "in [0, TDP]", a.gpuIdleW);
    require(a.gpuUtilization >= 0 && a.gpuUtilization <= 1, "gpuUtilization", "in [0, 1]", a.gpuUtilization);
    require(nonNegative(a.nodeOverheadW), "nodeOverheadW", "≥ 0", a.nodeOverheadW);
    require(std::isfinite(a.pue) && a.pue >= 1, "pue", "≥ 1", a.pue);
    require(nonNegative(a.usdPerKwh), "usdPerKwh", "≥ 0", a.usdPerKwh);
    require(nonNegative(a.hostingUsdPerGpuYear), "hostingUsdPerGpuYear", "≥ 0", a.hostingUsdPerGpuYear);
    require(std::isfinite(a.years) && a.years > 0, "years", "> 0", a.years);
    require(nonNegative(a.cloudUsdPerGpuHour), "cloudUsdPerGpuHour", "≥ 0", a.cloudUsdPerGpuHour);
    require(a.billableUtilization > 0 && a.billableUtilization <= 1, "billableUtilization", "in (0, 1]",
        a.billableUtilization);
}

double pick(const PriceRange& range, PriceLevel level)
{
    const auto value = level == PriceLevel::Low ? range.lowUsd
        : level == PriceLevel::High             ? range.highUsd
                                                : range.midUsd();
    return value.value_or(range.midUsd().value_or(0.0));
}

} // namespace

CostAssumptions costAssumptionsFor(const GpuSpec& gpu, int gpuCount, PriceLevel level)
{
    CostAssumptions a;
    a.gpuCount = gpuCount;
    a.gpuPriceUsd = pick(gpu.purchaseUsd, level);
    a.cloudUsdPerGpuHour = pick(gpu.cloudUsdPerGpuHour, level);
    a.gpuTdpW = gpu.tdpW;
    a.gpuIdleW = costDefaults().idlePowerFraction * gpu.tdpW;
    return a;
}

double trainingTimeS(double flops, int gpuCount, double peakFlopsPerGpu, double mfu)
{
    if (!(flops >= 0) || gpuCount < 1 || !(peakFlopsPerGpu > 0) || !(mfu > 0 && mfu <= 1))
        throw std::invalid_argument("training time: need FLOPs ≥ 0, GPUs ≥ 1, peak > 0 and MFU in (0, 1]");
    return flops / (gpuCount * peakFlopsPerGpu * mfu);
}

CostModel::CostModel(const CostAssumptions& assumptions)
    : m_a(assumptions)
{
    validate(m_a);
}

int CostModel::nodeCount() const
{
    return (m_a.gpuCount + m_a.gpusPerNode - 1) / m_a.gpusPerNode;
}

double CostModel::capexUsd() const
{
    return m_a.gpuCount * (m_a.gpuPriceUsd + m_a.networkUsdPerGpu) + nodeCount() * m_a.nodeOverheadUsd;
}

double CostModel::gpuPowerW() const
{
    return m_a.gpuIdleW + m_a.gpuUtilization * (m_a.gpuTdpW - m_a.gpuIdleW);
}

double CostModel::itPowerKw() const
{
    return (m_a.gpuCount * gpuPowerW() + nodeCount() * m_a.nodeOverheadW) / 1000;
}

double CostModel::facilityPowerKw() const
{
    return m_a.pue * itPowerKw();
}

double CostModel::energyKwh(double hours) const
{
    return facilityPowerKw() * hours;
}

double CostModel::energyCostUsd(double hours) const
{
    return energyKwh(hours) * m_a.usdPerKwh;
}

double CostModel::opexPerHourUsd() const
{
    return energyCostUsd(1) + m_a.hostingUsdPerGpuYear * m_a.gpuCount / kHoursPerYear;
}

double CostModel::opexPerYearUsd() const
{
    return opexPerHourUsd() * kHoursPerYear;
}

double CostModel::tcoUsd() const
{
    return capexUsd() + m_a.years * opexPerYearUsd();
}

double CostModel::effectiveUsdPerGpuHour() const
{
    const double amortisedPerHour = capexUsd() / (m_a.years * kHoursPerYear);
    return (amortisedPerHour + opexPerHourUsd()) / (m_a.gpuCount * m_a.billableUtilization);
}

double CostModel::cloudCostUsd(double hours) const
{
    return m_a.gpuCount * hours * m_a.cloudUsdPerGpuHour;
}

double CostModel::ownedCostUsd(double hours) const
{
    return hours * (capexUsd() / (m_a.years * kHoursPerYear) + opexPerHourUsd());
}

double CostModel::breakEvenHours() const
{
    if (m_a.cloudUsdPerGpuHour <= 0)
        return std::numeric_limits<double>::infinity();
    return tcoUsd() / (m_a.gpuCount * m_a.cloudUsdPerGpuHour);
}

RunCost CostModel::trainingRun(double tokens, double tokensPerS) const
{
    if (!(tokens > 0) || !(tokensPerS > 0) || !std::isfinite(tokens) || !std::isfinite(tokensPerS))
        throw std::invalid_argument("training run: tokens and tokens/s must be finite and > 0");
    RunCost run;
    run.hours = tokens / tokensPerS / 3600;
    run.gpuHours = run.hours * m_a.gpuCount;
    run.cloudCostUsd = cloudCostUsd(run.hours);
    run.ownedCostUsd = ownedCostUsd(run.hours);
    run.energyKwh = energyKwh(run.hours);
    run.energyCostUsd = energyCostUsd(run.hours);
    run.cloudUsdPerMillionTokens = run.cloudCostUsd / (tokens / 1e6);
    run.ownedUsdPerMillionTokens = run.ownedCostUsd / (tokens / 1e6);
    return run;
}

} // namespace clusterplanner::core::cost
