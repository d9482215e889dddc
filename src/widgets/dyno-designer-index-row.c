/* dyno-designer-index-row.c: one secondary index in the table designer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-designer-index-row.h"

#include "dyno-widget-util.h"

G_DEFINE_FINAL_TYPE (DynoDesignerIndexRow, dyno_designer_index_row, GTK_TYPE_BOX)

/* The ids of the inputs in the template; each one's error label is "<id>_error". */
static const char * const input_ids[N_INDEX_FIELDS] = {
  [IX_TYPE] = "type",
  [IX_NAME] = "name",
  [IX_PK_NAME] = "partition_key_name",
  [IX_PK_TYPE] = "partition_key_type",
  [IX_SK_NAME] = "sort_key_name",
  [IX_SK_TYPE] = "sort_key_type",
  [IX_PROJECTION] = "projection",
  [IX_ATTRIBUTES] = "projection_attributes",
  [IX_RCU] = "read_capacity",
  [IX_WCU] = "write_capacity",
};

static void
dyno_designer_index_row_class_init (DynoDesignerIndexRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/com/dynotable/DynoTable/dyno-designer-index-row.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoDesignerIndexRow, title);
  gtk_widget_class_bind_template_child (widget_class, DynoDesignerIndexRow, remove_button);
  gtk_widget_class_bind_template_child (widget_class, DynoDesignerIndexRow, capacity_box);
  for (guint i = 0; i < N_INDEX_FIELDS; i++)
    {
      g_autofree char *error_id = g_strconcat (input_ids[i], "_error", NULL);

      gtk_widget_class_bind_template_child_full (widget_class, input_ids[i], FALSE,
                                                 G_STRUCT_OFFSET (DynoDesignerIndexRow, inputs)
                                                 + i * sizeof (GtkWidget *));
      gtk_widget_class_bind_template_child_full (widget_class, error_id, FALSE,
                                                 G_STRUCT_OFFSET (DynoDesignerIndexRow, errors)
                                                 + i * sizeof (GtkWidget *));
    }
}

static void
dyno_designer_index_row_init (DynoDesignerIndexRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < N_INDEX_FIELDS; i++)
    if (GTK_IS_DROP_DOWN (self->inputs[i]))
      dyno_widget_expose_activate (self->inputs[i]);
}

GtkWidget *
dyno_designer_index_row_new (void)
{
  return g_object_new (DYNO_TYPE_DESIGNER_INDEX_ROW, NULL);
}
