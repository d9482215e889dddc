/* dyno-partition-model.h: the rows of a view grouped by partition
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-item-object.h"
#include "dyno-partition.h"

G_BEGIN_DECLS

#define DYNO_TYPE_PARTITION_MODEL (dyno_partition_model_get_type ())
G_DECLARE_FINAL_TYPE (DynoPartitionModel, dyno_partition_model, DYNO, PARTITION_MODEL, GObject)

/* Groups @items (a GListModel of DynoItemObject, e.g. a DynoRun) by the value of
 * @partition_key_name, partitions in order of first appearance, items in model order.
 *
 * The model is a flat list of rows: each partition's row (a DynoPartition), then, while it
 * is expanded (as partitions start), its items (DynoItemObject, made when asked for, their
 * position that of @items).  Items appended to @items are grouped incrementally, a few
 * milliseconds of work per main-loop iteration, with exact items-changed signals; other
 * changes (an item replaced, inserted or removed) are applied in place. */
DynoPartitionModel *dyno_partition_model_new            (GListModel         *items,
                                                         const char         *partition_key_name);
DynoPartition      *dyno_partition_model_lookup         (DynoPartitionModel *self,
                                                         const char         *key_text);
guint               dyno_partition_model_get_n_partitions (DynoPartitionModel *self);
/* Returns: (transfer none): the @index-th partition, in order of first appearance. */
DynoPartition      *dyno_partition_model_get_partition  (DynoPartitionModel *self,
                                                         guint               index);
/* The row of @partition's heading. */
guint               dyno_partition_model_get_row        (DynoPartitionModel *self,
                                                         DynoPartition      *partition);
void                dyno_partition_model_set_expanded   (DynoPartitionModel *self,
                                                         DynoPartition      *partition,
                                                         gboolean            expanded);
/* Whether items of @items are still waiting to be grouped (in idle time). */
gboolean            dyno_partition_model_get_pending    (DynoPartitionModel *self);
/* At most @n items grouped per main-loop iteration (0: as many as a few milliseconds allow):
 * for tests, which need the catching up to happen in known steps. */
void                dyno_partition_model_set_slice      (DynoPartitionModel *self,
                                                         guint               n);

G_END_DECLS
