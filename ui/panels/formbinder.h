// SPDX-License-Identifier: GPL-3.0-or-later
// Creates form widgets bound to one field of the document's scenario, both ways.
#pragma once

#include "core/model/enumnames.h"
#include "core/model/scenario.h"
#include "ui/panels/enumlabels.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace clusterplanner::ui {

class ScenarioDocument;

/// The latent-attention dimensions the form shows, and switches on, for a model without them: DeepSeek-V3's.
core::MlaConfig shownLatentAttention();

/// Where a field lives in a scenario. The Scenario passed in always has model.moe engaged and model.mla on (see
/// FormBinder).
template <typename T>
using FieldRef = T& (*)(core::Scenario&);

/// What the user sees of a field: objectName (dotted scenario path, e.g. "model.layers"), row label, tooltip.
struct FieldInfo
{
    const char* objectName;
    QString label;
    QString toolTip;
};

/// The row of a scenario field as the field table (core/model/scenariofields.h) describes it; its objectName is the
/// field's path in the file ("training.micro_batch").
FieldInfo fieldInfo(std::string_view path);

/// Every widget it makes writes through ScenarioDocument::edit() (typing fields with a per-field merge id, so
/// typing a number is one undo step) and is refreshed from the document by refresh(), with its signals blocked.
/// Fields inside model.moe (model.mla) read defaults and ignore writes while the scenario has no MoE part (no latent
/// attention).
class FormBinder : public QObject
{
    Q_OBJECT
public:
    using Refresher = std::function<void(core::Scenario&)>;
    using Change = std::function<void(core::Scenario&)>;

    FormBinder(ScenarioDocument* document, QObject* parent);

    /// Fields of the scenario field table: bounds, unit (as the suffix), label and tooltip come from the table.
    /// `alsoChange` runs after the write, in the same undoable edit (e.g. a layout that follows the GPU count).
    QSpinBox* intField(QFormLayout* form, std::string_view path, FieldRef<int> ref, Change alsoChange = {});
    /// The widget shows value / scale (e.g. scale 1e9 shows tokens in billions), with `scaledSuffix` then.
    QDoubleSpinBox* numberField(QFormLayout* form, std::string_view path, FieldRef<double> ref, int decimals,
        double scale = 1.0, const QString& scaledSuffix = {});
    QCheckBox* boolField(QFormLayout* form, std::string_view path, FieldRef<bool> ref);
    QLineEdit* textField(QFormLayout* form, std::string_view path, FieldRef<std::string> ref);
    QPlainTextEdit* longTextField(std::string_view path, FieldRef<std::string> ref);
    QComboBox* choiceField(QFormLayout* form, const FieldInfo& info, const QStringList& labels,
        std::function<int(core::Scenario&)> read, std::function<void(core::Scenario&, int)> write);

    template <typename Enum>
    QComboBox* enumField(QFormLayout* form, std::string_view path, FieldRef<Enum> ref)
    {
        const std::vector<Enum> values = core::allValues<Enum>();
        QStringList labels;
        for (Enum value : values)
            labels << enumLabel(value);
        auto read = [ref, values](core::Scenario& s) {
            return static_cast<int>(std::find(values.begin(), values.end(), ref(s)) - values.begin());
        };
        auto write = [ref, values](core::Scenario& s, int index) { ref(s) = values.at(index); };
        return choiceField(form, fieldInfo(path), labels, read, write);
    }

    /// Adds a row label with buddy and tooltip; names the widget; returns nothing new.
    void addRow(QFormLayout* form, const FieldInfo& info, QWidget* widget);
    /// Called by refresh() after the fields, for derived labels and enabled states.
    void addRefresher(Refresher refresher) { m_refreshers.push_back(std::move(refresher)); }
    /// Applies `change` to a copy of the scenario and pushes it as one edit named `text`.
    void apply(const Change& change, const QString& text, int mergeId);
    /// Re-reads every field from the document.
    void refresh();

private:
    int nextMergeId() { return m_fieldCount++; }

    ScenarioDocument* m_document;
    std::vector<Refresher> m_refreshers;
    int m_fieldCount = 0;
};

} // namespace clusterplanner::ui
