/* dyno-partition-model.h: items grouped by partition, in the order DynamoDB returned them
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
 * Appends to @items are applied incrementally (one items-changed here per change there). */
DynoPartitionModel *dyno_partition_model_new  (GListModel  *items,
                                               const char  *partition_key_name);
DynoPartition      *dyno_partition_model_lookup (DynoPartitionModel *self,
                                                 const char         *key_text);

G_END_DECLS
