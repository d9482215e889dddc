/* dyno-item-form-row.h: one row of a DynoItemForm (an attribute, a member, an element)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A vertical box holding the row's line (name, type, value) and, for maps, lists and sets,
 * the expander with its children.  DynoItemForm builds and reads it (its fields are in
 * dyno-item-form-row-private.h). */
#define DYNO_TYPE_ITEM_FORM_ROW (dyno_item_form_row_get_type ())
G_DECLARE_FINAL_TYPE (DynoItemFormRow, dyno_item_form_row, DYNO, ITEM_FORM_ROW, GtkBox)

DynoItemFormRow *dyno_item_form_row_new (void);

G_END_DECLS
