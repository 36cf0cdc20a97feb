// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/exportdialog.h"

#include "ui/charts/chartexport.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace clusterplanner::ui {

namespace {

QSize& lastSize()
{
    static QSize size = kDefaultExportSize;
    return size;
}

QString& lastFolder()
{
    static QString folder = QDir::homePath();
    return folder;
}

QSpinBox* sizeBox(int value)
{
    auto* box = new QSpinBox;
    box->setRange(16, 20000);
    box->setValue(value);
    box->setSuffix(QStringLiteral(" px"));
    return box;
}

} // namespace

ExportDialog::ExportDialog(const QString& chartName, QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(
          QDir(lastFolder())
              .filePath((chartName.isEmpty() ? QStringLiteral("chart") : chartName) + QStringLiteral(".png"))))
    , m_width(sizeBox(lastSize().width()))
    , m_height(sizeBox(lastSize().height()))
{
    setWindowTitle(tr("Export chart"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path);
    pathRow->addWidget(browse);
    auto* form = new QFormLayout(this);
    form->addRow(tr("File (.png, .svg, .pdf):"), pathRow);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        lastSize() = size();
        lastFolder() = QFileInfo(path()).absolutePath();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QString ExportDialog::path() const
{
    return m_path->text();
}

QSize ExportDialog::size() const
{
    return {m_width->value(), m_height->value()};
}

void ExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export chart"), m_path->text(), exportFileFilter());
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

} // namespace clusterplanner::ui
