/* dyno-partition.c: one partition of a grouped view: its key, how many items, their size
 *
 * A partition holds its items' positions in the grouped list (four bytes an item), not the
 * items: a row's object is made when the row is shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-partition-private.h"

G_DEFINE_FINAL_TYPE (DynoPartition, dyno_partition, G_TYPE_OBJECT)

GParamSpec *dyno_partition_properties[DYNO_PARTITION_N_PROPS];

static void
dyno_partition_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DynoPartition *self = DYNO_PARTITION (object);

  switch (prop_id)
    {
    case DYNO_PARTITION_PROP_N_ITEMS:
      g_value_set_uint (value, self->n_items);
      break;
    case DYNO_PARTITION_PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;
    case DYNO_PARTITION_PROP_EXPANDED:
      g_value_set_boolean (value, self->expanded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_partition_finalize (GObject *object)
{
  DynoPartition *self = DYNO_PARTITION (object);

  g_clear_pointer (&self->key, dyno_value_free);
  g_free (self->key_text);
  g_free (self->positions);

  G_OBJECT_CLASS (dyno_partition_parent_class)->finalize (object);
}

static void
dyno_partition_class_init (DynoPartitionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = dyno_partition_get_property;
  object_class->finalize = dyno_partition_finalize;

  dyno_partition_properties[DYNO_PARTITION_PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  dyno_partition_properties[DYNO_PARTITION_PROP_SIZE] =
    g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  dyno_partition_properties[DYNO_PARTITION_PROP_EXPANDED] =
    g_param_spec_boolean ("expanded", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, DYNO_PARTITION_N_PROPS,
                                     dyno_partition_properties);
}

static void
dyno_partition_init (DynoPartition *self)
{
  self->expanded = TRUE;
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

guint
dyno_partition_get_n_items (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), 0);
  return self->n_items;
}

guint
dyno_partition_get_position (DynoPartition *self,
                             guint          index)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), G_MAXUINT);
  g_return_val_if_fail (index < self->n_items, G_MAXUINT);
  return self->positions[index];
}

guint64
dyno_partition_get_size (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), 0);
  return self->size;
}

gboolean
dyno_partition_get_expanded (DynoPartition *self)
{
  g_return_val_if_fail (DYNO_IS_PARTITION (self), FALSE);
  return self->expanded;
}
