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
  GListStore *items;
  guint64     size;
};

G_END_DECLS
