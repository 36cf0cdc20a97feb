// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/formbinder.h"

#include "core/model/scenariofields.h"
#include "ui/document/editid.h"
#include "ui/document/scenariodocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>

namespace clusterplanner::ui {

namespace {

constexpr int kNoMerge = static_cast<int>(EditId::None);

QString changeText(const FieldInfo& info)
{
    return QObject::tr("Change %1").arg(info.label);
}

/// A copy of the scenario with an MoE part and latent attention, so that refs into model.moe are always valid and
/// the model.mla fields show dimensions rather than the 0 that means "off".
core::Scenario withOptionalParts(const core::Scenario& scenario)
{
    core::Scenario copy = scenario;
    if (!copy.model.moe)
        copy.model.moe = core::MoeConfig {};
    if (!copy.model.mla.enabled())
        copy.model.mla = shownLatentAttention();
    return copy;
}

QString translated(std::string_view text)
{
    return QCoreApplication::translate("ScenarioField", std::string(text).c_str());
}

QString suffixOf(const core::ScenarioField& field)
{
    if (field.unit.empty())
        return {};
    return QLatin1Char(' ') + translated(field.unit);
}

} // namespace

core::MlaConfig shownLatentAttention()
{
    return {512, 1536, 128, 64, 128}; // DeepSeek-V3's config.json
}

FieldInfo fieldInfo(std::string_view path)
{
    const core::ScenarioField& field = core::scenarioField(path);
    // Table paths are string literals, so the view is null-terminated and lives as long as the program.
    return {field.path.data(), translated(field.label), translated(field.toolTip)};
}

FormBinder::FormBinder(ScenarioDocument* document, QObject* parent)
    : QObject(parent)
    , m_document(document)
{ }

void FormBinder::addRow(QFormLayout* form, const FieldInfo& info, QWidget* widget)
{
    widget->setObjectName(QString::fromLatin1(info.objectName));
    widget->setToolTip(info.toolTip);
    if (!form)
        return;
    auto* label = new QLabel(info.label + QLatin1Char(':'));
    label->setBuddy(widget);
    label->setToolTip(info.toolTip);
    form->addRow(label, widget);
}

QSpinBox* FormBinder::intField(QFormLayout* form, std::string_view path, FieldRef<int> ref, Change alsoChange)
{
    const core::ScenarioField& field = core::scenarioField(path);
    const FieldInfo info = fieldInfo(path);
    auto* spin = new QSpinBox;
    spin->setRange(static_cast<int>(field.min), static_cast<int>(field.max));
    spin->setSuffix(suffixOf(field));
    spin->setGroupSeparatorShown(field.max >= 100'000);
    addRow(form, info, spin);
    const int mergeId = formFieldEditId(nextMergeId());
    connect(spin, &QSpinBox::valueChanged, this, [this, ref, mergeId, alsoChange, text = changeText(info)](int value) {
        apply(
            [ref, value, &alsoChange](core::Scenario& s) {
                ref(s) = value;
                if (alsoChange)
                    alsoChange(s);
            },
            text, mergeId);
    });
    addRefresher([spin, ref](core::Scenario& s) {
        const QSignalBlocker blocker(spin);
        if (spin->value() != ref(s))
            spin->setValue(ref(s));
    });
    return spin;
}

QDoubleSpinBox* FormBinder::numberField(QFormLayout* form, std::string_view path, FieldRef<double> ref, int decimals,
    double scale, const QString& scaledSuffix)
{
    const core::ScenarioField& field = core::scenarioField(path);
    const FieldInfo info = fieldInfo(path);
    auto* spin = new QDoubleSpinBox;
    spin->setDecimals(decimals);
    spin->setRange(field.min / scale, field.max / scale);
    spin->setSuffix(scale == 1.0 ? suffixOf(field) : scaledSuffix);
    spin->setGroupSeparatorShown(field.max / scale >= 100'000);
    addRow(form, info, spin);
    const int mergeId = formFieldEditId(nextMergeId());
    connect(
        spin, &QDoubleSpinBox::valueChanged, this, [this, ref, scale, mergeId, text = changeText(info)](double value) {
            apply([ref, value, scale](core::Scenario& s) { ref(s) = value * scale; }, text, mergeId);
        });
    addRefresher([spin, ref, scale](core::Scenario& s) {
        // Only touch the value when it differs: setValue() would move the cursor while the user types.
        const QSignalBlocker blocker(spin);
        const double shown = ref(s) / scale;
        if (spin->value() != shown)
            spin->setValue(shown);
    });
    return spin;
}

QCheckBox* FormBinder::boolField(QFormLayout* form, std::string_view path, FieldRef<bool> ref)
{
    const FieldInfo info = fieldInfo(path);
    auto* check = new QCheckBox(info.label);
    check->setObjectName(QString::fromLatin1(info.objectName));
    check->setToolTip(info.toolTip);
    if (form)
        form->addRow(QString(), check);
    nextMergeId();
    connect(check, &QCheckBox::toggled, this, [this, ref, text = changeText(info)](bool on) {
        apply([ref, on](core::Scenario& s) { ref(s) = on; }, text, kNoMerge);
    });
    addRefresher([check, ref](core::Scenario& s) {
        const QSignalBlocker blocker(check);
        check->setChecked(ref(s));
    });
    return check;
}

QLineEdit* FormBinder::textField(QFormLayout* form, std::string_view path, FieldRef<std::string> ref)
{
    const FieldInfo info = fieldInfo(path);
    auto* line = new QLineEdit;
    line->setMaxLength(static_cast<int>(core::scenarioField(path).max));
    addRow(form, info, line);
    const int mergeId = formFieldEditId(nextMergeId());
    connect(line, &QLineEdit::textChanged, this, [this, ref, mergeId, text = changeText(info)](const QString& value) {
        apply([ref, value](core::Scenario& s) { ref(s) = value.toStdString(); }, text, mergeId);
    });
    addRefresher([line, ref](core::Scenario& s) {
        // Only touch the text when it differs: setText() would move the cursor while the user types.
        const QSignalBlocker blocker(line);
        const QString value = QString::fromStdString(ref(s));
        if (line->text() != value)
            line->setText(value);
    });
    return line;
}

QPlainTextEdit* FormBinder::longTextField(std::string_view path, FieldRef<std::string> ref)
{
    const FieldInfo info = fieldInfo(path);
    auto* edit = new QPlainTextEdit;
    addRow(nullptr, info, edit);
    const int mergeId = formFieldEditId(nextMergeId());
    connect(edit, &QPlainTextEdit::textChanged, this, [this, edit, ref, mergeId, text = changeText(info)]() {
        const std::string value = edit->toPlainText().toStdString();
        apply([ref, value](core::Scenario& s) { ref(s) = value; }, text, mergeId);
    });
    addRefresher([edit, ref](core::Scenario& s) {
        const QSignalBlocker blocker(edit);
        const QString value = QString::fromStdString(ref(s));
        if (edit->toPlainText() != value)
            edit->setPlainText(value);
    });
    return edit;
}

QComboBox* FormBinder::choiceField(QFormLayout* form, const FieldInfo& info, const QStringList& labels,
    std::function<int(core::Scenario&)> read, std::function<void(core::Scenario&, int)> write)
{
    auto* combo = new QComboBox;
    combo->addItems(labels);
    addRow(form, info, combo);
    nextMergeId();
    connect(combo, &QComboBox::currentIndexChanged, this, [this, write, text = changeText(info)](int index) {
        if (index >= 0)
            apply([write, index](core::Scenario& s) { write(s, index); }, text, kNoMerge);
    });
    addRefresher([combo, read](core::Scenario& s) {
        const QSignalBlocker blocker(combo);
        combo->setCurrentIndex(read(s));
    });
    return combo;
}

void FormBinder::apply(const Change& change, const QString& text, int mergeId)
{
    const core::Scenario& current = m_document->scenario();
    core::Scenario next = withOptionalParts(current);
    change(next);
    if (!current.model.moe)
        next.model.moe.reset(); // MoE fields are disabled without MoE; a stray write changes nothing
    if (!current.model.mla.enabled())
        next.model.mla = current.model.mla; // the same for latent attention
    m_document->edit(next, text, mergeId);
}

void FormBinder::refresh()
{
    core::Scenario view = withOptionalParts(m_document->scenario());
    for (const auto& refresher : m_refreshers)
        refresher(view);
}

} // namespace clusterplanner::ui
