/* dyno-delete-items.h: delete one or many items, after a confirmation that says how many
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

/* Called once when it is over.  @deleted_keys: DynoItem* keys that are gone (empty when the
 * user cancelled or nothing could be deleted; borrowed for the call).  @n_requested: how
 * many were asked for.  @error: NULL when all were deleted or the user cancelled (then
 * @cancelled is TRUE); otherwise why the rest were not.  After a batch failure
 * @deleted_keys are those the server acknowledged, and the error names the others. */
typedef void (*DynoDeleteItemsDone) (GPtrArray    *deleted_keys,
                                     guint         n_requested,
                                     gboolean      cancelled,
                                     const GError *error,
                                     gpointer      user_data);

/* Asks "Delete 3 items?" (naming the key when there is one), then deletes: one item with a
 * DeleteItem conditioned on its loaded values (dyno_safe_write_delete), several with
 * BatchWriteItem deletes (UnprocessedItems retried) and a progress dialog with Cancel.  A
 * failure is shown in a dialog (what was and was not deleted); a success is @done's to tell
 * (the query page: a toast with Undo).  @items: DynoItem* as loaded (at least the key).  Returns
 * the confirmation dialog (owned by GTK; its responses are "cancel" and "delete"). */
GtkWidget *dyno_delete_items_run (GtkWindow           *parent,
                                  DynoBackend         *backend,
                                  DynoTableInfo       *info,
                                  GPtrArray           *items,
                                  DynoDeleteItemsDone  done,
                                  gpointer             user_data,
                                  GDestroyNotify       destroy);

G_END_DECLS
