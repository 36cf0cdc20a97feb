// SPDX-License-Identifier: GPL-3.0-or-later
// The GPU-to-GPU topology as a small diagram: GPUs in a row, an NVSwitch bar or direct NVLink arcs above the
// PCIe tree (host bridge / NUMA node / system) they share.
#pragma once

#include "core/probe/probetypes.h"

#include <QWidget>

namespace clusterplanner::ui {

class MachineTopologyView : public QWidget
{
    Q_OBJECT
public:
    explicit MachineTopologyView(QWidget* parent = nullptr);

    void setProbe(const core::probe::ProbeResult& result);
    QSize sizeHint() const override;
    /// One line per GPU pair class, e.g. "all 28 pairs: NVLink 4 via NVSwitch": the diagram's legend.
    QString summary() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF gpuRect(int position) const;
    void paintLinks(QPainter& painter) const;
    void paintFabric(QPainter& painter, const QString& name, double y, bool nvlink) const;

    core::probe::ProbeResult m_result;
};

} // namespace clusterplanner::ui
