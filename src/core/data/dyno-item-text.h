/* dyno-item-text.h: an item as editable DynamoDB JSON text, and errors with their line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-value.h"

G_BEGIN_DECLS

/* @item as DynamoDB JSON for a person to edit: one top-level attribute per line, maps and
 * lists with one member per line (indented by two spaces), scalars and sets on one line.
 * Reading it back with dyno_item_text_parse() gives an equal item (numbers as their exact
 * canonical text, binary as base64). */
char     *dyno_item_text_format (const DynoItem *item);

/* Parses @text (an item in DynamoDB JSON).  On failure, *@out_line and *@out_column (either
 * may be NULL) are the 1-based place of the problem in @text, or 0 when it has no place
 * (e.g. the text is not an object at all); the error message names the problem. */
DynoItem *dyno_item_text_parse  (const char     *text,
                                 gssize          len,
                                 guint          *out_line,
                                 guint          *out_column,
                                 GError        **error);

/* The line and column a DYNO_ERROR message from the JSON readers points at ("… at line 3,
 * column 7: …" or "… (line 3, column 7)"); FALSE when it names none. */
gboolean  dyno_item_text_error_location (const GError *error,
                                         guint        *out_line,
                                         guint        *out_column);

G_END_DECLS
