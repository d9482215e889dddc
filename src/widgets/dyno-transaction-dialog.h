/* dyno-transaction-dialog.h: the staged writes of a connection, to review and commit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-tx-stage.h"

G_BEGIN_DECLS

#define DYNO_TYPE_TRANSACTION_DIALOG (dyno_transaction_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoTransactionDialog, dyno_transaction_dialog, DYNO,
                      TRANSACTION_DIALOG, AdwWindow)

/* The window of @stage: made on first call, presented again after (one per staging set). */
GtkWidget *dyno_transaction_dialog_present (GtkWindow   *parent,
                                            DynoTxStage *stage);
/* What Commit Transaction does. */
void       dyno_transaction_dialog_commit  (DynoTransactionDialog *self);
/* The error under the list ("" when none). */
const char *dyno_transaction_dialog_get_error (DynoTransactionDialog *self);
/* The text shown for staged write @index (operation, table, key, condition, reason). */
char      *dyno_transaction_dialog_dup_row_text (DynoTransactionDialog *self,
                                                 guint                  index);

G_END_DECLS
