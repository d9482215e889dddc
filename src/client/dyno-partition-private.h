/* dyno-partition-private.h: the fields of a DynoPartition, which the DynoPartitionModel
 * that groups the items fills in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-partition.h"

G_BEGIN_DECLS

struct _DynoPartition
{
  GObject     parent_instance;

  DynoValue  *key;
  char       *key_text;
  guint64     size;
  guint32    *positions;   /* the items' positions in the grouped list, ascending */
  guint       n_items;
  guint       n_allocated;
  guint       n_pending;   /* positions after n_items being grouped, not rows yet */
  guint       index;       /* in the model's list of partitions */
  gboolean    expanded;
};

enum {
  DYNO_PARTITION_PROP_0,
  DYNO_PARTITION_PROP_N_ITEMS,
  DYNO_PARTITION_PROP_SIZE,
  DYNO_PARTITION_PROP_EXPANDED,
  DYNO_PARTITION_N_PROPS
};

extern GParamSpec *dyno_partition_properties[DYNO_PARTITION_N_PROPS];

G_END_DECLS
