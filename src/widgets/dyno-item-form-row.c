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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = dyno_item_form_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-item-form-row.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoItemFormRow, line);
  gtk_widget_class_bind_template_child (widget_class, DynoItemFormRow, name_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoItemFormRow, index_label);
  gtk_widget_class_bind_template_child (widget_class, DynoItemFormRow, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoItemFormRow, value_slot);
  gtk_widget_class_bind_template_child (widget_class, DynoItemFormRow, remove_button);
}

static void
dyno_item_form_row_init (DynoItemFormRow *self)
{
  self->widget = GTK_WIDGET (self);
  self->type = (DynoValueType) -1;
  gtk_widget_init_template (GTK_WIDGET (self));
}

DynoItemFormRow *
dyno_item_form_row_new (void)
{
  return g_object_new (DYNO_TYPE_ITEM_FORM_ROW, NULL);
}
