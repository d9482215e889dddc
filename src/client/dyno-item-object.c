/* dyno-item-object.c: one item of a list model, as a GObject made for the rows on screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-item-object.h"

struct _DynoItemObject
{
  GObject   parent_instance;
  DynoItem *item;
  guint     position;
};

G_DEFINE_FINAL_TYPE (DynoItemObject, dyno_item_object, G_TYPE_OBJECT)

enum {
  ITEM_PROP_0,
  ITEM_PROP_ITEM,
  ITEM_PROP_POSITION,
  ITEM_N_PROPS
};

static GParamSpec *item_properties[ITEM_N_PROPS];

static void
dyno_item_object_finalize (GObject *object)
{
  DynoItemObject *self = DYNO_ITEM_OBJECT (object);

  g_clear_pointer (&self->item, dyno_item_unref);

  G_OBJECT_CLASS (dyno_item_object_parent_class)->finalize (object);
}

static void
dyno_item_object_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DynoItemObject *self = DYNO_ITEM_OBJECT (object);

  switch (prop_id)
    {
    case ITEM_PROP_ITEM:
      g_value_set_boxed (value, self->item);
      break;
    case ITEM_PROP_POSITION:
      g_value_set_uint (value, self->position);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_item_object_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  DynoItemObject *self = DYNO_ITEM_OBJECT (object);

  switch (prop_id)
    {
    case ITEM_PROP_ITEM:
      g_clear_pointer (&self->item, dyno_item_unref);
      self->item = g_value_dup_boxed (value);
      break;
    case ITEM_PROP_POSITION:
      self->position = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_item_object_class_init (DynoItemObjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyno_item_object_finalize;
  object_class->get_property = dyno_item_object_get_property;
  object_class->set_property = dyno_item_object_set_property;

  item_properties[ITEM_PROP_ITEM] =
    g_param_spec_boxed ("item", NULL, NULL, DYNO_TYPE_ITEM,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  item_properties[ITEM_PROP_POSITION] =
    g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, ITEM_N_PROPS, item_properties);
}

static void
dyno_item_object_init (DynoItemObject *self)
{
}

DynoItemObject *
dyno_item_object_new (DynoItem *item,
                      guint     position)
{
  DynoItemObject *self;

  g_return_val_if_fail (item != NULL, NULL);

  /* Not through g_object_new's property machinery: lists make many of these. */
  self = g_object_new (DYNO_TYPE_ITEM_OBJECT, NULL);
  self->item = dyno_item_ref (item);
  self->position = position;

  return self;
}

DynoItem *
dyno_item_object_get_item (DynoItemObject *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_OBJECT (self), NULL);

  return self->item;
}

guint
dyno_item_object_get_position (DynoItemObject *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_OBJECT (self), 0);

  return self->position;
}

