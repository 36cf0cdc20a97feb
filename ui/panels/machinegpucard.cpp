// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/machinegpucard.h"

#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace {

template <typename T>
QString orDash(const std::optional<T>& value, const QString& unit = {})
{
    return value ? QString::number(*value) + unit : QStringLiteral("–");
}

QString mib(const std::optional<std::uint64_t>& bytes)
{
    return bytes ? QLocale().toString(qulonglong(*bytes >> 20)) + QStringLiteral(" MiB") : QStringLiteral("–");
}

QString onOff(const std::optional<bool>& value)
{
    return value ? (*value ? QObject::tr("on") : QObject::tr("off")) : QStringLiteral("–");
}

QLabel* label(const QString& text, QWidget* parent, bool bold = false)
{
    auto* l = new QLabel(text, parent);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    if (bold) {
        auto font = l->font();
        font.setBold(true);
        l->setFont(font);
    }
    return l;
}

} // namespace

QString gpuCardText(const core::probe::GpuProbe& gpu)
{
    const QString cc = gpu.computeMajor ? orDash(gpu.computeMajor) + QLatin1Char('.') + orDash(gpu.computeMinor)
                                        : QStringLiteral("–");
    return QObject::tr("Bus %1 · CC %2 · %3 SMs\n"
                       "Memory %4 (reserved %5, CUDA sees %6)\n"
                       "Max clocks SM %7, memory %8\n"
                       "Power limit %9 (default %10) · PCIe Gen%11 ×%12\n"
                       "MIG %13 · ECC %14 · %15 · NVLink %16 active")
        .arg(QString::fromStdString(gpu.pciBusId), cc, orDash(gpu.smCount), mib(gpu.memoryTotalBytes),
            mib(gpu.memoryReservedBytes), mib(gpu.cudaTotalMemoryBytes),
            orDash(gpu.smClockMaxMHz, QStringLiteral(" MHz")), orDash(gpu.memoryClockMaxMHz, QStringLiteral(" MHz")),
            orDash(gpu.powerLimitEnforcedW, QStringLiteral(" W")))
        .arg(orDash(gpu.powerLimitDefaultW, QStringLiteral(" W")), orDash(gpu.pcieGenerationMax),
            orDash(gpu.pcieWidthMax), onOff(gpu.migEnabled), onOff(gpu.eccEnabled),
            orDash(gpu.temperatureC, QStringLiteral(" °C")))
        .arg(gpu.nvlinkActiveLinks);
}

QString catalogMatchText(const core::probe::CatalogMatch& match)
{
    if (!match.matched())
        return QObject::tr("Not in the catalog (%1).").arg(QString::fromStdString(match.reason));
    QString text = QObject::tr("Catalog: %1%2 (by %3)")
                       .arg(QString::fromStdString(match.catalogId), match.local ? QObject::tr(" — local") : QString(),
                           QString::fromStdString(match.reason));
    for (const auto& d : match.differences)
        text += QObject::tr("\n• %1: catalog %2, here %3%4")
                    .arg(QString::fromStdString(d.what), QString::fromStdString(d.catalog),
                        QString::fromStdString(d.probed),
                        d.note.empty() ? QString() : QStringLiteral(" — ") + QString::fromStdString(d.note));
    return text;
}

MachineGpuCard::MachineGpuCard(
    const core::probe::GpuProbe& gpu, const core::probe::CatalogMatch& match, QWidget* parent)
    : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("gpuCard%1").arg(gpu.index));
    auto* layout = new QVBoxLayout(this);
    const QString lost = gpu.lost ? tr("  — lost (fell off the bus)") : QString();
    layout->addWidget(label(tr("GPU %1: %2%3").arg(gpu.index).arg(QString::fromStdString(gpu.name), lost), this, true));
    layout->addWidget(label(gpuCardText(gpu), this));
    layout->addWidget(label(catalogMatchText(match), this));
    if (!gpu.unavailable.empty())
        setToolTip(
            tr("%n field(s) unavailable; first: %1", nullptr, int(gpu.unavailable.size()))
                .arg(QString::fromStdString(gpu.unavailable.front().field + ": " + gpu.unavailable.front().reason)));
    if (!match.matched() && !gpu.lost) {
        auto* add = new QPushButton(tr("Add to my local catalog"), this);
        add->setObjectName(QStringLiteral("addLocal"));
        connect(
            add, &QPushButton::clicked, this, [this, index = gpu.index] { Q_EMIT addToLocalCatalogRequested(index); });
        layout->addWidget(add, 0, Qt::AlignLeft);
    }
    layout->addStretch();
}

} // namespace clusterplanner::ui
