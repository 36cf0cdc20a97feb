// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioForm: every field edits the document through the undo stack and follows it back.
#include "core/cluster/trainingview.h"
#include "core/model/gpucatalog.h"
#include "core/model/scenario.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/columnflow.h"
#include "ui/panels/scenarioform.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSpontaneKeyEvent>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <functional>
#include <set>

using namespace clusterplanner;
using core::Scenario;

namespace {

/// One form field: the widget's objectName, the value to put into the widget (for a combo box: a piece of the
/// item text to pick) and where the expected value shows up in the scenario.
struct FieldCase
{
    const char* objectName;
    QVariant input;
    QVariant expected;
    std::function<QVariant(const Scenario&)> read;
};

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

const std::vector<FieldCase>& fieldCases()
{
    using S = const Scenario&;
    static const std::vector<FieldCase> cases = {
        {"name", "My run", "My run", [](S s) { return text(s.name); }},
        {"model.preset", "Mixtral", "Mixtral 8x7B/32000/8/2",
            [](S s) {
                return QStringLiteral("%1/%2/%3/%4")
                    .arg(text(s.model.name))
                    .arg(s.model.vocab)
                    .arg(s.model.moe ? s.model.moe->experts : 0)
                    .arg(s.model.moe ? s.model.moe->topK : 0);
            }},
        {"model.name", "Tiny", "Tiny", [](S s) { return text(s.model.name); }},
        {"model.layers", 96, 96, [](S s) { return s.model.layers; }},
        {"model.hidden", 12288, 12288, [](S s) { return s.model.hidden; }},
        {"model.heads", 96, 96, [](S s) { return s.model.heads; }},
        {"model.kv_heads", 16, 16, [](S s) { return s.model.kvHeads; }},
        {"model.head_dim", 256, 256, [](S s) { return s.model.headDim; }},
        {"model.ffn_hidden", 49152, 49152, [](S s) { return s.model.ffnHidden; }},
        {"model.vocab", 50257, 50257, [](S s) { return s.model.vocab; }},
        {"model.seq_len", 4096, 4096, [](S s) { return s.model.seqLen; }},
        {"model.mlp", "GELU", int(core::MlpKind::Gelu), [](S s) { return int(s.model.mlp); }},
        {"model.norm", "LayerNorm", int(core::NormKind::LayerNorm), [](S s) { return int(s.model.norm); }},
        {"model.tied_embeddings", true, true, [](S s) { return s.model.tiedEmbeddings; }},
        {"model.qk_norm", true, true, [](S s) { return s.model.qkNorm; }},
        {"model.parallel_block", true, true, [](S s) { return s.model.parallelBlock; }},
        {"model.mtp_layers", 2, 2, [](S s) { return s.model.mtpLayers; }},
        {"model.mla", false, false, [](S s) { return s.model.mla.enabled(); }},
        {"model.mla.kv_lora_rank", 256, 256, [](S s) { return s.model.mla.kvLoraRank; }},
        {"model.mla.q_lora_rank", 1024, 1024, [](S s) { return s.model.mla.qLoraRank; }},
        {"model.mla.qk_nope_head_dim", 96, 96, [](S s) { return s.model.mla.qkNopeHeadDim; }},
        {"model.mla.qk_rope_head_dim", 32, 32, [](S s) { return s.model.mla.qkRopeHeadDim; }},
        {"model.mla.v_head_dim", 64, 64, [](S s) { return s.model.mla.vHeadDim; }},
        {"model.moe", false, false, [](S s) { return s.model.moe.has_value(); }},
        {"model.moe.experts", 64, 64, [](S s) { return s.model.moe->experts; }},
        {"model.moe.top_k", 4, 4, [](S s) { return s.model.moe->topK; }},
        {"model.moe.expert_ffn_hidden", 2048, 2048, [](S s) { return s.model.moe->expertFfnHidden; }},
        {"model.moe.shared_experts", 2, 2, [](S s) { return s.model.moe->sharedExperts; }},
        {"model.moe.moe_layers", 16, 16, [](S s) { return s.model.moe->moeLayers; }},
        {"model.moe.capacity_factor", 1.25, 1.25, [](S s) { return s.model.moe->capacityFactor; }},
        {"model.moe.expert_groups", 8, 8, [](S s) { return s.model.moe->expertGroups; }},
        {"model.moe.groups_per_token", 4, 4, [](S s) { return s.model.moe->groupsPerToken; }},
        {"cluster.gpu", "H200", "H200-SXM-141GB", [](S s) { return text(s.cluster.gpuId); }},
        {"cluster.gpu_count", 512, 512, [](S s) { return s.cluster.gpuCount; }},
        {"cluster.gpus_per_node", 4, 4, [](S s) { return s.cluster.gpusPerNode; }},
        {"cluster.nic_gbps", 800.0, 800.0, [](S s) { return s.cluster.nicGbps; }},
        {"cluster.oversubscription", 2.0, 2.0, [](S s) { return s.cluster.oversubscription; }},
        {"training.global_batch", 1024, 1024, [](S s) { return s.training.globalBatch; }},
        {"training.micro_batch", 2, 2, [](S s) { return s.training.microBatch; }},
        {"training.precision", "FP8", int(core::Precision::Fp8), [](S s) { return int(s.training.precision); }},
        {"training.fp8_recipe", "Rowwise (torchao)", int(core::Fp8Recipe::Rowwise),
            [](S s) { return int(s.training.fp8Recipe); }},
        {"training.optimizer", "momentum", int(core::Optimizer::SgdMomentum),
            [](S s) { return int(s.training.optimizer); }},
        {"training.optimizer_states", "BF16", int(core::OptimizerStates::Bf16),
            [](S s) { return int(s.training.optimizerStates); }},
        {"training.recompute", "Full", int(core::Recompute::Full), [](S s) { return int(s.training.recompute); }},
        {"training.activation_offload_layers", 12, 12, [](S s) { return s.training.activationOffloadLayers; }},
        {"training.zero_stage", 3, 3, [](S s) { return s.training.zeroStage; }},
        {"training.distributed_optimizer", false, false, [](S s) { return s.training.distributedOptimizer; }},
        {"training.attention", "Plain", int(core::AttentionKind::Math), [](S s) { return int(s.training.attention); }},
        {"training.framework", "Hugging Face", int(core::Framework::HuggingFace),
            [](S s) { return int(s.training.framework); }},
        {"training.schedule", "ZB-H1", int(core::PipelineSchedule::ZbH1), [](S s) { return int(s.training.schedule); }},
        {"training.compile", false, false, [](S s) { return s.training.compile; }},
        {"training.compile_loss", false, false, [](S s) { return s.training.compileLoss; }},
        {"training.fused_loss", true, true, [](S s) { return s.training.fusedLoss; }},
        {"training.layout.dp", 16, 16, [](S s) { return s.training.layout.dp; }},
        {"training.layout.tp", 4, 4, [](S s) { return s.training.layout.tp; }},
        {"training.layout.pp", 8, 8, [](S s) { return s.training.layout.pp; }},
        {"training.layout.cp", 2, 2, [](S s) { return s.training.layout.cp; }},
        {"training.layout.ep", 8, 8, [](S s) { return s.training.layout.ep; }},
        {"training.layout.expert_tp", 2, 2, [](S s) { return s.training.layout.expertTp; }},
        {"training.layout.dp_shard", 4, 4, [](S s) { return s.training.layout.dpShard; }},
        {"model.rope_base", 1000000.0, 1000000.0, [](S s) { return s.model.ropeBase; }},
        {"training.layout.virtual_stages", 2, 2, [](S s) { return s.training.layout.virtualStages; }},
        {"training.layout.sequence_parallel", false, false, [](S s) { return s.training.layout.sequenceParallel; }},
        {"training.cp_load_balance", false, false, [](S s) { return s.training.cpLoadBalance; }},
        {"training.async_tp", true, true, [](S s) { return s.training.asyncTp; }},
        {"training.moe_dispatcher", "DeepEP", int(core::MoeDispatcher::DeepEp),
            [](S s) { return int(s.training.moeDispatcher); }},
        {"training.moe_overlap", true, true, [](S s) { return s.training.moeOverlap; }},
        {"training.layout.rank_order", "PP before DP", int(core::RankOrdering::TpCpEpPpDp),
            [](S s) { return int(s.training.layout.rankOrder); }},
        // The widget shows billions of tokens: 15,000 billion = 1.5e13 tokens.
        {"economics.training_tokens", 15000.0, 1.5e13, [](S s) { return s.economics.trainingTokens; }},
        {"economics.gpu_hour_usd", 4.25, 4.25, [](S s) { return s.economics.gpuHourUsd; }},
        {"economics.electricity_usd_per_kwh", 0.12, 0.12, [](S s) { return s.economics.electricityUsdPerKwh; }},
        {"economics.pue", 1.5, 1.5, [](S s) { return s.economics.pue; }},
        {"notes", "hello\nworld", "hello\nworld", [](S s) { return text(s.notes); }},
    };
    return cases;
}

/// A scenario where every field is editable (MoE and latent attention on) and no value equals a test input.
Scenario startScenario()
{
    Scenario s = core::defaultScenario();
    s.model.moe = core::MoeConfig {8, 2, 14336, 0, 0, 1.0};
    s.model.mla = core::MlaConfig {512, 1536, 128, 64, 128};
    s.model.kvHeads = s.model.heads; // every latent-attention head has its own key and value
    return s;
}

void setWidgetValue(QWidget* widget, const QVariant& value)
{
    if (auto* spin = qobject_cast<QSpinBox*>(widget)) {
        spin->setValue(value.toInt());
    } else if (auto* number = qobject_cast<QDoubleSpinBox*>(widget)) {
        number->setValue(value.toDouble());
    } else if (auto* check = qobject_cast<QCheckBox*>(widget)) {
        check->setChecked(value.toBool());
    } else if (auto* line = qobject_cast<QLineEdit*>(widget)) {
        line->setText(value.toString());
    } else if (auto* plain = qobject_cast<QPlainTextEdit*>(widget)) {
        plain->setPlainText(value.toString());
    } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
        const int index = combo->findText(value.toString(), Qt::MatchContains);
        QVERIFY2(index >= 0, qPrintable(value.toString()));
        combo->setCurrentIndex(index);
    } else {
        QFAIL("unexpected widget type");
    }
}

QVariant widgetValue(QWidget* widget)
{
    if (auto* spin = qobject_cast<QSpinBox*>(widget))
        return spin->value();
    if (auto* number = qobject_cast<QDoubleSpinBox*>(widget))
        return number->value();
    if (auto* check = qobject_cast<QCheckBox*>(widget))
        return check->isChecked();
    if (auto* line = qobject_cast<QLineEdit*>(widget))
        return line->text();
    if (auto* plain = qobject_cast<QPlainTextEdit*>(widget))
        return plain->toPlainText();
    if (auto* combo = qobject_cast<QComboBox*>(widget))
        return combo->currentText();
    return {};
}

bool isInputWidget(QWidget* w)
{
    const bool input = qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QCheckBox*>(w) || qobject_cast<QComboBox*>(w)
        || qobject_cast<QPlainTextEdit*>(w) || qobject_cast<QLineEdit*>(w);
    // Spin boxes and combo boxes have internal line edits of their own.
    return input && !qobject_cast<QAbstractSpinBox*>(w->parentWidget()) && !qobject_cast<QComboBox*>(w->parentWidget());
}

/// Turns the wheel one notch down over the middle of `widget`, delivered to the innermost child there (a spin box's
/// line edit, say) as the window system would: spontaneous, so that QApplication hands it on to the parents.
void wheelOver(QWidget* widget)
{
    const QPoint centre = widget->rect().center();
    QWidget* target = widget->childAt(centre) ? widget->childAt(centre) : widget;
    const QPointF local = target->mapFrom(widget, centre);
    QWheelEvent wheel(local, target->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
        Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&wheel);
    QApplication::sendEvent(target, &wheel);
}

} // namespace

class TestScenarioForm : public QObject
{
    Q_OBJECT

private:
    ui::ScenarioDocument* m_doc = nullptr;
    ui::ScenarioForm* m_form = nullptr;

    template <typename T = QWidget>
    T* field(const char* name)
    {
        return m_form->findChild<T*>(QString::fromLatin1(name));
    }

    /// Saves the form, shown at 1600 × 1000 as a user sees it, to $CLUSTERPLANNER_SHOT_DIR/NAME when that is set
    /// (docs/screenshots).
    void saveShot(const QString& name)
    {
        const QString dir = qEnvironmentVariable("CLUSTERPLANNER_SHOT_DIR");
        if (dir.isEmpty())
            return;
        m_form->resize(1600, 1000);
        m_form->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_form));
        QVERIFY(m_form->grab().save(dir + QLatin1Char('/') + name));
    }

private Q_SLOTS:
    void init()
    {
        m_doc = new ui::ScenarioDocument;
        m_doc->newDocument(startScenario());
        m_form = new ui::ScenarioForm(m_doc);
        m_form->resize(1300, 900);
    }

    void cleanup()
    {
        delete m_form;
        delete m_doc;
    }

    void everyFieldEditsUndoesAndRedoes_data()
    {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < fieldCases().size(); ++i)
            QTest::newRow(fieldCases()[i].objectName) << int(i);
    }

    void everyFieldEditsUndoesAndRedoes()
    {
        QFETCH(int, row);
        const FieldCase& c = fieldCases()[row];
        QWidget* widget = field(c.objectName);
        QVERIFY2(widget, c.objectName);
        const Scenario before = m_doc->scenario();
        const QVariant shownBefore = widgetValue(widget);
        QVERIFY(c.read(before) != c.expected);

        setWidgetValue(widget, c.input);
        QCOMPARE(c.read(m_doc->scenario()), c.expected);
        QCOMPARE(m_doc->undoStack()->count(), 1);
        QVERIFY(m_doc->isModified());
        const Scenario after = m_doc->scenario();

        m_doc->undoStack()->undo();
        QVERIFY(m_doc->scenario() == before);
        QCOMPARE(widgetValue(widget), shownBefore); // the form follows the document
        m_doc->undoStack()->redo();
        QVERIFY(m_doc->scenario() == after);
        QCOMPARE(c.read(m_doc->scenario()), c.expected);
    }

    void everyInputWidgetIsNamedTestedAndExplained()
    {
        std::set<QString> tested;
        for (const auto& c : fieldCases())
            tested.insert(QString::fromLatin1(c.objectName));
        int inputs = 0;
        for (QWidget* w : m_form->findChildren<QWidget*>()) {
            if (!isInputWidget(w))
                continue;
            ++inputs;
            QVERIFY2(!w->objectName().isEmpty(), w->metaObject()->className());
            QVERIFY2(tested.count(w->objectName()), qPrintable(w->objectName()));
            QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->objectName()));
        }
        QCOMPARE(inputs, int(fieldCases().size()));
    }

    void typingIntoOneSpinBoxIsOneUndoStep()
    {
        auto* layers = field<QSpinBox>("model.layers");
        layers->selectAll();
        QTest::keyClicks(layers, QStringLiteral("126"));
        QCOMPARE(m_doc->scenario().model.layers, 126);
        QCOMPARE(m_doc->undoStack()->count(), 1);
        auto* hidden = field<QSpinBox>("model.hidden");
        hidden->selectAll();
        QTest::keyClicks(hidden, QStringLiteral("16384"));
        QCOMPARE(m_doc->scenario().model.hidden, 16384);
        QCOMPARE(m_doc->undoStack()->count(), 2);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->scenario().model.hidden, 8192);
        QCOMPARE(m_doc->scenario().model.layers, 126);
    }

    void nicFollowsTheGpuUntilTheUserSetsIt()
    {
        // The start scenario's NIC is the H100 reference (400 Gb/s): picking an A100 takes DGX A100's 200 Gb/s in
        // the same undo step; a NIC the user typed stays when the GPU changes.
        QCOMPARE(m_doc->scenario().cluster.gpuId, std::string("H100-SXM-80GB"));
        QCOMPARE(m_doc->scenario().cluster.nicGbps, 400.0);
        auto* gpu = field<QComboBox>("cluster.gpu");
        setWidgetValue(gpu, QStringLiteral("A100 SXM4 80GB"));
        QCOMPARE(m_doc->scenario().cluster.gpuId, std::string("A100-SXM-80GB"));
        QCOMPARE(m_doc->scenario().cluster.nicGbps, 200.0);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->scenario().cluster.gpuId, std::string("H100-SXM-80GB"));
        QCOMPARE(m_doc->scenario().cluster.nicGbps, 400.0);
        setWidgetValue(field("cluster.nic_gbps"), 300.0);
        setWidgetValue(gpu, QStringLiteral("A100 SXM4 80GB"));
        QCOMPARE(m_doc->scenario().cluster.nicGbps, 300.0);
    }

    void formFollowsEditsMadeElsewhere()
    {
        Scenario s = m_doc->scenario();
        s.training.layout.pp = 16;
        s.model.moe.reset();
        m_doc->edit(s, QStringLiteral("external"));
        QCOMPARE(field<QSpinBox>("training.layout.pp")->value(), 16);
        QVERIFY(!field<QCheckBox>("model.moe")->isChecked());
        QVERIFY(!field("model.moe.experts")->isEnabled());
        QCOMPARE(m_doc->undoStack()->count(), 1); // repopulating did not echo edits back
    }

    void derivedLabels()
    {
        // Default: 256 GPUs, 8 per node; layout 8 x 8 x 4 x 1 = 256.
        auto* nodes = field<QLabel>("cluster.node_count");
        auto* check = field<QLabel>("training.layout.check");
        QCOMPARE(nodes->text(), QStringLiteral("32 nodes"));
        QVERIFY(check->text().contains(QStringLiteral("= 256")));
        QVERIFY(check->styleSheet().isEmpty());
        field<QSpinBox>("cluster.gpu_count")->setValue(260);
        QCOMPARE(nodes->text(), QStringLiteral("33 nodes, the last one partly used"));
        QVERIFY(check->text().contains(QStringLiteral("260")));
        QVERIFY(check->styleSheet().contains(QStringLiteral("color")));
    }

    void problemLabelNamesTheInvalidField()
    {
        auto* problem = field<QLabel>("scenario.problem");
        QVERIFY(problem->isHidden());
        field<QCheckBox>("model.mla")->setChecked(false); // latent attention would set the head widths itself
        QVERIFY(problem->isHidden());
        field<QSpinBox>("model.hidden")->setValue(8100); // not a multiple of 64 heads
        QVERIFY(!problem->isHidden());
        QVERIFY2(problem->text().contains(QStringLiteral("model.hidden")), qPrintable(problem->text()));
    }

    void presetComboShowsCustomAfterEdit()
    {
        auto* preset = field<QComboBox>("model.preset");
        m_doc->newDocument(core::defaultScenario());
        QCOMPARE(preset->currentText(), QStringLiteral("Llama 3 70B"));
        field<QSpinBox>("model.layers")->setValue(81);
        QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
        // Every preset's menu entry carries its source, which says what the engine leaves out.
        const int gptOss = preset->findText(QStringLiteral("GPT-OSS-120B"));
        QVERIFY(gptOss >= 0);
        QVERIFY(preset->itemData(gptOss, Qt::ToolTipRole).toString().contains(QStringLiteral("sliding window")));
        for (int i = 0; i + 1 < preset->count(); ++i)
            QVERIFY(!preset->itemData(i, Qt::ToolTipRole).toString().isEmpty());
    }

    void groupsFlowIntoColumnsByWidth()
    {
        m_form->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_form));
        auto columnsUsed = [this] {
            std::set<int> xs;
            for (QWidget* group : m_form->findChildren<QGroupBox*>())
                xs.insert(group->mapTo(m_form, QPoint(0, 0)).x());
            return xs.size();
        };
        QTRY_COMPARE(columnsUsed(), std::size_t(3)); // 1300 px wide
        m_form->resize(500, 900);
        QTRY_COMPARE(columnsUsed(), std::size_t(1));
    }

    /// Given a whole 1600 × 1000 window (the dock floated or widened), every field is in view at once; the form
    /// is saved as an image to $CLUSTERPLANNER_SHOT_DIR/panel-scenario.png when that is set, for docs/screenshots.
    void wideFormShowsEveryFieldWithoutScrolling()
    {
        m_form->resize(1600, 1000);
        m_form->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_form));
        QScrollArea* scroll = m_form->findChild<QScrollArea*>();
        QVERIFY(scroll);
        QTRY_COMPARE(scroll->verticalScrollBar()->maximum(), 0);
        const QRect view = scroll->viewport()->rect();
        int inView = 0;
        for (QWidget* w : m_form->findChildren<QWidget*>()) {
            if (!isInputWidget(w))
                continue;
            const QRect at(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
            QVERIFY2(view.contains(at), qPrintable(w->objectName()));
            ++inView;
        }
        QCOMPARE(inView, int(fieldCases().size()));
        saveShot(QStringLiteral("panel-scenario.png"));
    }

    void balancedColumnsKeepOrder_data()
    {
        QTest::addColumn<std::vector<int>>("heights");
        QTest::addColumn<int>("columns");
        QTest::addColumn<std::vector<int>>("cuts");
        // 10+10+10 | 30 is the only split with both columns at 30.
        QTest::newRow("two") << std::vector<int> {10, 10, 10, 30} << 2 << std::vector<int> {3};
        // 50 | 20+20 | 30+10: tallest 50, which the first widget forces anyway.
        QTest::newRow("three") << std::vector<int> {50, 20, 20, 30, 10} << 3 << std::vector<int> {1, 3};
        QTest::newRow("one") << std::vector<int> {5, 5} << 1 << std::vector<int> {};
    }

    void balancedColumnsKeepOrder()
    {
        QFETCH(std::vector<int>, heights);
        QFETCH(int, columns);
        QFETCH(std::vector<int>, cuts);
        QCOMPARE(ui::ColumnFlow::balancedCuts(heights, columns), cuts);
    }

    void wheelScrollsTheFormInsteadOfEditingFields()
    {
        Scenario fp8 = startScenario();
        fp8.training.precision = core::Precision::Fp8; // the FP8 recipe field is enabled too
        m_doc->newDocument(fp8);
        m_form->resize(500, 400); // one column, much taller than the window: the form scrolls
        m_form->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_form));
        QScrollBar* bar = m_form->findChild<QScrollArea*>()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        const Scenario before = m_doc->scenario();
        int wheeled = 0;
        for (QWidget* w : m_form->findChildren<QWidget*>()) {
            if (!isInputWidget(w) || !w->isEnabled())
                continue;
            wheelOver(w);
            QVERIFY2(m_doc->scenario() == before, qPrintable(w->objectName()));
            ++wheeled;
        }
        // Every field but the KV heads, the head dimension, the QK norm and the parallel block, which latent
        // attention greys out (the parallel block the experts too), and torch.compile and the two loss switches,
        // which Megatron does not read.
        QCOMPARE(wheeled, int(fieldCases().size()) - 7);
        QCOMPARE(m_doc->undoStack()->count(), 0);
    }

    /// On a GPU without FP8 tensor cores the FP8 item says so before it is chosen (the engine refuses the scenario).
    void fp8ItemSaysWhenTheGpuHasNoFp8()
    {
        auto* precision = field<QComboBox>("training.precision");
        const int index = precision->findText(QStringLiteral("FP8"), Qt::MatchStartsWith);
        QVERIFY(index >= 0);
        Scenario s = startScenario();
        core::cluster::writeViewIntoTopology(s, core::GpuCatalog::builtin());
        m_doc->newDocument(s);
        const QString onH100 = precision->itemText(index);
        QVERIFY2(!onH100.contains(QLatin1String("no FP8")), qPrintable(onH100));
        s.cluster.gpuId = "A100-SXM-80GB";
        core::cluster::writeViewIntoTopology(s, core::GpuCatalog::builtin());
        m_doc->newDocument(s);
        QCOMPARE(precision->itemText(index), QStringLiteral("FP8: the A100-SXM-80GB has no FP8 tensor cores"));
    }

    void pureBf16ItemSaysWhenTheFrameworkPlansItAsMixed()
    {
        // Megatron-LM's --bf16 keeps fp32 main weights: the item says the estimate plans mixed BF16; Hugging Face
        // trains a bf16-loaded model pure, and the item is plain.
        auto* precision = field<QComboBox>("training.precision");
        const int index = precision->findText(QStringLiteral("Pure BF16"), Qt::MatchStartsWith);
        QVERIFY(index >= 0);
        Scenario s = startScenario();
        s.training.framework = core::Framework::Megatron;
        s.training.precision = core::Precision::Bf16;
        m_doc->newDocument(s);
        QVERIFY2(precision->itemText(index).contains(QLatin1String("not a Megatron-LM mode")),
            qPrintable(precision->itemText(index)));
        QCOMPARE(precision->currentIndex(), index);
        saveShot(QStringLiteral("panel-scenario-bf16.png")); // the item as a user sees it selected
        s.training.framework = core::Framework::HuggingFace;
        m_doc->newDocument(s);
        QCOMPARE(precision->itemText(index), QStringLiteral("Pure BF16"));
    }

    void bf16OptimizerStatesItemNamesWhatLeavesFp32InEffect()
    {
        // Megatron-LM with Adam, the distributed optimizer and mixed bf16 runs them; each obstacle is named instead.
        auto* states = field<QComboBox>("training.optimizer_states");
        const int bf16 = int(core::OptimizerStates::Bf16);
        Scenario s = startScenario();
        s.training.framework = core::Framework::Megatron;
        s.training.precision = core::Precision::AmpBf16;
        s.training.optimizer = core::Optimizer::AdamW;
        s.training.distributedOptimizer = true;
        s.training.zeroStage = 1;
        const auto labelFor = [&](const Scenario& scenario) {
            m_doc->newDocument(scenario);
            return states->itemText(bf16);
        };
        QCOMPARE(labelFor(s), QStringLiteral("BF16 moments, 16-bit master copy"));
        // The precision's mixed-BF16 item stops promising an fp32 master copy once 16-bit states are chosen.
        auto* precision = field<QComboBox>("training.precision");
        const int mixedBf16 = int(core::Precision::AmpBf16);
        QCOMPARE(precision->itemText(mixedBf16), QStringLiteral("Mixed BF16 (FP32 master weights)"));
        Scenario chosen = s;
        chosen.training.optimizerStates = core::OptimizerStates::Bf16;
        m_doc->newDocument(chosen);
        QCOMPARE(precision->itemText(mixedBf16), QStringLiteral("Mixed BF16 (16-bit optimizer states)"));
        Scenario other = s;
        other.training.framework = core::Framework::TorchTitan;
        other.training.optimizerStates = core::OptimizerStates::Bf16; // selected, so the form shows the reason
        QVERIFY2(labelFor(other).contains(QLatin1String("TorchTitan has none")), qPrintable(labelFor(other)));
        QCOMPARE(states->currentIndex(), bf16);
        saveShot(QStringLiteral("panel-scenario-optimizer-states.png")); // the item as a user sees it selected
        other = s;
        other.training.precision = core::Precision::AmpFp16;
        QVERIFY2(labelFor(other).contains(QLatin1String("needs mixed BF16")), qPrintable(labelFor(other)));
        other = s;
        other.training.optimizer = core::Optimizer::SgdMomentum;
        QVERIFY2(labelFor(other).contains(QLatin1String("needs Adam")), qPrintable(labelFor(other)));
        other = s;
        other.training.distributedOptimizer = false;
        other.training.zeroStage = 0;
        QVERIFY2(labelFor(other).contains(QLatin1String("distributed optimizer")), qPrintable(labelFor(other)));
    }

    void gpuCountTakesTheNearestValidLayoutAlong()
    {
        // Start: 256 GPUs as 8 × 8 × 4 × 1 (dp × tp × pp × cp). 512 GPUs keep TP, PP and CP and double DP.
        field<QSpinBox>("cluster.gpu_count")->setValue(512);
        const auto& layout = m_doc->scenario().training.layout;
        QCOMPARE(m_doc->scenario().cluster.gpuCount, 512);
        QCOMPARE(std::vector<int>({layout.dp, layout.tp, layout.pp, layout.cp}), std::vector<int>({16, 8, 4, 1}));
        QCOMPARE(m_doc->undoStack()->count(), 1);
        QVERIFY(field<QLabel>("training.layout.check")->text().contains(QStringLiteral("all GPUs")));
        m_doc->undoStack()->undo(); // count and layout in one step
        QCOMPARE(m_doc->scenario().cluster.gpuCount, 256);
        QCOMPARE(m_doc->scenario().training.layout.dp, 8);
    }

    void gpuCountWithoutAValidLayoutSaysWhichCountsHaveOne()
    {
        // 260 = 4 · 5 · 13: with a global batch of 512 and the interleaved schedule no layout divides it.
        field<QSpinBox>("cluster.gpu_count")->setValue(260);
        QCOMPARE(m_doc->scenario().training.layout.gpuCount(), 256); // the layout stays as it was
        const QString text = field<QLabel>("training.layout.check")->text();
        QVERIFY2(text.contains(QStringLiteral("nearest counts with one: 256 or 512")), qPrintable(text));
    }

    void moeSwitchRestoresLastExpertSettings()
    {
        field<QSpinBox>("model.moe.experts")->setValue(64);
        field<QCheckBox>("model.moe")->setChecked(false);
        QVERIFY(!m_doc->scenario().model.moe);
        field<QCheckBox>("model.moe")->setChecked(true);
        QCOMPARE(m_doc->scenario().model.moe->experts, 64);
    }

    /// Latent attention: switched off it shows DeepSeek-V3's widths, greyed out, and the KV heads and head
    /// dimension come back; switched on again it restores what was set and gives every head its own key and value.
    void latentAttentionSwitchRestoresItsWidths()
    {
        field<QSpinBox>("model.mla.kv_lora_rank")->setValue(256);
        QVERIFY(!field("model.kv_heads")->isEnabled() && !field("model.head_dim")->isEnabled());
        field<QCheckBox>("model.mla")->setChecked(false);
        QVERIFY(!m_doc->scenario().model.mla.enabled());
        QVERIFY(!field("model.mla.v_head_dim")->isEnabled());
        QCOMPARE(field<QSpinBox>("model.mla.v_head_dim")->value(), 128);
        QVERIFY(field("model.kv_heads")->isEnabled() && field("model.head_dim")->isEnabled());
        // A write to a greyed-out latent field changes nothing.
        field<QSpinBox>("model.mla.v_head_dim")->setValue(96);
        QVERIFY(!m_doc->scenario().model.mla.enabled());
        Scenario grouped = m_doc->scenario();
        grouped.model.kvHeads = 8;
        m_doc->edit(grouped, QStringLiteral("GQA"));
        field<QCheckBox>("model.mla")->setChecked(true);
        QCOMPARE(m_doc->scenario().model.mla.kvLoraRank, 256);
        QCOMPARE(m_doc->scenario().model.kvHeads, m_doc->scenario().model.heads);
        QVERIFY(field("model.mla.v_head_dim")->isEnabled());
        QVERIFY(ui::ScenarioDocument::validationError(m_doc->scenario()).isEmpty());
        // The KV heads follow the heads while MLA is on, so a change of heads keeps the scenario valid.
        field<QSpinBox>("model.heads")->setValue(32);
        QCOMPARE(m_doc->scenario().model.kvHeads, 32);
        QVERIFY(ui::ScenarioDocument::validationError(m_doc->scenario()).isEmpty());
        // QK norm and a head dimension do not go with latent attention: switching it on clears them.
        QVERIFY(!field("model.qk_norm")->isEnabled());
        field<QCheckBox>("model.mla")->setChecked(false);
        QVERIFY(field("model.qk_norm")->isEnabled());
        field<QCheckBox>("model.qk_norm")->setChecked(true);
        field<QSpinBox>("model.head_dim")->setValue(192);
        field<QCheckBox>("model.mla")->setChecked(true);
        QVERIFY(!m_doc->scenario().model.qkNorm);
        QCOMPARE(m_doc->scenario().model.headDim, 0);
        QVERIFY(ui::ScenarioDocument::validationError(m_doc->scenario()).isEmpty());
        // Nor does a parallel block, with latent attention or with experts: switching either on clears it.
        QVERIFY(!field("model.parallel_block")->isEnabled());
        field<QCheckBox>("model.moe")->setChecked(false);
        QVERIFY(!field("model.parallel_block")->isEnabled()); // latent attention still on
        field<QCheckBox>("model.mla")->setChecked(false);
        QVERIFY(field("model.parallel_block")->isEnabled());
        field<QCheckBox>("model.parallel_block")->setChecked(true);
        QVERIFY(m_doc->scenario().model.parallelBlock);
        field<QCheckBox>("model.mla")->setChecked(true);
        QVERIFY(!m_doc->scenario().model.parallelBlock);
        field<QCheckBox>("model.mla")->setChecked(false);
        field<QCheckBox>("model.parallel_block")->setChecked(true);
        field<QCheckBox>("model.moe")->setChecked(true);
        QVERIFY(!m_doc->scenario().model.parallelBlock);
        QVERIFY(!field("model.parallel_block")->isEnabled());
        QVERIFY(ui::ScenarioDocument::validationError(m_doc->scenario()).isEmpty());
    }

    /// The expert-communication settings only mean something for a MoE model: greyed out for a dense one.
    void moeCommunicationFollowsTheMoeSwitch()
    {
        QVERIFY(field("training.moe_dispatcher")->isEnabled() && field("training.moe_overlap")->isEnabled());
        field<QCheckBox>("model.moe")->setChecked(false);
        QVERIFY(!field("training.moe_dispatcher")->isEnabled());
        QVERIFY(!field("training.moe_overlap")->isEnabled());
        field<QCheckBox>("model.moe")->setChecked(true);
        QVERIFY(field("training.moe_dispatcher")->isEnabled() && field("training.moe_overlap")->isEnabled());
    }

    /// The two loss switches are greyed out where nothing reads them: Megatron runs its own loss kernels, Hugging Face
    /// upcasts the logits, a compiled loss leaves no eager one to fuse, and compiling the loss needs compile on.
    void lossSwitchesFollowTheFramework()
    {
        auto* compileLoss = field<QCheckBox>("training.compile_loss");
        auto* fusedLoss = field<QCheckBox>("training.fused_loss");
        QCOMPARE(m_doc->scenario().training.framework, core::Framework::Megatron);
        QVERIFY(!compileLoss->isEnabled() && !fusedLoss->isEnabled());
        QVERIFY(!field("training.compile")->isEnabled()); // Megatron's kernels are fused by hand
        auto* framework = field<QComboBox>("training.framework");
        const auto choose = [&](core::Framework f) {
            framework->setCurrentIndex(int(f)); // the items follow the enumeration
            QCOMPARE(m_doc->scenario().training.framework, f);
        };
        choose(core::Framework::Fsdp);
        QVERIFY(!compileLoss->isEnabled() && fusedLoss->isEnabled());
        choose(core::Framework::HuggingFace);
        QVERIFY(!fusedLoss->isEnabled());
        choose(core::Framework::TorchTitan);
        QVERIFY(field("training.compile")->isEnabled());
        QVERIFY(!compileLoss->isEnabled()); // TP 8: DTensor's loss parallelism takes no compiled loss
        field<QSpinBox>("training.layout.tp")->setValue(1);
        field<QCheckBox>("training.compile")->setChecked(true);
        compileLoss->setChecked(true);
        QVERIFY(compileLoss->isEnabled() && !fusedLoss->isEnabled()); // the compiled loss is fused already
        compileLoss->setChecked(false);
        QVERIFY(fusedLoss->isEnabled());
        field<QCheckBox>("training.compile")->setChecked(false);
        QVERIFY(!compileLoss->isEnabled());
    }

    /// Activation offload: its lowest value reads "auto", it stops one layer short of the model's layers (Megatron-
    /// Core keeps one on the GPU), and it is greyed out for a framework that does not offer it.
    void activationOffloadFieldFollowsModelAndFramework()
    {
        auto* offload = field<QSpinBox>("training.activation_offload_layers");
        QVERIFY(offload->isEnabled()); // the test scenario runs Megatron
        offload->setValue(offload->minimum());
        QCOMPARE(m_doc->scenario().training.activationOffloadLayers, core::kActivationOffloadAuto);
        QVERIFY(offload->text().startsWith(QStringLiteral("auto")));
        QCOMPARE(offload->maximum(), m_doc->scenario().model.layers - 1);
        field<QSpinBox>("model.layers")->setValue(24);
        QCOMPARE(offload->maximum(), 23);
        auto* framework = field<QComboBox>("training.framework");
        framework->setCurrentIndex(framework->findText(QStringLiteral("Hugging Face"), Qt::MatchContains));
        QCOMPARE(m_doc->scenario().training.framework, core::Framework::HuggingFace);
        QVERIFY(!offload->isEnabled());
    }
};

QTEST_MAIN(TestScenarioForm)
#include "tst_scenarioform.moc"
