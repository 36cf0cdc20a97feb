// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/machinepanel.h"

#include "core/model/layoutcheck.h"
#include "core/probe/benchcalibration.h"
#include "core/probe/localcatalog.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/machinebenchrunner.h"
#include "ui/panels/machinegpucard.h"
#include "ui/panels/machinetopologyview.h"
#include "ui/settings/localcatalogfile.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace clusterplanner::ui {

namespace {

constexpr int kCardColumns = 4;

QString noGpuHelp()
{
    return QObject::tr(
        "How to give ClusterPlanner a GPU to probe:\n"
        "• Install the NVIDIA driver from your distribution (e.g. the nvidia-driver package, or NVIDIA's CUDA "
        "repository); the probe needs its libnvidia-ml.so.1 and libcuda.so.1, not the CUDA toolkit.\n"
        "• Check with nvidia-smi; in a container, start it with the GPUs passed through (--gpus all).\n"
        "• A toolkit's stubs/libcuda.so is not a driver: the probe says so when it finds one.\n\n"
        "With a GPU, this panel shows each GPU as a card (memory the driver leaves, clocks, power limit, PCIe, "
        "MIG, ECC), the NVLink / PCIe topology, the catalog entry it matches and how it differs from the datasheet, "
        "and micro-benchmarks (copy bandwidth, FMA and tensor-core throughput) that can calibrate the time model.");
}

QString systemLine(const core::probe::ProbeResult& r)
{
    const QString cuda = r.cudaDriverVersion
        ? QStringLiteral("%1.%2").arg(*r.cudaDriverVersion / 1000).arg(*r.cudaDriverVersion % 1000 / 10)
        : QStringLiteral("–");
    return QObject::tr("%n NVIDIA GPU(s) · driver %1 · CUDA %2", nullptr, int(r.gpus.size()))
        .arg(QString::fromStdString(r.driverVersion.value_or("–")), cuda);
}

QString benchLine(const core::probe::BenchResult& r)
{
    if (!r.ok)
        return QObject::tr("%1: not run (%2)").arg(QString::fromStdString(r.name), QString::fromStdString(r.reason));
    return QObject::tr("%1: %2 %3")
        .arg(QString::fromStdString(r.name))
        .arg(r.rate, 0, 'f', 1)
        .arg(QString::fromStdString(r.unit));
}

int largestPowerOfTwoDividing(int count, int atMost)
{
    int tp = 1;
    while (tp * 2 <= atMost && count % (tp * 2) == 0)
        tp *= 2;
    return tp;
}

} // namespace

core::Scenario scenarioForMachine(const core::Scenario& before, const std::string& gpuId, int gpuCount)
{
    core::Scenario after = before;
    after.cluster.gpuId = gpuId;
    after.cluster.gpuCount = gpuCount;
    after.cluster.gpusPerNode = gpuCount; // one machine is one node and one scale-up domain
    auto& layout = after.training.layout;
    if (layout.gpuCount() != gpuCount) {
        layout.tp = largestPowerOfTwoDividing(gpuCount, layout.tp);
        layout.pp = 1;
        layout.cp = 1;
        core::setDataParallel(layout, gpuCount / layout.tp);
    }
    return after;
}

MachinePanel::MachinePanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_options(core::probe::ProbeOptions::fromEnvironment())
    , m_storage(std::make_unique<LocalCatalogFile>())
    , m_runner(new MachineBenchRunner(this))
{
    createWidgets();
    createLayout();
    connectActions();
}

MachinePanel::~MachinePanel() = default;

void MachinePanel::createWidgets()
{
    m_summary = new QLabel(tr("Not probed yet."), this);
    auto font = m_summary->font();
    font.setBold(true);
    m_summary->setFont(font);
    m_summary->setWordWrap(true);
    m_help = new QLabel(noGpuHelp(), this);
    m_help->setWordWrap(true);
    m_cardsBox = new QWidget(this);
    m_cards = new QGridLayout(m_cardsBox);
    m_topology = new MachineTopologyView(this);
    m_topologySummary = new QLabel(this);
    m_benchText = new QLabel(tr("Benchmarks run on request: they take the first GPU for a few seconds."), this);
    m_benchText->setWordWrap(true);
    m_overrideText = new QLabel(this);
    m_overrideText->setWordWrap(true);
    m_probeButton = new QPushButton(tr("Probe again"), this);
    m_useButton = new QPushButton(tr("Use these GPUs in the scenario"), this);
    m_benchButton = new QPushButton(tr("Run benchmarks"), this);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_saveOverrideButton = new QPushButton(tr("Use measured efficiencies"), this);
    m_revertOverrideButton = new QPushButton(tr("Revert to calibrated"), this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_useButton->setObjectName(QStringLiteral("useGpus"));
    m_benchButton->setObjectName(QStringLiteral("runBenchmarks"));
    m_cancelButton->setObjectName(QStringLiteral("cancelBenchmarks"));
}

void MachinePanel::createLayout()
{
    auto* buttons = new QHBoxLayout;
    for (auto* button : {m_probeButton, m_useButton, m_benchButton, m_cancelButton})
        buttons->addWidget(button);
    buttons->addWidget(m_progress, 1);
    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    column->addWidget(m_help);
    column->addWidget(m_cardsBox);
    auto* topology = new QGroupBox(tr("Topology"), content);
    auto* topologyLayout = new QVBoxLayout(topology);
    topologyLayout->addWidget(m_topology);
    topologyLayout->addWidget(m_topologySummary);
    column->addWidget(topology);
    auto* bench = new QGroupBox(tr("Benchmarks and efficiency override"), content);
    auto* benchLayout = new QVBoxLayout(bench);
    benchLayout->addWidget(m_benchText);
    benchLayout->addWidget(m_overrideText);
    auto* overrideButtons = new QHBoxLayout;
    overrideButtons->addWidget(m_saveOverrideButton);
    overrideButtons->addWidget(m_revertOverrideButton);
    overrideButtons->addStretch();
    benchLayout->addLayout(overrideButtons);
    column->addWidget(bench);
    column->addStretch();
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    layout->addWidget(scroll, 1);
}

void MachinePanel::connectActions()
{
    connect(m_probeButton, &QPushButton::clicked, this, &MachinePanel::probe);
    connect(m_useButton, &QPushButton::clicked, this, &MachinePanel::useGpus);
    connect(m_benchButton, &QPushButton::clicked, this, &MachinePanel::runBenchmarks);
    connect(m_cancelButton, &QPushButton::clicked, m_runner, &MachineBenchRunner::cancel);
    connect(m_saveOverrideButton, &QPushButton::clicked, this, &MachinePanel::saveOverride);
    connect(m_revertOverrideButton, &QPushButton::clicked, this, &MachinePanel::revertOverride);
    connect(m_runner, &MachineBenchRunner::progress, this, [this](int permille, const QString& running) {
        m_progress->setValue(permille);
        m_progress->setFormat(running.isEmpty() ? tr("done") : running);
    });
    connect(m_runner, &MachineBenchRunner::finished, this, &MachinePanel::showBenchResults);
}

void MachinePanel::setStorageFolder(const QString& folder)
{
    m_storage = std::make_unique<LocalCatalogFile>(folder);
    if (m_probed)
        probe();
}

void MachinePanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_probed)
        probe();
}

void MachinePanel::probe()
{
    m_probed = true;
    m_result = core::probe::probeMachine(m_options);
    try {
        m_catalog = core::probe::mergedCatalog(m_storage->readCatalog().toStdString());
    } catch (const std::exception& error) {
        m_catalog = {};
        m_summary->setToolTip(tr("Local catalog ignored: %1").arg(QString::fromUtf8(error.what())));
    }
    populate();
}

void MachinePanel::populate()
{
    const bool available = m_result.available;
    m_help->setVisible(!available);
    m_cardsBox->setVisible(available);
    m_useButton->setEnabled(available && !firstMatchedId().empty());
    m_benchButton->setEnabled(available && !m_runner->isRunning());
    m_cancelButton->setEnabled(m_runner->isRunning());
    m_topology->setProbe(m_result);
    m_topologySummary->setText(available ? m_topology->summary() : QString());
    if (!available)
        return showNoGpu();
    m_summary->setText(systemLine(m_result));
    populateCards();
    showOverride();
}

void MachinePanel::showNoGpu()
{
    m_summary->setText(tr("No NVIDIA GPU found on this machine: %1").arg(QString::fromStdString(m_result.reason)));
    m_saveOverrideButton->setEnabled(false);
    m_revertOverrideButton->setEnabled(false);
    m_overrideText->clear();
}

void MachinePanel::populateCards()
{
    while (auto* item = m_cards->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int position = 0;
    for (const auto& gpu : m_result.gpus) {
        auto* card = new MachineGpuCard(gpu, core::probe::matchCatalog(gpu, m_catalog), m_cardsBox);
        // Queued: adding re-probes and rebuilds the cards, which must not delete the button inside its own click.
        connect(card, &MachineGpuCard::addToLocalCatalogRequested, this, &MachinePanel::addToLocalCatalog,
            Qt::QueuedConnection);
        m_cards->addWidget(card, position / kCardColumns, position % kCardColumns);
        ++position;
    }
}

std::string MachinePanel::firstMatchedId() const
{
    // The engine plans with the shipped catalog: a local entry can be shown but not yet planned with.
    for (const auto& gpu : m_result.gpus)
        if (!gpu.lost)
            if (const auto match = core::probe::matchCatalog(gpu, m_catalog); match.matched() && !match.local)
                return match.catalogId;
    return {};
}

void MachinePanel::useGpus()
{
    const auto id = firstMatchedId();
    if (id.empty())
        return;
    int count = 0;
    for (const auto& gpu : m_result.gpus)
        if (!gpu.lost && core::probe::matchCatalog(gpu, m_catalog).catalogId == id)
            ++count;
    m_document->edit(scenarioForMachine(m_document->scenario(), id, count),
        tr("Use this machine's GPUs (%1 × %2)").arg(count).arg(QString::fromStdString(id)));
}

void MachinePanel::addToLocalCatalog(int gpuIndex)
{
    for (const auto& gpu : m_result.gpus)
        if (gpu.index == gpuIndex) {
            const auto text
                = core::probe::addLocalEntry(m_storage->readCatalog().toStdString(), core::probe::localEntryFor(gpu));
            if (!m_storage->writeCatalog(QString::fromStdString(text)))
                m_summary->setText(tr("Cannot write %1").arg(m_storage->catalogPath()));
        }
    probe();
}

void MachinePanel::runBenchmarks()
{
    if (!m_result.available || m_runner->isRunning())
        return;
    m_progress->setValue(0);
    m_benchButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_runner->start(m_options, m_result);
}

void MachinePanel::showBenchResults(const std::vector<core::probe::BenchResult>& results, bool cancelled)
{
    m_bench = results;
    QStringList lines;
    for (const auto& r : results)
        lines << benchLine(r);
    if (cancelled)
        lines << tr("Cancelled: the remaining benchmarks did not run.");
    m_benchText->setText(lines.join(QLatin1Char('\n')));
    m_benchButton->setEnabled(m_result.available);
    m_cancelButton->setEnabled(false);
    showOverride();
}

namespace {

nlohmann::json readJsonObject(const QString& text)
{
    auto json = nlohmann::json::parse(text.toStdString(), nullptr, false);
    return json.is_object() ? json : nlohmann::json::object();
}

std::string familyOf(const std::string& gpuId)
{
    return core::probe::calibratedEfficiency(gpuId).family;
}

/// A saved override in words: each measured value beside the calibrated one it replaces.
QString overrideSummary(const nlohmann::json& saved, const std::string& gpuId)
{
    // matmul_reference_fraction is left out: it only says the rate was measured on this GPU (methods-time §4.31).
    const auto calibrated = core::probe::calibratedEfficiency(gpuId);
    const auto number = [&](const char* key) { // a hand-edited file may hold anything: show it, never throw
        const auto& value = saved.at(key);
        return value.is_number() ? QString::number(value.get<double>(), 'f', 3) : QString::fromStdString(value.dump());
    };
    QStringList parts;
    if (saved.contains("gemm_peak_fraction"))
        parts << MachinePanel::tr("large-GEMM efficiency %1 (calibrated %2)")
                     .arg(number("gemm_peak_fraction"), QString::number(calibrated.gemmPeakFraction, 'f', 3));
    if (saved.contains("hbm_fraction"))
        parts << MachinePanel::tr("HBM efficiency %1 (calibrated %2)")
                     .arg(number("hbm_fraction"), QString::number(calibrated.hbmFraction, 'f', 3));
    return parts.join(QStringLiteral(", "));
}

} // namespace

void MachinePanel::saveOverride()
{
    const auto id = firstMatchedId();
    const auto* spec = m_catalog.gpus.find(id);
    if (!spec)
        return;
    const auto measured = core::probe::efficiencyOverrides(m_bench, *spec);
    if (measured.empty())
        return;
    auto all = readJsonObject(m_storage->readOverrides());
    all[familyOf(id)] = measured;
    m_storage->writeOverrides(QString::fromStdString(all.dump(1)));
    showOverride();
}

void MachinePanel::revertOverride()
{
    auto all = readJsonObject(m_storage->readOverrides());
    all.erase(familyOf(firstMatchedId()));
    m_storage->writeOverrides(QString::fromStdString(all.dump(1)));
    showOverride();
}

void MachinePanel::showOverride()
{
    const auto id = firstMatchedId();
    const auto family = familyOf(id);
    const auto all = readJsonObject(m_storage->readOverrides());
    const bool saved = !id.empty() && all.contains(family);
    const auto* spec = m_catalog.gpus.find(id);
    const bool measured = spec && !core::probe::efficiencyOverrides(m_bench, *spec).empty();
    m_saveOverrideButton->setEnabled(measured);
    m_revertOverrideButton->setEnabled(saved);
    if (!saved) {
        m_overrideText->setText(tr("Efficiencies of the \"%1\" family: calibrated values (no override saved).")
                                    .arg(QString::fromStdString(family)));
        return;
    }
    m_overrideText->setText(tr("Override saved for the \"%1\" family: %2.")
                                .arg(QString::fromStdString(family), overrideSummary(all[family], id)));
}

} // namespace clusterplanner::ui
