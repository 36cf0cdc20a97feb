// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/exportactions.h"

#include "core/hf/hfconfig.h"
#include "core/launch/launchconfig.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/chartwidget.h"
#include "ui/document/scenariodocument.h"
#include "ui/report/chartkinds.h"
#include "ui/report/reportwriter.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QLocale>
#include <QMessageBox>
#include <QSaveFile>

namespace clusterplanner::ui {

namespace {

QAction* makeAction(QObject* parent, const char* objectName, const QString& text)
{
    auto* action = new QAction(text, parent);
    action->setObjectName(QString::fromLatin1(objectName));
    return action;
}

/// Blocks input while a long export runs on this thread (the report waits for the layout sweep).
struct WaitCursor
{
    WaitCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QApplication::restoreOverrideCursor(); }
};

QString writeText(const QString& path, const std::string& text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) < 0 || !file.commit())
        return QObject::tr("cannot write %1").arg(path);
    return {};
}

} // namespace

ExportActions::ExportActions(
    ScenarioDocument* document, std::function<QWidget*(const QString&)> panelAt, QWidget* window)
    : QObject(window)
    , m_document(document)
    , m_panelAt(std::move(panelAt))
    , m_window(window)
    , m_importModel(makeAction(this, "action.importModel", tr("Import &model (Hugging Face config.json)…")))
    , m_report(makeAction(this, "action.exportReport", tr("&Report…")))
    , m_allCharts(makeAction(this, "action.exportAllCharts", tr("&All charts…")))
    , m_launchConfig(makeAction(this, "action.exportLaunchConfig", tr("&Launch configuration…")))
{
    connect(m_importModel, &QAction::triggered, this, &ExportActions::importModelInteractive);
    connect(m_report, &QAction::triggered, this, &ExportActions::exportReportInteractive);
    connect(m_allCharts, &QAction::triggered, this, &ExportActions::exportAllChartsInteractive);
    connect(m_launchConfig, &QAction::triggered, this, &ExportActions::exportLaunchConfigInteractive);
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &ExportActions::updateCaptions);
    updateCaptions();
}

QString ExportActions::importModel(const QString& path, QStringList* notes)
{
    try {
        const core::hf::HfImport imported = core::hf::importHfConfigFile(path.toStdString());
        core::Scenario after = m_document->scenario();
        after.model = core::hf::replaceModel(after.model, imported);
        m_document->edit(after, tr("Import model %1").arg(QString::fromStdString(after.model.name)));
        for (const auto& note : imported.notes)
            if (notes)
                *notes << QString::fromStdString(note);
        return {};
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
}

void ExportActions::updateCaptions() const
{
    const QString caption = chartCaption(m_document->scenario());
    for (const ChartKind& kind : chartKinds()) {
        QWidget* panel = m_panelAt(QString::fromLatin1(kind.panel));
        if (ChartWidget* chart = panel ? kind.find(panel) : nullptr) {
            chart->setDisplayTitle(QCoreApplication::translate("ChartKind", kind.title));
            chart->setExportCaption(caption);
        }
    }
}

QStringList ExportActions::exportAllCharts(const QString& folder, QSize size) const
{
    updateCaptions();
    QStringList problems;
    for (const ChartKind& kind : chartKinds()) {
        QWidget* panel = m_panelAt(QString::fromLatin1(kind.panel));
        ChartWidget* chart = panel ? kind.find(panel) : nullptr;
        if (!chart) {
            problems << tr("%1: no such panel").arg(QString::fromLatin1(kind.id));
            continue;
        }
        for (const char* suffix : {".png", ".svg"}) {
            const QString path = QDir(folder).filePath(QString::fromLatin1(kind.id) + QLatin1String(suffix));
            if (const QString error = chart->exportChart(path, size); !error.isEmpty())
                problems << error;
        }
    }
    return problems;
}

void ExportActions::importModelInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Import Model"), {}, tr("Hugging Face config (config.json *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QStringList notes;
    if (const QString error = importModel(path, &notes); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Cannot Import Model"), error);
    else if (!notes.isEmpty())
        QMessageBox::information(m_window, tr("Model Imported"),
            tr("The model was imported with these approximations:\n\n• %1").arg(notes.join(QStringLiteral("\n• "))));
}

void ExportActions::exportReportInteractive()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export Report"),
        QString::fromStdString(m_document->scenario().name) + QStringLiteral(".pdf"),
        tr("PDF document (*.pdf);;HTML page (*.html)"));
    if (path.isEmpty())
        return;
    ReportOptions options;
    options.format
        = path.endsWith(QLatin1String(".html"), Qt::CaseInsensitive) ? ReportFormat::Html : ReportFormat::Pdf;
    options.page = QLocale().measurementSystem() == QLocale::ImperialUSSystem ? QPageSize::Letter : QPageSize::A4;
    WaitCursor wait;
    if (const QString error = writeReport(m_document->scenario(), path, options, nullptr); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Cannot Export Report"), error);
}

void ExportActions::exportAllChartsInteractive()
{
    const QString folder = QFileDialog::getExistingDirectory(m_window, tr("Export All Charts Into"));
    if (folder.isEmpty())
        return;
    if (const QStringList problems = exportAllCharts(folder, kDefaultExportSize); !problems.isEmpty())
        QMessageBox::warning(m_window, tr("Some Charts Were Not Exported"), problems.join(QLatin1Char('\n')));
}

void ExportActions::exportLaunchConfigInteractive()
{
    bool ok = false;
    const QString name = QInputDialog::getItem(m_window, tr("Launch Configuration"), tr("Framework:"),
        QString::fromStdString(core::launch::launchFrameworkNames()).split(QStringLiteral(", ")), 0, false, &ok);
    if (!ok)
        return;
    try {
        const auto file = core::launch::makeLaunchConfig(
            m_document->scenario(), *core::launch::launchFrameworkFromString(name.toStdString()));
        const QString path = QFileDialog::getSaveFileName(
            m_window, tr("Export Launch Configuration"), QString::fromStdString(file.fileName));
        if (path.isEmpty())
            return;
        if (const QString error = writeText(path, file.text); !error.isEmpty())
            QMessageBox::warning(m_window, tr("Cannot Export Launch Configuration"), error);
        else
            QMessageBox::information(m_window, tr("Launch Configuration"),
                tr("Start it with:\n\n%1").arg(QString::fromStdString(file.launchLine)));
    } catch (const std::exception& error) {
        QMessageBox::warning(m_window, tr("Cannot Export Launch Configuration"), QString::fromStdString(error.what()));
    }
}

} // namespace clusterplanner::ui
