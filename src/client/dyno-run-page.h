/* dyno-run-page.h: one page of a DynoRun, the line of its ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-value.h"

G_BEGIN_DECLS

/* One page as the server returned it: the ledger the UI shows and `--stats` prints. */
#define DYNO_TYPE_RUN_PAGE (dyno_run_page_get_type ())
G_DECLARE_FINAL_TYPE (DynoRunPage, dyno_run_page, DYNO, RUN_PAGE, GObject)

guint       dyno_run_page_get_index                  (DynoRunPage *self); /* 0-based, arrival */
guint       dyno_run_page_get_segment                (DynoRunPage *self);
gint64      dyno_run_page_get_count                  (DynoRunPage *self);
gint64      dyno_run_page_get_scanned_count          (DynoRunPage *self);
/* CapacityUnits, or -1 when the response had no ConsumedCapacity. */
double      dyno_run_page_get_consumed_capacity      (DynoRunPage *self);
const char *dyno_run_page_get_consumed_capacity_json (DynoRunPage *self);
/* NULL on the last page of its segment (of a request run; a statement's page may have one
 * or not, and continues with its NextToken). */
DynoItem   *dyno_run_page_get_last_evaluated_key     (DynoRunPage *self);
/* A PartiQL statement's page (dyno_run_new_for_statement()): its NextToken, where the next
 * page starts; NULL on the last page, and always for a Query or Scan. */
const char *dyno_run_page_get_next_token             (DynoRunPage *self);
/* TRUE for a page of a statement run (continued by NextToken, not LastEvaluatedKey). */
gboolean    dyno_run_page_get_is_statement           (DynoRunPage *self);
/* The ExclusiveStartKey this page was requested with (NULL for the first). */
DynoItem   *dyno_run_page_get_start_key              (DynoRunPage *self);
gsize       dyno_run_page_get_bytes                  (DynoRunPage *self);
gint64      dyno_run_page_get_elapsed_usec           (DynoRunPage *self);
/* Where its items went in the run's model, and how many (fewer than Count when max-items
 * cut the page). */
guint       dyno_run_page_get_position               (DynoRunPage *self);
guint       dyno_run_page_get_n_items                (DynoRunPage *self);
/* NULL for a page; for a write the user made while looking at the run (a line of its own
 * in the ledger, with Count = items written and ConsumedCapacity in WCU): "PutItem",
 * "UpdateItem", "DeleteItem", "BatchWriteItem". */
const char *dyno_run_page_get_operation              (DynoRunPage *self);

G_END_DECLS
