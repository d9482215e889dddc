/* dyno-partition.h: the items of one partition, in the order DynamoDB returned them
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
/* The items of this partition: a GListModel of DynoItemObject, in server order. */
GListModel      *dyno_partition_get_items    (DynoPartition *self);
guint            dyno_partition_get_n_items  (DynoPartition *self);
/* Sum of the items' DynamoDB sizes, in bytes. */
guint64          dyno_partition_get_size     (DynoPartition *self);

G_END_DECLS
