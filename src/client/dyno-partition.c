/* dyno-partition.c: the items of one partition, in the order DynamoDB returned them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-partition-private.h"

G_DEFINE_FINAL_TYPE (DynoPartition, dyno_partition, G_TYPE_OBJECT)

static void
dyno_partition_finalize (GObject *object)
{
  DynoPartition *self = DYNO_PARTITION (object);

  g_clear_pointer (&self->key, dyno_value_free);
  g_free (self->key_text);
  g_clear_object (&self->items);

  G_OBJECT_CLASS (dyno_partition_parent_class)->finalize (object);
}

static void
dyno_partition_class_init (DynoPartitionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_partition_finalize;
}

static void
dyno_partition_init (DynoPartition *self)
{
  self->items = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
}

const char *
dyno_partition_get_key_text (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), NULL);
  return self->key_text;
}

const DynoValue *
dyno_partition_get_key (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), NULL);
  return self->key;
}

GListModel *
dyno_partition_get_items (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), NULL);
  return G_LIST_MODEL (self->items);
}

guint
dyno_partition_get_n_items (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->items));
}

guint64
dyno_partition_get_size (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), 0);
  return self->size;
}
