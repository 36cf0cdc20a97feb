// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/aboutdialog.h"

#include "ui/charts/chartlibrary.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QVBoxLayout>

namespace clusterplanner::ui {

AboutDialog::AboutDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("About ClusterPlanner"));
    auto* icon = new QLabel;
    icon->setPixmap(QIcon(QStringLiteral(":/icons/clusterplanner.svg")).pixmap(64, 64));
    icon->setAlignment(Qt::AlignTop);
    auto* text = new QLabel(aboutText());
    text->setObjectName(QStringLiteral("about.text"));
    text->setTextFormat(Qt::RichText);
    text->setOpenExternalLinks(true);
    text->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* row = new QHBoxLayout;
    row->addWidget(icon);
    row->addWidget(text, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(buttons);
    setMinimumWidth(420);
}

QString AboutDialog::aboutText()
{
    return tr("<h3>ClusterPlanner %1</h3>"
              "<p>Plans GPU training clusters: memory, time, cost and parallel layouts.</p>"
              "<p>Qt %2 (run time), QCustomPlot %3</p>"
              "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
        .arg(QStringLiteral(CLUSTERPLANNER_VERSION), QString::fromLatin1(qVersion()), qcustomplotVersion());
}

} // namespace clusterplanner::ui
