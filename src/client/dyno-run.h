/* dyno-run.h: a paginated Query, Scan or PartiQL statement as a list model, with its page
 * ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-item-object.h"
#include "dyno-run-page.h"

G_BEGIN_DECLS

#define DYNO_TYPE_RUN (dyno_run_get_type ())
G_DECLARE_FINAL_TYPE (DynoRun, dyno_run, DYNO, RUN, GObject)

/* A GListModel of DynoItemObject (made on demand) in server order.  Each page is appended
 * with one items-changed, on the main context the run was created on; parsing happens off
 * it.  A page that fails is retried by the backend; a page is only appended once complete,
 * and the next one is asked for with its LastEvaluatedKey, so retries never duplicate or
 * lose items.
 *
 * Properties (all notify on change): loading, has-more, n-pages, n-items, consumed-capacity
 * (sum of CapacityUnits, -1 when none was reported), scanned-count, error (the GError that
 * stopped the run, or NULL), cancelled, max-items (0: no limit), segments (parallel Scan). */
DynoRun           *dyno_run_new                  (DynoBackend       *backend,
                                                  const DynoRequest *request);
/* A PartiQL statement (ExecuteStatement) run the same way: one segment, each page asked for
 * with the previous page's NextToken, the end when a page has none (a statement that is not
 * a SELECT runs once: one page, usually without items).  max-items, load_more(), load_all(),
 * cancel() and the properties work as for a request; start_from() and segments > 1 are for
 * request runs only, and get_resume_key() is NULL.  @statement is copied. */
DynoRun           *dyno_run_new_for_statement    (DynoBackend         *backend,
                                                  const DynoStatement *statement);
DynoBackend       *dyno_run_get_backend          (DynoRun           *self);
/* The request of a run made by dyno_run_new(); NULL for a statement run.  (In src/ the
 * callers are the query page and the CLI's run, which only hold request runs.) */
const DynoRequest *dyno_run_get_request          (DynoRun           *self);
/* The statement of a run made by dyno_run_new_for_statement(); NULL for a request run. */
const DynoStatement *dyno_run_get_statement      (DynoRun           *self);

/* Stop after this many items (0: no limit).  Items of the last page beyond it are kept aside
 * and appended first by a later load_more() once the limit is raised. */
void               dyno_run_set_max_items        (DynoRun           *self,
                                                  guint64            max_items);
guint64            dyno_run_get_max_items        (DynoRun           *self);
/* Parallel Scan over @n_segments (1: a plain scan).  Each segment paginates on its own and
 * pages are appended as they arrive.  Scan only; set before start().  A statement run has
 * one segment (only 1 is accepted). */
void               dyno_run_set_segments         (DynoRun           *self,
                                                  guint              n_segments);
guint              dyno_run_get_segments         (DynoRun           *self);
/* Segments of a parallel scan with a request in flight at once, at most (default 4): the
 * others wait their turn, in segment order.  load_more() asks for the next page of at most
 * this many segments. */
#define DYNO_RUN_DEFAULT_PARALLEL 4
void               dyno_run_set_parallel         (DynoRun           *self,
                                                  guint              parallel);
guint              dyno_run_get_parallel         (DynoRun           *self);

/* TRUE (the default): the model keeps every item loaded.  FALSE, for a consumer that writes
 * items out as they come (the CLI): when a page's items are appended, the items before them
 * are first taken out of the model (an items-changed that removes them), so it holds one
 * page, and the ledger keeps its latest page only; n-items, get_n_items(), get_n_pages(),
 * max-items and get_resume_key() still count every item and page.  Set before start(). */
void               dyno_run_set_keep_items       (DynoRun           *self,
                                                  gboolean           keep_items);
gboolean           dyno_run_get_keep_items       (DynoRun           *self);

/* Clears the model and ledger and loads the first page (of every segment). */
void               dyno_run_start                (DynoRun           *self);
/* Like start(), from @start_key (a LastEvaluatedKey) instead of the request's own
 * ExclusiveStartKey.  Single segment only; request runs only. */
void               dyno_run_start_from           (DynoRun           *self,
                                                  DynoItem          *start_key);
/* One more page (of the segments that have more and are idle, at most `parallel` of them, in
 * segment order).  Starts when not started. */
void               dyno_run_load_more            (DynoRun           *self);
/* Pages until the end, max-items, an error or cancel. */
void               dyno_run_load_all             (DynoRun           *self);
/* Cancels the requests in flight (the HTTP request itself, so it stops at once).  loading
 * turns FALSE and cancelled TRUE as soon as they have returned.  load_more() resumes. */
void               dyno_run_cancel               (DynoRun           *self);

/* load_all(), completing when loading stops: TRUE at the end or at max-items, FALSE with the
 * run's error, or G_IO_ERROR_CANCELLED after cancel(). */
void               dyno_run_load_all_async       (DynoRun           *self,
                                                  GAsyncReadyCallback callback,
                                                  gpointer           user_data);
gboolean           dyno_run_load_all_finish      (DynoRun           *self,
                                                  GAsyncResult      *result,
                                                  GError           **error);

gboolean           dyno_run_get_loading          (DynoRun           *self);
gboolean           dyno_run_get_has_more         (DynoRun           *self);
gboolean           dyno_run_get_cancelled        (DynoRun           *self);
const GError      *dyno_run_get_error            (DynoRun           *self);
guint              dyno_run_get_n_pages          (DynoRun           *self);
/* The ledger: a GListModel of DynoRunPage, in arrival order. */
GListModel        *dyno_run_get_pages            (DynoRun           *self);
double             dyno_run_get_consumed_capacity (DynoRun          *self);
gint64             dyno_run_get_scanned_count    (DynoRun           *self);
guint              dyno_run_get_n_items          (DynoRun           *self);
/* Borrowed: the item at @position (no GObject made). */
DynoItem          *dyno_run_get_item             (DynoRun           *self,
                                                  guint              position);
/* For readers on other threads (a filter of the loaded items, say): while the items are held,
 * no item the run lets go of (a page run again, an item deleted or replaced) is freed before
 * the last release, so a copy of the pointers from peek_items() stays readable.  Holds nest.
 * Main thread only. */
DynoItem * const  *dyno_run_peek_items           (DynoRun           *self,
                                                  guint             *n_items);
void               dyno_run_hold_items           (DynoRun           *self);
void               dyno_run_release_items        (DynoRun           *self);
/* Where a single-segment run would continue, as an ExclusiveStartKey from which nothing is
 * skipped or repeated: the last page's LastEvaluatedKey, or, when max-items stopped inside a
 * page, the key of the last item in the model (its attributes named as in the run's
 * LastEvaluatedKeys, else by set_key_names()).  NULL at the end, before the first page, for a
 * parallel scan or a statement run, or when the last item lacks a key attribute (a
 * projection).  Borrowed: valid until the next call or the next page. */
DynoItem          *dyno_run_get_resume_key       (DynoRun           *self);
/* The key attributes of what the request reads (the table's key, plus the index's for an
 * index): used for the resume key when no page had a LastEvaluatedKey. */
void               dyno_run_set_key_names        (DynoRun            *self,
                                                  const char * const *names);

/* Writes made while the run is on screen change the loaded items in place, so the pages the
 * user loaded stay (a write never re-runs the request from page 1).  @key is an item's key
 * (its key attributes only, or a whole item).  find: its position or -1. */
int                dyno_run_find_item            (DynoRun           *self,
                                                  DynoItem          *key);
/* The item with @key's key becomes @item, in its place; FALSE when none is loaded. */
gboolean           dyno_run_replace_item         (DynoRun           *self,
                                                  DynoItem          *key,
                                                  DynoItem          *item);
/* The item at @position becomes @item (its place found by a key index of the caller's). */
void               dyno_run_set_item             (DynoRun           *self,
                                                  guint              position,
                                                  DynoItem          *item);
void               dyno_run_insert_item          (DynoRun           *self,
                                                  guint              position,
                                                  DynoItem          *item);
/* Takes out the loaded items with these keys (DynoItem*); how many were loaded. */
guint              dyno_run_remove_items         (DynoRun           *self,
                                                  GPtrArray         *keys);
/* A line in the ledger for a write (see dyno_run_page_get_operation()); @consumed_capacity
 * is -1 when the response did not say. */
void               dyno_run_record_write         (DynoRun           *self,
                                                  const char        *operation,
                                                  guint              n_items,
                                                  double             consumed_capacity,
                                                  gint64             elapsed_usec);
/* Sum of the writes' WCU, -1 when none reported any. */
double             dyno_run_get_write_capacity   (DynoRun           *self);

G_END_DECLS
