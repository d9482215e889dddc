/* dyno-page.h: one page of Query/Scan results, parsed straight from the response body
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-value.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *items;              /* DynoItem*, in the order the server returned them */
  gint64     count;              /* Count */
  gint64     scanned_count;      /* ScannedCount */
  DynoItem  *last_evaluated_key; /* NULL when absent (the only end-of-results signal) */
  char      *next_token;         /* NextToken (ExecuteStatement), NULL when absent */
  double     consumed_capacity;  /* ConsumedCapacity.CapacityUnits, or -1 when absent */
  char      *consumed_capacity_json; /* the ConsumedCapacity object as sent, or NULL */
  gsize      bytes;              /* size of the response body */
  gint64     elapsed_usec;       /* filled by the client */
} DynoPage;

/* Parses a Query or Scan response body ({"Items":[…],"Count":…,…}) without building a JSON
 * tree; an ExecuteStatement response too (Items, NextToken, no Count: count is the number
 * of items).  Unknown members are skipped.  Safe to call from any thread. */
DynoPage *dyno_page_parse (const char  *json,
                           gsize        len,
                           GError     **error);
void      dyno_page_free  (DynoPage    *page);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPage, dyno_page_free)

G_END_DECLS
