/* dyno-backend.h: the one interface that runs requests (over HTTP, or the in-memory engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-page.h"
#include "dyno-request.h"
#include "dyno-statement.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_TYPE_BACKEND (dyno_backend_get_type ())
G_DECLARE_INTERFACE (DynoBackend, dyno_backend, DYNO, BACKEND, GObject)

/* An implementation provides one primitive: send one DynamoDB API call (the JSON body of
 * operation @operation, e.g. "Query") and return the response body, or a GError in
 * DYNO_ERROR with the service's __type and message (see dyno-http-error.h).  Retries are
 * the implementation's business.  Everything else is built on it, below. */
struct _DynoBackendInterface
{
  GTypeInterface parent_iface;

  void        (*call_async)  (DynoBackend         *self,
                              const char          *operation,
                              GBytes              *body,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data);
  GBytes     *(*call_finish) (DynoBackend         *self,
                              GAsyncResult        *result,
                              GError             **error);
  /* "DynamoDB Local at http://localhost:8000", "AWS eu-west-1 (profile dev)" */
  char       *(*dup_description) (DynoBackend     *self);
};

void        dyno_backend_call_async          (DynoBackend         *self,
                                              const char          *operation,
                                              GBytes              *body,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GBytes     *dyno_backend_call_finish         (DynoBackend         *self,
                                              GAsyncResult        *result,
                                              GError             **error);
char       *dyno_backend_dup_description     (DynoBackend         *self);

/* ListTables, following LastEvaluatedTableName to the end: a GStrv of names. */
void        dyno_backend_list_tables_async   (DynoBackend         *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GStrv       dyno_backend_list_tables_finish  (DynoBackend         *self,
                                              GAsyncResult        *result,
                                              GError             **error);

void           dyno_backend_describe_table_async  (DynoBackend         *self,
                                                   const char          *table_name,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
DynoTableInfo *dyno_backend_describe_table_finish (DynoBackend         *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);

/* One page of a Query or Scan (the request's own ExclusiveStartKey, or @start_key when
 * non-NULL).  The body is parsed off the main thread (dyno_page_parse). */
void        dyno_backend_run_page_async      (DynoBackend         *self,
                                              const DynoRequest   *request,
                                              DynoItem            *start_key,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
DynoPage   *dyno_backend_run_page_finish     (DynoBackend         *self,
                                              GAsyncResult        *result,
                                              GError             **error);

/* One page of a PartiQL statement (ExecuteStatement), continuing from @next_token when
 * non-NULL.  The body is parsed off the main thread (dyno_page_parse): the page's next_token
 * is where the next one starts, NULL at the end. */
void        dyno_backend_run_statement_page_async  (DynoBackend          *self,
                                                    const DynoStatement  *statement,
                                                    const char           *next_token,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
DynoPage   *dyno_backend_run_statement_page_finish (DynoBackend          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

/* GetItem, PutItem, UpdateItem, DeleteItem: the response as a JSON object (Item /
 * Attributes / ConsumedCapacity), parsed with json-glib (small). */
void        dyno_backend_execute_async       (DynoBackend         *self,
                                              const DynoRequest   *request,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
JsonNode   *dyno_backend_execute_finish      (DynoBackend         *self,
                                              GAsyncResult        *result,
                                              GError             **error);

/* Any other operation with a JSON body (CreateTable, DeleteTable, UpdateTable, BatchGetItem,
 * TransactWriteItems, ExecuteStatement, DescribeTimeToLive, …): the parsed response. */
void        dyno_backend_call_json_async     (DynoBackend         *self,
                                              const char          *operation,
                                              JsonNode            *body,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
JsonNode   *dyno_backend_call_json_finish    (DynoBackend         *self,
                                              GAsyncResult        *result,
                                              GError             **error);

/* BatchWriteItem of puts (@items: DynoItem*) and deletes (@keys: DynoItem*, may be NULL),
 * split into requests of 25, UnprocessedItems retried with capped, jittered backoff.
 * @progress (may be NULL) is called on the calling thread's main context after each batch. */
typedef void (*DynoBatchProgress) (guint done, guint total, gpointer user_data);

void        dyno_backend_batch_write_async   (DynoBackend         *self,
                                              const char          *table_name,
                                              GPtrArray           *items,
                                              GPtrArray           *delete_keys,
                                              DynoBatchProgress    progress,
                                              gpointer             progress_data,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
/* Returns the number of items written (or deleted).
 *
 * A batch whose requests all come back in UnprocessedItems (or whose answer is not a
 * BatchWriteItem output for them) is sent again after a capped, jittered exponential delay;
 * after 8 such rounds in a row the write gives up (DYNO_ERROR_THROTTLED, or the reason the
 * answers were unusable).  A request failing beyond the backend's retries, or Cancel, stops it
 * too. */
gboolean    dyno_backend_batch_write_finish  (DynoBackend         *self,
                                              GAsyncResult        *result,
                                              guint               *n_written,
                                              GError             **error);
/* The same; @n_written is also set on failure (the requests the server acknowledged), and
 * @unwritten (may be NULL) gets the indexes of the requests not known to be written, sorted:
 * 0 … items->len - 1 for @items, then items->len + i for delete_keys[i].  Empty on success.
 * @n_unconfirmed (may be NULL): how many of them were in flight when it stopped (a failure
 * beyond the retries, Cancel), so may or may not have been applied; the others were never
 * sent or came back unprocessed.  Writing them all again is safe (puts and deletes are
 * idempotent). */
gboolean    dyno_backend_batch_write_finish_full (DynoBackend     *self,
                                                  GAsyncResult    *result,
                                                  guint           *n_written,
                                                  GArray         **unwritten,
                                                  guint           *n_unconfirmed,
                                                  GError         **error);

/* Runs @func with @task (referenced until the idle is gone) from an idle of @priority on the
 * task's context: how a GCancellable handler, which may run in any thread and even inside
 * g_cancellable_connect(), continues its task later and in the right place. */
void             dyno_task_continue_in_idle (GTask       *task,
                                             gint         priority,
                                             GSourceFunc  func);

G_END_DECLS
