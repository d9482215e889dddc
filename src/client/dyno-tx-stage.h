/* dyno-tx-stage.h: writes staged to be committed together as one TransactWriteItems
 *
 * One staging set per connection: dyno_tx_stage_for_backend() gives the set of a backend (a
 * connection's, or the Playground's), made on first use and kept with it.  Writes are staged
 * as the request each would be on its own (PutItem, UpdateItem, DeleteItem; a condition check
 * as a DeleteItem with its ConditionExpression, as dyno-transaction.h reads them).
 *
 * Commit sends them in order, with a ClientRequestToken made once per staged set: retrying a
 * commit of the same set (after a network error, say) sends the same token, so DynamoDB
 * applies the transaction at most once.  Staging or removing a write starts a new set (and
 * token).  On success the set is emptied ("committed"); on TransactionCanceledException each
 * write gets its CancellationReason and everything stays staged; on any other error nothing
 * changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-backend.h"
#include "dyno-transaction.h"

G_BEGIN_DECLS

#define DYNO_TYPE_TX_STAGE (dyno_tx_stage_get_type ())
G_DECLARE_FINAL_TYPE (DynoTxStage, dyno_tx_stage, DYNO, TX_STAGE, GObject)

/* Signals: "changed" (a write staged or removed, reasons set or cleared, commit started or
 * ended); "committed" (GStrv tables: the tables written, once each), after a successful
 * commit has emptied the set. */

DynoTxStage  *dyno_tx_stage_new               (DynoBackend  *backend);
/* The staging set of @backend (borrowed; lives as long as @backend). */
DynoTxStage  *dyno_tx_stage_for_backend       (DynoBackend  *backend);

guint         dyno_tx_stage_get_n_writes      (DynoTxStage  *self);
/* Stages @request (copied) as @action; @key is the key of the item it is on (copied).
 * FALSE + DYNO_ERROR_VALIDATION when the set already holds a write on that item or holds
 * DYNO_TRANSACT_MAX_ITEMS, or while a commit is in flight. */
gboolean      dyno_tx_stage_add               (DynoTxStage        *self,
                                               DynoTransactAction  action,
                                               const DynoRequest  *request,
                                               const DynoItem     *key,
                                               GError            **error);
void          dyno_tx_stage_remove            (DynoTxStage  *self,
                                               guint         index);
void          dyno_tx_stage_clear             (DynoTxStage  *self);

DynoTransactAction  dyno_tx_stage_get_action  (DynoTxStage  *self,
                                               guint         index);
const DynoRequest  *dyno_tx_stage_get_request (DynoTxStage  *self,
                                               guint         index);
const DynoItem     *dyno_tx_stage_get_key     (DynoTxStage  *self,
                                               guint         index);
/* Why the last commit refused write @index (Code, Message; NULL when it had no reason or the
 * last commit was not cancelled).  Code "None" means the write itself was fine. */
const char   *dyno_tx_stage_get_reason_code    (DynoTxStage *self,
                                                guint        index);
const char   *dyno_tx_stage_get_reason_message (DynoTxStage *self,
                                                guint        index);

/* The ClientRequestToken of the set as staged now (made on first call after a change). */
const char   *dyno_tx_stage_get_token         (DynoTxStage  *self);
/* The TransactWriteItems body for the set (NULL when it is empty). */
JsonNode     *dyno_tx_stage_build_request     (DynoTxStage  *self);
gboolean      dyno_tx_stage_get_committing    (DynoTxStage  *self);

void          dyno_tx_stage_commit_async      (DynoTxStage         *self,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
gboolean      dyno_tx_stage_commit_finish     (DynoTxStage   *self,
                                               GAsyncResult  *result,
                                               GError       **error);

G_END_DECLS
