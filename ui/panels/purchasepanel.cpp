// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/purchasepanel.h"

#include "core/io/scenariojson.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/stackedbarchart.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/libraryservice.h"
#include "ui/panels/panelwidgets.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

/// One bar chart of the comparison: what it shows and how to read it from an entry.
struct ChartSpec
{
    const char* objectName;
    const char* title;
    const char* axis;
    double (*value)(const PurchaseEntry&);
};

double runValue(const PurchaseEntry& e, double core::evaluation::TrainingRunFigures::*member)
{
    return e.figures && e.figures->run.fits ? e.figures->run.*member : 0.0;
}

const ChartSpec kCharts[] = {
    {"purchase-tco", QT_TRANSLATE_NOOP("PurchasePanel", "TCO over the lifetime"),
        QT_TRANSLATE_NOOP("PurchasePanel", "million $"),
        [](const PurchaseEntry& e) { return e.figures ? e.figures->cluster.tcoUsd / 1e6 : 0.0; }},
    {"purchase-time-to-train", QT_TRANSLATE_NOOP("PurchasePanel", "Time to train"),
        QT_TRANSLATE_NOOP("PurchasePanel", "days"),
        [](const PurchaseEntry& e) { return runValue(e, &core::evaluation::TrainingRunFigures::timeToTrainDays); }},
    {"purchase-power", QT_TRANSLATE_NOOP("PurchasePanel", "Facility power"), QT_TRANSLATE_NOOP("PurchasePanel", "MW"),
        [](const PurchaseEntry& e) { return e.figures ? e.figures->cluster.facilityPowerKw / 1000 : 0.0; }},
    {"purchase-usd-per-m-tokens", QT_TRANSLATE_NOOP("PurchasePanel", "Owned cost per million tokens"),
        QT_TRANSLATE_NOOP("PurchasePanel", "$ per M tokens"),
        [](const PurchaseEntry& e) {
            return runValue(e, &core::evaluation::TrainingRunFigures::ownedUsdPerMillionTokens);
        }},
};

QPushButton* button(const QString& text, const char* name, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QLatin1String(name));
    return b;
}

} // namespace

PurchasePanel::PurchasePanel(ScenarioDocument* document, LibraryService* library, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_library(library)
{
    setObjectName(QStringLiteral("purchasePanel"));
    createWidgets();
    createLayout();
    if (m_library)
        connect(m_library, &LibraryService::libraryChanged, this, &PurchasePanel::fillLibraryChoice);
    fillLibraryChoice();
    loadDefaults();
}

void PurchasePanel::createWidgets()
{
    m_libraryChoice = new QComboBox(this);
    m_libraryChoice->setObjectName(QStringLiteral("purchase.libraryChoice"));
    m_libraryChoice->setMinimumContentsLength(24);
    m_libraryChoice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("purchase.table"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectColumns);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_sensitivity = new QTableWidget(this);
    m_sensitivity->setObjectName(QStringLiteral("purchase.sensitivity"));
    m_sensitivity->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sensitivity->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (const auto& spec : kCharts) {
        auto* chart = new StackedBarChart(this);
        chart->setObjectName(QLatin1String(spec.objectName));
        chart->setDisplayTitle(tr(spec.title));
        chart->setValueAxisLabel(tr(spec.title) + QStringLiteral(" (") + tr(spec.axis) + QLatin1Char(')'));
        chart->setHorizontal(true); // scenario names on the key axis read better than under narrow columns
        chart->setMinimumSize(220, 170);
        m_charts.push_back(chart);
    }
}

void PurchasePanel::createLayout()
{
    auto* add = button(tr("Add"), "purchase.addLibrary", this);
    auto* addFile = button(tr("Add scenario file…"), "purchase.addFile", this);
    auto* addCurrent = button(tr("Add current"), "purchase.addCurrent", this);
    auto* variants = button(tr("Add node-group variants"), "purchase.addVariants", this);
    auto* remove = button(tr("Remove column"), "purchase.remove", this);
    auto* clear = button(tr("Clear"), "purchase.clear", this);
    variants->setToolTip(tr("One scenario per node group of the open scenario: the cluster reduced to that group"));
    connect(add, &QPushButton::clicked, this,
        [this] { setStatus(addLibraryScenario(m_libraryChoice->currentData().toLongLong())); });
    connect(addFile, &QPushButton::clicked, this, &PurchasePanel::addFilesInteractive);
    connect(addCurrent, &QPushButton::clicked, this,
        [this] { setStatus(addScenario(m_document->scenario(), tr("the open scenario"))); });
    connect(variants, &QPushButton::clicked, this, [this] { setStatus(addGroupVariants()); });
    connect(remove, &QPushButton::clicked, this, [this] { removeEntry(m_table->currentColumn()); });
    connect(clear, &QPushButton::clicked, this, &PurchasePanel::clearEntries);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Library:"), this));
    controls->addWidget(m_libraryChoice, 1);
    for (auto* b : {add, addFile, addCurrent, variants, remove, clear})
        controls->addWidget(b);
    auto* chartBox = new QWidget(this);
    auto* grid = new QGridLayout(chartBox);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < int(m_charts.size()); ++i)
        grid->addWidget(m_charts[std::size_t(i)], i / 2, i % 2);
    auto* sensitivity = new QGroupBox(tr("Sensitivity: change of TCO and owned $ per M tokens when one assumption "
                                         "moves"),
        this);
    auto* sensitivityLayout = new QVBoxLayout(sensitivity);
    sensitivityLayout->addWidget(m_sensitivity);
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_table);
    top->addWidget(chartBox);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(sensitivity);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    setScrollingBody(this, content);
}

QStringList PurchasePanel::sampleFiles()
{
    const QDir dir(LibraryService::sampleDirectory());
    QStringList files;
    for (const auto& name : dir.entryList({QStringLiteral("purchase512-*.cplan.json")}, QDir::Files, QDir::Name))
        files << dir.absoluteFilePath(name);
    return files;
}

void PurchasePanel::loadDefaults()
{
    if (m_library && m_library->isOpen()) {
        core::ListQuery query;
        query.search = "purchase-512";
        auto rows = m_library->list(query);
        // In the order they were added (the samples' file order: H100, H200, MI300X), the first being the reference.
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        for (const auto& row : rows)
            addLibraryScenario(row.id);
    }
    if (m_entries.empty())
        for (const auto& file : sampleFiles())
            addFile(file);
    setStatus(m_entries.empty() ? tr("Add two to six scenarios to compare them.") : QString());
}

void PurchasePanel::fillLibraryChoice()
{
    m_libraryChoice->clear();
    if (!m_library || !m_library->isOpen()) {
        m_libraryChoice->addItem(tr("(no library)"), qint64(0));
        m_libraryChoice->setEnabled(false);
        return;
    }
    core::ListQuery query;
    query.sort = core::SortColumn::Name;
    query.descending = false;
    for (const auto& row : m_library->list(query))
        m_libraryChoice->addItem(QString::fromStdString(row.name), qint64(row.id));
    m_libraryChoice->setEnabled(m_libraryChoice->count() > 0);
}

QString PurchasePanel::addScenario(const core::Scenario& scenario, const QString& source)
{
    if (int(m_entries.size()) >= kMaxEntries)
        return tr("At most %1 scenarios can be compared; remove one first.").arg(kMaxEntries);
    m_entries.push_back(makePurchaseEntry(scenario, source));
    refresh();
    return {};
}

QString PurchasePanel::addFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("Cannot open %1: %2").arg(path, file.errorString());
    try {
        return addScenario(core::readScenarioFile(file.readAll().toStdString()), QFileInfo(path).fileName());
    } catch (const std::exception& error) {
        return tr("Cannot read %1: %2").arg(path, QString::fromUtf8(error.what()));
    }
}

QString PurchasePanel::addLibraryScenario(qint64 id)
{
    const auto record = m_library ? m_library->load(id) : std::nullopt;
    if (!record)
        return tr("No library scenario #%1").arg(id);
    return addScenario(record->scenario, tr("library #%1").arg(id));
}

QString PurchasePanel::addGroupVariants()
{
    const core::Scenario& current = m_document->scenario();
    if (current.topology.groups.empty())
        return tr("The open scenario has no node groups.");
    for (const auto& group : current.topology.groups) {
        core::Scenario variant = current;
        variant.topology.groups = {group};
        variant.trainingGroup = group.name;
        variant.name = current.name + ": " + group.name + " only";
        if (QString error = addScenario(variant, tr("variant of the open scenario")); !error.isEmpty())
            return error;
    }
    return {};
}

void PurchasePanel::removeEntry(int index)
{
    if (index < 0 || index >= int(m_entries.size()))
        return;
    m_entries.erase(m_entries.begin() + index);
    refresh();
}

void PurchasePanel::clearEntries()
{
    m_entries.clear();
    refresh();
}

void PurchasePanel::addFilesInteractive()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Scenarios to the Comparison"),
        LibraryService::sampleDirectory(), tr("ClusterPlanner scenarios (*.cplan.json);;All files (*)"));
    QStringList problems;
    for (const auto& file : files)
        if (QString error = addFile(file); !error.isEmpty())
            problems << error;
    setStatus(problems.join(QLatin1Char('\n')));
}

void PurchasePanel::refresh()
{
    fillComparisonTable(*m_table, m_entries);
    fillSensitivityTable(*m_sensitivity, m_entries);
    // Every scenario's row stays visible: the strip is as tall as its rows.
    m_sensitivity->setMinimumHeight(m_sensitivity->horizontalHeader()->height()
        + m_sensitivity->verticalHeader()->length() + 2 * m_sensitivity->frameWidth() + 2);
    refreshCharts();
    QStringList problems;
    for (const auto& entry : m_entries)
        if (!entry.error.isEmpty())
            problems << tr("%1: %2").arg(entry.label, entry.error);
    setStatus(problems.join(QLatin1Char('\n')));
    Q_EMIT entriesChanged();
}

void PurchasePanel::refreshCharts()
{
    QStringList categories;
    for (const auto& entry : m_entries)
        categories << entry.label;
    for (std::size_t i = 0; i < m_charts.size(); ++i) {
        QVector<double> values;
        for (const auto& entry : m_entries)
            values << kCharts[i].value(entry);
        m_charts[i]->setData(categories, {{tr(kCharts[i].title), categoryColor(int(i)), values}});
        m_charts[i]->setExportCaption(tr("Purchase comparison · %1").arg(categories.join(QStringLiteral(" · "))));
    }
}

QString PurchasePanel::statusText() const
{
    return m_status->text();
}

void PurchasePanel::setStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

} // namespace clusterplanner::ui
