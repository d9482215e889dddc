/* dyno-item-form-row-private.h: the fields of a DynoItemFormRow, which DynoItemForm fills in
 * and reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-item-form-row.h"
#include "dyno-item-form.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  ROW_ATTRIBUTE,   /* top-level attribute: name, type, value */
  ROW_MEMBER,      /* member of an M: name, type, value */
  ROW_ELEMENT,     /* element of an L: index, type, value */
  ROW_SET_MEMBER,  /* member of an SS/NS/BS: value only */
} RowKind;

struct _DynoItemFormRow
{
  GtkBox         parent_instance;

  DynoItemForm  *form;
  RowKind        kind;
  DynoValueType  type;
  gboolean       is_key;
  GtkWidget     *widget;         /* the row itself, as a widget */
  GtkWidget     *line;
  GtkWidget     *name_entry;     /* ATTRIBUTE, MEMBER */
  GtkWidget     *index_label;    /* ELEMENT, SET_MEMBER */
  GtkWidget     *type_dropdown;  /* all but SET_MEMBER */
  GtkWidget     *value_slot;
  GtkWidget     *value_entry;    /* S, N, B and set members */
  GtkWidget     *bool_dropdown;  /* BOOL */
  GtkWidget     *expander;       /* M, L, SS, NS, BS */
  GtkWidget     *children_box;
  GtkWidget     *remove_button;
  /* A string or name holding U+0000 is shown with ␀ in its entry; the exact bytes are held
   * here and used as long as the entry still shows what it was given. */
  GBytes        *held_value;
  char          *held_value_shown;
  GBytes        *held_name;
  char          *held_name_shown;
};

G_END_DECLS
