/* dyno-partition.h: one partition of a grouped view: its key, how many items, their size
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-item-object.h"

G_BEGIN_DECLS

#define DYNO_TYPE_PARTITION (dyno_partition_get_type ())
G_DECLARE_FINAL_TYPE (DynoPartition, dyno_partition, DYNO, PARTITION, GObject)

/* The partition key value as text (S as is, N canonical, B base64). */
const char      *dyno_partition_get_key_text (DynoPartition *self);
const DynoValue *dyno_partition_get_key      (DynoPartition *self);
/* How many items are in this partition ("n-items" is notified as pages add some). */
guint            dyno_partition_get_n_items  (DynoPartition *self);
/* The position of its @index-th item in the list that was grouped (server order). */
guint            dyno_partition_get_position (DynoPartition *self,
                                              guint          index);
/* Sum of the items' DynamoDB sizes, in bytes ("size" is notified). */
guint64          dyno_partition_get_size     (DynoPartition *self);
/* Whether its items are rows of the grouped model ("expanded" is notified). */
gboolean         dyno_partition_get_expanded (DynoPartition *self);

G_END_DECLS
