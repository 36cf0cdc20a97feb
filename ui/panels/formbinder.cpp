// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/formbinder.h"

#include "ui/document/editid.h"
#include "ui/document/scenariodocument.h"

#include <QCheckBox>
#include <QComboBox>
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

/// A copy of the scenario with an MoE part, so that refs into model.moe are always valid.
core::Scenario withMoe(const core::Scenario& scenario)
{
    core::Scenario copy = scenario;
    if (!copy.model.moe)
        copy.model.moe = core::MoeConfig {};
    return copy;
}

} // namespace

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

QSpinBox* FormBinder::intField(
    QFormLayout* form, const FieldInfo& info, FieldRef<int> ref, int min, int max, const QString& suffix)
{
    auto* spin = new QSpinBox;
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(max >= 100'000);
    addRow(form, info, spin);
    const int mergeId = formFieldEditId(nextMergeId());
    connect(spin, &QSpinBox::valueChanged, this, [this, ref, mergeId, text = changeText(info)](int value) {
        apply([ref, value](core::Scenario& s) { ref(s) = value; }, text, mergeId);
    });
    addRefresher([spin, ref](core::Scenario& s) {
        const QSignalBlocker blocker(spin);
        if (spin->value() != ref(s))
            spin->setValue(ref(s));
    });
    return spin;
}

QDoubleSpinBox* FormBinder::numberField(QFormLayout* form, const FieldInfo& info, FieldRef<double> ref, double min,
    double max, int decimals, const QString& suffix, double scale)
{
    auto* spin = new QDoubleSpinBox;
    spin->setDecimals(decimals);
    spin->setRange(min / scale, max / scale);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(max / scale >= 100'000);
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

QCheckBox* FormBinder::boolField(QFormLayout* form, const FieldInfo& info, FieldRef<bool> ref)
{
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

QLineEdit* FormBinder::textField(QFormLayout* form, const FieldInfo& info, FieldRef<std::string> ref)
{
    auto* line = new QLineEdit;
    line->setMaxLength(200); // the file format's limit for names
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

QPlainTextEdit* FormBinder::longTextField(const FieldInfo& info, FieldRef<std::string> ref)
{
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
    core::Scenario next = withMoe(current);
    change(next);
    if (!current.model.moe)
        next.model.moe.reset(); // MoE fields are disabled without MoE; a stray write changes nothing
    m_document->edit(next, text, mergeId);
}

void FormBinder::refresh()
{
    core::Scenario view = withMoe(m_document->scenario());
    for (const auto& refresher : m_refreshers)
        refresher(view);
}

} // namespace clusterplanner::ui
