// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/workloadpanel.h"

#include "ui/charts/chartstyle.h"
#include "ui/charts/numberformat.h"
#include "ui/charts/stackedbarchart.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/panelwidgets.h"
#include "ui/panels/wheelguard.h"
#include "ui/sim/simulationlabels.h"
#include "ui/sim/simulationrunner.h"
#include "ui/sim/simulationsession.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace sched = core::sched;

namespace {

StackedBarChart* histogram(const char* name, const QString& title)
{
    auto* chart = new StackedBarChart;
    chart->setObjectName(QString::fromLatin1(name));
    chart->setDisplayTitle(title);
    chart->setValueAxisLabel(QObject::tr("jobs"));
    chart->setMinimumHeight(100);
    return chart;
}

/// A bold title above a chart, so that a screenshot says what each histogram counts.
QWidget* titled(QWidget* chart, const QString& title)
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(title);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    layout->addWidget(label);
    layout->addWidget(chart, 1);
    return box;
}

struct Preview
{
    sched::WorkloadSummary summary;
};

} // namespace

WorkloadPanel::WorkloadPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_preview(new SimulationRunner(this))
    , m_source(new QComboBox)
    , m_traceGroup(new QGroupBox(tr("Trace file")))
    , m_syntheticGroup(new QGroupBox(tr("Synthetic job stream")))
    , m_tracePath(new QLineEdit)
    , m_traceFormat(new QComboBox)
    , m_jobs(countField(1, 10'000'000))
    , m_seed(countField(0, 2'000'000'000))
    , m_arrivals(numberField(0.001, 1e9, 2, tr(" jobs/h")))
    , m_diurnal(numberField(0, 100, 0, tr(" %")))
    , m_peakHour(numberField(0, 24, 1, tr(" h")))
    , m_users(countField(1, 1'000'000))
    , m_groups(countField(1, 1'000'000))
    , m_fractional(numberField(0, 100, 0, tr(" %")))
    , m_gpuMix(new QLineEdit)
    , m_mixError(new QLabel)
    , m_summaryLabel(new QLabel)
    , m_gpuChart(histogram("workload-gpus", tr("GPUs per job")))
    , m_durationChart(histogram("workload-durations", tr("Run time")))
    , m_arrivalChart(histogram("workload-arrivals", tr("Arrivals by hour of day")))
{
    setObjectName(QStringLiteral("workloadPanel"));
    m_durationChart->setHorizontal(true); // twelve "10 s–32 s" labels only fit down the side
    setProperty("dockHeightShare", 0.72); // MainWindow::showPanel: the chart needs most of the height
    m_summaryLabel->setObjectName(QStringLiteral("workloadSummary"));
    m_summaryLabel->setWordWrap(true);
    QFont bold = m_summaryLabel->font();
    bold.setBold(true);
    m_summaryLabel->setFont(bold);
    auto* charts = new QGridLayout;
    charts->addWidget(titled(m_gpuChart, tr("Jobs by GPUs per job (<1 = fractional)")), 0, 0);
    charts->addWidget(titled(m_durationChart, tr("Jobs by run time on dedicated GPUs")), 0, 1);
    charts->addWidget(titled(m_arrivalChart, tr("Arrivals by hour of day (from the first submission)")), 1, 0, 1, 2);
    auto* right = new QVBoxLayout;
    right->addWidget(m_summaryLabel);
    right->addLayout(charts, 1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(buildForm());
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(420);
    scroll->setMaximumWidth(480);
    WheelGuard::install(scroll->widget());
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(scroll);
    layout->addLayout(right, 1);

    connect(m_preview, &SimulationRunner::resultReady, this, [this](int, const std::any& result) {
        m_summary = std::any_cast<std::shared_ptr<const Preview>>(result)->summary;
        showSummary();
    });
    connect(m_preview, &SimulationRunner::jobFailed, this, [this](int, const QString& message) {
        m_summary.reset();
        m_summaryLabel->setText(tr("Cannot read the workload: %1").arg(message));
        showSummary();
    });
    connect(document, &ScenarioDocument::scenarioChanged, this, [this](ScenarioChanges changes) {
        if (changes & (ScenarioChange::Workload | ScenarioChange::Cluster)) {
            showSpec(SimulationSession::workloadOf(m_document->scenario()));
            startPreview();
        }
    });
    showSpec(SimulationSession::workloadOf(document->scenario()));
    startPreview();
}

QWidget* WorkloadPanel::buildForm()
{
    m_source->addItem(tr("Synthetic job stream"), int(sched::WorkloadSource::Synthetic));
    m_source->addItem(tr("Trace file"), int(sched::WorkloadSource::Trace));
    for (auto [format, label] : {std::pair {sched::TraceFormat::Tiresias, tr("Tiresias CSV")},
             std::pair {sched::TraceFormat::Philly, tr("Philly JSON (cluster_job_log)")},
             std::pair {sched::TraceFormat::Pai, tr("Alibaba PAI 2020 (job + task tables)")},
             std::pair {sched::TraceFormat::Helios, tr("Helios CSV (cluster_log)")}})
        m_traceFormat->addItem(label, int(format));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* path = new QHBoxLayout;
    path->addWidget(m_tracePath, 1);
    path->addWidget(browse);
    auto* trace = new QFormLayout(m_traceGroup);
    trace->addRow(tr("File:"), path);
    trace->addRow(tr("Format:"), m_traceFormat);
    auto* traceNote = new QLabel(tr("A relative path is read from the scenario file's folder first."));
    traceNote->setWordWrap(true);
    trace->addRow(traceNote);

    m_mixError->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_mixError->setWordWrap(true);
    m_gpuMix->setToolTip(tr("GPUs:weight pairs, e.g. 1:0.6, 8:0.15 (weights need not sum to 1)"));
    auto* synthetic = new QFormLayout(m_syntheticGroup);
    synthetic->addRow(tr("Jobs:"), m_jobs);
    synthetic->addRow(tr("Random seed:"), m_seed);
    synthetic->addRow(tr("Mean arrival rate:"), m_arrivals);
    synthetic->addRow(tr("Diurnal swing:"), m_diurnal);
    synthetic->addRow(tr("Busiest hour:"), m_peakHour);
    synthetic->addRow(tr("Users:"), m_users);
    synthetic->addRow(tr("Groups (teams):"), m_groups);
    synthetic->addRow(tr("Fractional 1-GPU jobs:"), m_fractional);
    synthetic->addRow(tr("GPUs per job (mix):"), m_gpuMix);
    synthetic->addRow(m_mixError);
    auto* note = new QLabel(tr("Arrivals are Poisson (rate × (1 + swing·cos) over a day when a swing is set). Run "
                               "times follow the lognormal fit to 83,154 Microsoft Philly jobs (median ≈ 16 min, "
                               "mean ≈ 2.8 h; docs/methods-scheduling.md §7). Default mix: Philly-like GPU counts."));
    note->setWordWrap(true);
    synthetic->addRow(note);

    auto* form = new QWidget;
    auto* layout = new QVBoxLayout(form);
    auto* source = new QFormLayout;
    source->addRow(tr("Workload:"), m_source);
    layout->addLayout(source);
    layout->addWidget(m_traceGroup);
    layout->addWidget(m_syntheticGroup);
    layout->addStretch(1);

    connect(browse, &QPushButton::clicked, this, &WorkloadPanel::browse);
    connect(m_source, &QComboBox::currentIndexChanged, this, &WorkloadPanel::commit);
    connect(m_traceFormat, &QComboBox::currentIndexChanged, this, &WorkloadPanel::commit);
    connect(m_tracePath, &QLineEdit::editingFinished, this, &WorkloadPanel::commit);
    connect(m_gpuMix, &QLineEdit::editingFinished, this, &WorkloadPanel::commit);
    for (QSpinBox* box : {m_jobs, m_seed, m_users, m_groups})
        connect(box, &QSpinBox::valueChanged, this, &WorkloadPanel::commit);
    for (QDoubleSpinBox* box : {m_arrivals, m_diurnal, m_peakHour, m_fractional})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WorkloadPanel::commit);
    return form;
}

sched::WorkloadSpec WorkloadPanel::spec() const
{
    sched::WorkloadSpec spec = SimulationSession::workloadOf(m_document->scenario());
    spec.source = sched::WorkloadSource(m_source->currentData().toInt());
    spec.tracePath = m_tracePath->text().trimmed().toStdString();
    spec.traceFormat = sched::TraceFormat(m_traceFormat->currentData().toInt());
    spec.synthetic.jobs = m_jobs->value();
    spec.synthetic.seed = std::uint64_t(m_seed->value());
    spec.synthetic.arrivalsPerHour = m_arrivals->value();
    spec.diurnalAmplitude = m_diurnal->value() / 100;
    spec.diurnalPeakHour = m_peakHour->value();
    spec.synthetic.users = m_users->value();
    spec.groups = std::min(m_groups->value(), m_users->value());
    spec.fractionalShare = m_fractional->value() / 100;
    try {
        spec.synthetic.gpuMix = sched::parseGpuMix(m_gpuMix->text().toStdString());
    } catch (const std::invalid_argument&) {
        // keep the scenario's mix; commit() shows the message
    }
    return spec;
}

void WorkloadPanel::showSpec(const sched::WorkloadSpec& spec)
{
    m_updating = true;
    m_source->setCurrentIndex(m_source->findData(int(spec.source)));
    m_tracePath->setText(QString::fromStdString(spec.tracePath));
    m_traceFormat->setCurrentIndex(m_traceFormat->findData(int(spec.traceFormat)));
    m_jobs->setValue(spec.synthetic.jobs);
    m_seed->setValue(int(spec.synthetic.seed));
    m_arrivals->setValue(spec.synthetic.arrivalsPerHour);
    m_diurnal->setValue(100 * spec.diurnalAmplitude);
    m_peakHour->setValue(spec.diurnalPeakHour);
    m_users->setValue(spec.synthetic.users);
    m_groups->setValue(spec.groups);
    m_fractional->setValue(100 * spec.fractionalShare);
    m_gpuMix->setText(QString::fromStdString(sched::formatGpuMix(spec.synthetic.gpuMix)));
    const bool trace = spec.source == sched::WorkloadSource::Trace;
    m_traceGroup->setEnabled(trace);
    m_syntheticGroup->setEnabled(!trace);
    m_updating = false;
}

void WorkloadPanel::commit()
{
    if (m_updating)
        return;
    try {
        sched::parseGpuMix(m_gpuMix->text().toStdString());
        m_mixError->clear();
    } catch (const std::invalid_argument& error) {
        m_mixError->setText(QString::fromUtf8(error.what()));
    }
    core::Scenario after = m_document->scenario();
    after.workload = spec();
    m_document->edit(after, tr("Edit workload"));
    const bool trace = after.workload->source == sched::WorkloadSource::Trace;
    m_traceGroup->setEnabled(trace);
    m_syntheticGroup->setEnabled(!trace);
}

void WorkloadPanel::browse()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Job Trace"),
        SimulationSession::of(m_document)->scenarioFolder(), tr("Traces (*.csv *.json);;All files (*)"));
    if (file.isEmpty())
        return;
    m_tracePath->setText(file);
    m_source->setCurrentIndex(m_source->findData(int(sched::WorkloadSource::Trace)));
    commit();
}

void WorkloadPanel::startPreview()
{
    const core::Scenario scenario = m_document->scenario();
    const std::string folder = SimulationSession::of(m_document)->scenarioFolder().toStdString();
    m_preview->start({[scenario, folder](std::stop_token, const std::function<void(double)>&) {
        const sched::WorkloadSpec spec = SimulationSession::workloadOf(scenario);
        auto preview = std::make_shared<Preview>();
        preview->summary = sched::summarizeWorkload(sched::buildWorkload(spec, scenario.cluster.gpuCount, folder));
        return std::any(std::shared_ptr<const Preview>(std::move(preview)));
    }});
}

void WorkloadPanel::showSummary()
{
    if (!m_summary) {
        m_gpuChart->setData({}, {});
        m_durationChart->setData({}, {});
        m_arrivalChart->setData({}, {});
        return;
    }
    const auto& s = *m_summary;
    m_summaryLabel->setText(
        tr("%1 jobs from %2 user(s) over %3 (%4 jobs/h): %5 GPU-hours, mean %6 GPUs × %7 per job, %8 fractional")
            .arg(formatCount(s.jobs))
            .arg(s.users)
            .arg(durationText(s.spanS))
            .arg(s.arrivalsPerHour, 0, 'f', 1)
            .arg(formatCount(s.gpuHours))
            .arg(s.meanGpus, 0, 'f', 2)
            .arg(durationText(s.meanDurationS))
            .arg(s.fractionalJobs));
    auto draw = [](StackedBarChart* chart, const QStringList& categories, const QVector<double>& values) {
        chart->setData(categories, {{QObject::tr("jobs"), categoryColor(0), values}});
    };
    QStringList names;
    QVector<double> values;
    for (const auto& bin : s.gpuCounts) {
        names << QString::fromStdString(bin.label);
        values << bin.jobs;
    }
    draw(m_gpuChart, names, values);
    names.clear();
    values.clear();
    for (const auto& bin : s.durations) {
        names << QString::fromStdString(bin.label);
        values << bin.jobs;
    }
    draw(m_durationChart, names, values);
    names.clear();
    values.clear();
    for (int h = 0; h < 24; ++h) {
        names << QStringLiteral("%1").arg(h, 2, 10, QLatin1Char('0'));
        values << s.arrivalsByHour[static_cast<std::size_t>(h)];
    }
    draw(m_arrivalChart, names, values);
}

} // namespace clusterplanner::ui
