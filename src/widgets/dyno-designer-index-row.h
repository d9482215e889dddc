/* dyno-designer-index-row.h: one secondary index in the table designer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The inputs of an index, in the designer's order. */
enum {
  IX_TYPE,
  IX_NAME,
  IX_PK_NAME,
  IX_PK_TYPE,
  IX_SK_NAME,
  IX_SK_TYPE,
  IX_PROJECTION,
  IX_ATTRIBUTES,
  IX_RCU,
  IX_WCU,
  N_INDEX_FIELDS
};

/* A card with the index's inputs, each above the label that tells its problem; its layout
 * is dyno-designer-index-row.ui.  DynoTableDesigner gives it its title and accessible names,
 * watches and checks the inputs. */
#define DYNO_TYPE_DESIGNER_INDEX_ROW (dyno_designer_index_row_get_type ())
G_DECLARE_FINAL_TYPE (DynoDesignerIndexRow, dyno_designer_index_row, DYNO, DESIGNER_INDEX_ROW,
                      GtkBox)

struct _DynoDesignerIndexRow
{
  GtkBox     parent_instance;

  GtkWidget *title;
  GtkWidget *remove_button;
  GtkWidget *capacity_box;
  GtkWidget *inputs[N_INDEX_FIELDS];
  GtkWidget *errors[N_INDEX_FIELDS];
};

GtkWidget *dyno_designer_index_row_new (void);

G_END_DECLS
