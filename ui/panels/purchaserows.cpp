// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/purchaserows.h"

#include "ui/charts/numberformat.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace clusterplanner::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PurchaseRows", text);
}

/// Appends rows of one section; `add` keeps the call sites one line per figure.
class RowWriter
{
public:
    RowWriter(std::vector<FigureRow>& rows, QString section)
        : m_rows(rows)
        , m_section(std::move(section))
    { }
    FigureRow& add(const char* key, const QString& label, double value, const QString& unit, FigureFormat format,
        bool lowerIsBetter = false)
    {
        m_rows.push_back({m_section, QLatin1String(key), label, value, unit, format, lowerIsBetter, true, {}});
        return m_rows.back();
    }

private:
    std::vector<FigureRow>& m_rows;
    QString m_section;
};

void addSizeAndCompute(std::vector<FigureRow>& rows, const core::cluster::ClusterFigures& c)
{
    RowWriter size(rows, tr("Size"));
    size.add("cluster.gpus", tr("GPUs"), double(c.gpus), {}, FigureFormat::Count);
    size.add("cluster.nodes", tr("Nodes"), double(c.nodes), {}, FigureFormat::Count);
    size.add("cluster.hbm_total_tb", tr("HBM total"), c.hbmTotalTB, tr("TB"), FigureFormat::Number);
    RowWriter compute(rows, tr("Compute (dense peak)"));
    compute.add("cluster.peak_pflops_bf16", tr("BF16"), c.peakPflopsBf16, tr("PFLOP/s"), FigureFormat::Number);
    compute.add("cluster.peak_pflops_fp8", tr("FP8"), c.peakPflopsFp8, tr("PFLOP/s"), FigureFormat::Number);
    compute.add("cluster.peak_pflops_fp32", tr("FP32"), c.peakPflopsFp32, tr("PFLOP/s"), FigureFormat::Number);
}

void addNetwork(std::vector<FigureRow>& rows, const core::cluster::ClusterFigures& c)
{
    RowWriter network(rows, tr("Network"));
    network.add("cluster.bisection_tbps", tr("Bisection (narrowest tier)"), c.bisectionGbps / 1000, tr("Tb/s"),
        FigureFormat::Number);
    for (const auto& tier : c.tiers) {
        const QString name = QString::fromStdString(tier.name);
        auto& bisection = network.add(
            "", tr("Bisection at %1").arg(name), tier.bisectionGbps / 1000, tr("Tb/s"), FigureFormat::Number);
        bisection.key = QStringLiteral("tier.%1.bisection_tbps").arg(name);
        auto& switches = network.add("", tr("%1 switches").arg(name), double(tier.switches), {}, FigureFormat::Count);
        switches.key = QStringLiteral("tier.%1.switches").arg(name);
    }
}

void addPower(std::vector<FigureRow>& rows, const core::cluster::ClusterFigures& c)
{
    RowWriter power(rows, tr("Power and racks"));
    power.add("cluster.it_power_mw", tr("IT power"), c.itPowerKw / 1000, tr("MW"), FigureFormat::Number, true);
    power.add("cluster.facility_power_mw", tr("Facility power (× PUE)"), c.facilityPowerKw / 1000, tr("MW"),
        FigureFormat::Number, true);
    power.add("cluster.racks", tr("Racks"), double(c.racks), {}, FigureFormat::Count, true);
    power.add("cluster.max_rack_kw", tr("Fullest rack"), c.maxRackKw, tr("kW"), FigureFormat::Number, true);
}

void addCost(std::vector<FigureRow>& rows, const core::cluster::ClusterFigures& c)
{
    RowWriter cost(rows, tr("Cost"));
    cost.add("cluster.capex_nodes_usd", tr("Capex: nodes"), c.capexNodesUsd, {}, FigureFormat::Usd, true);
    cost.add("cluster.capex_network_usd", tr("Capex: network"), c.capexNetworkUsd, {}, FigureFormat::Usd, true);
    cost.add("cluster.capex_storage_usd", tr("Capex: storage"), c.capexStorageUsd, {}, FigureFormat::Usd, true);
    cost.add("cluster.capex_facility_usd", tr("Capex: facility"), c.capexFacilityUsd, {}, FigureFormat::Usd, true);
    cost.add("cluster.capex_usd", tr("Capex total"), c.capexUsd, {}, FigureFormat::Usd, true);
    cost.add("cluster.opex_usd_per_year", tr("Opex per year"), c.opexUsdPerYear, {}, FigureFormat::Usd, true);
    cost.add("cluster.opex_energy_usd_per_year", tr("  of which energy"), c.opexEnergyUsdPerYear, {}, FigureFormat::Usd,
        true);
    cost.add("cluster.lifetime_years", tr("Lifetime"), c.lifetimeYears, tr("years"), FigureFormat::Number);
    cost.add("cluster.tco_usd", tr("TCO over the lifetime"), c.tcoUsd, {}, FigureFormat::Usd, true);
    auto& cloud = cost.add(
        "cluster.cloud_equivalent_usd", tr("Cloud, same GPU-hours"), c.cloudEquivalentUsd, {}, FigureFormat::Usd, true);
    if (c.cloudEquivalentUsd <= 0) {
        cloud.known = false;
        cloud.whyUnknown = tr("no cloud price in the catalog");
    }
}

void addRun(std::vector<FigureRow>& rows, const core::evaluation::TrainingRunFigures& run)
{
    RowWriter out(rows, tr("Training run"));
    const std::size_t first = rows.size();
    out.add("run.tokens_per_s", tr("Throughput"), run.tokensPerS, tr("tokens/s"), FigureFormat::Count);
    out.add("run.mfu", tr("MFU"), 100 * run.mfu, {}, FigureFormat::Percent);
    out.add("run.time_to_train_days", tr("Time to train"), run.timeToTrainDays, tr("days"), FigureFormat::Number, true);
    out.add("run.energy_mwh", tr("Energy"), run.energyMwh, tr("MWh"), FigureFormat::Number, true);
    out.add("run.owned_usd_per_m_tokens", tr("Owned $ per M tokens"), run.ownedUsdPerMillionTokens, {},
        FigureFormat::Usd, true);
    out.add("run.cloud_usd_per_m_tokens", tr("Cloud $ per M tokens"), run.cloudUsdPerMillionTokens, {},
        FigureFormat::Usd, true);
    if (run.fits)
        return;
    for (std::size_t i = first; i < rows.size(); ++i) {
        rows[i].known = false;
        rows[i].whyUnknown = QString::fromStdString(run.whyNot);
    }
}

QString number(double value)
{
    const double magnitude = std::abs(value);
    const int decimals = magnitude >= 100 || value == std::floor(value) ? 0 : magnitude >= 10 ? 1 : 2;
    return QLocale().toString(value, 'f', decimals);
}

} // namespace

std::vector<FigureRow> purchaseRows(const core::evaluation::PurchaseFigures& figures)
{
    std::vector<FigureRow> rows;
    addSizeAndCompute(rows, figures.cluster);
    addNetwork(rows, figures.cluster);
    addPower(rows, figures.cluster);
    addCost(rows, figures.cluster);
    addRun(rows, figures.run);
    return rows;
}

const FigureRow* findRow(const std::vector<FigureRow>& rows, const QString& key)
{
    for (const auto& row : rows)
        if (row.key == key)
            return &row;
    return nullptr;
}

QString formatUsd(double usd)
{
    if (std::abs(usd) < 1000)
        return QStringLiteral("$") + QLocale().toString(usd, 'f', std::abs(usd) >= 100 ? 0 : 2);
    return QStringLiteral("$") + formatCount(usd);
}

QString formatFigure(const FigureRow& row)
{
    if (!row.known || !std::isfinite(row.value))
        return QStringLiteral("–");
    QString text;
    switch (row.format) {
    case FigureFormat::Count:
        text = row.value >= 1e6 ? formatCount(row.value) : QLocale().toString(row.value, 'f', 0);
        break;
    case FigureFormat::Number:
        text = number(row.value);
        break;
    case FigureFormat::Usd:
        return formatUsd(row.value);
    case FigureFormat::Percent:
        return QLocale().toString(row.value, 'f', 1) + QStringLiteral(" %");
    }
    return row.unit.isEmpty() ? text : text + QLatin1Char(' ') + row.unit;
}

QString formatDifference(const FigureRow& row, const FigureRow& reference)
{
    if (!row.known || !reference.known || reference.value == 0 || !std::isfinite(row.value))
        return {};
    const double percent = 100 * (row.value - reference.value) / std::abs(reference.value);
    if (std::abs(percent) < 0.05)
        return QStringLiteral("±0 %");
    return (percent > 0 ? QStringLiteral("+") : QString()) + QLocale().toString(percent, 'f', 1) + QStringLiteral(" %");
}

} // namespace clusterplanner::ui
