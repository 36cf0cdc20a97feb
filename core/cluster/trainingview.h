// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's view of the training run (Scenario::cluster, a ClusterConfig) is derived from the scenario's topology:
// the training group's GPU, node size and NICs and the fabric's oversubscription (docs/methods-cluster.md §2). These
// functions keep the two in step; nothing else writes the derived fields.
#pragma once

#include "core/cluster/clusterspec.h"

#include <string>

namespace clusterplanner::core {
class GpuCatalog;
struct ClusterConfig;
struct Scenario;
} // namespace clusterplanner::core

namespace clusterplanner::core::cluster {

/// The oversubscription a job spanning the whole fabric sees: the product of every tier's ratio below the top
/// (the top tier has no uplinks). 1 for a single-switch fabric.
double fabricOversubscription(const Fabric& fabric);

/// Sets `oversubscription` on the fabric as the engine's single ratio: the first tier takes it and the other tiers
/// below the top become non-blocking, so fabricOversubscription() returns it. A one-tier fabric gains a spine when the
/// ratio is above 1.
void setFabricOversubscription(Fabric& fabric, double oversubscription);

/// A one-group cluster for a version-1 scenario's five numbers (docs/methods-cluster.md §2): nodeCount =
/// ⌈gpuCount/gpusPerNode⌉, one NIC of nicGbps per GPU, the catalog's scale-up domain, DGX H100 host ratios (14 cores
/// and 256 GiB per GPU), 64-port switches of the NIC's speed in as many tiers as the size needs, racks of as many
/// air-cooled nodes as 40 kW allows, at most 4 (one NVL domain per rack where the domain spans nodes, 132 kW). An
/// unknown GPU id keeps the domain at the node size.
ClusterSpec clusterFromView(const ClusterConfig& view, const GpuCatalog& catalog);

/// Migration of a scenario that has only the engine's view: its topology becomes clusterFromView() and its training
/// group that cluster's one group.
void adoptClusterView(Scenario& scenario, const GpuCatalog& catalog);

/// Sets the engine's view from the training group and the fabric: gpuId, gpusPerNode, nicGbps (nicsPerNode ×
/// nicGbps / gpusPerNode per GPU), oversubscription (fabricOversubscription) and gpuPowerLimitW. gpuCount, the run's
/// size, is left alone. Returns false (and changes nothing) when the training group does not exist.
bool syncTrainingView(Scenario& scenario);

/// The Scenario form's edit path: the view's GPU type, GPUs per node, NIC bandwidth and oversubscription are written
/// into the training group and the fabric (the group grows to hold gpuCount GPUs), then the view is synced back (its
/// power limit comes from the group: it is edited there). Code that edits the topology calls syncTrainingView(). A
/// scenario without a topology adopts its view first. One call per edit, so form and topology never disagree.
void writeViewIntoTopology(Scenario& scenario, const GpuCatalog& catalog);

/// One edit of a document, made consistent: when `after` changed the view (the form), the view is written into the
/// topology; when it changed only the topology or the training group (the topology panel), the view is synced from
/// it. Returns the scenario to store.
Scenario reconcileEdit(const Scenario& before, Scenario after, const GpuCatalog& catalog);

/// Where a scenario file states the training run's GPU, for messages: the training group's `gpu` in a file with a
/// topology ("cluster.node_groups[1].gpu"), else the engine view's "cluster.gpu" (a version-1 file, a case).
std::string trainingGpuField(const Scenario& scenario);

} // namespace clusterplanner::core::cluster
