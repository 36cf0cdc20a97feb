// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/topologyform.h"

#include "core/cluster/trainingview.h"
#include "core/evaluation/layoutrefit.h"
#include "core/model/gpucatalog.h"
#include "ui/document/editid.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/panelwidgets.h"
#include "ui/panels/topologyedits.h"
#include "ui/panels/wheelguard.h"

#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr int kTierElementFirst = 500; ///< merge-id element numbers of tiers (groups use their index)
constexpr int kFacilityElement = 999;

template <typename Widget>
void setBlocked(Widget* widget, const std::function<void(Widget*)>& set)
{
    const QSignalBlocker blocker(widget);
    set(widget);
}

} // namespace

TopologyForm::TopologyForm(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_groupChooser(new QComboBox(this))
    , m_tierChooser(new QComboBox(this))
    , m_trainingGroup(new QComboBox(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(createGroupBox());
    layout->addWidget(createTierBox());
    layout->addWidget(createFabricBox());
    layout->addStretch();
    // A combo box is as wide as its longest item by default ("NVIDIA H100 SXM5 80GB (H100-SXM-80GB)"), which made
    // the form wider than the side pane and cut off its right edge; the popup still shows whole names.
    for (auto* combo : findChildren<QComboBox*>()) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(12);
    }
    WheelGuard::install(this);
    refresh();
}

void TopologyForm::addRow(
    QFormLayout* form, const char* name, const QString& label, QWidget* widget, const QString& toolTip)
{
    widget->setObjectName(QStringLiteral("topology.") + QLatin1String(name));
    widget->setToolTip(toolTip);
    auto* text = new QLabel(label + QLatin1Char(':'));
    text->setBuddy(widget);
    text->setToolTip(toolTip);
    form->addRow(text, widget);
}

QWidget* TopologyForm::createGroupBox()
{
    auto* box = new QGroupBox(tr("Node group"), this);
    auto* form = new QFormLayout(box);
    m_groupChooser->setObjectName(QStringLiteral("topology.group"));
    form->addRow(tr("Group:"), m_groupChooser);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"), box);
    m_duplicateGroup = new QPushButton(tr("Duplicate"), box);
    m_removeGroup = new QPushButton(tr("Remove"), box);
    add->setObjectName(QStringLiteral("topology.addGroup"));
    m_duplicateGroup->setObjectName(QStringLiteral("topology.duplicateGroup"));
    m_removeGroup->setObjectName(QStringLiteral("topology.removeGroup"));
    add->setToolTip(tr("Add a node group: one node of the last group's hardware"));
    for (auto* button : {add, m_duplicateGroup, m_removeGroup})
        buttons->addWidget(button);
    form->addRow(buttons);
    connect(add, &QPushButton::clicked, this, &TopologyForm::addGroup);
    connect(m_duplicateGroup, &QPushButton::clicked, this, &TopologyForm::duplicateGroup);
    connect(m_removeGroup, &QPushButton::clicked, this, &TopologyForm::removeGroup);
    connect(m_groupChooser, &QComboBox::activated, this, [this](int index) {
        setCurrentGroup(index);
        Q_EMIT currentGroupChanged(index);
    });
    addGroupFields(form);
    addRow(form, "training_group", tr("Training group"), m_trainingGroup,
        tr("The node group the scenario's training run uses (time to train, energy, $ per token)"));
    connect(m_trainingGroup, &QComboBox::activated, this, [this](int index) {
        const std::string name = m_trainingGroup->itemText(index).toStdString();
        apply([name](core::Scenario& s) { s.trainingGroup = name; }, tr("Change training group"));
    });
    return box;
}

void TopologyForm::addGroupFields(QFormLayout* form)
{
    auto* name = new QLineEdit;
    addRow(form, "group.name", tr("Name"), name, tr("Unique in the cluster; the training group is named by it"));
    connect(name, &QLineEdit::editingFinished, this, [this, name] {
        const std::string text = name->text().trimmed().toStdString();
        core::Scenario after = m_document->scenario();
        if (renameNodeGroup(after, m_group, text))
            commit(after, tr("Rename node group"));
        refresh(); // a refused name goes back to the stored one
    });
    m_groupRefreshers.push_back([this, name](const core::Scenario& s) {
        setBlocked<QLineEdit>(name,
            [&](QLineEdit* w) { w->setText(QString::fromStdString(s.topology.groups[std::size_t(m_group)].name)); });
    });
    auto* gpu = new QComboBox;
    for (const auto& spec : core::GpuCatalog::builtin().gpus())
        gpu->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(spec.name), QString::fromStdString(spec.id)),
            QString::fromStdString(spec.id));
    addRow(form, "group.gpu", tr("GPU"), gpu, tr("GPU type of every node in the group (data/gpus.json)"));
    const int gpuField = m_fieldCount++;
    connect(gpu, &QComboBox::activated, this, [this, gpu, gpuField](int index) {
        const std::string id = gpu->itemData(index).toString().toStdString();
        changeGroup([id](core::cluster::NodeGroup& g) { g.gpuId = id; }, tr("Change GPU of node group"), gpuField);
    });
    const int catalogItems = gpu->count();
    m_groupRefreshers.push_back([this, gpu, catalogItems](const core::Scenario& s) {
        setBlocked<QComboBox>(gpu, [&](QComboBox* w) {
            while (w->count() > catalogItems)
                w->removeItem(w->count() - 1);
            const QString id = QString::fromStdString(s.topology.groups[std::size_t(m_group)].gpuId);
            int index = w->findData(id);
            if (index < 0) { // a file's id the catalog lacks is shown as it is, so the user sees what to replace
                w->addItem(tr("%1 (not in the catalog)").arg(id), id);
                index = w->count() - 1;
                w->setItemData(index, QColor(0xc0, 0x30, 0x30), Qt::ForegroundRole);
            }
            w->setCurrentIndex(index);
        });
    });
    using G = core::cluster::NodeGroup;
    addGroupIntField(form, "group.nodes", tr("Nodes"), 1, 100'000, &G::nodeCount);
    addGroupIntField(form, "group.gpus_per_node", tr("GPUs per node"), 1, 72, &G::gpusPerNode);
    addGroupIntField(form, "group.scale_up_domain_gpus", tr("NVLink domain"), 1, 576, &G::scaleUpDomainGpus,
        tr("GPUs per scale-up (NVLink) domain: 8 for HGX, 72 for GB200 NVL72 (spanning 18 trays of 4)"));
    addGroupIntField(form, "group.nics_per_node", tr("NICs per node"), 0, 64, &G::nicsPerNode);
    addGroupNumberField(form, "group.nic_gbps", tr("NIC speed"), 3200, 0, tr(" Gb/s"), &G::nicGbps);
    addGroupIntField(form, "group.nodes_per_rack", tr("Nodes per rack"), 1, 72, &G::nodesPerRack);
    addGroupOptionalField(
        form, "group.gpu_power_limit_w", tr("GPU power limit"), 2000, tr(" W"), &G::gpuPowerLimitW, tr("catalog TDP"));
    addGroupOptionalField(form, "group.node_overhead_w", tr("Node overhead"), 20'000, tr(" W"), &G::nodeOverheadW,
        tr("costs.json default"));
    addGroupOptionalField(form, "group.node_price_usd", tr("Node price"), 10'000'000, tr(" $"), &G::nodePriceUsd,
        tr("catalog GPU price + node"));
}

void TopologyForm::addGroupIntField(QFormLayout* form, const char* name, const QString& label, int min, int max,
    int core::cluster::NodeGroup::*member, const QString& toolTip)
{
    auto* spin = new QSpinBox;
    spin->setRange(min, max);
    spin->setGroupSeparatorShown(max >= 100'000);
    spin->setKeyboardTracking(false); // typing "2048" is one value, not 2, 20, 204 and 2048
    addRow(form, name, label, spin, toolTip);
    const int field = m_fieldCount++;
    connect(spin, &QSpinBox::valueChanged, this, [this, member, field, label](int value) {
        changeGroup([member, value](core::cluster::NodeGroup& g) { g.*member = value; },
            tr("Change %1").arg(label.toLower()), field);
    });
    m_groupRefreshers.push_back([this, spin, member](const core::Scenario& s) {
        setBlocked<QSpinBox>(spin, [&](QSpinBox* w) { w->setValue(s.topology.groups[std::size_t(m_group)].*member); });
    });
}

void TopologyForm::addGroupNumberField(QFormLayout* form, const char* name, const QString& label, double max,
    int decimals, const QString& suffix, double core::cluster::NodeGroup::*member)
{
    auto* spin = numberField(1, max, decimals, suffix);
    addRow(form, name, label, spin);
    const int field = m_fieldCount++;
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, member, field, label](double value) {
        changeGroup([member, value](core::cluster::NodeGroup& g) { g.*member = value; },
            tr("Change %1").arg(label.toLower()), field);
    });
    m_groupRefreshers.push_back([this, spin, member](const core::Scenario& s) {
        setBlocked<QDoubleSpinBox>(
            spin, [&](QDoubleSpinBox* w) { w->setValue(s.topology.groups[std::size_t(m_group)].*member); });
    });
}

void TopologyForm::addGroupOptionalField(QFormLayout* form, const char* name, const QString& label, double max,
    const QString& suffix, std::optional<double> core::cluster::NodeGroup::*member, const QString& unsetText)
{
    auto* spin = numberField(0, max, 0, suffix);
    spin->setSpecialValueText(unsetText); // 0 = not set: the core's default applies
    addRow(form, name, label, spin, tr("0 = %1").arg(unsetText));
    const int field = m_fieldCount++;
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, member, field, label](double value) {
        changeGroup(
            [member, value](
                core::cluster::NodeGroup& g) { g.*member = value > 0 ? std::optional<double>(value) : std::nullopt; },
            tr("Change %1").arg(label.toLower()), field);
    });
    m_groupRefreshers.push_back([this, spin, member](const core::Scenario& s) {
        setBlocked<QDoubleSpinBox>(spin,
            [&](QDoubleSpinBox* w) { w->setValue((s.topology.groups[std::size_t(m_group)].*member).value_or(0)); });
    });
}

QWidget* TopologyForm::createTierBox()
{
    auto* box = new QGroupBox(tr("Fabric tier"), this);
    auto* form = new QFormLayout(box);
    m_tierChooser->setObjectName(QStringLiteral("topology.tier"));
    form->addRow(tr("Tier:"), m_tierChooser);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add tier above"), box);
    m_removeTier = new QPushButton(tr("Remove"), box);
    add->setObjectName(QStringLiteral("topology.addTier"));
    m_removeTier->setObjectName(QStringLiteral("topology.removeTier"));
    buttons->addWidget(add);
    buttons->addWidget(m_removeTier);
    form->addRow(buttons);
    connect(add, &QPushButton::clicked, this, &TopologyForm::addTier);
    connect(m_removeTier, &QPushButton::clicked, this, &TopologyForm::removeTier);
    connect(m_tierChooser, &QComboBox::activated, this, [this](int index) {
        setCurrentTier(index);
        Q_EMIT currentTierChanged(index);
    });
    addTierFields(form);
    return box;
}

void TopologyForm::addTierFields(QFormLayout* form)
{
    auto* name = new QLineEdit;
    addRow(form, "tier.name", tr("Name"), name);
    connect(name, &QLineEdit::editingFinished, this, [this, name] {
        const std::string text = name->text().trimmed().toStdString();
        if (!text.empty())
            changeTier([text](core::cluster::FabricTier& t) { t.name = text; }, tr("Rename fabric tier"), -1);
        refresh();
    });
    auto* ratio = numberField(1, 16, 2, QStringLiteral(" : 1"));
    addRow(form, "tier.oversubscription", tr("Oversubscription"), ratio,
        tr("Downlink to uplink bandwidth of this tier's switches (1 = non-blocking); ignored at the top tier"));
    auto* radix = new QSpinBox;
    radix->setRange(4, 1024);
    radix->setKeyboardTracking(false);
    addRow(form, "tier.switch_radix", tr("Switch radix"), radix, tr("Ports per switch (NVIDIA QM9700: 64)"));
    auto* port = numberField(1, 3200, 0, tr(" Gb/s"));
    addRow(form, "tier.port_gbps", tr("Port speed"), port);
    const int ratioField = m_fieldCount++, radixField = m_fieldCount++, portField = m_fieldCount++;
    connect(ratio, &QDoubleSpinBox::valueChanged, this, [this, ratioField](double v) {
        changeTier([v](auto& t) { t.oversubscription = v; }, tr("Change oversubscription"), ratioField);
    });
    connect(radix, &QSpinBox::valueChanged, this, [this, radixField](int v) {
        changeTier([v](auto& t) { t.switchRadix = v; }, tr("Change switch radix"), radixField);
    });
    connect(port, &QDoubleSpinBox::valueChanged, this, [this, portField](double v) {
        changeTier([v](auto& t) { t.portGbps = v; }, tr("Change port speed"), portField);
    });
    m_otherRefreshers.push_back([this, name, ratio, radix, port](const core::Scenario& s) {
        const auto& tiers = s.topology.fabric.tiers;
        for (QWidget* w : std::initializer_list<QWidget*> {name, ratio, radix, port})
            w->setEnabled(!tiers.empty());
        if (tiers.empty())
            return;
        const auto& tier = tiers[std::size_t(m_tier)];
        setBlocked<QLineEdit>(name, [&](QLineEdit* w) { w->setText(QString::fromStdString(tier.name)); });
        setBlocked<QDoubleSpinBox>(ratio, [&](QDoubleSpinBox* w) { w->setValue(tier.oversubscription); });
        setBlocked<QSpinBox>(radix, [&](QSpinBox* w) { w->setValue(tier.switchRadix); });
        setBlocked<QDoubleSpinBox>(port, [&](QDoubleSpinBox* w) { w->setValue(tier.portGbps); });
    });
}

QWidget* TopologyForm::createFabricBox()
{
    auto* box = new QGroupBox(tr("Fabric and facility"), this);
    auto* form = new QFormLayout(box);
    auto* rail = new QCheckBox(tr("Rail-optimised leaves"));
    addRow(form, "fabric.rail_optimized", tr("Wiring"), rail,
        tr("NIC k of every node goes to leaf switch k (NVIDIA DGX SuperPOD reference architecture)"));
    auto* rackKw = numberField(1, 500, 1, tr(" kW"));
    addRow(form, "facility.rack_power_limit_kw", tr("Rack power limit"), rackKw,
        tr("Per rack: air-cooled halls about 15-40 kW, liquid-cooled NVL72 about 120-132 kW"));
    auto* pue = numberField(0, 3, 2, {});
    pue->setSingleStep(0.05);
    pue->setSpecialValueText(tr("costs.json default"));
    addRow(form, "facility.pue", tr("PUE"), pue, tr("Facility power / IT power; 0 = the data/costs.json default"));
    const int railField = m_fieldCount++, rackField = m_fieldCount++, pueField = m_fieldCount++;
    connect(rail, &QCheckBox::toggled, this, [this, railField](bool on) {
        apply([on](core::Scenario& s) { s.topology.fabric.railOptimized = on; }, tr("Change fabric wiring"),
            topologyFieldEditId(kFacilityElement, railField));
    });
    connect(rackKw, &QDoubleSpinBox::valueChanged, this, [this, rackField](double v) {
        apply([v](core::Scenario& s) { s.topology.facility.rackPowerLimitKw = v; }, tr("Change rack power limit"),
            topologyFieldEditId(kFacilityElement, rackField));
    });
    connect(pue, &QDoubleSpinBox::valueChanged, this, [this, pueField](double v) {
        apply(
            [v](core::Scenario& s) {
                s.topology.facility.pue = v > 0 ? std::optional(std::max(1.0, v)) : std::nullopt;
            },
            tr("Change PUE"), topologyFieldEditId(kFacilityElement, pueField));
    });
    m_otherRefreshers.push_back([rail, rackKw, pue](const core::Scenario& s) {
        setBlocked<QCheckBox>(rail, [&](QCheckBox* w) { w->setChecked(s.topology.fabric.railOptimized); });
        setBlocked<QDoubleSpinBox>(
            rackKw, [&](QDoubleSpinBox* w) { w->setValue(s.topology.facility.rackPowerLimitKw); });
        setBlocked<QDoubleSpinBox>(pue, [&](QDoubleSpinBox* w) { w->setValue(s.topology.facility.pue.value_or(0)); });
    });
    return box;
}

void TopologyForm::apply(const std::function<void(core::Scenario&)>& change, const QString& text, int mergeId)
{
    core::Scenario after = m_document->scenario();
    change(after);
    commit(after, text, mergeId);
}

void TopologyForm::commit(core::Scenario& after, const QString& text, int mergeId)
{
    core::cluster::syncTrainingView(after); // the engine's view of the run follows its training group, same step
    // A run larger than its group would make the core grow the group back (core/cluster/trainingview.h): the run
    // shrinks to the group instead, with the nearest valid layout, so the diagram shows what is stored.
    const auto* group = after.topology.findGroup(after.trainingGroup);
    if (group && group->gpuCount() < after.cluster.gpuCount) {
        after.cluster.gpuCount = int(group->gpuCount());
        if (const auto layout = core::nearestValidLayout(after, after.cluster.gpuCount))
            after.training.layout = *layout;
    }
    m_document->edit(after, text, mergeId);
}

void TopologyForm::changeGroup(const GroupChange& change, const QString& text, int field)
{
    const int group = m_group;
    if (group < 0 || group >= int(m_document->scenario().topology.groups.size()))
        return;
    apply([&change, group](core::Scenario& s) { change(s.topology.groups[std::size_t(group)]); }, text,
        topologyFieldEditId(group, field));
}

void TopologyForm::changeTier(const TierChange& change, const QString& text, int field)
{
    const int tier = m_tier;
    if (tier < 0 || tier >= int(m_document->scenario().topology.fabric.tiers.size()))
        return;
    apply([&change, tier](core::Scenario& s) { change(s.topology.fabric.tiers[std::size_t(tier)]); }, text,
        field < 0 ? static_cast<int>(EditId::None) : topologyFieldEditId(kTierElementFirst + tier, field));
}

void TopologyForm::addGroup()
{
    core::Scenario after = m_document->scenario();
    const int index = addNodeGroup(after);
    m_group = index; // the new group is the one the form shows next
    commit(after, tr("Add node group"));
    setCurrentGroup(index);
    Q_EMIT currentGroupChanged(index);
}

void TopologyForm::duplicateGroup()
{
    core::Scenario after = m_document->scenario();
    const int index = duplicateNodeGroup(after, m_group);
    if (index < 0)
        return;
    m_group = index;
    commit(after, tr("Duplicate node group"));
    setCurrentGroup(index);
    Q_EMIT currentGroupChanged(index);
}

void TopologyForm::removeGroup()
{
    core::Scenario after = m_document->scenario();
    if (!removeNodeGroup(after, m_group))
        return;
    m_group = std::max(0, m_group - 1);
    commit(after, tr("Remove node group"));
    setCurrentGroup(m_group);
    Q_EMIT currentGroupChanged(m_group);
}

void TopologyForm::addTier()
{
    core::Scenario after = m_document->scenario();
    const int index = addFabricTier(after);
    if (index < 0)
        return;
    m_tier = index;
    commit(after, tr("Add fabric tier"));
    setCurrentTier(index);
    Q_EMIT currentTierChanged(index);
}

void TopologyForm::removeTier()
{
    core::Scenario after = m_document->scenario();
    if (!removeFabricTier(after, m_tier))
        return;
    m_tier = std::max(0, m_tier - 1);
    commit(after, tr("Remove fabric tier"));
    setCurrentTier(m_tier);
    Q_EMIT currentTierChanged(m_tier);
}

void TopologyForm::setCurrentGroup(int index)
{
    m_group = index;
    refresh();
}

void TopologyForm::setCurrentTier(int index)
{
    m_tier = index;
    refresh();
}

void TopologyForm::refreshChoosers(const core::Scenario& scenario)
{
    const auto& groups = scenario.topology.groups;
    const auto& tiers = scenario.topology.fabric.tiers;
    m_group = groups.empty() ? 0 : std::clamp(m_group, 0, int(groups.size()) - 1);
    m_tier = tiers.empty() ? 0 : std::clamp(m_tier, 0, int(tiers.size()) - 1);
    setBlocked<QComboBox>(m_groupChooser, [&](QComboBox* w) {
        w->clear();
        for (const auto& group : groups)
            w->addItem(QString::fromStdString(group.name));
        w->setCurrentIndex(m_group);
    });
    setBlocked<QComboBox>(m_trainingGroup, [&](QComboBox* w) {
        w->clear();
        for (const auto& group : groups)
            w->addItem(QString::fromStdString(group.name));
        w->setCurrentIndex(w->findText(QString::fromStdString(scenario.trainingGroup)));
    });
    setBlocked<QComboBox>(m_tierChooser, [&](QComboBox* w) {
        w->clear();
        for (std::size_t i = 0; i < tiers.size(); ++i)
            w->addItem(tr("%1 (tier %2)").arg(QString::fromStdString(tiers[i].name)).arg(i + 1));
        w->setCurrentIndex(m_tier);
    });
    m_removeGroup->setEnabled(!groups.empty());
    m_duplicateGroup->setEnabled(!groups.empty());
    m_removeTier->setEnabled(tiers.size() > 1);
}

void TopologyForm::refresh()
{
    const core::Scenario& scenario = m_document->scenario();
    refreshChoosers(scenario);
    const bool hasGroup = !scenario.topology.groups.empty();
    for (auto* widget : findChildren<QWidget*>(QRegularExpression(QStringLiteral("^topology\\.group\\."))))
        widget->setEnabled(hasGroup);
    if (hasGroup)
        for (const auto& refresher : m_groupRefreshers)
            refresher(scenario);
    for (const auto& refresher : m_otherRefreshers)
        refresher(scenario);
}

} // namespace clusterplanner::ui
