/* dyno-item-form-row.c: one row of a DynoItemForm (an attribute, a member, an element)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-item-form-row-private.h"

G_DEFINE_FINAL_TYPE (DynoItemFormRow, dyno_item_form_row, GTK_TYPE_BOX)

static void
dyno_item_form_row_finalize (GObject *object)
{
  DynoItemFormRow *self = DYNO_ITEM_FORM_ROW (object);

  g_clear_pointer (&self->held_value, g_bytes_unref);
  g_free (self->held_value_shown);
  g_clear_pointer (&self->held_name, g_bytes_unref);
  g_free (self->held_name_shown);

  G_OBJECT_CLASS (dyno_item_form_row_parent_class)->finalize (object);
}

static void
dyno_item_form_row_class_init (DynoItemFormRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_item_form_row_finalize;
}

static void
dyno_item_form_row_init (DynoItemFormRow *self)
{
  self->widget = GTK_WIDGET (self);
  self->type = (DynoValueType) -1;
}

DynoItemFormRow *
dyno_item_form_row_new (void)
{
  return g_object_new (DYNO_TYPE_ITEM_FORM_ROW,
                       "orientation", GTK_ORIENTATION_VERTICAL,
                       "spacing", 4,
                       NULL);
}
