// SPDX-License-Identifier: GPL-3.0-or-later
// One probed GPU as a card: identity, memory, clocks, power, PCIe, modes, and its catalog match with differences.
#pragma once

#include "core/probe/catalogmatch.h"
#include "core/probe/probetypes.h"

#include <QFrame>

namespace clusterplanner::ui {

class MachineGpuCard : public QFrame
{
    Q_OBJECT
public:
    MachineGpuCard(const core::probe::GpuProbe& gpu, const core::probe::CatalogMatch& match, QWidget* parent = nullptr);

Q_SIGNALS:
    /// The user asked to add this (unmatched) GPU to the local catalog.
    void addToLocalCatalogRequested(int gpuIndex);
};

/// The text of a card, also used by tests: one line per fact, "–" for what could not be read.
QString gpuCardText(const core::probe::GpuProbe& gpu);
QString catalogMatchText(const core::probe::CatalogMatch& match);

} // namespace clusterplanner::ui
