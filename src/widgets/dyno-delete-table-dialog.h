/* dyno-delete-table-dialog.h: delete a table only after its name has been typed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"

G_BEGIN_DECLS

#define DYNO_TYPE_DELETE_TABLE_DIALOG (dyno_delete_table_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoDeleteTableDialog, dyno_delete_table_dialog, DYNO, DELETE_TABLE_DIALOG,
                      AdwMessageDialog)

/* A modal dialog over @parent.  Its Delete button (widget name "delete-button", accessible name
 * "Delete table") stays insensitive until the entry "confirm-entry" (accessible name "Confirm
 * table name") holds exactly @table_name.  It sends DeleteTable, shows a failure in place
 * ("delete-error"), and on success emits "table-deleted" (the name) and closes itself. */
GtkWidget *dyno_delete_table_dialog_new (GtkWindow   *parent,
                                         DynoBackend *backend,
                                         const char  *table_name);

G_END_DECLS
