// SPDX-License-Identifier: GPL-3.0-or-later
// The headless chart and report commands, run in-process on the offscreen platform: files of the requested size and
// format, with titles, a page per section and the scenario's own figures.
#include "core/io/scenariojson.h"
#include "core/validation/confidence.h"
#include "ui/charts/chartwidget.h"
#include "ui/report/chartkinds.h"
#include "ui/report/chartset.h"
#include "ui/report/exportactions.h"
#include "ui/report/qtcommands.h"
#include "ui/report/reportcontent.h"
#include "ui/report/reportwriter.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QXmlStreamReader>

#include "ui/document/scenariodocument.h"
#include "ui/report/commandoptions.h"

#include <sstream>

using namespace clusterplanner;
using namespace clusterplanner::ui;

namespace {

const QString kGpt3 = QStringLiteral(CLUSTERPLANNER_DATA_DIR "/scenarios/gpt3-175b-1024-a100.cplan.json");
const QString kMixtral = QStringLiteral(CLUSTERPLANNER_DATA_DIR "/scenarios/mixtral-8x7b-64-h100.cplan.json");

struct CommandRun
{
    int code = -1;
    std::string out;
    std::string err;
};

CommandRun runCommand(const QStringList& arguments)
{
    std::ostringstream out, err;
    CommandRun run;
    run.code = runQtCommand(arguments, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

QString svgTitle(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("title"))
            return xml.readElementText();
    }
    return {};
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Pages of a PDF: "/Type /Page" objects, not the "/Type /Pages" tree.
int pdfPageCount(const QByteArray& pdf)
{
    int count = 0;
    auto it = QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)")).globalMatch(QString::fromLatin1(pdf));
    for (; it.hasNext(); it.next())
        ++count;
    return count;
}

/// Width and height of the first page in points.
QSizeF pdfMediaBox(const QByteArray& pdf)
{
    const auto match
        = QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]")).match(QString::fromLatin1(pdf));
    return match.hasMatch() ? QSizeF(match.captured(1).toDouble(), match.captured(2).toDouble()) : QSizeF();
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void chartCommandWritesSvgWithTitle()
    {
        const QString path = m_dir.filePath(QStringLiteral("m.svg"));
        const auto run = runCommand({QStringLiteral("chart"), QStringLiteral("--scenario"), kGpt3,
            QStringLiteral("--chart"), QStringLiteral("memory"), QStringLiteral("--out"), path});
        QVERIFY2(run.code == 0, run.err.c_str());
        QVERIFY(QSvgRenderer(path).isValid());
        QCOMPARE(svgTitle(path), QStringLiteral("Memory per GPU, term by term"));
        QVERIFY(readAll(path).contains("GPT-3")); // the caption names the scenario
    }

    void chartCommandPngAt300DpiHasRequestedSize()
    {
        const QString path = m_dir.filePath(QStringLiteral("s.png"));
        const auto run = runCommand({QStringLiteral("chart"), QStringLiteral("--scenario"), kGpt3,
            QStringLiteral("--chart"), QStringLiteral("steptime"), QStringLiteral("--out"), path,
            QStringLiteral("--width"), QStringLiteral("1500"), QStringLiteral("--height"), QStringLiteral("900"),
            QStringLiteral("--dpi"), QStringLiteral("300"), QStringLiteral("--theme"), QStringLiteral("dark")});
        QVERIFY2(run.code == 0, run.err.c_str());
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1500, 900));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        QVERIFY(qGray(image.pixel(2, 2)) < 100); // dark theme background
    }

    void chartCommandRefusesBadInput_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const QString out = QStringLiteral("x.png");
        QTest::newRow("kind") << QStringList {QStringLiteral("--scenario"), kGpt3, QStringLiteral("--chart"),
            QStringLiteral("pie"), QStringLiteral("--out"), out}
                              << "--chart: unknown value \"pie\"";
        QTest::newRow("no scenario") << QStringList {QStringLiteral("--chart"), QStringLiteral("memory"),
            QStringLiteral("--out"), out}
                                     << "--scenario is required";
        QTest::newRow("width") << QStringList {QStringLiteral("--scenario"), kGpt3, QStringLiteral("--chart"),
            QStringLiteral("memory"), QStringLiteral("--out"), out, QStringLiteral("--width"), QStringLiteral("wide")}
                               << "--width";
        QTest::newRow("layout") << QStringList {QStringLiteral("--scenario"), kGpt3, QStringLiteral("--chart"),
            QStringLiteral("memory"), QStringLiteral("--out"), out, QStringLiteral("--layout"), QStringLiteral("8,8,8")}
                                << "the cluster has 1024";
    }
    void chartCommandRefusesBadInput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        arguments.prepend(QStringLiteral("chart"));
        const auto run = runCommand(arguments);
        QCOMPARE(run.code, 2);
        QVERIFY2(QString::fromStdString(run.err).contains(expected), run.err.c_str());
    }

    /// A scenario the engine cannot evaluate (an unknown GPU) is refused by name at once: no empty chart, and no wait
    /// for a sweep that fails instead of finishing. Wrong input, not a wrong command line: exit 1, as cost and
    /// estimate give; a path that is no file is a usage error (2).
    void drawingCommandsRefuseAnUnknownGpu()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("unknown.cplan.json"));
        core::Scenario s = loadScenarioFile(kGpt3);
        s.cluster.gpuId = "A100";
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(core::writeScenarioFile(s)));
        file.close();
        const QString out = folder.filePath(QStringLiteral("x.png"));
        for (const QStringList& arguments :
            {QStringList {QStringLiteral("chart"), QStringLiteral("--scenario"), path, QStringLiteral("--chart"),
                 QStringLiteral("grid"), QStringLiteral("--out"), out},
                QStringList {QStringLiteral("chart"), QStringLiteral("--scenario"), path, QStringLiteral("--chart"),
                    QStringLiteral("memory"), QStringLiteral("--out"), out},
                QStringList {QStringLiteral("report"), QStringLiteral("--scenario"), path, QStringLiteral("--out"),
                    folder.filePath(QStringLiteral("x.pdf"))}}) {
            const auto run = runCommand(arguments);
            QCOMPARE(run.code, 1);
            QVERIFY2(QString::fromStdString(run.err).contains(QLatin1String("unknown GPU \"A100\"; the catalog has")),
                run.err.c_str());
            QVERIFY(!QFile::exists(out));
        }
        const auto missing = runCommand({QStringLiteral("report"), QStringLiteral("--scenario"),
            folder.filePath(QStringLiteral("absent.cplan.json")), QStringLiteral("--out"),
            folder.filePath(QStringLiteral("x.pdf"))});
        QCOMPARE(missing.code, 2);
        QVERIFY2(QString::fromStdString(missing.err).contains(QLatin1String("cannot read")), missing.err.c_str());
        QFile broken(folder.filePath(QStringLiteral("broken.cplan.json")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"format\": ");
        broken.close();
        const auto corrupt = runCommand({QStringLiteral("chart"), QStringLiteral("--scenario"), broken.fileName(),
            QStringLiteral("--chart"), QStringLiteral("memory"), QStringLiteral("--out"), out});
        QCOMPARE(corrupt.code, 1);
        QVERIFY(!QFile::exists(out));
    }

    void drawingCommandsAnswerHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("option");
        QTest::newRow("chart --help") << QStringLiteral("chart") << QStringLiteral("--chart <kind>");
        QTest::newRow("report --help") << QStringLiteral("report") << QStringLiteral("--page");
    }
    void drawingCommandsAnswerHelp()
    {
        QFETCH(QString, command);
        QFETCH(QString, option);
        for (const QString& flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
            const auto run = runCommand({command, flag});
            QCOMPARE(run.code, 0);
            const QString help = QString::fromStdString(run.out);
            QVERIFY2(help.startsWith(QStringLiteral("Usage: clusterplanner ") + command), run.out.c_str());
            QVERIFY2(help.contains(option) && help.contains(QStringLiteral("Example: clusterplanner ") + command),
                run.out.c_str());
            QVERIFY(run.err.empty());
        }
        // The main --help lists them beside the other commands (tst_cli checks the printed help).
        const auto listed = qtCommandsHelp();
        QVERIFY(
            std::any_of(listed.begin(), listed.end(), [&](const auto& c) { return c.first == command.toStdString(); }));
    }

    void sweepChartsWaitForTheSweep()
    {
        ChartSet charts(loadScenarioFile(kMixtral));
        QVERIFY(charts.chart(*chartKind(QStringLiteral("grid"))));
        QVERIFY(charts.waitForSweep(120000));
        const QString path = m_dir.filePath(QStringLiteral("pareto.svg"));
        ChartWidget* scatter = charts.chart(*chartKind(QStringLiteral("pareto")));
        QCOMPARE(scatter->exportChart(path, QSize(960, 600)), QString());
        QCOMPARE(svgTitle(path), QStringLiteral("Memory against throughput of every layout"));
    }

    void reportPdfHasAPagePerSection()
    {
        const QString path = m_dir.filePath(QStringLiteral("r.pdf"));
        const auto run = runCommand({QStringLiteral("report"), QStringLiteral("--scenario"), kMixtral,
            QStringLiteral("--out"), path, QStringLiteral("--page"), QStringLiteral("letter")});
        QVERIFY2(run.code == 0, run.err.c_str());
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY2(pdfPageCount(pdf) >= 6, qPrintable(QString::number(pdfPageCount(pdf))));
        QCOMPARE(pdfMediaBox(pdf).toSize(), QSize(612, 792)); // US Letter in points
    }

    void reportContentNamesTheVerdict()
    {
        ChartSet charts(loadScenarioFile(kMixtral));
        const ReportContent content = buildReportContent(charts, 120000);
        QVERIFY(content.verdict.contains(QLatin1String("tokens/s")));
        QVERIFY(content.verdict.contains(QLatin1String("US$")));
        QVERIFY(content.verdict.startsWith(QLatin1String("Fits")) || content.verdict.startsWith(QLatin1String("Does")));
        QVERIFY(content.sections.size() >= 8);
        QVERIFY(content.sections.back().html.contains(QLatin1String("clusterplanner validate")));
        // The expected error of the nearest validated family, throughput and memory, as core states it.
        const QString scenarioPage = content.sections.front().html;
        QVERIFY(scenarioPage.contains(QLatin1String("Expected error")));
        for (const auto& band : core::confidenceBands(charts.document()->scenario()))
            QVERIFY2(scenarioPage.contains(QString::fromStdString(band.statement).toHtmlEscaped()),
                qPrintable(QString::fromStdString(band.statement)));
        QVERIFY(scenarioPage.contains(QLatin1String("MoE"))); // Mixtral: the MoE family (or the MoE pool) is named
        // The sample runs the all-to-all on a 1F1B pipeline: the expert communication says what was estimated.
        QVERIFY(scenarioPage.contains(QLatin1String("all-to-all (top-k copies), not overlapped")));
        const auto throughput = core::confidenceBands(charts.document()->scenario()).front();
        QVERIFY(throughput.runs > 0);
        QVERIFY2(content.verdict.contains(QStringLiteral("±%1 %, p90").arg(throughput.p90AbsPercent, 0, 'f', 0)),
            qPrintable(content.verdict));
    }

    /// The setup facts state what was estimated in words: labels, not file tokens, and the precision, FP8 recipe and
    /// optimizer states in effect (a setting the framework does not offer is not what was estimated).
    void reportStatesTheSettingsInEffect()
    {
        ChartSet charts(loadScenarioFile(kMixtral));
        auto scenarioPage = [&charts] { return buildReportContent(charts, 120000).sections.front().html; };
        core::Scenario s = charts.document()->scenario();
        s.training.framework = core::Framework::Megatron;
        s.training.precision = core::Precision::Bf16; // Megatron's bf16 keeps fp32 master weights
        s.training.optimizer = core::Optimizer::AdamW;
        s.training.zeroStage = 1;
        s.training.distributedOptimizer = true;
        charts.document()->edit(s, QStringLiteral("pure bf16"));
        QString page = scenarioPage();
        for (const char* token : {">bf16<", "amp_bf16", "adamw", ">megatron<", "1f1b"})
            QVERIFY2(!page.contains(QLatin1String(token)), token);
        QVERIFY(page.contains(QLatin1String("Mixed BF16 (Pure BF16 asked for; Megatron-LM does not offer it)")));
        QVERIFY(page.contains(QLatin1String("AdamW, FP32 master weights and moments")));
        QVERIFY(page.contains(QLatin1String("(distributed optimizer)")));
        // 16-bit optimizer states keep no FP32 master weights: no line may say otherwise.
        s.training.precision = core::Precision::AmpBf16;
        s.training.optimizerStates = core::OptimizerStates::Bf16;
        charts.document()->edit(s, QStringLiteral("bf16 states"));
        page = scenarioPage();
        QVERIFY(page.contains(QLatin1String("AdamW, BF16 moments, 16-bit master copy")));
        QVERIFY(!page.contains(QLatin1String("FP32 master")));
        s.training.optimizerStates = core::OptimizerStates::Fp32;

        s.training.precision = core::Precision::Fp8;
        s.training.fp8Recipe = core::Fp8Recipe::Rowwise; // torchao's; Megatron runs its default, delayed scaling
        charts.document()->edit(s, QStringLiteral("fp8"));
        page = scenarioPage();
        QVERIFY(page.contains(QLatin1String("FP8 mixed precision, Delayed scaling (Transformer Engine)")));
        QVERIFY(!page.contains(QLatin1String("Rowwise")));
        QVERIFY(!page.contains(QLatin1String("asked for;")));
        // A shared expert hides part of each all-to-all where Megatron runs it beside the dispatcher (§4.39).
        s.model.moe->sharedExperts = 1;
        charts.document()->edit(s, QStringLiteral("shared expert"));
        QVERIFY(scenarioPage().contains(
            QLatin1String("all-to-all (top-k copies), partly hidden behind the shared experts")));

        s.training.framework = core::Framework::TorchTitan;
        s.training.compile = false;
        s.training.zeroStage = 3;
        charts.document()->edit(s, QStringLiteral("torchtitan"));
        page = scenarioPage();
        QVERIFY(page.contains(QLatin1String("TorchTitan, eager (torch.compile off)")));
        QVERIFY(page.contains(QLatin1String("Rowwise (torchao)")));
        QVERIFY(page.contains(QLatin1String("(ZeRO 3 / FSDP)")));
        // The attention kernel moves the step time: the page names the one estimated.
        QVERIFY(page.contains(QLatin1String("FlashAttention")));
        s.training.attention = core::AttentionKind::Triton;
        charts.document()->edit(s, QStringLiteral("triton"));
        QVERIFY(scenarioPage().contains(QLatin1String("FlashAttention in Triton (2022)")));
        // TorchTitan waits for the combine only after its shared experts.
        QVERIFY(page.contains(
            QLatin1String("all-to-all (top-k copies), the forward combine partly hidden behind the shared experts")));
        // The loss kernel moves memory and time: TorchTitan at TP 2 runs DTensor's loss parallelism in fp32 ops, a
        // fused kernel (at TP 1) keeps 16-bit buffers.
        QVERIFY(page.contains(QLatin1String("DTensor loss parallelism: fp32 ops")));
        s.training.fusedLoss = true; // not over DTensor's loss-parallel logits (TP 2 here), compiled or not
        charts.document()->edit(s, QStringLiteral("fused loss"));
        QVERIFY(scenarioPage().contains(QLatin1String("DTensor loss parallelism: fp32 ops")));
        s.training.compile = true;
        charts.document()->edit(s, QStringLiteral("compiled"));
        QVERIFY(scenarioPage().contains(QLatin1String("DTensor loss parallelism: fp32 ops")));
        s.training.compile = false;
        s.training.layout.tp = 1;
        s.training.layout.dp *= 2;
        s.training.layout.sequenceParallel = false;
        charts.document()->edit(s, QStringLiteral("no TP"));
        QVERIFY(scenarioPage().contains(QLatin1String("fused cross-entropy kernel: the 16-bit logits")));
        s.training.framework = core::Framework::Megatron;
        s.training.zeroStage = 1;
        charts.document()->edit(s, QStringLiteral("megatron"));
        QVERIFY(scenarioPage().contains(QLatin1String("fused in the framework (its own cross-entropy kernel)")));
    }

    /// The scenario page names group-limited routing when the model has it, and says nothing of it otherwise.
    void reportNamesGroupLimitedRouting()
    {
        ChartSet charts(loadScenarioFile(kMixtral));
        const QString routing = QStringLiteral("each token's experts within 2 of 4 groups");
        QVERIFY(!buildReportContent(charts, 120000).sections.front().html.contains(QLatin1String("Group-limited")));
        core::Scenario limited = charts.document()->scenario();
        limited.model.moe->expertGroups = 4;
        limited.model.moe->groupsPerToken = 2;
        charts.document()->edit(limited, QStringLiteral("routing"));
        QVERIFY(buildReportContent(charts, 120000).sections.front().html.contains(routing.toHtmlEscaped()));
    }

    void reportHtmlEmbedsSvgCharts()
    {
        const QString path = m_dir.filePath(QStringLiteral("r.html"));
        ReportOptions options;
        options.format = ReportFormat::Html;
        QCOMPARE(writeReport(loadScenarioFile(kMixtral), path, options, nullptr), QString());
        const QString html = QString::fromUtf8(readAll(path));
        QCOMPARE(int(html.count(QLatin1String("<svg"))), 6);
        QVERIFY(html.contains(QLatin1String("Memory breakdown")));
        QVERIFY(!html.contains(QLatin1String("<?xml"))); // prologs stripped inside HTML
    }

    void importModelIsOneUndoStep()
    {
        ChartSet charts(loadScenarioFile(kMixtral));
        ScenarioDocument* document = charts.document();
        QWidget window;
        ExportActions actions(
            document, [&](const QString& name) { return charts.panel(name.toLatin1().constData()); }, &window);
        const core::ModelConfig before = document->scenario().model;
        QStringList notes;
        QCOMPARE(
            actions.importModel(QStringLiteral(CLUSTERPLANNER_SOURCE_DIR "/tests/data/hf/llama-3.1-8b.json"), &notes),
            QString());
        QCOMPARE(document->scenario().model.hidden, 4096);
        QVERIFY(!document->scenario().model.moe);
        document->undoStack()->undo();
        QVERIFY(document->scenario().model == before);
        QVERIFY(actions.importModel(QStringLiteral("missing.json")).contains(QLatin1String("missing.json")));
    }

    void exportAllChartsWritesEveryChart()
    {
        ChartSet charts(loadScenarioFile(kMixtral));
        QVERIFY(charts.waitForSweep(120000));
        QWidget window;
        ExportActions actions(
            charts.document(), [&](const QString& name) { return charts.panel(name.toLatin1().constData()); }, &window);
        QTemporaryDir folder;
        QCOMPARE(actions.exportAllCharts(folder.path(), QSize(800, 500)), QStringList());
        for (const QString& id : chartKindIds()) {
            QCOMPARE(QImage(folder.filePath(id + QStringLiteral(".png"))).size(), QSize(800, 500));
            QVERIFY(QSvgRenderer(folder.filePath(id + QStringLiteral(".svg"))).isValid());
        }
    }
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
