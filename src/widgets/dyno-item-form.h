/* dyno-item-form.h: an item as typed rows (name, type, value), nested maps/lists and sets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

#define DYNO_TYPE_ITEM_FORM (dyno_item_form_get_type ())
G_DECLARE_FINAL_TYPE (DynoItemForm, dyno_item_form, DYNO, ITEM_FORM, GtkWidget)

/* Signals: "changed" (no arguments) after any edit the user makes (not after set_item()). */
GtkWidget *dyno_item_form_new        (void);
/* The table's key attributes are always shown first, with their type fixed by @schema (may
 * be NULL: no key rows). */
void       dyno_item_form_set_schema (DynoItemForm   *self,
                                      DynoTableInfo  *schema);
/* Replaces the rows with @item's attributes (NULL: just the empty key rows). */
void       dyno_item_form_set_item   (DynoItemForm   *self,
                                      DynoItem       *item);
/* The item the rows describe; NULL + an error naming the attribute (its path, e.g.
 * “address.lines[2]”) when a row is not a valid value. */
DynoItem  *dyno_item_form_dup_item   (DynoItemForm   *self,
                                      GError        **error);
/* Appends an empty top-level attribute row (what "Add attribute" does); returns its row
 * widget, whose descendants are named "attribute-name", "attribute-type",
 * "attribute-value", "remove-attribute". */
GtkWidget *dyno_item_form_add_attribute (DynoItemForm *self);
/* The row widget of top-level attribute @name, or NULL. */
GtkWidget *dyno_item_form_find_attribute (DynoItemForm *self,
                                          const char   *name);

G_END_DECLS
